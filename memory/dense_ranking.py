"""The dense (FAISS) ranking of a store: a filter applied to the nearest vectors, or handed
to FAISS as ids, whichever reads less; SQLite's own vectors where an index has moved past
the question's commit."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from memory.filter_sql import keeps_nearly_all, windowed
from memory.mirrored_index import MirroredIndex, exact_top
from memory.records import MemoryRecord, RecordFilter
from memory.schema import WITH_VECTORS
from memory.sqlite_store import SqliteStore

# A dense search whose filter keeps at least this share of an index's vectors searches them
# all and filters the nearest few, instead of listing every matching id for FAISS.
POST_FILTER_SHARE = 0.25
# A filter with no time window (a namespace's kinds up to the question) is taken as broad
# without counting its rows: it is searched and filtered, in rounds that fetch four times
# more, and a filter that keeps too few of the nearest falls back to its ids when it keeps
# at most LISTED_AT_MOST rows (listing a year of one kind's ids costs a second); else the
# nearest are fetched up to FETCH_AT_MOST and what the filter keeps of them is the answer.
POST_FILTER_ROUNDS = 2
LISTED_AT_MOST = 20_000
FETCH_AT_MOST = 1_024


class DenseRanking(SqliteStore):
    """`search_dense` and `rank_dense`, over the store's per-namespace FAISS indexes."""

    def search_dense(self, text: str, flt: RecordFilter, k: int) -> list[tuple[MemoryRecord, float]]:
        with self.db.pinned():
            return self.shown(self.rank_dense(text, flt, k), flt)

    def rank_dense(self, text: str, flt: RecordFilter, k: int) -> list[tuple[int, float]]:
        query = self.db.embedder.embed([text])[0]
        with self.db.pinned():  # the candidate rows and the vectors searched from one commit
            namespaces = [flt.namespace] if flt.namespace is not None else self.namespaces()
            found: list[tuple[int, float]] | None = []
            for namespace in namespaces:
                part = self._search_index(self.partition(namespace), query, replace(flt, namespace=namespace), k)
                if part is None:  # the index has moved past this view: the view's own vectors, exactly
                    found = self._search_rows(query, flt, k)
                    break
                found += part
        return sorted(found, key=lambda hit: -hit[1])[:k]

    def _search_index(self, mirror: MirroredIndex, query: np.ndarray, flt: RecordFilter,
                      k: int) -> list[tuple[int, float]] | None:
        """Top-k within `flt` from one namespace's index. A filter that keeps most of its
        vectors is applied to the nearest ones after searching all; a selective one is
        handed to FAISS as ids. Only a filter with a window (time, videos, ids) is listed
        first, up to the share where filtering wins: its rows are an index range away, where
        listing a whole namespace is not."""
        total = mirror.size()
        if total is None:
            return None
        if not total or k <= 0:
            return []
        if flt.ids is not None:
            return mirror.search(query, self._candidate_ids(flt), k)
        if self._keeps_every_row(flt):  # asked now: the nearest are the answer, no row tested
            return mirror.search(query, None, min(k, total))
        rounds = POST_FILTER_ROUNDS
        first = k + k // 4 + 1 if keeps_nearly_all(flt) else None  # a round before the rounds
        fetch = min(total, first or 4 * k)
        if windowed(flt):  # its ids, unless it keeps so many that filtering the nearest is cheaper
            ids = self._candidate_ids(flt, limit=int(POST_FILTER_SHARE * total) + 1)
            if len(ids) < POST_FILTER_SHARE * total:
                return mirror.search(query, ids, k) if len(ids) else []
            rounds, fetch = None, min(total, max(fetch, 2 * k * total // self.count(flt)))
        while True:
            found = mirror.search(query, None, fetch)
            if found is None:
                return None
            hits = self._within(flt, found)
            if len(hits) >= k or fetch >= total:
                return hits[:k]
            if first is not None:  # asked in the past: the rounds, from their first fetch
                first, fetch = None, min(total, max(fetch, 4 * k))
                continue
            if rounds is not None:
                rounds -= 1
                if rounds <= 0:  # the filter keeps few of the nearest: search only what it keeps, if few
                    ids = self._candidate_ids(flt, limit=LISTED_AT_MOST + 1)
                    if len(ids) <= LISTED_AT_MOST:
                        return mirror.search(query, ids, k) if len(ids) else []
                    rounds = None
            if rounds is None and fetch >= FETCH_AT_MOST:  # many rows, few of them near: the nearest it keeps
                return hits[:k]
            fetch = min(total, fetch * 4 if rounds is not None else min(fetch * 4, FETCH_AT_MOST))

    def _search_rows(self, query: np.ndarray, flt: RecordFilter, k: int) -> list[tuple[int, float]]:
        where, params = self._sql(flt)
        return exact_top(self.db.read(f"{WITH_VECTORS} WHERE {where}", params), query, k)

    def _candidate_ids(self, flt: RecordFilter, limit: int | None = None) -> np.ndarray:
        where, params = self._sql(flt)
        cap = "" if limit is None else f" LIMIT {int(limit)}"
        return np.array([r[0] for r in self.db.read(f"SELECT id FROM records WHERE {where}{cap}", params)],
                        dtype=np.int64)
