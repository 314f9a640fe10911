"""A FAISS inner-product index, kept in a folder of segments, that mirrors the vectors of some SQLite rows.

SQLite is the source of truth and keeps every vector; the index only makes search fast.
Changes a write batch makes are staged and applied when it commits (so the index always
holds the last commit, which readers select candidate rows from); the batch's new segment
and any merge are written after the commit (memory.segments), then a manifest naming the
commit. Segments that are missing, unreadable or behind SQLite (a crash between commit and
write) are caught up from SQLite's rows instead of trusted: the ids SQLite lacks are
removed, the vectors the index lacks are read and added. The record stores (one index per
store and namespace) and the keyframe store (one per CLIP model) share this lifecycle.
"""
from __future__ import annotations

import fcntl
import json
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from memory import segments, vector_index
from memory.mirrors import MirrorHost
from memory.segments import Manifest, SegmentedIndex, merged, read_segment, write_segment


def ids_and_vectors(rows: Sequence[sqlite3.Row]) -> tuple[np.ndarray, np.ndarray]:
    ids = np.array([r["id"] for r in rows], dtype=np.int64)
    vectors = np.stack([np.frombuffer(r["vector"], dtype=np.float32) for r in rows]) if rows else np.zeros((0, 0), np.float32)
    return ids, vectors


def exact_top(rows: Sequence[sqlite3.Row], query: np.ndarray, k: int) -> list[tuple[int, float]]:
    """Top-k rows (id, vector) by inner product with `query`, computed from the rows themselves."""
    ids, vectors = ids_and_vectors(rows)
    if not ids.size:
        return []
    scores = vector_index.inner_products(vectors, query)
    top = np.argsort(-scores, kind="stable")[:k]
    return [(int(ids[i]), float(scores[i])) for i in top]


