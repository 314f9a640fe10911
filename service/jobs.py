"""Background ingest jobs for the API: a huey queue with SQLite storage in the memlens home,
and a job table beside it that clients read (status, progress, result, error).

Both live on disk, so jobs outlive the process: a job id a client was told to poll still
answers after a restart. A queued job stays in huey's queue and runs when a server is up
again; a job that was running in a process that is gone runs again at start-up when its
upload is still there, else fails with the reason. A job can be cancelled while queued
(huey revokes it) or while perceiving (it stops at its next progress step; memory is
written in one transaction at the end, so a cancelled job leaves nothing behind). An
upload is deleted once its job ends, whatever the end, and an upload no job owns is
deleted at start-up.
"""
from __future__ import annotations

import json
import logging
import os
import shutil
import socket
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from huey import SqliteHuey
from huey.consumer import Consumer

log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY, namespace TEXT NOT NULL, status TEXT NOT NULL, created TEXT NOT NULL,
    upload TEXT NOT NULL, start TEXT, label TEXT NOT NULL, result TEXT, error TEXT,
    stage TEXT, percent REAL NOT NULL DEFAULT 0, worker TEXT, cancel_requested INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS jobs_by_namespace ON jobs (namespace, created);
"""
_ADDED_COLUMNS = (("stage", "TEXT"), ("percent", "REAL NOT NULL DEFAULT 0"), ("worker", "TEXT"),
                  ("cancel_requested", "INTEGER NOT NULL DEFAULT 0"))


@dataclass
class Job:
    id: str
    namespace: str
    upload: Path  # the uploaded file, inside a folder of its own that goes when the job ends
    label: str  # the client's file name, for messages
    start: datetime | None = None
    status: str = "queued"  # queued | running | done | failed | cancelled
    created: str = field(default_factory=lambda: datetime.now().isoformat(timespec="seconds"))
    result: dict | None = None
    error: str | None = None
    stage: str | None = None  # the perception stage running now ("frames", "asr", ...), or "memory"
    percent: float = 0.0  # of that stage; 100 once done
    worker: str | None = None  # host:pid of the process running it
    cancel_requested: bool = False  # a running job stops at its next step, before memory is written


class JobCancelled(Exception):
    """Raised inside a running job, at a progress step, once a client cancelled it."""


class JobStore:
    """The job table (one SQLite file), shared by the API threads, the queue's workers and
    other processes serving the same home."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(path, check_same_thread=False, timeout=60.0, isolation_level=None)
        self._conn.row_factory = sqlite3.Row
        self._lock = threading.Lock()
        with self._lock:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.executescript(_SCHEMA)
            have = {r["name"] for r in self._conn.execute("PRAGMA table_info(jobs)")}
            for column, kind in _ADDED_COLUMNS:  # a table written by an older memlens
                if column not in have:
                    self._conn.execute(f"ALTER TABLE jobs ADD COLUMN {column} {kind}")

    def put(self, job: Job) -> None:
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO jobs VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (job.id, job.namespace, job.status, job.created, str(job.upload),
                 job.start.isoformat() if job.start else None, job.label,
                 json.dumps(job.result) if job.result is not None else None, job.error,
                 job.stage, job.percent, job.worker, int(job.cancel_requested)))

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            row = self._conn.execute("SELECT * FROM jobs WHERE id=?", (job_id,)).fetchone()
        return _job(row) if row else None

    def list(self, namespace: str, status: str | None = None, limit: int = 100) -> list[Job]:
        """A namespace's jobs, newest first."""
        where, args = "namespace=?", [namespace]
        if status is not None:
            where, args = where + " AND status=?", [*args, status]
        with self._lock:
            rows = self._conn.execute(f"SELECT * FROM jobs WHERE {where} ORDER BY created DESC, rowid DESC LIMIT ?",
                                      (*args, limit)).fetchall()
        return [_job(r) for r in rows]

    def unfinished(self) -> list[Job]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT * FROM jobs WHERE status IN ('queued', 'running') ORDER BY created").fetchall()
        return [_job(r) for r in rows]

    def claim(self, job_id: str, worker: str) -> bool:
        """queued -> running, for exactly one worker: a job enqueued twice runs once."""
        with self._lock:
            cursor = self._conn.execute(
                "UPDATE jobs SET status='running', worker=?, stage=NULL, percent=0 WHERE id=? AND status='queued'",
                (worker, job_id))
        return cursor.rowcount == 1

    def set_progress(self, job_id: str, stage: str, percent: float) -> bool:
        """Records progress; returns whether a client asked to cancel the job meanwhile."""
        with self._lock:
            self._conn.execute("UPDATE jobs SET stage=?, percent=? WHERE id=? AND status='running'",
                               (stage, percent, job_id))
            row = self._conn.execute("SELECT cancel_requested FROM jobs WHERE id=?", (job_id,)).fetchone()
        return bool(row and row["cancel_requested"])

    def cancel(self, job_id: str) -> bool:
        """A queued job is cancelled now; a running one is asked to stop (it ends
        'cancelled' at its next step, or 'done' if it was already writing memory).
        False when the job had already ended."""
        with self._lock:
            cursor = self._conn.execute(
                "UPDATE jobs SET status=CASE status WHEN 'queued' THEN 'cancelled' ELSE status END, "
                "cancel_requested=1 WHERE id=? AND status IN ('queued', 'running')", (job_id,))
        return cursor.rowcount == 1

    def finish(self, job: Job) -> None:
        """How a running job ended; progress stays where it stopped unless it is done."""
        with self._lock:
            self._conn.execute(
                "UPDATE jobs SET status=?, result=?, error=?, "
                "stage=CASE ? WHEN 'done' THEN 'done' ELSE stage END, "
                "percent=CASE ? WHEN 'done' THEN 100 ELSE percent END WHERE id=? AND status='running'",
                (job.status, json.dumps(job.result) if job.result is not None else None, job.error,
                 job.status, job.status, job.id))

    def forget_results(self, namespace: str, held: set[str]) -> int:
        """Blank the result and label of the namespace's jobs whose videos memory no longer
        holds (forgotten): what a forgotten recording was called and held is gone from here
        too. Returns how many jobs were blanked."""
        with self._lock:
            rows = self._conn.execute("SELECT id, result FROM jobs WHERE namespace=? AND result IS NOT NULL",
                                      (namespace,)).fetchall()
            gone = [r["id"] for r in rows if (named := result_videos(json.loads(r["result"]))) and not named & held]
            for job_id in gone:
                self._conn.execute("UPDATE jobs SET result=NULL, label='(forgotten)' WHERE id=?", (job_id,))
        return len(gone)

    def uploads(self) -> set[Path]:
        with self._lock:
            return {Path(r[0]) for r in self._conn.execute("SELECT upload FROM jobs")}

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def _job(row: sqlite3.Row) -> Job:
    return Job(id=row["id"], namespace=row["namespace"], upload=Path(row["upload"]), label=row["label"],
               start=datetime.fromisoformat(row["start"]) if row["start"] else None, status=row["status"],
               created=row["created"], result=json.loads(row["result"]) if row["result"] else None,
               error=row["error"], stage=row["stage"], percent=row["percent"], worker=row["worker"],
               cancel_requested=bool(row["cancel_requested"]))


