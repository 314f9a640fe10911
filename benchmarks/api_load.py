"""Questions under load: `memlens serve` in its own process on loopback, the synthetic
morning ingested, then /ask latency one at a time, 50 at once on an idle server, and 50 at
once while the same video is re-ingested by a job. Prints a table, writes JSON and a plot.

    .venv/bin/python -m benchmarks.api_load --out benchmarks/results
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
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from pathlib import Path

import httpx
from rich.console import Console
from rich.table import Table

from benchmarks.morning import percentile
from eval.synthetic import morning_at_home, render
from tests.servers import free_port

KEY = {"X-API-Key": "bench-key"}
UPLOADER = {"X-API-Key": "other-key"}  # another tenant: its perception cache is cold, so its job runs long


def _serve(home: Path, port: int) -> subprocess.Popen:
    env = {**os.environ, "MEMLENS_HOME": str(home), "MEMLENS_SERVICE__API_KEYS": '{"bench-key": "bench", "other-key": "other"}'}
    return subprocess.Popen([sys.executable, "-m", "memlens.cli", "serve", "--port", str(port)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _wait_up(client: httpx.Client, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if client.get("/health").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError("server did not start")


def _ingest(client: httpx.Client, video: Path, start: str, headers: dict = KEY) -> str:
    with video.open("rb") as f:
        response = client.post("/ingest", headers=headers, data={"start": start}, files={"file": ("morning.mp4", f)})
    response.raise_for_status()
    return response.json()["job_id"]


def _job(client: httpx.Client, job_id: str, headers: dict = KEY) -> dict:
    return client.get(f"/jobs/{job_id}", headers=headers).json()


def _until_done(client: httpx.Client, job_id: str, headers: dict = KEY) -> dict:
    while (job := _job(client, job_id, headers))["status"] in ("queued", "running"):
        time.sleep(0.2)
    return job


def _burst(client: httpx.Client, questions: list[dict], n: int) -> list[tuple[int, float, float, float]]:
    """n questions at once: (status, latency, began, ended) each, on the perf_counter clock."""
    def one(i: int):
        began = time.perf_counter()
        r = client.post("/ask", headers=KEY, json=questions[i % len(questions)])
        ended = time.perf_counter()
        return r.status_code, ended - began, began, ended
    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(one, range(n)))


def _summary(latencies: list[float]) -> dict:
    return {"n": len(latencies), "p50_ms": round(1000 * statistics.median(latencies), 1),
            "p95_ms": round(1000 * percentile(latencies, 0.95), 1), "max_ms": round(1000 * max(latencies), 1)}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    parser.add_argument("--concurrency", type=int, default=50)
    args = parser.parse_args(argv)
    console = Console()
    script = morning_at_home()
    start = datetime.fromisoformat(script.start_datetime).replace(tzinfo=None)
    at = (start + timedelta(seconds=script.duration + 60)).isoformat()
    questions = [{"question": q.text, "at": at} for q in script.questions if not q.options]
    with tempfile.TemporaryDirectory(prefix="memlens-load-") as tmp:
        video = render(script, Path(tmp) / "video").video_path
        port = free_port()
        server = _serve(Path(tmp) / "home", port)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=600,
                              limits=httpx.Limits(max_connections=args.concurrency)) as client:
                _wait_up(client)
                first = _until_done(client, _ingest(client, video, start.isoformat()))
                assert first["status"] == "done", first
                _burst(client, questions, len(questions))  # warm: models load on first use
                sequential = [_burst(client, questions, 1)[0] for _ in range(2 * len(questions))]
                idle = _burst(client, questions, args.concurrency)
                job = _ingest(client, video, start.isoformat(), UPLOADER)
                while _job(client, job, UPLOADER)["status"] == "queued":
                    time.sleep(0.05)
                busy = _burst(client, questions, args.concurrency)
                still_running = _job(client, job, UPLOADER)["status"] == "running"
                reingest = _until_done(client, job, UPLOADER)
        finally:
            server.terminate()
            server.wait(60)
    runs = {"one at a time": sequential, f"{args.concurrency} at once": idle,
            f"{args.concurrency} at once during an ingest": busy}
    figures = {name: {**_summary([r[1] for r in rs]), "errors": sum(r[0] != 200 for r in rs)} for name, rs in runs.items()}
    base = figures["one at a time"]["p50_ms"]
    for name in figures:
        figures[name]["p50_over_one_at_a_time"] = round(figures[name]["p50_ms"] / base, 1)
    figures["ingest_job"] = {"status": reingest["status"], "still_running_after_the_burst": still_running,
                             "seconds": reingest["result"]["seconds"] if reingest.get("result") else None}
    figures["cpu_count"] = os.cpu_count()
    table = Table("run", "n", "p50 ms", "p95 ms", "max ms", "errors", "p50 / one at a time", title="/ask under load")
    for name in runs:
        f = figures[name]
        table.add_row(name, str(f["n"]), str(f["p50_ms"]), str(f["p95_ms"]), str(f["max_ms"]), str(f["errors"]),
                      str(f["p50_over_one_at_a_time"]))
    console.print(table)
    console.print(f"re-ingest job: {figures['ingest_job']}")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "api_load.json").write_text(json.dumps(figures, indent=2))
    _plot(runs, args.out / "api_load.png")
    return figures


def _plot(runs: dict[str, list], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.boxplot([[1000 * r[1] for r in rs] for rs in runs.values()], orientation="horizontal", tick_labels=list(runs))
    ax.set_xlabel("/ask latency (ms)")
    ax.set_title("memlens /ask under load (2 cores)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


if __name__ == "__main__":
    main()
