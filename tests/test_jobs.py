"""The ingest job queue (huey over SQLite in the memlens home) with work functions that the
test controls, so cancelling, failing and restarting are exercised at exact moments."""
from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from service.jobs import JobQueue


def _upload(root: Path, name: str = "a") -> Path:
    folder = root / "uploads" / f"upload-{name}"
    folder.mkdir(parents=True)
    path = folder / "upload.mp4"
    path.write_bytes(b"video bytes")
    return path


def _wait(queue: JobQueue, job_id: str, statuses: tuple[str, ...], timeout: float = 20.0):
    deadline = time.monotonic() + timeout
    while (job := queue.get(job_id)).status not in statuses:
        assert time.monotonic() < deadline, job
        time.sleep(0.02)
    return job


@pytest.fixture
def home(tmp_path):
    return tmp_path


def test_a_running_job_cancelled_stops_before_memory_is_written(home):
    entered, release, wrote = threading.Event(), threading.Event(), []

    def work(job, progress):
        progress("frames", 0, 10)
        entered.set()
        release.wait(20)
        progress("frames", 1, 10)  # within half a second of the last report: not even read
        progress("memory", 0, 1)  # a new step is always reported, and a cancel lands here
        wrote.append(job.id)
        return {"records": 1}

    queue = JobQueue(home, work, uploads=home / "uploads")
    queue.start()
    try:
        job = queue.submit("me", _upload(home), "clip.mp4")
        assert entered.wait(20)
        running = queue.get(job.id)
        assert (running.status, running.stage, running.percent) == ("running", "frames", 0.0)
        assert queue.cancel(job.id)
        assert queue.get(job.id).status == "running"  # asked, not yet stopped
        release.set()
        ended = _wait(queue, job.id, ("cancelled", "done", "failed"))
        assert (ended.status, ended.stage, ended.error) == ("cancelled", "memory", "cancelled by the client")
        assert wrote == [] and not job.upload.parent.exists()
        assert not queue.cancel(job.id)  # it has ended
    finally:
        release.set()
        queue.shutdown()


def test_a_failing_job_reports_why_and_the_next_one_runs(home):
    def work(job, progress):
        if job.label == "bad.mp4":
            raise RuntimeError("decoder gave up")
        progress("frames", 5, 5)
        return {"ok": True}

    queue = JobQueue(home, work, uploads=home / "uploads")
    queue.start()
    try:
        bad = queue.submit("me", _upload(home, "bad"), "bad.mp4")
        good = queue.submit("me", _upload(home, "good"), "good.mp4")
        failed = _wait(queue, bad.id, ("failed", "done"))
        assert failed.status == "failed" and failed.error == "RuntimeError: decoder gave up"
        finished = _wait(queue, good.id, ("failed", "done"))
        assert (finished.status, finished.result, finished.stage, finished.percent) == ("done", {"ok": True}, "done", 100)
        assert [j.id for j in queue.list("me")] == [good.id, bad.id] and queue.list("someone else") == []
        assert not (home / "uploads" / "upload-bad").exists() and not (home / "uploads" / "upload-good").exists()
    finally:
        queue.shutdown()


def test_a_queued_job_waits_on_disk_for_the_next_process_and_runs_once(home):
    ran = []

    def work(job, progress):
        ran.append(job.id)
        return {}

    stopped = JobQueue(home, work, uploads=home / "uploads")  # accepts a job, never starts its workers
    job = stopped.submit("me", _upload(home), "clip.mp4")
    stopped._enqueue(job.id)  # enqueued twice (a retry after a lost reply, say): it still runs once
    stopped.shutdown()
    queue = JobQueue(home, work, uploads=home / "uploads")
    assert queue.start() == []  # nothing to put right: the queued job is still in huey's queue
    try:
        assert _wait(queue, job.id, ("done", "failed")).status == "done"
        time.sleep(0.5)
        assert ran == [job.id]
    finally:
        queue.shutdown()
