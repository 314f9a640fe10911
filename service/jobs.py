"""Background ingest jobs for the API: a small thread pool and an in-process job table.

Jobs are per-process (they do not survive a restart); what they ingest is durable.
"""
from __future__ import annotations

import threading
import traceback
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime


@dataclass
class Job:
    id: str
    namespace: str
    status: str = "queued"  # queued | running | done | failed
    created: str = field(default_factory=lambda: datetime.now().isoformat(timespec="seconds"))
    result: dict | None = None
    error: str | None = None


class JobRunner:
    def __init__(self, workers: int = 1):
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="memlens-ingest")
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()

    def submit(self, namespace: str, work: Callable[[], dict], cleanup: Callable[[], None] | None = None) -> Job:
        job = Job(id=uuid.uuid4().hex, namespace=namespace)
        with self._lock:
            self._jobs[job.id] = job

        def run() -> None:
            job.status = "running"
            try:
                job.result = work()
                job.status = "done"
            except Exception as exc:  # a failed job reports why; the server keeps running
                job.error = f"{type(exc).__name__}: {exc}"
                job.status = "failed"
                traceback.print_exc()
            finally:
                if cleanup is not None:
                    cleanup()

        self._pool.submit(run)
        return job

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=False)
