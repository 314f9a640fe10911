"""`memlens doctor`: which models and channels work here, which do not, and why."""
from __future__ import annotations

import importlib.util

from rich.console import Console
from rich.table import Table

from memory.wordnet_data import SETUP_HINT
from perception.devices import accelerators
from service.system import MemlensSystem
from skills.registry import SKILLS


def _package(name: str) -> str:
    return "installed" if importlib.util.find_spec(name) else "not installed"


def run_doctor(system: MemlensSystem, console: Console) -> bool:
    table = Table("component", "status", title="memlens doctor")
    ok = True
    for channel, status in system.perceiver.channel_status().items():
        table.add_row(f"perception.{channel}", status)
    try:
        dim = system.memory.embedder.embed(["hello"]).shape[1]
        table.add_row("memory.embedder", f"{system.memory.embedder.model_id} ({dim}-d)")
    except Exception as exc:  # doctor reports every failure instead of stopping at the first
        ok = False
        table.add_row("memory.embedder", f"[red]failed: {exc}[/red]")
    table.add_row("memory.root", str(system.config.memory.root))
    kinds = system.memory.kinds
    table.add_row("memory.kinds", f"on: WordNet 3.0 at {kinds.model_dir}" if kinds.available else
                  f"off: no WordNet at {kinds.model_dir} ({SETUP_HINT}); question words match detector labels only "
                  "by spelling and synonym")
    table.add_row("retrieval.clip", system.clip_search_status())
    llm = system.config.agent.llm
    on = ", ".join(system.config.skills)
    table.add_row("skills", f"on: {on}" if on else f"off (opt-in, for benchmarks: {', '.join(SKILLS)}; "
                                                   "set skills = [...] or MEMLENS_SKILLS)")
    table.add_row("agent.llm", llm.backend if llm.backend == "none" else f"{llm.backend} {llm.model} @ {llm.base_url}")
    for pkg in ("faiss", "whisperx", "easyocr", "open_clip", "llama_cpp"):
        table.add_row(f"package.{pkg}", _package(pkg))
    for library, sees in accelerators().items():  # where "auto" devices resolve to
        table.add_row(f"device.{library}", sees)
    console.print(table)
    system.close()
    return ok
