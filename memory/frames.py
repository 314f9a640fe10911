"""Keyframe embeddings (CLIP) kept beside the records, so text can find frames directly.

One SQLite table in the memory database holds each keyframe's provenance and vector; one
FAISS inner-product index per model mirrors the vectors (models differ in dimension and in
space, so a text vector is only ever compared with frames of its own model). Frames
follow their video: a re-ingest replaces them and forget removes them, in the same
transaction as the records.
"""
from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

import numpy as np

from memory.database import Database
from memory.mirrored_index import MirroredIndex, exact_top
from memory.schema import sql_time
from perception.types import VideoObservation

_SCHEMA = """
CREATE TABLE IF NOT EXISTS frames (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    model_id TEXT NOT NULL, namespace TEXT NOT NULL, video_id TEXT NOT NULL,
    t REAL NOT NULL, wall TEXT NOT NULL, vector BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS frames_scope ON frames(model_id, namespace, wall);
CREATE INDEX IF NOT EXISTS frames_video ON frames(namespace, video_id);
"""


@runtime_checkable
class ClipTextEncoder(Protocol):
    """The text side of an image-text model (perception.clip_embed.OpenClipEmbedder is one):
    L2-normalised rows in the same space as the frames its `model_id` embedded."""

    model_id: str

    def encode_texts(self, texts: Sequence[str]) -> np.ndarray: ...


@dataclass(frozen=True)
class Frame:
    """One remembered keyframe (its vector stays in the store)."""

    id: int
    model_id: str
    namespace: str
    video_id: str
    t: float  # seconds on the source video
    wall: datetime  # the wearer's clock at t


def video_frames(video: VideoObservation) -> tuple[list[tuple[float, datetime]], np.ndarray]:
    """The video's embedded keyframes as (source time, wall time) and their vectors; none
    when the CLIP channel was off or the model that made them is unknown."""
    if video.clip_model is None:
        return [], np.zeros((0, 0), np.float32)
    when, rows = [], []
    for clip in video.clips:
        for t, vector in zip(clip.keyframe_times, clip.clip_embeddings or []):
            when.append((t, clip.span.wall(t)))
            rows.append(vector)
    if not rows:
        return [], np.zeros((0, 0), np.float32)
    vectors = np.asarray(rows, dtype=np.float32)
    return when, vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)


