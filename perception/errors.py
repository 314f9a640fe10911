"""Errors perception raises, with messages a user can act on.

`PerceptionError` subclasses ValueError because every one of them means "this input cannot
be ingested": the service maps them to HTTP 422 and the CLI prints the message, no trace.
`BackendUnavailable` is different: the input is fine but an optional model or package is
missing, so it is a RuntimeError and names the install step that fixes it.
"""
from __future__ import annotations

from pathlib import Path


class PerceptionError(ValueError):
    """The input video cannot be perceived; `path` names it, `reason` says why."""

    def __init__(self, path: str | Path, reason: str):
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")


class VideoNotFound(PerceptionError):
    def __init__(self, path: str | Path, reason: str = "no such file"):
        super().__init__(path, reason)


class EmptyVideoFile(PerceptionError):
    def __init__(self, path: str | Path, reason: str = "the file is empty (0 bytes)"):
        super().__init__(path, reason)


class UnreadableVideo(PerceptionError):
    """Corrupt, truncated, or not a media file at all."""


class NoVideoStream(PerceptionError):
    """A readable media file without pictures (an audio recording, a subtitle file)."""

    def __init__(self, path: str | Path, reason: str = "the file has no video stream"):
        super().__init__(path, reason)


class BackendUnavailable(RuntimeError):
    """An optional backend (package or weights) is missing; the message says how to get it."""
