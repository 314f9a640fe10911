"""Background ingest jobs for the API: a small thread pool over a job table in SQLite.

Jobs outlive the process: a job id a client was told to poll still answers after a restart.
Jobs that were queued or running when the server stopped are run again at start-up when
their upload is still on disk, and otherwise marked failed with the reason; an upload is
deleted once its job has finished, either way.
"""
from __future__ import annotations

import json
import shutil
import sqlite3
import threading
import traceback
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY, namespace TEXT NOT NULL, status TEXT NOT NULL, created TEXT NOT NULL,
    upload TEXT NOT NULL, start TEXT, label TEXT NOT NULL, result TEXT, error TEXT
)
"""


@dataclass
class Job:
    id: str
    namespace: str
    upload: Path  # the uploaded file, inside a folder of its own that goes when the job ends
    label: str  # the client's file name, for messages
    start: datetime | None = None
    status: str = "queued"  # queued | running | done | failed
    created: str = field(default_factory=lambda: datetime.now().isoformat(timespec="seconds"))
    result: dict | None = None
    error: str | None = None


class JobStore:
    """The job table (one SQLite file), safe to use from the pool's threads."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(path, check_same_thread=False, timeout=60.0)
        self._conn.row_factory = sqlite3.Row
        self._lock = threading.Lock()
        with self._lock, self._conn:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute(_SCHEMA)

    def put(self, job: Job) -> None:
        with self._lock, self._conn:
            self._conn.execute(
                "INSERT OR REPLACE INTO jobs VALUES (?,?,?,?,?,?,?,?,?)",
                (job.id, job.namespace, job.status, job.created, str(job.upload),
                 job.start.isoformat() if job.start else None, job.label,
                 json.dumps(job.result) if job.result is not None else None, job.error))

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            row = self._conn.execute("SELECT * FROM jobs WHERE id=?", (job_id,)).fetchone()
        return _job(row) if row else None

    def unfinished(self) -> list[Job]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT * FROM jobs WHERE status IN ('queued', 'running') ORDER BY created").fetchall()
        return [_job(r) for r in rows]

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def _job(row: sqlite3.Row) -> Job:
    return Job(id=row["id"], namespace=row["namespace"], upload=Path(row["upload"]), label=row["label"],
               start=datetime.fromisoformat(row["start"]) if row["start"] else None, status=row["status"],
               created=row["created"], result=json.loads(row["result"]) if row["result"] else None,
               error=row["error"])


class JobRunner:
    """Runs `work(job)` for each job on a thread pool, recording every step in the store."""

    def __init__(self, store: JobStore, work: Callable[[Job], dict], workers: int = 1):
        self.store, self.work = store, work
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="memlens-ingest")

    def submit(self, namespace: str, upload: Path, label: str, start: datetime | None = None) -> Job:
        job = Job(id=uuid.uuid4().hex, namespace=namespace, upload=upload, label=label, start=start)
        self.store.put(job)
        self._pool.submit(self._run, job)
        return job

    def resume(self) -> list[Job]:
        """Jobs a previous process left unfinished: run again when their upload is still
        there, else failed with the reason. Returns the jobs resumed."""
        resumed = []
        for job in self.store.unfinished():
            if job.upload.is_file():
                job.status = "queued"
                self.store.put(job)
                self._pool.submit(self._run, job)
                resumed.append(job)
            else:
                job.status, job.error = "failed", "interrupted by a server restart and its upload is gone: upload again"
                self.store.put(job)
        return resumed

    def _run(self, job: Job) -> None:
        job.status = "running"
        self.store.put(job)
        try:
            job.result = self.work(job)
            job.status = "done"
        except Exception as exc:  # a failed job reports why; the server keeps running
            job.error = f"{type(exc).__name__}: {exc}"
            job.status = "failed"
            traceback.print_exc()
        self.store.put(job)
        shutil.rmtree(job.upload.parent, ignore_errors=True)

    def get(self, job_id: str) -> Job | None:
        return self.store.get(job_id)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=False)
        self.store.close()
