"""A FAISS inner-product index file that mirrors the vectors of some SQLite rows.

SQLite is the source of truth and keeps every vector; the index only makes search fast.
Changes a write batch makes are staged and applied when it commits (so the index always
holds the last commit, which readers select candidate rows from), the file is written
after the commit, and a file that is missing, stale (a crash between commit and write) or
unreadable is rebuilt from SQLite instead of trusted. The record stores (one index per
store and namespace) and the keyframe store (one per CLIP model) share this lifecycle;
memory.vector_index decides what kind of FAISS index each one is.
"""
from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import faiss
import numpy as np

from memory import vector_index

if TYPE_CHECKING:
    from memory.sqlite_faiss import MemoryDatabase


class Mirror(Protocol):
    """An index kept in step with SQLite's commits (MemoryDatabase.batch drives it)."""

    @property
    def index(self): ...  # current as of the last commit; touched by a writer as its batch begins

    def committed(self, before: int, after: int) -> None: ...

    def discard_staged(self) -> None: ...

    def flush(self) -> None: ...  # after the commit, outside the readers' way

    def scrub(self) -> None: ...  # after a forget: nothing forgotten lingers in its files


def ids_and_vectors(rows: Sequence[sqlite3.Row]) -> tuple[np.ndarray, np.ndarray]:
    ids = np.array([r["id"] for r in rows], dtype=np.int64)
    vectors = np.stack([np.frombuffer(r["vector"], dtype=np.float32) for r in rows]) if rows else np.zeros((0, 0), np.float32)
    return ids, vectors


def exact_top(rows: Sequence[sqlite3.Row], query: np.ndarray, k: int) -> list[tuple[int, float]]:
    """Top-k rows (id, vector) by inner product with `query`, computed from the rows themselves."""
    ids, vectors = ids_and_vectors(rows)
    if not ids.size:
        return []
    scores = vectors @ query
    top = np.argsort(-scores, kind="stable")[:k]
    return [(int(ids[i]), float(scores[i])) for i in top]


class MirroredIndex:
    """The FAISS index of the rows `source` selects (an SQL query yielding `id, vector`)."""

    def __init__(self, db: MemoryDatabase, path: Path, source: str, params: Sequence = (),
                 dim: Callable[[], int] | None = None):
        self.db = db
        self.path = path
        self.generation_path = path.with_name(path.name + ".generation")
        self.source, self.params = source, tuple(params)
        self._default_dim = dim
        self._index: faiss.Index | None = None
        self._loaded_at: int | None = None  # the generation the in-memory index reflects
        self._dirty = False
        # FAISS may not be searched while it is changed; held for one index operation only.
        self.lock = threading.RLock()
        # A batch's index changes wait here until it commits.
        self._staged: list[tuple[np.ndarray, np.ndarray | None]] = []  # (ids, vectors) added, or (ids, None) removed

    @property
    def index(self) -> faiss.Index:
        """The index of the last commit; use it under `lock`."""
        with self.lock:
            return self.as_of(self.db.generation())

    def as_of(self, generation: int) -> faiss.Index | None:
        """Under `lock`: the index as of `generation`, loaded on first use or when another
        process has committed since; None when it already holds a later commit (a view that
        began before it), which then reads vectors from SQLite instead."""
        if self._index is None or self._loaded_at is None or self._loaded_at < generation:
            self._index, self._loaded_at = self._load_or_rebuild(), generation
        return self._index if self._loaded_at == generation else None

    def size(self) -> int | None:
        """Vectors in the index of the caller's commit; None when it has moved past the view."""
        with self.lock:
            index = self.as_of(self.db.generation())
            return None if index is None else int(index.ntotal)

    def search(self, query: np.ndarray, candidates: np.ndarray | None, k: int) -> list[tuple[int, float]] | None:
        """Top-k by inner product in the index of the caller's commit, among `candidates`
        (row ids) or all vectors when None; None when the index has moved past the view."""
        with self.lock:
            index = self.as_of(self.db.generation())
            if index is None:
                return None
            k = min(k, int(index.ntotal), int(candidates.size) if candidates is not None else k)
            if k <= 0:
                return []
            scores, ids = vector_index.search(index, query, k, candidates)
        return [(int(i), float(s)) for i, s in zip(ids, scores) if i >= 0]

    def stage_add(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        with self.lock:
            self._staged.append((np.asarray(ids, dtype=np.int64), np.asarray(vectors, dtype=np.float32)))

    def stage_remove(self, ids: np.ndarray) -> None:
        with self.lock:
            self._staged.append((np.asarray(ids, dtype=np.int64), None))

    def committed(self, before: int, after: int) -> None:
        """This process's batch moved the database from one generation to the next: an index
        that was current takes the batch's staged changes (written by `flush` next); any other
        is dropped, to be rebuilt from SQLite when next used."""
        with self.lock:
            staged, self._staged = self._staged, []
            if self._index is None or self._loaded_at != before:
                self._index, self._loaded_at = None, None
                return
            if any(v is not None and v.shape[1] != self._index.d for _, v in staged):
                self._index, self._loaded_at = None, None  # built for another dimension (an empty index): rebuilt
                return
            for ids, vectors in staged:
                if vectors is None:
                    self._index.remove_ids(faiss.IDSelectorBatch(ids))
                else:
                    self._index.add_with_ids(vectors, ids)
            self._loaded_at = after
            self._dirty = self._dirty or bool(staged)

    def discard_staged(self) -> None:
        """The batch rolled back: its index changes never happened."""
        with self.lock:
            self._staged = []

    def scrub(self) -> None:
        """Nothing to do: FAISS removes vectors outright and `flush` rewrites the whole file."""

    def _row_count(self) -> int:
        return self.db.read(f"SELECT COUNT(*) FROM ({self.source})", self.params)[0][0]

    def _dim(self) -> int:
        rows = self.db.read(f"SELECT vector FROM ({self.source}) LIMIT 1", self.params)
        if rows:
            return len(rows[0]["vector"]) // 4
        return self._default_dim() if self._default_dim else 0

    def _load_or_rebuild(self) -> faiss.Index:
        if self.path.exists() and self._written_at() == self.db.generation():
            try:
                index = faiss.read_index(str(self.path))
                if index.ntotal == self._row_count() and index.d == self._dim():
                    return index
            except RuntimeError:
                pass  # unreadable index file: rebuilt from SQLite below
        return self._build_from_sqlite()

    def _written_at(self) -> int | None:
        try:
            return int(self.generation_path.read_text())
        except (OSError, ValueError):
            return None

    def _build_from_sqlite(self) -> faiss.Index:
        ids, vectors = ids_and_vectors(self.db.read(self.source, self.params))
        self._dirty = True
        return vector_index.build_index(self._dim(), ids, vectors)

    def rebuild(self) -> None:
        with self.db.lock, self.lock:
            self._index, self._loaded_at = self._build_from_sqlite(), self.db.generation()
            self.flush()

    def flush(self) -> None:
        """Write the index atomically so a crash never leaves a half-written file."""
        with self.db.lock, self.lock:
            if self._index is None or not self._dirty:
                return
            if self.db.in_batch:
                return  # written once the batch has committed
            if vector_index.outgrown(self._index):  # once per growth step: seconds of training for IVF
                self._index = vector_index.build_index(self._index.d, *vector_index.contents(self._index))
            tmp = self.path.with_name(self.path.name + ".tmp")
            faiss.write_index(self._index, str(tmp))
            os.replace(tmp, self.path)
            self.generation_path.write_text(str(self.db.generation()))  # after the index: a crash between reads as stale
            self._dirty = False
