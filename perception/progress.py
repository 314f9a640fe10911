"""Progress reporting for long ingests: one small Protocol and adapters to it.

Perception reports per stage ("frames", "ocr", "clip", "asr", "speakers"); the CLI shows
one rich bar per stage by passing a `rich.progress.Progress`, a notebook may pass a plain
callback, and the default is silent.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class ProgressReporter(Protocol):
    def start(self, task: str, total: float | None) -> None: ...

    def advance(self, task: str, n: float = 1) -> None: ...


class NullProgress:
    def start(self, task: str, total: float | None) -> None:
        pass

    def advance(self, task: str, n: float = 1) -> None:
        pass


class CallbackProgress:
    """Calls `fn(task, done, total)` on every start and advance."""

    def __init__(self, fn: Callable[[str, float, float | None], None]):
        self.fn = fn
        self._state: dict[str, list[Any]] = {}

    def start(self, task: str, total: float | None) -> None:
        self._state[task] = [0.0, total]
        self.fn(task, 0.0, total)

    def advance(self, task: str, n: float = 1) -> None:
        state = self._state.setdefault(task, [0.0, None])
        state[0] += n
        self.fn(task, state[0], state[1])


class RichProgress:
    """Adapts a running `rich.progress.Progress`: one bar per stage, created on start."""

    def __init__(self, progress: Any, prefix: str = ""):
        self.progress = progress
        self.prefix = prefix
        self._ids: dict[str, Any] = {}

    def start(self, task: str, total: float | None) -> None:
        if task in self._ids:
            self.progress.reset(self._ids[task], total=total)
        else:
            self._ids[task] = self.progress.add_task(f"{self.prefix}{task}", total=total)

    def advance(self, task: str, n: float = 1) -> None:
        if task not in self._ids:
            self.start(task, None)
        self.progress.advance(self._ids[task], n)


def as_progress(progress: Any) -> ProgressReporter:
    """None -> silent; a reporter as-is; a rich Progress -> bars; a callable -> callback."""
    if progress is None:
        return NullProgress()
    # rich's Progress also has start() and advance() (other signatures): test it first.
    if hasattr(progress, "add_task") and hasattr(progress, "advance"):
        return RichProgress(progress)
    if isinstance(progress, ProgressReporter):
        return progress
    if callable(progress):
        return CallbackProgress(progress)
    raise TypeError(f"cannot report progress to {progress!r}")
