"""The one Protocol every memory store satisfies (entity, event and behavior alike)."""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

import numpy as np

from memory.records import MemoryRecord, RecordFilter, StoreName, Tally


class RecordStore(Protocol):
    name: StoreName

    def add(self, records: Sequence[MemoryRecord], vectors: np.ndarray | None = None) -> list[int]:
        """Persist records; returns their stable ids in order. `vectors` are their text
        embeddings when already computed (outside a write transaction, so it stays short)."""
        ...

    def get(self, ids: Sequence[int]) -> list[MemoryRecord]: ...

    def query(self, flt: RecordFilter, limit: int | None = None, newest_first: bool = False) -> list[MemoryRecord]:
        """Records matching `flt`, ordered by wall_start then id (the latest first with
        `newest_first`, so `limit` keeps the latest)."""
        ...

    def count(self, flt: RecordFilter) -> int: ...

    def may_hold(self, kinds: Sequence[str]) -> bool:
        """False only when no record of these kinds was ever written here: a search for
        them can skip this store."""
        ...

    def distinct(self, keys: Sequence[str], flt: RecordFilter) -> list[tuple]:
        """The distinct combinations of the attrs `keys` among records matching `flt`, in
        the order they were first seen; records without the first key are left out. Lets
        an operator list who spoke or what was seen without reading every record."""
        ...

    def first_of(self, keys: Sequence[str], flt: RecordFilter) -> list[MemoryRecord]:
        """The first record (by wall_start, then id) of each combination `distinct` lists."""
        ...

    def tally(self, keys: Sequence[str], flt: RecordFilter, by_hour: bool = False, earliest: Sequence[str] = (),
              newest: int = 20) -> list[Tally]:
        """The records matching `flt` grouped by the attrs `keys` (and the hour of day of
        their start with `by_hour`), one Tally per group; records lacking a key (or holding
        an empty one) are left out. Aggregated where the records are, so a regularity over a
        year of memory costs no more memory than its groups."""
        ...

    def timeline(self, key: str, flt: RecordFilter) -> list[tuple[int, datetime, datetime, object]]:
        """(id, wall_start, wall_end, value of the attr `key`) of the records matching `flt`
        that hold it, in time order: a sequence without reading whole records."""
        ...

    def search_dense(self, text: str, flt: RecordFilter, k: int) -> list[tuple[MemoryRecord, float]]:
        """Top-k by cosine similarity of `text` to record text, within `flt`: `shown(rank_dense(...))`."""
        ...

    def search_lexical(self, text: str, flt: RecordFilter, k: int) -> list[tuple[MemoryRecord, float]]:
        """Top-k by BM25 (higher is better), within `flt`: `shown(rank_lexical(...))`."""
        ...

    def rank_dense(self, text: str, flt: RecordFilter, k: int) -> list[tuple[int, float]]:
        """`search_dense`'s (id, score) pairs, its rows not read: a search that fuses rankings
        reads only the rows it returns (cold, each is a random read of the database)."""
        ...

    def rank_lexical(self, text: str, flt: RecordFilter, k: int) -> list[tuple[int, float]]:
        """`search_lexical`'s (id, score) pairs, its rows not read."""
        ...

    def shown(self, ranked: Sequence[tuple[int, float]], flt: RecordFilter) -> list[tuple[MemoryRecord, float]]:
        """The records of ranked (id, score) pairs as `flt`'s question time shows them (a
        sighting still going on then cut to its keyframes before it), in rank order; ids not
        held (any more) or not yet seen then are left out."""
        ...

    def delete(self, flt: RecordFilter) -> int:
        """Remove matching records and their vectors; returns how many."""
        ...

    def load(self, namespace: str) -> None:
        """Bring one namespace's search indexes into memory now, rather than at its first search."""
        ...

    def index_footprint(self, namespace: str) -> tuple[int, float]:
        """(bytes, last written as a POSIX time) of what `load` would hold in memory."""
        ...
