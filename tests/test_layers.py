"""The layering contract (docs/architecture.md), checked on the import graph grimp builds
from the source (every import, including those inside functions and under TYPE_CHECKING):

(a) the top-level packages import one way only, lowest first:
    perception <- memory <- retrieval <- agent <- skills <- eval <- service <- benchmarks <- memlens
    (a package may import those to its left, never one to its right; a package not there
    yet is left out of the order);
(b) no import cycle between modules, anywhere in those packages;
(c) no .py file over MAX_LINES lines in the layers that hold the system's code.

Each failure lists what to fix: the offending import chains with file:line, the modules
of each cycle with one concrete loop, the long files with their length.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("perception", "memory", "retrieval", "agent", "skills", "eval", "service", "benchmarks", "memlens")
SIZE_CHECKED = ("perception", "memory", "retrieval", "agent", "skills", "service")
MAX_LINES = 600


def present_layers() -> list[str]:
    """The layers that exist as packages in this checkout, lowest first."""
    return [name for name in LAYERS if (ROOT / name / "__init__.py").is_file()]


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    importlib.invalidate_caches()
    layers = present_layers()
    for name in layers:  # grimp finds packages by import spec: make sure it reads this checkout's
        spec = importlib.util.find_spec(name)
        found = [Path(p).resolve() for p in (spec.submodule_search_locations or [])] if spec else []
        assert found == [(ROOT / name).resolve()], f"package {name!r} resolves to {found}, not {ROOT / name}"
    return grimp.build_graph(*layers, cache_dir=None)


def _where(graph: grimp.ImportGraph, importer: str, imported: str) -> str:
    """`path:line` of each place `importer` imports `imported`."""
    lines = sorted({d["line_number"] for d in graph.get_import_details(importer=importer, imported=imported)})
    path = importer.replace(".", "/")
    path = f"{path}/__init__.py" if (ROOT / path).is_dir() else f"{path}.py"
    return f"{path}:{','.join(map(str, lines))}" if lines else path


def _chain(graph: grimp.ImportGraph, modules: list[str] | tuple[str, ...]) -> str:
    hops = [f"    {a} -> {b}    ({_where(graph, a, b)})" for a, b in zip(modules, modules[1:])]
    return "\n".join(hops)


def test_no_import_goes_up_the_layers(graph):
    order = present_layers()
    illegal = graph.find_illegal_dependencies_for_layers(layers=list(reversed(order)))  # grimp: highest first
    report = []
    for dep in sorted(illegal, key=lambda d: (order.index(d.importer), order.index(d.imported))):
        report.append(f"{dep.importer} imports {dep.imported} (a higher layer):")
        for route in sorted(dep.routes, key=lambda r: (sorted(r.heads), r.middle, sorted(r.tails))):
            for head in sorted(route.heads):
                for tail in sorted(route.tails):
                    chain = [head, *route.middle, tail]
                    if all(graph.direct_import_exists(importer=a, imported=b) for a, b in zip(chain, chain[1:])):
                        report.append(_chain(graph, chain))
    assert not illegal, ("imports up the layers (order, lowest first: " + " <- ".join(order) + ")\n"
                         + "\n".join(report))


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative)."""
    edges = {m: sorted(graph.find_modules_directly_imported_by(m) - {m}) for m in sorted(graph.modules)}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in edges:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if i < len(edges[node]):
                work.append((node, i + 1))
                nxt = edges[node][i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return sorted(found)


def test_no_import_cycles(graph):
    report = []
    cycles = _cycles(graph)
    for component in cycles:
        first = component[0]
        # one concrete loop: first -> a module of the component it imports -> ... -> first
        step = next(m for m in sorted(graph.find_modules_directly_imported_by(first)) if m in component)
        back = graph.find_shortest_chain(importer=step, imported=first) or (step, first)
        report.append(f"cycle among {len(component)} modules: {', '.join(component)}\n"
                      + _chain(graph, [first, *back]))
    assert not cycles, "import cycles between modules:\n" + "\n".join(report)


def test_no_module_is_too_long():
    long_files = []
    for layer in SIZE_CHECKED:
        for path in sorted((ROOT / layer).rglob("*.py")) if (ROOT / layer).is_dir() else ():
            if "__pycache__" in path.parts:
                continue
            n = len(path.read_text(encoding="utf-8").splitlines())
            if n > MAX_LINES:
                long_files.append((n, path.relative_to(ROOT).as_posix()))
    assert not long_files, (f"modules over {MAX_LINES} lines (split them):\n"
                            + "\n".join(f"    {path}: {n} lines" for n, path in sorted(long_files, reverse=True)))
