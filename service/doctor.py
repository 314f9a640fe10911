"""`memlens doctor`: which models and channels work here, which do not, and why."""
from __future__ import annotations

import importlib.util
import stat

from rich.console import Console
from rich.table import Table

from agent.config import default_gguf_path
from memory.wordnet_data import SETUP_HINT
from perception.devices import accelerators
from service.home import others_can_read
from service.system import MemlensSystem
from skills.registry import SKILLS


def _package(name: str) -> str:
    return "installed" if importlib.util.find_spec(name) else "not installed"


def _llm_status(llm) -> str:
    """What answers in words, and how to switch on what is not on."""
    if llm.backend == "llamacpp":
        return f"on: the embedded model {llm.label}"
    if llm.backend != "none":
        return f"on: {llm.label} @ {llm.base_url}"
    local = default_gguf_path()
    embedded = (f"the embedded model is installed ({local.name}): set MEMLENS_AGENT__LLM__BACKEND=llamacpp "
                "(or agent.llm.backend in the config) to have it read answers, about 7 s a question on 2 cores"
                if local.exists() and importlib.util.find_spec("llama_cpp") else
                "the embedded model is not installed (scripts/setup_llm.sh)")
    return (f"off: answers are read out of the evidence without a language model; {embedded}; or set "
            "agent.llm.backend = \"openai\" with base_url and model for any OpenAI-compatible endpoint")


def run_doctor(system: MemlensSystem, console: Console) -> bool:
    table = Table("component", "status", title="memlens doctor")
    ok = True
    for channel, status in system.perceiver.channel_status().items():
        table.add_row(f"perception.{channel}", status)
    try:
        dim = system.memory.embedder.embed(["hello"]).shape[1]
        runtime = getattr(system.memory.embedder, "runtime", "")
        table.add_row("memory.embedder", f"{system.memory.embedder.model_id} ({dim}-d{f', {runtime}' if runtime else ''})")
    except Exception as exc:  # doctor reports every failure instead of stopping at the first
        ok = False
        table.add_row("memory.embedder", f"[red]failed: {exc}[/red]")
    table.add_row("memory.root", str(system.config.memory.root))
    home = system.config.home
    table.add_row("home.permissions", f"[yellow]warning: others can read {home} ({stat.filemode(home.stat().st_mode)}): "
                  f"chmod 700 {home}[/yellow]" if others_can_read(home) else "private: its owner only")
    kinds = system.memory.kinds
    table.add_row("memory.kinds", f"on: WordNet 3.0 at {kinds.model_dir}" if kinds.available else
                  f"off: no WordNet at {kinds.model_dir} ({SETUP_HINT}); question words match detector labels only "
                  "by spelling and synonym")
    table.add_row("retrieval.clip", system.clip_search_status())
    llm = system.config.agent.llm
    on = ", ".join(system.config.skills)
    table.add_row("skills", f"on: {on}" if on else f"off (opt-in, for benchmarks: {', '.join(SKILLS)}; "
                                                   "set skills = [...] or MEMLENS_SKILLS)")
    table.add_row("agent.llm", _llm_status(llm))
    for pkg in ("faiss", "whisperx", "easyocr", "open_clip", "llama_cpp"):
        table.add_row(f"package.{pkg}", _package(pkg))
    for library, sees in accelerators().items():  # where "auto" devices resolve to
        table.add_row(f"device.{library}", sees)
    console.print(table)
    system.close()
    return ok
