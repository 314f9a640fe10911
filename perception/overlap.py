"""One background thread with a bounded backlog: a stage that overlaps the decoding loop.

Why: reading a keyframe (OCR) waits for nothing the next frames need, so it runs beside
decoding and detection instead of after each clip; the models release the GIL, so on two
cores the stages share the CPU. The backlog is bounded because every queued task holds a
frame's pixels: when the reader falls behind, the decoder waits rather than filling memory.
"""
from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class BoundedWorker:
    """Runs tasks in order on one thread; `submit` blocks while `backlog` tasks are queued
    or running. A task's failure is raised by the next `submit` after it ends (a broken
    detector stops a long video's decoding then, not at its end), or by `drain`, which waits
    for all of them."""

    def __init__(self, backlog: int, name: str):
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self._slots = threading.BoundedSemaphore(backlog)
        self._pending: deque[Future[Any]] = deque()  # in submission order, which is the order they end

    def submit(self, task: Callable[..., T], *args: Any) -> Future[T]:
        while self._pending and self._pending[0].done():
            self._pending.popleft().result()
        self._slots.acquire()
        try:
            future = self._pool.submit(task, *args)
        except BaseException:
            self._slots.release()
            raise
        future.add_done_callback(lambda _: self._slots.release())
        self._pending.append(future)
        return future

    def drain(self) -> None:
        while self._pending:
            self._pending.popleft().result()

    def __enter__(self) -> BoundedWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        # on an error in the caller, queued tasks are dropped and the running one finishes
        self._pool.shutdown(wait=True, cancel_futures=exc[0] is not None)
