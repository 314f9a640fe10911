"""`memlens bench ingest`: how fast ingest runs on real footage, stage by stage.

Each file is ingested into a fresh memory home with an empty cache (so every model runs),
then once more unchanged (which must do no model work). Writes `summary.json`, a table in
`report.md` and a stacked bar plot of seconds per stage per second of video.
"""
from __future__ import annotations

import json
import tempfile
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from service.config import AppConfig
from service.system import IngestReport, MemlensSystem

START = datetime(2026, 11, 20, 9, 0)


def run_ingest_bench(config: AppConfig, files: dict[str, Path], out: Path, progress=None) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    rows: dict[str, dict] = {}
    for name, path in files.items():
        with tempfile.TemporaryDirectory(prefix="memlens-bench-") as home:
            system = MemlensSystem(_fresh(config, Path(home)))
            try:
                first = system.ingest(path, "bench", start=START, progress=progress)
                again = system.ingest(path, "bench", start=START)
            finally:
                system.close()
        rows[name] = _row(first, again)
    summary = {"files": rows, "channels": first.channels if files else {}}
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    (out / "report.md").write_text(_table(rows))
    _plot(rows, out / "stages.png")
    return summary


def _fresh(config: AppConfig, home: Path) -> AppConfig:
    """The same models and settings, in an empty home (memory and cache)."""
    perception = replace(config.perception, cache_dir=home / "cache")
    memory = replace(config.memory, root=home / "memory")
    return replace(config, home=home, perception=perception, memory=memory)


def _row(first: IngestReport, again: IngestReport) -> dict:
    return {"duration_s": round(first.duration, 1), "seconds": round(first.seconds, 2),
            "realtime_factor": round(first.realtime_factor, 3), "times_faster_than_real_time": round(
                1 / first.realtime_factor, 2) if first.realtime_factor else None,
            "stages": first.stages, "reingest_seconds": round(again.seconds, 2), "reingest_stages": again.stages}


def _table(rows: dict[str, dict]) -> str:
    stages = sorted({s for r in rows.values() for s in r["stages"]},
                    key=lambda s: -sum(r["stages"].get(s, 0) for r in rows.values()))
    head = "| file | video s | ingest s | x real time | " + " | ".join(stages) + " | re-ingest s |"
    lines = [head, "|" + "---|" * (len(stages) + 5)]
    for name, r in rows.items():
        cells = " | ".join(f"{r['stages'].get(s, 0):.2f}" for s in stages)
        lines.append(f"| {name} | {r['duration_s']} | {r['seconds']} | {r['times_faster_than_real_time']} | {cells} | "
                     f"{r['reingest_seconds']} |")
    return "# Ingest speed per stage (seconds)\n\n" + "\n".join(lines) + "\n"


def _plot(rows: dict[str, dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    stages = sorted({s for r in rows.values() for s in r["stages"]})
    fig, ax = plt.subplots(figsize=(7, 3.5))
    bottom = [0.0] * len(rows)
    for stage in stages:
        share = [r["stages"].get(stage, 0) / max(r["duration_s"], 1e-9) for r in rows.values()]
        ax.bar(list(rows), share, bottom=bottom, label=stage)
        bottom = [b + v for b, v in zip(bottom, share)]
    ax.axhline(1 / 3, color="black", linestyle="--", linewidth=1, label="3x faster than real time")
    ax.set_ylabel("seconds of work per second of video")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
