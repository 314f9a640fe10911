"""Seconds spent per perception stage, for `memlens bench ingest` and the ingest report.

Stages interleave in one decoding pass (a frame is decoded, offered to the keyframe
selector, detected, looked at for faces), so each stage's time is summed around its own
calls rather than measured as one span. Speech runs in a thread beside the pictures, so
the stages can sum to more than the ingest took.
"""
from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from time import perf_counter
from typing import TypeVar

T = TypeVar("T")


class StageClock:
    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self._lock = threading.Lock()  # stages are timed from two threads

    @contextmanager
    def __call__(self, stage: str) -> Iterator[None]:
        start = perf_counter()
        try:
            yield
        finally:
            with self._lock:
                self.seconds[stage] += perf_counter() - start

    def timed(self, stage: str, items: Iterator[T]) -> Iterator[T]:
        """`items`, with the time spent producing each one counted to `stage` (decoding)."""
        while True:
            with self(stage):
                try:
                    item = next(items)
                except StopIteration:
                    return
            yield item

    def report(self) -> dict[str, float]:
        return {stage: round(s, 3) for stage, s in sorted(self.seconds.items(), key=lambda kv: -kv[1])}