class FrameIndex:
    def __init__(self, db: Database):
        self.db = db
        self._mirrors: dict[str, MirroredIndex] = {}
        self._dims: dict[str, int] = {}  # of the vectors last added per model: an empty index's dimension
        self._mirrors_lock = threading.Lock()
        with db.lock:
            db.conn.executescript(_SCHEMA)
        for row in db.read("SELECT DISTINCT model_id FROM frames"):
            self._mirror(row["model_id"])

    def _mirror(self, model_id: str, dim: int = 0) -> MirroredIndex:
        with self._mirrors_lock:
            self._dims[model_id] = dim or self._dims.get(model_id, 0)
            mirror = self._mirrors.get(model_id)
        if mirror is None:
            slug = re.sub(r"[^A-Za-z0-9]+", "-", model_id)[:40].strip("-")
            digest = hashlib.sha1(model_id.encode()).hexdigest()[:8]  # paths and tags can collide once slugged
            mirror = self.db.mirror(self.db.root / f"frames.{slug}.{digest}.faiss",
                                    "SELECT id, vector FROM frames WHERE model_id=?", (model_id,),
                                    dim=lambda: self._dims.get(model_id, 0))
            with self._mirrors_lock:
                mirror = self._mirrors.setdefault(model_id, mirror)
            _ = mirror.index  # current now, so the batch that brings its first rows takes them (and writes the file)
        return mirror

    def models(self) -> list[str]:
        return [r["model_id"] for r in self.db.read("SELECT DISTINCT model_id FROM frames ORDER BY model_id")]

    def count(self, model_id: str | None = None, namespace: str | None = None, video_id: str | None = None) -> int:
        where, params = self._scope(model_id, namespace, video_ids=(video_id,) if video_id is not None else None)
        return self.db.read(f"SELECT COUNT(*) FROM frames WHERE {where}", params)[0][0]

    def holds(self, model_id: str, namespace: str) -> bool:
        """Whether this namespace has any frame of this model (cheaper than counting)."""
        return bool(self.db.read("SELECT 1 FROM frames WHERE model_id=? AND namespace=? LIMIT 1", (model_id, namespace)))

    def add(self, namespace: str, video_id: str, model_id: str, when: Sequence[tuple[float, datetime]],
            vectors: np.ndarray) -> list[int]:
        """Remember keyframes (source time, wall time) with their L2-normalised vectors."""
        if len(when) != len(vectors):
            raise ValueError(f"{len(when)} frames but {len(vectors)} vectors")
        if not len(when):
            return []
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        with self.db.lock, self.db.writing():
            mirror = self._mirror(model_id, vectors.shape[1])  # before the rows: a new index must not hold them twice
            ids = [int(self.db.conn.execute(
                "INSERT INTO frames(model_id, namespace, video_id, t, wall, vector) VALUES (?,?,?,?,?,?)",
                (model_id, namespace, video_id, float(t), sql_time(wall), vector.tobytes())).lastrowid)
                for (t, wall), vector in zip(when, vectors)]
            mirror.stage_add(ids, vectors)
        return ids

    def delete(self, namespace: str, video_id: str | None = None,
               between: tuple[datetime, datetime] | None = None) -> int:
        """Forget the frames of a video and/or taken within a wall-clock range."""
        where, params = self._scope(None, namespace, video_ids=(video_id,) if video_id is not None else None)
        if between is not None:
            where += " AND wall < ? AND wall >= ?"
            params += [sql_time(between[1]), sql_time(between[0])]
        with self.db.lock, self.db.writing():
            rows = self.db.read(f"SELECT id, model_id FROM frames WHERE {where}", params)
            self.db.conn.executemany("DELETE FROM frames WHERE id=?", [(r["id"],) for r in rows])
            for model_id in {r["model_id"] for r in rows}:
                gone = np.array([r["id"] for r in rows if r["model_id"] == model_id], dtype=np.int64)
                self._mirror(model_id).stage_remove(gone)
        return len(rows)

    def search(self, model_id: str, vector: np.ndarray, namespace: str, before: datetime | None = None,
               after: datetime | None = None, video_ids: Sequence[str] | None = None,
               k: int = 10) -> list[tuple[Frame, float]]:
        """The k frames of this model nearest `vector` (cosine), within the namespace and
        strictly before `before` (the question time); only those are candidates, so no other
        namespace's frame can take a place in the top k."""
        where, params = self._scope(model_id, namespace, video_ids, before, after)
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        with self.db.pinned():  # candidates and the vectors searched from one commit
            candidates = np.array([r[0] for r in self.db.read(f"SELECT id FROM frames WHERE {where}", params)],
                                  dtype=np.int64)
            if candidates.size == 0:
                return []
            found = self._mirror(model_id).search(query, candidates, k)
            if found is None:  # the index has moved past this view: the view's own vectors, exactly
                found = exact_top(self.db.read(f"SELECT id, vector FROM frames WHERE {where}", params), query, k)
            by_id = {f.id: f for f in self.get([i for i, _ in found])}
        return [(by_id[i], s) for i, s in found if i in by_id]

    def get(self, ids: Sequence[int]) -> list[Frame]:
        if not ids:
            return []
        rows = self.db.read(f"SELECT id, model_id, namespace, video_id, t, wall FROM frames WHERE id IN "
                            f"({','.join('?' * len(ids))}) ORDER BY id", [int(i) for i in ids])
        return [Frame(r["id"], r["model_id"], r["namespace"], r["video_id"], r["t"], datetime.fromisoformat(r["wall"]))
                for r in rows]

    @staticmethod
    def _scope(model_id: str | None, namespace: str | None, video_ids: Sequence[str] | None = None,
               before: datetime | None = None, after: datetime | None = None) -> tuple[str, list]:
        clauses, params = ["1=1"], []
        for column, value in (("model_id", model_id), ("namespace", namespace)):
            if value is not None:
                clauses.append(f"{column} = ?"), params.append(value)
        if video_ids is not None:
            clauses.append(f"video_id IN ({','.join('?' * len(video_ids))})"), params.extend(video_ids)
        if before is not None:
            clauses.append("wall < ?"), params.append(sql_time(before))
        if after is not None:
            clauses.append("wall >= ?"), params.append(sql_time(after))
        return " AND ".join(clauses), params
