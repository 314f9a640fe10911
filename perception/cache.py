"""On-disk cache of stage outputs, so re-ingesting a video only computes what changed.

One JSON file per (video_id, unit, stage, model_id, config fingerprint), where unit is a
clip index or "audio" (whole-track ASR and speaker turns). Layout:
`<root>/<video_id>/<unit>/<stage>.<key hash>.json`; a file records its full key and the
source time span it covers, which `delete_range` uses to forget a stretch of time.
Writes go to a temp file that is renamed into place, so readers never see half a file; a
file that does not parse or does not match its key is treated as missing and recomputed.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)
_SAFE = re.compile(r"^[A-Za-z0-9_.-]+$")
FORMAT_VERSION = 1


def _safe(kind: str, value: str) -> str:
    if not _SAFE.match(value) or value in {".", ".."}:
        raise ValueError(f"{kind} {value!r} is not a safe cache path component")
    return value


class ObservationCache:
    def __init__(self, root: str | Path):
        self.root = Path(root)

    def scoped(self, tenant: str) -> ObservationCache:
        """The cache of one tenant (a memory namespace): two tenants who upload the same file
        share nothing, so one's forget never deletes the other's cache and the speed of an
        ingest never tells one that the other uploaded it."""
        return ObservationCache(self.root / f"tenant-{hashlib.sha256(tenant.encode()).hexdigest()[:24]}")

    def _path(self, video_id: str, unit: int | str, stage: str, model_id: str, fingerprint: str) -> Path:
        digest = hashlib.sha256(f"{model_id}\0{fingerprint}".encode()).hexdigest()[:20]
        return (
            self.root / _safe("video_id", video_id) / _safe("unit", str(unit))
            / f"{_safe('stage', stage)}.{digest}.json"
        )

    def get(self, video_id: str, unit: int | str, stage: str, model_id: str, fingerprint: str) -> Any | None:
        """The cached payload, or None when absent, unreadable or written for another key."""
        path = self._path(video_id, unit, stage, model_id, fingerprint)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            log.warning("ignoring corrupt cache entry %s (%s)", path, exc)
            return None
        expected = {
            "version": FORMAT_VERSION, "video_id": video_id, "unit": str(unit),
            "stage": stage, "model_id": model_id, "fingerprint": fingerprint,
        }
        if not isinstance(entry, dict) or any(entry.get(k) != v for k, v in expected.items()) or "payload" not in entry:
            log.warning("ignoring cache entry %s: it does not match its key", path)
            return None
        return entry["payload"]

    def put(
        self,
        video_id: str,
        unit: int | str,
        stage: str,
        model_id: str,
        fingerprint: str,
        payload: Any,
        span: tuple[float, float] | None = None,
    ) -> Path:
        """Store a JSON-able payload; `span` is the source time (start, end) it covers."""
        path = self._path(video_id, unit, stage, model_id, fingerprint)
        entry = {
            "version": FORMAT_VERSION, "video_id": video_id, "unit": str(unit), "stage": stage,
            "model_id": model_id, "fingerprint": fingerprint,
            "span": list(span) if span is not None else None, "payload": payload,
        }
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(entry, handle, separators=(",", ":"))
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        return path

    def delete_video(self, video_id: str) -> bool:
        """Forget everything cached for a video; True if there was something."""
        folder = self.root / _safe("video_id", video_id)
        if not folder.exists():
            return False
        shutil.rmtree(folder)
        return True

    def delete_range(self, video_id: str, start: float, end: float) -> int:
        """Delete entries whose span overlaps [start, end); returns how many.

        Whole-track entries ("audio" unit) span the whole video, so forgetting any stretch
        drops them too and the next ingest re-transcribes. Entries without a readable span
        are deleted as well: when in doubt, forget.
        """
        folder = self.root / _safe("video_id", video_id)
        removed = 0
        for path in folder.glob("*/*.json") if folder.exists() else ():
            try:
                span = json.loads(path.read_text(encoding="utf-8")).get("span")
                overlaps = span is None or (float(span[0]) < end and float(span[1]) > start)
            except (OSError, ValueError, TypeError, IndexError, AttributeError):
                overlaps = True
            if overlaps:
                path.unlink(missing_ok=True)
                removed += 1
        return removed
