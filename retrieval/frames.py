"""The CLIP channel of hybrid search: the query's CLIP text vector finds keyframes, and the
keyframes stand for the records they belong to.

A frame at source second t of a video belongs to that video's clip caption whose span
covers t, and to the sightings (entity records) whose keyframes include t, the caption
first. Records come through the query's own filter, so the question-time cut and the
namespace hold for them as for every other ranking.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import replace
from datetime import timedelta

import numpy as np

from memory.frames import ClipTextEncoder, Frame
from memory.memory import Memory
from memory.records import CLIP_CAPTION, ENTITY_SIGHTING, MemoryRecord
from retrieval.query import SearchQuery

_TICK = timedelta(microseconds=1)
_SAME_TIME = 1e-3  # seconds: a keyframe time stored twice (frame row, record JSON) is the same frame


def belongs(record: MemoryRecord, frame: Frame) -> bool:
    """Whether the frame is one of the record's: a clip caption by its span, a sighting by
    its keyframes."""
    if record.video_id != frame.video_id:
        return False
    if record.kind == CLIP_CAPTION:
        return record.start <= frame.t < record.end or any(abs(k - frame.t) < _SAME_TIME for k in record.keyframes)
    if record.kind == ENTITY_SIGHTING:
        return any(abs(k - frame.t) < _SAME_TIME for k in record.keyframes)
    return False


def records_for_frames(memory: Memory, frames: list[tuple[Frame, float]], query: SearchQuery
                       ) -> list[tuple[MemoryRecord, float]]:
    """The records the ranked frames belong to, in the frames' order (a record takes its best
    frame's cosine); records outside the query's filter are never returned."""
    candidates: dict[str, list[MemoryRecord]] = {}
    for video_id in dict.fromkeys(f.video_id for f, _ in frames):
        walls = [f.wall for f, _ in frames if f.video_id == video_id]
        flt = replace(query.record_filter(), video_ids=(video_id,), overlaps=(min(walls), max(walls) + _TICK))
        found = [r for store in query.stores for r in memory.store(store).query(flt)]
        candidates[video_id] = sorted(found, key=lambda r: (r.kind != CLIP_CAPTION, r.start, r.id or 0))
    out: dict[int, tuple[MemoryRecord, float]] = {}
    for frame, score in frames:
        for record in candidates[frame.video_id]:
            if record.id not in out and belongs(record, frame):
                out[record.id] = (record, score)
    return list(out.values())


class FrameChannel:
    """Text -> frames -> records, for one CLIP model's text side; off without one."""

    def __init__(self, memory: Memory, encoder: ClipTextEncoder | None, cache_size: int = 256):
        self.memory = memory
        self.encoder = encoder
        self._vectors: OrderedDict[str, np.ndarray | None] = OrderedDict()  # coarse-to-fine asks one text often
        self._cache_size = cache_size
        self._lock = threading.Lock()  # parallel branches of one question search at once

    def status(self) -> str:
        """"on: ..." or "off: why", without loading the model."""
        if self.encoder is None:
            return "off: no CLIP text encoder (the perception CLIP channel is off)"
        n = self.memory.frames.count(self.encoder.model_id)
        held = f"{n} keyframes in memory" if n else "no keyframes embedded by it in memory yet"
        return f"on: {self.encoder.model_id}; {held}"

    def ranking(self, query: SearchQuery, k: int) -> list[tuple[MemoryRecord, float]]:
        """Records by their frames' cosine to the query text; empty when the channel is off,
        memory holds no frames of this model for the namespace, or the model cannot load."""
        if self.encoder is None or not self.memory.frames.holds(self.encoder.model_id, query.namespace):
            return []
        vector = self._text_vector(query.text)
        if vector is None:
            return []
        frames = self.memory.frames.search(self.encoder.model_id, vector, query.namespace, before=query.before,
                                           after=query.after, video_ids=query.video_ids, k=k)
        return records_for_frames(self.memory, frames, query) if frames else []

    def _text_vector(self, text: str) -> np.ndarray | None:
        with self._lock:
            if text in self._vectors:
                self._vectors.move_to_end(text)
                return self._vectors[text]
        rows = np.asarray(self.encoder.encode_texts([text]))
        vector = rows[0].astype(np.float32) if rows.ndim == 2 and len(rows) == 1 else None
        with self._lock:
            self._vectors[text] = vector
            if len(self._vectors) > self._cache_size:
                self._vectors.popitem(last=False)
        return vector
