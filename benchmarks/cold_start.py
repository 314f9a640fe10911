"""How long the command line takes from a cold process: `memlens --version`, `--help` and a
question (`memlens ask`) on a small real memory (the 62 s TED clip and the 30 s call), each
in a new process, the median of RUNS, with where a question's seconds go (import, the
system, the first question) measured inside one process.

    .venv/bin/python -m benchmarks.cold_start --out benchmarks/results

Writes `cold_start.json`. The target (issue 40) is a cold `memlens ask` within 2 s on an
idle 2-core machine; run it with nothing else busy.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from rich.console import Console

RUNS = 3
QUESTION = ("who was on the call?", "2026-03-02T18:00")
_INSIDE = """
import time, sys
t0 = time.perf_counter()
import memlens.cli
t1 = time.perf_counter()
from datetime import datetime
from service.config import load_config
from service.system import MemlensSystem
system = MemlensSystem(load_config())
t2 = time.perf_counter()
system.ask(sys.argv[1], None, datetime.fromisoformat(sys.argv[2]))
t3 = time.perf_counter()
print(round(t1 - t0, 3), round(t2 - t1, 3), round(t3 - t2, 3))
"""


def timed(args: list[str], env: dict) -> float:
    began = time.perf_counter()
    subprocess.run(args, env=env, capture_output=True, check=True)
    return time.perf_counter() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    args = parser.parse_args()
    console = Console()
    from eval.media import CALL_AUDIO, TED_CLIP, fetch
    from service.config import load_config
    from service.system import MemlensSystem

    with tempfile.TemporaryDirectory(prefix="memlens-cold-") as home:
        env = {**os.environ, "MEMLENS_HOME": home}
        system = MemlensSystem(load_config(env=env))
        try:
            system.ingest(fetch(TED_CLIP), start=datetime(2026, 3, 2, 10, 0))
            system.ingest(fetch(CALL_AUDIO), start=datetime(2026, 3, 2, 13, 0))
        finally:
            system.close()
        cli = [sys.executable, "-m", "memlens.cli"]
        commands = {"--version": cli + ["--version"], "--help": cli + ["--help"],
                    "ask": cli + ["ask", QUESTION[0], "--at", QUESTION[1]]}
        seconds = {name: round(statistics.median(timed(c, env) for _ in range(RUNS)), 2) for name, c in commands.items()}
        parts = [subprocess.run([sys.executable, "-c", _INSIDE, *QUESTION], env=env, capture_output=True, text=True,
                                check=True).stdout.split() for _ in range(RUNS)]
        inside = {name: round(statistics.median(float(p[i]) for p in parts), 2)
                  for i, name in enumerate(("import", "system", "first question"))}
    result = {"seconds": seconds, "ask_inside_one_process": inside, "runs": RUNS, "cpus": os.cpu_count(),
              "command": "python -m benchmarks.cold_start"}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "cold_start.json").write_text(json.dumps(result, indent=2) + "\n")
    console.print(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
