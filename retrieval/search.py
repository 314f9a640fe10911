"""Hybrid search over memory: dense (FAISS) and lexical (BM25) rankings, and with a CLIP
text encoder the keyframes' ranking (retrieval.frames), fused by reciprocal rank, under
filters that always include the question-time cut."""
from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from datetime import timedelta
from functools import partial

from memory.frames import ClipTextEncoder
from memory.memory import Memory
from memory.records import DAY_SUMMARY, HOUR_SUMMARY, MemoryRecord, RecordFilter, StoreName
from retrieval.frames import FrameChannel
from retrieval.query import SearchQuery  # defined there, retrieval.search's name too

_TICK = timedelta(microseconds=1)


@dataclass(frozen=True)
class RetrievalConfig:
    rrf_k: float = 60.0  # the usual reciprocal-rank-fusion constant
    dense_weight: float = 1.0
    lexical_weight: float = 1.0
    clip_weight: float = 1.0  # the keyframes' (CLIP) ranking, when that channel is on
    fetch_multiplier: int = 3  # each ranking fetches k * this before fusion
    # Rankings computed at once (1: one after another), on the commit their search began on,
    # by searches asked at once too. A dense ranking waits on SQLite (its rows, the coded
    # candidates' vectors) as well as FAISS, a lexical one on Tantivy: at a year on two cores,
    # two at once took a search from p50 54 to 48 ms in one run (docs/results/README.md).
    parallel_rankings: int = 2


@dataclass
class Hit:
    record: MemoryRecord
    score: float
    dense: float | None = None  # cosine similarity, when the dense ranking found it
    lexical: float | None = None  # BM25, when the lexical ranking found it
    clip: float | None = None  # cosine of the query to the record's best keyframe, when the CLIP ranking found it
    via: list[str] = field(default_factory=list)


@dataclass
class _Fused:
    """One id's fused ranks; its record is read only if it makes the top k."""
    store: StoreName
    record: MemoryRecord | None = None
    score: float = 0.0
    raw: dict[str, float] = field(default_factory=dict)  # each ranking's own score, by its label
    via: list[str] = field(default_factory=list)

    def hit(self, record: MemoryRecord) -> Hit:
        return Hit(record=record, score=self.score, via=self.via, **self.raw)


