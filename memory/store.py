"""What retrieval reads of a memory store (entity, event and behavior alike).

`RecordStore` holds only what retrieval/ and agent/tools call on `Memory.store(name)`: reads
within a filter, the rankings, and the first-seen lists. Writing, counting, aggregating and
keeping the indexes (`add`, `get`, `count`, `tally`, `timeline`, `delete`, `load`,
`index_footprint`) are the concrete store's own API (memory.sqlite_store.SqliteStore), which
the memory itself (memory.memory, memory.behaviors) uses through `Memory.stores`.
memory.in_memory_store is the reference implementation; tests/store_conformance.py holds
every implementation to the same answers.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from memory.records import MemoryRecord, RecordFilter


class RecordStore(Protocol):
    def query(self, flt: RecordFilter, limit: int | None = None, newest_first: bool = False) -> list[MemoryRecord]:
        """Records matching `flt`, ordered by wall_start then id (the latest first with
        `newest_first`, so `limit` keeps the latest)."""
        ...

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
