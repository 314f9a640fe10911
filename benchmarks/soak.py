"""A server over a long life: `memlens serve` in its own process takes conversation uploads
and questions from several keys for a while, in bounded loops on loopback, and every window
reports its resident memory, open files, open SQLite files and the p95 of /ask, with every
error. Flat lines are the aim: nothing a long-running server holds may grow with the work.

    .venv/bin/python -m benchmarks.soak --minutes 60 --out benchmarks/results
    .venv/bin/python -m benchmarks.soak --minutes 30 --upload-every 0 --seed-uploads 10   # questions only

Questions only (after each key has uploaded `--seed-uploads` conversations) tells a leak
from growth: the memory served stops growing, so resident memory must stop too.

Writes `soak.json` and `soak.png`. tests/test_soak.py runs a short version.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import httpx
from rich.console import Console
from rich.progress import Progress

from benchmarks.morning import percentile
from tests.servers import free_port

QUESTIONS = ("When is the plumber coming?", "What did Bob promise to bring?", "Who is coming on Thursday?",
             "What did Alice say about the boiler?", "Where are the spare keys?", "?!")


def _thread(day: int, key: int) -> bytes:
    """A small conversation, different each time (the day and key in its words and time)."""
    return (f"## Session 1 | 2026-03-{1 + day % 27:02d}T{8 + key:02d}:00\n"
            f"Alice: The plumber is coming on Thursday at {9 + day % 5}, visit {day}.\n"
            f"Bob: I will bring the spare keys and the boiler manual, number {key}-{day}.\n"
            f"Alice: The boiler was fixed by the engineer on day {day}.\n").encode()


@dataclass
class Window:
    """One window of the run: what the server held at its end, and what clients saw in it."""
    minute: float
    rss_mb: float
    open_files: int
    sqlite_files: int
    threads: int
    asks: int = 0
    ask_p95_ms: float = 0.0
    uploads: int = 0
    errors: list[str] = field(default_factory=list)


def _process_facts(pid: int) -> tuple[float, int, int, int]:
    """(RSS MB, open descriptors, descriptors on SQLite files, threads) of a process, from /proc."""
    status = Path(f"/proc/{pid}/status").read_text()
    rss = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")) / 1024
    threads = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("Threads:"))
    fds = list(Path(f"/proc/{pid}/fd").iterdir())
    sqlite = 0
    for fd in fds:
        try:
            sqlite += ".sqlite" in os.readlink(fd)
        except OSError:  # closed between listing and reading
            continue
    return round(rss, 1), len(fds), sqlite, threads


class _Clients:
    """`keys` clients in loops: mostly questions, an upload every `upload_every` requests,
    each waiting `pause` seconds between requests (bounded: the server is meant to keep up)."""

    def __init__(self, url: str, keys: list[str], pause: float, upload_every: int, seed_uploads: int = 0):
        self.url, self.keys, self.pause, self.upload_every = url, keys, pause, upload_every
        self.seed_uploads = seed_uploads  # conversations each key uploads before its loop
        self.stop = threading.Event()
        self._lock = threading.Lock()
        self.latencies: list[float] = []
        self.uploads = 0
        self.errors: list[str] = []

    def drain(self) -> tuple[list[float], int, list[str]]:
        with self._lock:
            out = self.latencies, self.uploads, self.errors
            self.latencies, self.uploads, self.errors = [], 0, []
        return out

    def run(self, key_index: int) -> None:
        headers = {"X-API-Key": self.keys[key_index]}
        rng = random.Random(key_index)
        with httpx.Client(base_url=self.url, timeout=120) as client:
            for day in range(1000, 1000 + self.seed_uploads):  # 429 at the queue quota: wait and send again
                while client.post("/ingest", headers=headers, files={
                        "file": ("chat.txt", _thread(day, key_index), "text/plain")}).status_code == 429:
                    time.sleep(1.0)
            n = 0
            while not self.stop.is_set():
                n += 1
                try:
                    if self.upload_every and n % self.upload_every == 1:
                        sent = client.post("/ingest", headers=headers,
                                           files={"file": ("chat.txt", _thread(n, key_index), "text/plain")})
                        ok = sent.status_code in (202, 429)  # 429: the key's uploads are at their quota
                        with self._lock:
                            self.uploads += sent.status_code == 202
                    else:
                        began = time.perf_counter()
                        sent = client.post("/ask", headers=headers, json={"question": rng.choice(QUESTIONS)})
                        ok = sent.status_code == 200
                        with self._lock:
                            self.latencies.append(time.perf_counter() - began)
                    if not ok:
                        with self._lock:
                            self.errors.append(f"{sent.status_code} {sent.request.url.path}: {sent.text[:120]}")
                except httpx.HTTPError as exc:
                    with self._lock:
                        self.errors.append(f"{type(exc).__name__}: {exc}")
                self.stop.wait(self.pause)


def soak(home: Path, minutes: float, window_minutes: float, keys: int = 3, pause: float = 0.2,
         upload_every: int = 8, progress=None, seed_uploads: int = 0) -> list[Window]:
    """Serve from `home` for `minutes`, sampling every `window_minutes`; the windows.
    `upload_every` 0: questions only, after `seed_uploads` conversations a key."""
    names = [f"soak-key-{i}" for i in range(keys)]
    port = free_port()
    env = {**os.environ, "MEMLENS_HOME": str(home),
           "MEMLENS_SERVICE__API_KEYS": json.dumps({k: f"user{i}" for i, k in enumerate(names)})}
    server = subprocess.Popen([sys.executable, "-m", "memlens.cli", "serve", "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    windows: list[Window] = []
    try:
        _wait_up(url, server)
        clients = _Clients(url, names, pause, upload_every, seed_uploads)
        threads = [threading.Thread(target=clients.run, args=(i,), daemon=True) for i in range(keys)]
        for t in threads:
            t.start()
        began = time.monotonic()
        end = began + minutes * 60
        while time.monotonic() < end:
            time.sleep(min(window_minutes * 60, max(0.0, end - time.monotonic())))
            latencies, uploads, errors = clients.drain()
            if server.poll() is not None:
                errors.append(f"server exited with {server.returncode}")
                windows.append(Window(round((time.monotonic() - began) / 60, 2), 0, 0, 0, 0, errors=errors))
                break
            rss, fds, sqlite, nthreads = _process_facts(server.pid)
            windows.append(Window(round((time.monotonic() - began) / 60, 2), rss, fds, sqlite, nthreads,
                                  len(latencies), round(1000 * percentile(latencies, 0.95), 1) if latencies else 0.0,
                                  uploads, errors))
            if progress is not None:
                progress(windows[-1])
        clients.stop.set()
        for t in threads:
            t.join(120)
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
    return windows


def _wait_up(url: str, server: subprocess.Popen, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    with httpx.Client(base_url=url) as client:
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise RuntimeError(f"server exited: {server.stderr.read().decode()[-2000:] if server.stderr else ''}")
            try:
                if client.get("/health").json().get("ready"):
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.3)
    raise RuntimeError("server did not start")


def _plot(windows: list[Window], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    minutes = [w.minute for w in windows]
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.6))
    axes[0].plot(minutes, [w.rss_mb for w in windows], marker="o")
    axes[0].set(title="server RSS (MB)", xlabel="minutes", ylim=(0, None))
    axes[1].plot(minutes, [w.open_files for w in windows], marker="o", label="all")
    axes[1].plot(minutes, [w.sqlite_files for w in windows], marker="o", label="SQLite")
    axes[1].set(title="open files", xlabel="minutes", ylim=(0, None))
    axes[1].legend()
    axes[2].plot(minutes, [w.ask_p95_ms for w in windows], marker="o")
    axes[2].set(title="/ask p95 per window (ms)", xlabel="minutes", ylim=(0, None))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--window", type=float, default=5.0, help="minutes per sample")
    parser.add_argument("--keys", type=int, default=3)
    parser.add_argument("--upload-every", type=int, default=8, help="a key uploads every Nth request; 0: never")
    parser.add_argument("--seed-uploads", type=int, default=0, help="conversations each key uploads first")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    args = parser.parse_args(argv)
    console = Console()
    with tempfile.TemporaryDirectory(prefix="memlens-soak-") as home, Progress(console=console) as bars:
        task = bars.add_task("soak", total=args.minutes)
        windows = soak(Path(home), args.minutes, args.window, args.keys, upload_every=args.upload_every,
                       seed_uploads=args.seed_uploads,
                       progress=lambda w: bars.update(task, completed=w.minute,
                                                      description=f"RSS {w.rss_mb:.0f} MB, {w.open_files} files"))
    args.out.mkdir(parents=True, exist_ok=True)
    command = (f"python -m benchmarks.soak --minutes {args.minutes:g} --window {args.window:g} --keys {args.keys} "
               f"--upload-every {args.upload_every} --seed-uploads {args.seed_uploads}")
    result = {"command": command, "windows": [asdict(w) for w in windows],
              "errors": sum(len(w.errors) for w in windows), "cpus": os.cpu_count()}
    (args.out / "soak.json").write_text(json.dumps(result, indent=1) + "\n")
    _plot(windows, args.out / "soak.png")
    for w in windows:
        console.print(f"{w.minute:6.1f} min  RSS {w.rss_mb:7.1f} MB  files {w.open_files:4d} (SQLite {w.sqlite_files:3d})  "
                      f"threads {w.threads:3d}  asks {w.asks:4d} p95 {w.ask_p95_ms:7.1f} ms  uploads {w.uploads:3d}  "
                      f"errors {len(w.errors)}")
    console.print(f"{result['errors']} errors; {args.out / 'soak.json'}, {args.out / 'soak.png'}")
    return 0 if result["errors"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
