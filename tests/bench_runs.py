"""`memlens bench` run in process, as the slow CI benchmark tests drive it: MEMLENS_HOME points
into tmp so nothing touches ~/.memlens, and models load offline."""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from memlens.cli import app


@dataclass
class BenchRun:
    exit_code: int
    output: str
    exception: BaseException | None
    out: Path
    suite: Path
    seconds: float


def run_bench(name: str, home: Path, data: Path, out: Path, suite: Path, systems: Sequence[str]) -> BenchRun:
    """`memlens bench NAME --size smoke`; `suite` is where the generated suite file lands."""
    env = {"MEMLENS_HOME": str(home), "MEMLENS_CONFIG": None, "HF_HUB_OFFLINE": "1", "COLUMNS": "200"}
    began = time.perf_counter()
    result = CliRunner().invoke(app, ["bench", name, "--size", "smoke", "--data", str(data), "--out", str(out),
                                      "--systems", ",".join(systems)], env=env)
    return BenchRun(result.exit_code, result.output, result.exception, out, suite, time.perf_counter() - began)
