"""Ingest and ask speed on the synthetic morning: realtime factor cold and cached, ask
latency per question (p50 / p95), peak memory. Prints a table, writes JSON and a plot.

    .venv/bin/python benchmarks/morning.py --out benchmarks/results
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

from rich.console import Console
from rich.table import Table

from eval.synthetic import morning_at_home, render
from service.config import load_config
from service.system import MemlensSystem


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    parser.add_argument("--repeats", type=int, default=3, help="times each question is asked")
    args = parser.parse_args(argv)
    console = Console()
    script = morning_at_home()
    with tempfile.TemporaryDirectory(prefix="memlens-bench-") as tmp:
        video = render(script, Path(tmp) / "video").video_path
        system = MemlensSystem(load_config(env={**os.environ, "MEMLENS_HOME": str(Path(tmp) / "home")}))
        cold = system.ingest(video, "bench")
        warm = system.ingest(video, "bench")
        at = datetime.fromisoformat(script.start_datetime).replace(tzinfo=None) + timedelta(seconds=script.duration + 60)
        latencies: dict[str, list[float]] = {}
        for question in script.questions:
            for _ in range(args.repeats):
                began = time.perf_counter()
                system.ask(question.text, "bench", at, list(question.options) if question.options else None)
                latencies.setdefault(question.id, []).append(time.perf_counter() - began)
        system.close()
    every = [t for ts in latencies.values() for t in ts]
    figures = {
        "video_seconds": cold.duration, "ingest_cold_seconds": round(cold.seconds, 2),
        "ingest_cold_realtime_factor": round(cold.realtime_factor, 3),
        "ingest_cached_seconds": round(warm.seconds, 2), "cached_over_cold": round(warm.seconds / cold.seconds, 3),
        "ask_p50_ms": round(1000 * statistics.median(every), 1), "ask_p95_ms": round(1000 * percentile(every, 0.95), 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "cpu_count": os.cpu_count(),
    }
    table = Table("figure", "value", title="memlens morning benchmark")
    for key, value in figures.items():
        table.add_row(key, str(value))
    console.print(table)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "morning.json").write_text(json.dumps({"figures": figures, "ask_seconds": latencies}, indent=2))
    plot_latencies(latencies, args.out / "morning_ask_latency.png")
    console.print(f"wrote {args.out / 'morning.json'} and {args.out / 'morning_ask_latency.png'}")
    return figures


def plot_latencies(latencies: dict[str, list[float]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(latencies)
    fig, ax = plt.subplots(figsize=(9, 3.5))
    ax.bar(names, [1000 * statistics.median(latencies[n]) for n in names], color="#4c72b0")
    ax.set_ylabel("ask latency, median (ms)")
    ax.set_title("memlens: time to answer each morning question (no LLM, 2 CPU cores)")
    ax.tick_params(axis="x", rotation=45)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


if __name__ == "__main__":
    main()
