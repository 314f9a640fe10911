"""`memlens bench ingest`: how fast ingest runs on real footage, stage by stage.

Models are loaded once, as a running server holds them; each file is then ingested with an
empty cache (so every model runs), and once more unchanged (which must do no model work). Writes `summary.json`, a table in
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
    """Models load once (a warm-up ingest of the shortest file, timed as the cold start);
    then each file is ingested into its own namespace, whose cache starts empty, so every
    stage runs, and again unchanged, which must do no model work."""
    out.mkdir(parents=True, exist_ok=True)
    rows: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="memlens-bench-") as home:
        system = MemlensSystem(fresh_config(config, Path(home)))
        try:
            shortest = min(files.values(), key=lambda p: p.stat().st_size)
            cold = system.ingest(shortest, "warm-up", start=START)
            for name, path in files.items():
                first = system.ingest(path, f"bench-{name}", start=START, progress=progress)
                again = system.ingest(path, f"bench-{name}", start=START)
                rows[name] = _row(first, again)
            warm = next(r["seconds"] for n, r in rows.items() if files[n] == shortest)
            channels = first.channels
        finally:
            system.close()
    summary = {"files": rows, "cold_start_seconds": round(cold.seconds - warm, 2), "channels": channels}
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    (out / "report.md").write_text(_table(rows) + f"\nModel loading on a cold start (paid once per process): "
                                   f"{summary['cold_start_seconds']} s.\n")
    _plot(rows, out / "stages.png")
    return summary


def fresh_config(config: AppConfig, home: Path) -> AppConfig:
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
    for stage, colour in zip(stages, plt.cm.tab20.colors):
        share = [r["stages"].get(stage, 0) / max(r["duration_s"], 1e-9) for r in rows.values()]
        ax.bar(list(rows), share, bottom=bottom, label=stage, color=colour)
        bottom = [b + v for b, v in zip(bottom, share)]
    ax.axhline(1 / 3, color="black", linestyle="--", linewidth=1, label="3x faster than real time")
    ax.set_ylabel("seconds of work per second of video")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