class HybridRetriever:
    def __init__(self, memory: Memory, config: RetrievalConfig | None = None,
                 clip_text: ClipTextEncoder | None = None):
        """`clip_text`: the text side of the CLIP model that embedded keyframes; without it
        (or without its frames in memory) search is dense + lexical only."""
        self.memory = memory
        self.config = config or RetrievalConfig()
        self.frames = FrameChannel(memory, clip_text)
        self._pool: ThreadPoolExecutor | None = None
        self._pool_lock = threading.Lock()

    def search(self, query: SearchQuery) -> list[Hit]:
        """The stores' rankings are of ids: only the rows of the fused top k are read (the
        rankings' own k x `fetch_multiplier` each would be up to twelve times as many)."""
        flt = query.record_filter()
        fetch = query.k * self.config.fetch_multiplier
        fused: dict[int, _Fused] = {}
        jobs: list[tuple[str, float, StoreName | None, Callable[[], list]]] = []
        for store_name in query.stores:
            store = self.memory.store(store_name)
            if query.kinds is not None and not store.may_hold(query.kinds):
                continue
            jobs += [("dense", self.config.dense_weight, store_name, partial(store.rank_dense, query.text, flt, fetch)),
                     ("lexical", self.config.lexical_weight, store_name,
                      partial(store.rank_lexical, query.text, flt, fetch))]
        jobs.append(("clip", self.config.clip_weight, None, partial(self.frames.ranking, query, fetch)))
        with self.memory.pinned():  # every ranking, and the rows read, from one commit
            rankings = self._ranked([job for *_, job in jobs])
            for (label, weight, store_name, _), ranking in zip(jobs, rankings):
                for rank, (found, raw) in enumerate(ranking):  # found: an id, or the frames' record
                    record = None if store_name is not None else found
                    entry = fused.setdefault(record.id if record else found, _Fused(store_name or record.store))
                    entry.record = entry.record or record
                    entry.score += weight / (self.config.rrf_k + rank + 1)
                    entry.raw[label] = raw
                    entry.via.append(label)
            return self._shown(sorted(fused.items(), key=lambda item: -item[1].score), flt, query.k)

    def _shown(self, ranked: list[tuple[int, _Fused]], flt: RecordFilter, k: int) -> list[Hit]:
        """The first k hits whose rows `flt` shows, read k at a time (a row deleted, or not
        seen yet at question time, makes way for the next)."""
        shown: list[Hit] = []
        for at in range(0, len(ranked), max(k, 1)):
            if len(shown) >= k:
                break
            batch = ranked[at:at + k]
            unread = [(rid, entry.store) for rid, entry in batch if entry.record is None]
            read: dict[int, MemoryRecord] = {}
            for store_name in dict.fromkeys(store for _, store in unread):
                ids = [(rid, 0.0) for rid, store in unread if store == store_name]
                read |= {record.id: record for record, _ in self.memory.store(store_name).shown(ids, flt)}
            for rid, entry in batch:
                record = entry.record or read.get(rid)
                if record is not None:
                    shown.append(entry.hit(record))
        return shown[:k]

    def _ranked(self, jobs: Sequence[Callable[[], list]]) -> list[list]:
        """Each job's ranking, computed `parallel_rankings` at once on the retriever's threads,
        each in a copy of this context (the commit pinned here)."""
        if self.config.parallel_rankings <= 1 or len(jobs) <= 1:
            return [job() for job in jobs]
        with self._pool_lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.config.parallel_rankings, thread_name_prefix="memlens-rank")
        futures = [self._pool.submit(contextvars.copy_context().run, job) for job in jobs]
        wait(futures)  # the view ends with the caller's block: nothing may still read from it
        return [future.result() for future in futures]

    def coarse_to_fine(self, query: SearchQuery, days: int = 2, hours: int = 3,
                       open_tail: bool = False) -> list[Hit]:
        """Day summaries -> hour summaries -> fine records, each level narrowing the next.

        A summary is only visible once its whole window ended before the question time, so
        the current day and hour have none. With `open_tail`, what lies after the last
        complete summary of a level is searched at the next level down instead of being
        unreachable (a question at 14:00 still finds this morning's hours and the last minutes).
        """
        def inside(record: MemoryRecord) -> dict:
            # A summary's window includes its own end; the question-time cut stays strict.
            end = record.wall_end + _TICK
            return {"after": record.wall_start, "before": min(end, query.before) if query.before else end}

        day_hits = self.search(replace(query, stores=("event",), kinds=(DAY_SUMMARY,), k=days))
        day_windows = [inside(d.record) for d in day_hits] + ([self._after_last(query, DAY_SUMMARY)] if open_tail else [])
        hour_hits: list[Hit] = []
        for window in day_windows:
            hour_hits += self.search(replace(query, stores=("event",), kinds=(HOUR_SUMMARY,), k=hours, **window))
        hour_windows = [inside(h.record) for h in sorted(hour_hits, key=lambda h: -h.score)[:hours]]
        hour_windows += [self._after_last(query, HOUR_SUMMARY)] if open_tail else []
        fine_kinds = tuple(k for k in (query.kinds or ()) if k not in (DAY_SUMMARY, HOUR_SUMMARY)) or None
        fine: dict[int, Hit] = {}
        for window in hour_windows:
            for hit in self.search(replace(query, kinds=fine_kinds, **window)):
                if hit.record.kind not in (DAY_SUMMARY, HOUR_SUMMARY):
                    fine.setdefault(hit.record.id, hit)
        return sorted(fine.values(), key=lambda h: -h.score)[: query.k]

    def _after_last(self, query: SearchQuery, summary_kind: str) -> dict:
        """The window after the last summary of this kind complete before the question time."""
        flt = replace(query, kinds=(summary_kind,)).record_filter()
        ends = [r.wall_end for r in self.memory.store("event").query(flt)]
        after = max(ends) + _TICK if ends else query.after
        if after is not None and query.after is not None:
            after = max(after, query.after)
        return {"after": after, "before": query.before}