def _this_worker() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _gone(worker: str | None) -> bool:
    """Whether the process that ran a job has ended. Called at start-up, so a job run under
    this very pid belongs to an earlier process (containers restart under the same pid); a
    process on another host is trusted to be alive: it puts its own jobs right when it
    restarts."""
    host, _, pid = (worker or "").rpartition(":")
    if not pid.isdigit() or int(pid) == os.getpid():
        return True
    if host != socket.gethostname():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, under another user
        return False
    return False


class _EmbeddedConsumer(Consumer):
    """huey's consumer run inside the server process: the server owns the signals."""

    def _set_signal_handlers(self) -> None:
        pass


Work = Callable[[Job, Callable[[str, float, float | None], None]], dict]


JOBS_FILE = "jobs.sqlite"


def result_videos(result: dict | None) -> set[str]:
    """The video ids a job's result names (a transcript's result names one per conversation)."""
    if not result:
        return set()
    parts = result.get("conversations") or [result]
    return {str(p["video_id"]) for p in parts if isinstance(p, dict) and p.get("video_id")}


class JobQueue:
    """Runs `work(job, progress)` for each submitted job on huey's worker threads, recording
    every step in the job table. `progress(stage, done, total)` raises JobCancelled once
    the job is cancelled."""

    def __init__(self, home: Path, work: Work, workers: int = 1, uploads: Path | None = None):
        self.store = JobStore(home / JOBS_FILE)
        self.work = work
        self.uploads = uploads
        self.huey = SqliteHuey("memlens-ingest", filename=str(home / "queue.sqlite"), results=False,
                               store_none=False, utc=True, timeout=60)  # servers sharing a home take turns
        self._task = self.huey.task(name="ingest", context=False)(self._run)
        self._consumer = _EmbeddedConsumer(self.huey, workers=workers, periodic=False, initial_delay=0.05,
                                           max_delay=0.5, check_worker_health=False)
        self._started = False

    def start(self) -> list[Job]:
        """Starts the workers after putting right what a stopped process left; returns the
        jobs queued again."""
        requeued = self.recover()
        self._consumer.start()
        self._started = True
        return requeued

    def submit(self, namespace: str, upload: Path, label: str, start: datetime | None = None) -> Job:
        job = Job(id=uuid.uuid4().hex, namespace=namespace, upload=upload, label=label, start=start)
        self.store.put(job)
        self._enqueue(job.id)
        return job

    def _enqueue(self, job_id: str) -> None:
        task = self._task.s(job_id)
        task.id = job_id  # revoking by job id cancels it while queued
        self.huey.enqueue(task)

    def recover(self) -> list[Job]:
        """Jobs whose process is gone: a running one runs again when its upload is still
        there, else it fails with the reason; a queued one huey lost is enqueued again.
        Uploads no job owns (a server killed while receiving one) are deleted."""
        pending = {t.id for t in self.huey.pending()}
        requeued = []
        for job in self.store.unfinished():
            if job.status == "queued" and job.id in pending:
                continue
            if job.status == "running" and not _gone(job.worker):
                continue
            if job.upload.is_file():
                job.status, job.worker, job.stage, job.percent = "queued", None, None, 0.0
                self.store.put(job)
                self._enqueue(job.id)
                requeued.append(job)
            else:
                job.status, job.error = "failed", "interrupted by a server restart and its upload is gone: upload again"
                self.store.put(job)
        self._drop_orphan_uploads()
        return requeued

    def _drop_orphan_uploads(self) -> None:
        if self.uploads is None or not self.uploads.is_dir():
            return
        owned = {p.parent for p in self.store.uploads()}
        for folder in self.uploads.iterdir():
            if folder.is_dir() and folder not in owned and time.time() - folder.stat().st_mtime > 60:
                shutil.rmtree(folder, ignore_errors=True)  # older than a minute: not one being received now

    def _run(self, job_id: str) -> None:
        if not self.store.claim(job_id, _this_worker()):
            return  # cancelled while queued, or already taken
        job = self.store.get(job_id)
        last = {"stage": None, "at": 0.0}

        def progress(stage: str, done: float, total: float | None) -> None:
            now = time.monotonic()
            if stage == last["stage"] and done != total and now - last["at"] < 0.5:
                return  # at most two writes a second, and every stage's start and end
            last.update(stage=stage, at=now)
            if self.store.set_progress(job_id, stage, round(100.0 * done / total, 1) if total else 0.0):
                raise JobCancelled(job_id)

        try:
            job.result = self.work(job, progress)
            job.status = "done"
        except JobCancelled:
            job.status, job.error = "cancelled", "cancelled by the client"
        except Exception as exc:  # a failed job reports why; the server keeps running
            job.status, job.error = "failed", f"{type(exc).__name__}: {exc}"
            log.exception("ingest job %s failed", job_id)
        finally:
            shutil.rmtree(job.upload.parent, ignore_errors=True)
        self.store.finish(job)

    def cancel(self, job_id: str) -> bool:
        """Cancels a queued or running job; False when it had already ended."""
        if not self.store.cancel(job_id):
            return False
        job = self.store.get(job_id)
        if job is not None and job.status == "cancelled":  # it never started: off the queue, and its upload goes
            self.huey.revoke_by_id(job_id, revoke_once=True)
            shutil.rmtree(job.upload.parent, ignore_errors=True)
        return True

    def get(self, job_id: str) -> Job | None:
        return self.store.get(job_id)

    def list(self, namespace: str, status: str | None = None, limit: int = 100) -> list[Job]:
        return self.store.list(namespace, status, limit)

    def shutdown(self) -> None:
        """Stops taking jobs and waits for the running one; a queued job stays queued on disk."""
        if self._started:
            self._consumer.stop(graceful=True)
        self.huey.storage.close()
        self.store.close()
