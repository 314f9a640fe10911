"""A record store held in dicts and ranked by brute force: the reference for what retrieval
reads of a store (memory.store.RecordStore), small enough to check by eye.

Every read is `RecordFilter.matches` over every record, so it states what the SQLite + FAISS
store computes with indexes; tests/store_conformance.py holds both to the same answers. It
keeps nothing on disk and reads every record per question: for tests and small memories.
"""
from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np

from memory.bm25 import BM25_K1, COMMON_SHARE
from memory.embedding import TextEmbedder
from memory.language import STOP
from memory.records import MemoryRecord, RecordFilter, StoreName, cut_at

_WORD = re.compile(r"[A-Za-z0-9]+")
_BM25_B = 0.75  # FTS5's length normalisation


class InMemoryStore:
    """One store's records by id, with their text vectors; ids count from 1, as SQLite's do."""

    def __init__(self, name: StoreName, embedder: TextEmbedder):
        self.name = name
        self.embedder = embedder
        self._records: dict[int, MemoryRecord] = {}
        self._vectors: dict[int, np.ndarray] = {}
        self._kinds: set[str] = set()
        self._last_id = 0

    # -- the store's own API: writes ----------------------------------------------------
    def add(self, records: Sequence[MemoryRecord], vectors: np.ndarray | None = None) -> list[int]:
        """Keep records; returns their ids in order. `vectors`: their text embeddings, when known."""
        if not records:
            return []
        if any(r.store != self.name for r in records):
            raise ValueError(f"{self.name} store got a record for another store")
        if vectors is None:
            vectors = self.embedder.embed([r.text for r in records])
        if len(vectors) != len(records):
            raise ValueError(f"{len(records)} records but {len(vectors)} vectors")
        ids = []
        for record, vector in zip(records, vectors):
            self._last_id += 1
            self._records[self._last_id] = record.with_id(self._last_id)
            self._vectors[self._last_id] = np.asarray(vector, np.float32)
            self._kinds.add(record.kind)
            ids.append(self._last_id)
        return ids

    def delete(self, flt: RecordFilter) -> int:
        """Remove matching records; returns how many."""
        gone = [i for i, r in self._records.items() if flt.matches(r)]
        for i in gone:
            del self._records[i], self._vectors[i]
        return len(gone)

    # -- RecordStore --------------------------------------------------------------------
    def query(self, flt: RecordFilter, limit: int | None = None, newest_first: bool = False) -> list[MemoryRecord]:
        found = sorted(self._matching(flt), key=lambda r: (r.wall_start, r.id), reverse=newest_first)
        return [cut_at(r, flt.before) for r in (found if limit is None else found[:limit])]

    def may_hold(self, kinds: Sequence[str]) -> bool:
        return bool(self._kinds & set(kinds))

    def distinct(self, keys: Sequence[str], flt: RecordFilter) -> list[tuple]:
        return list(self._first_seen(keys, flt)) if keys else []

    def first_of(self, keys: Sequence[str], flt: RecordFilter) -> list[MemoryRecord]:
        return [cut_at(r, flt.before) for r in self._first_seen(keys, flt).values()] if keys else []

    def search_dense(self, text: str, flt: RecordFilter, k: int) -> list[tuple[MemoryRecord, float]]:
        return self.shown(self.rank_dense(text, flt, k), flt)

    def search_lexical(self, text: str, flt: RecordFilter, k: int) -> list[tuple[MemoryRecord, float]]:
        return self.shown(self.rank_lexical(text, flt, k), flt)

    def rank_dense(self, text: str, flt: RecordFilter, k: int) -> list[tuple[int, float]]:
        query = self.embedder.embed([text])[0]
        scored = [(r.id, float(self._vectors[r.id] @ query)) for r in self._matching(flt)]
        return sorted(scored, key=lambda hit: -hit[1])[:max(k, 0)]

    def rank_lexical(self, text: str, flt: RecordFilter, k: int) -> list[tuple[int, float]]:
        """BM25 as FTS5 scores it (k1 1.2, b 0.75) over every record here; a word in more
        than `COMMON_SHARE` of them is left out while the query has a rarer one."""
        terms = list(dict.fromkeys(w.lower() for w in _WORD.findall(text)))
        terms = [t for t in terms if t not in STOP] or terms
        if not terms:
            return []
        words = {i: _words(r.text) for i, r in self._records.items()}
        rows = len(words)
        docs = {t: sum(1 for held in words.values() if t in held) for t in terms}
        rare = [t for t in terms if 0 < docs[t] <= COMMON_SHARE * rows]
        asked = rare or terms
        mean = sum(len(held) for held in words.values()) / max(rows, 1)
        scored = []
        for record in self._matching(flt):
            held = words[record.id]
            if not any(t in held for t in asked):
                continue
            norm = BM25_K1 * (1 - _BM25_B + _BM25_B * len(held) / max(mean, 1e-9))
            score = sum(_idf(docs[t], rows) * held.count(t) * (BM25_K1 + 1) / (held.count(t) + norm)
                        for t in asked if t in held)
            scored.append((record.id, score))
        return sorted(scored, key=lambda hit: -hit[1])[:max(k, 0)]

    def shown(self, ranked: Sequence[tuple[int, float]], flt: RecordFilter) -> list[tuple[MemoryRecord, float]]:
        by_id = {i: cut_at(self._records[i], flt.before) for i, _ in ranked if i in self._records}
        return [(by_id[i], score) for i, score in ranked if by_id.get(i) is not None]

    def _matching(self, flt: RecordFilter) -> list[MemoryRecord]:
        return [r for r in self._records.values() if flt.matches(r)]

    def _first_seen(self, keys: Sequence[str], flt: RecordFilter) -> dict[tuple, MemoryRecord]:
        """Each combination of the attrs `keys` (the first one held) with its first record, in that order."""
        first: dict[tuple, MemoryRecord] = {}
        for record in sorted(self._matching(flt), key=lambda r: (r.wall_start, r.id)):
            if record.attrs.get(keys[0]) is not None:
                first.setdefault(tuple(record.attrs.get(key) for key in keys), record)
        return first


def _words(text: str) -> list[str]:
    """A text's words in order, repeats kept (a word's frequency counts in BM25)."""
    return _WORD.findall(text.lower())


def _idf(docs: int, rows: int) -> float:
    return max(math.log((rows - docs + 0.5) / (docs + 0.5)), 1e-6)
