"""The notebooks in notebooks/ run top to bottom in a real Jupyter kernel (nbclient) and show
what they say they show: an answer with its evidence frame, a REST round trip against a real
`memlens serve`, plots of benchmark results. Outputs are asserted, not just produced."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="the test extra installs nbformat (make test does)")
from nbclient import NotebookClient  # noqa: E402

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def run(name: str, tmp_path: Path, **env: str) -> list[str]:
    """Execute a notebook; each code cell's outputs as one string (text, HTML, image types)."""
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)  # the kernel inherits this process's environment
    try:
        NotebookClient(notebook, timeout=600, kernel_name="python3",
                       resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    finally:
        for k, v in saved.items():
            os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
    shown = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        parts = []
        for out in cell.get("outputs", []):
            assert out.output_type != "error", f"{name}: {out.get('ename')}: {out.get('evalue')}"
            parts.append(out.get("text", ""))
            for kind, value in out.get("data", {}).items():
                parts.append(f"<{kind}>" + (value if isinstance(value, str) else ""))
        shown.append("\n".join(parts))
    return shown


def test_your_day_shows_answers_with_their_evidence_frames(tmp_path):
    shown = "\n".join(run("01-your-day.ipynb", tmp_path, NOTEBOOK_MEMORY=str(tmp_path / "home")))
    assert "talk or lecture" in shown and "phone call" in shown  # the recordings, browsed
    assert "2018" in shown and "Sheila" in shown and "Diane" in shown  # the answers
    assert "<text/html>" in shown and 'src="data:image/jpeg;base64,' in shown  # evidence with its frame
    assert "I can't answer" in shown  # asked before the call, it declines


def test_the_rest_client_round_trip_against_a_real_server(tmp_path):
    shown = "\n".join(run("02-rest-client.ipynb", tmp_path, NOTEBOOK_MEMORY=str(tmp_path / "home")))
    assert "'status': 'ok'" in shown and "done" in shown
    assert "Sheila" in shown and "Diane" in shown


def test_benchmark_results_are_plotted(tmp_path):
    shown = run("03-benchmark-results.ipynb", tmp_path)
    assert sum("<image/png>" in cell for cell in shown) == 3
    assert "locomo-dev" in shown[1] and "right" in shown[-1]