class MirroredIndex:
    """The segmented FAISS index of the rows `source` selects (an SQL query yielding `id, vector`),
    kept in the folder `path`."""

    CATCH_UP_CHUNK = 50_000  # rows read from SQLite at a time when catching up

    def __init__(self, db: MirrorHost, path: Path, source: str, params: Sequence = (),
                 dim: Callable[[], int] | None = None, vectors: str | None = None):
        """`vectors`: a table of (id, vector) holding `source`'s vectors by id, where `source`
        reads them through a join; the index's own ids are then looked up there alone."""
        self.db = db
        self.path = path
        self.source, self.params = source, tuple(params)
        self.vectors = vectors
        self._default_dim = dim
        self._index: SegmentedIndex | None = None
        self._loaded_at: int | None = None  # the generation the in-memory index reflects
        self._dirty = False  # changed since the manifest on disk was written
        # FAISS may not be searched while it is changed; held for one index operation only.
        self.lock = threading.RLock()
        # A batch's index changes wait here until it commits.
        self._staged: list[tuple[np.ndarray, np.ndarray | None]] = []  # (ids, vectors) added, or (ids, None) removed

    @property
    def index(self) -> SegmentedIndex:
        """The index of the last commit; use it under `lock`."""
        with self.lock:
            return self.as_of(self.db.generation())

    def as_of(self, generation: int) -> SegmentedIndex | None:
        """Under `lock`: the index as of `generation`, loaded on first use or when another
        process has committed since; None when it already holds a later commit (a view that
        began before it), which then reads vectors from SQLite instead."""
        if self._index is not None and self._loaded_at is not None and self._loaded_at < generation \
                and self.db.unchanged_since(self.path.name, self._loaded_at):
            self._loaded_at = generation  # later commits changed other indexes only
        if self._index is None or self._loaded_at is None or self._loaded_at < generation:
            self._index, self._loaded_at = self._load_or_catch_up(), generation
        return self._index if self._loaded_at == generation else None

    def size(self) -> int | None:
        """Vectors in the index of the caller's commit; None when it has moved past the view."""
        with self.lock:
            index = self.as_of(self.db.generation())
            return None if index is None else index.ntotal

    def search(self, query: np.ndarray, candidates: np.ndarray | None, k: int) -> list[tuple[int, float]] | None:
        """Top-k by inner product in the index of the caller's commit, among `candidates`
        (row ids) or all vectors when None; None when the index has moved past the view."""
        with self.lock:
            index = self.as_of(self.db.generation())
            if index is None:
                return None
            k = min(k, index.ntotal, int(candidates.size) if candidates is not None else k)
            if k <= 0:
                return []
            scores, ids = index.search(query, k, candidates)
        return [(int(i), float(s)) for i, s in zip(ids, scores)]

    def stage_add(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        with self.lock:
            self._staged.append((np.asarray(ids, dtype=np.int64), np.asarray(vectors, dtype=np.float32)))
        self.db.note_changed(self.path.name)

    def stage_remove(self, ids: np.ndarray) -> None:
        with self.lock:
            self._staged.append((np.asarray(ids, dtype=np.int64), None))
        self.db.note_changed(self.path.name)

    def committed(self, before: int, after: int) -> None:
        """This process's batch moved the database from one generation to the next: an index
        that was current takes the batch's staged changes (its additions as one new segment,
        written by `flush` next); any other is dropped, to be caught up when next used."""
        with self.lock:
            staged, self._staged = self._staged, []
            if self._index is None or self._loaded_at != before:
                self._index, self._loaded_at = None, None
                return
            if any(v is not None and v.shape[1] != self._index.d for _, v in staged):
                self._index, self._loaded_at = None, None  # built for another dimension (an empty index): rebuilt
                return
            added_ids: list[np.ndarray] = []
            added: list[np.ndarray] = []
            for ids, vectors in staged:
                if vectors is None:
                    self._index.remove(ids)
                    keep = [~np.isin(a, ids) for a in added_ids]
                    added_ids = [a[m] for a, m in zip(added_ids, keep)]
                    added = [v[m] for v, m in zip(added, keep)]
                else:
                    added_ids.append(ids)
                    added.append(vectors)
            if added_ids:
                self._index.add(np.concatenate(added_ids), np.concatenate(added))
            self._loaded_at = after
            self._dirty = self._dirty or bool(staged)

    def discard_staged(self) -> None:
        """The batch rolled back: its index changes never happened."""
        with self.lock:
            self._staged = []

    def scrub(self) -> None:
        """Nothing to do: FAISS removes vectors outright, and a segment that lost any is
        written anew and its old file deleted."""

    def _row_count(self) -> int:
        return self.db.read(f"SELECT COUNT(*) FROM ({self.source})", self.params)[0][0]

    def _dim(self) -> int:
        rows = self.db.read(f"SELECT vector FROM ({self.source}) LIMIT 1", self.params)
        if rows:
            return len(rows[0]["vector"]) // 4
        return self._default_dim() if self._default_dim else 0

    def _empty(self, dim: int) -> SegmentedIndex:
        return SegmentedIndex(dim, exact=self._exact)

    def _exact(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The vectors SQLite keeps for these ids, read as of the caller's commit, in their
        order: what a coded segment's candidates are scored with. The ids are ones `source`
        selects (the index's own, or listed from it), so with a `vectors` table each is one
        key lookup there; else `source` is joined (its row, then its vector: twice the pages
        read, cold). The ids drive the join (CROSS JOIN keeps that order); `WHERE id IN` on
        `source` may be planned as a walk of its whole filter's index."""
        table, params = (self.vectors, ()) if self.vectors else (f"({self.source})", self.params)
        rows = self.db.read(f"SELECT s.id AS id, s.vector AS vector FROM json_each(?) j "
                            f"CROSS JOIN {table} s ON s.id = j.value",
                            (json.dumps([int(i) for i in ids]), *params))
        return ids_and_vectors(rows)

    def _load_or_catch_up(self) -> SegmentedIndex:
        """The segments on disk, reusing those already in memory (files never change), then
        caught up with SQLite when they are not exactly its rows."""
        dim = self._dim()
        manifest = Manifest.read(self.path) if self.path.is_dir() else None
        if manifest is None or manifest.dim != dim:
            return self._caught_up(self._empty(dim))
        held = {s.file: s for s in self._index.segments if s.file} if self._index is not None else {}
        segments = [held.get(entry[0]) or read_segment(self.path, entry) for entry in manifest.segments]
        index = SegmentedIndex(dim, [s for s in segments if s is not None], exact=self._exact)
        whole = len(index.segments) == len(segments)
        if whole and self.db.unchanged_since(self.path.name, manifest.generation) and index.ntotal == self._row_count():
            return index
        return self._caught_up(index)

    def _caught_up(self, index: SegmentedIndex) -> SegmentedIndex:
        """`index` made to hold exactly the rows `source` selects: the ids it holds that SQLite
        lacks removed, the rows it lacks read (in chunks, by id) and added as segments of at
        most `LARGEST_MERGE` vectors."""
        have = index.ids()
        rows = np.array([r[0] for r in self.db.read(f"SELECT id FROM ({self.source})", self.params)], dtype=np.int64)
        index.remove(np.setdiff1d(have, rows, assume_unique=True))
        missing = np.setdiff1d(rows, have, assume_unique=True)
        ids, vectors = [], []
        for at in range(0, len(missing), self.CATCH_UP_CHUNK):
            chunk_ids, chunk_vectors = self._exact(missing[at:at + self.CATCH_UP_CHUNK])
            if not len(chunk_ids):
                continue
            ids.append(chunk_ids)
            vectors.append(chunk_vectors)
            if sum(map(len, ids)) >= segments.LARGEST_MERGE:
                index.add(np.concatenate(ids), np.concatenate(vectors))
                ids, vectors = [], []
        if ids:
            index.add(np.concatenate(ids), np.concatenate(vectors))
        self._dirty = True
        return index

    def rebuild(self) -> None:
        """Every segment built afresh from SQLite (after the vectors were re-embedded)."""
        with self.db.lock, self.lock:
            self._index, self._loaded_at = self._caught_up(self._empty(self._dim())), self.db.generation()
            self.db.note_changed(self.path.name)
            self.flush()

    def flush(self) -> None:
        """Merge what the tier policy calls for, write the segments not on disk yet, then the
        manifest naming them; files the old manifest named and this one does not go last."""
        with self.db.lock:
            if self.db.in_batch:
                return  # written once the batch has committed
            with self.lock:
                if self._index is None or not self._dirty:
                    return
                index, generation = self._index, self._loaded_at
            # The writer's lock is held, so no commit changes these segments meanwhile;
            # questions go on searching the old segments until the new ones replace them.
            if index.relist_due():
                index.relisted()
            for group in index.due_merges():
                joined = merged(index, group)
                with self.lock:
                    index.replace(group, joined)
            self._write(index, generation)
            with self.lock:
                if self._index is index:  # not replaced by a reload meanwhile
                    self._dirty = False

    def _write(self, index: SegmentedIndex, generation: int) -> None:
        if self.path.exists() and not self.path.is_dir():  # one whole-index file, as memlens wrote before segments
            self.path.unlink()
            self.path.with_name(self.path.name + ".generation").unlink(missing_ok=True)
        self.path.mkdir(parents=True, exist_ok=True)
        with self.lock:
            unwritten = [s for s in index.segments if s.file is None]
        for segment in unwritten:
            write_segment(self.path, segment, generation)
        with self.lock:
            entries = tuple((s.file, s.size, s.low, s.high) for s in index.segments)
        with open(self.path / "lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # another process may be writing its commit here
            previous = Manifest.read(self.path)
            if previous is not None and previous.generation > generation:
                keep = {entry[0] for entry in previous.segments}  # a later commit's: ours is already stale
                for segment in unwritten:
                    if segment.file not in keep:
                        (self.path / segment.file).unlink(missing_ok=True)
                        segment.file = None
                return
            Manifest(generation, index.d, entries).write(self.path)
            named = {entry[0] for entry in entries}
            for entry in previous.segments if previous is not None else ():
                if entry[0] not in named:
                    (self.path / entry[0]).unlink(missing_ok=True)
