"""A vector index made of immutable segments: each commit appends one, merges join them in tiers.

One FAISS file per namespace meant that every commit rewrote every vector the namespace held
(1.7 GB at a month of one wearer) and retrained it as it grew. Here, as in Lucene and
Tantivy, a commit's vectors become a segment of their own and its file is written once; when
`MERGE_FACTOR` segments of one size tier exist they are merged into one of the next tier
(memory.vector_index decides its kind: flat, or IVF past its threshold), so a vector is
rewritten about log(n) times over its life and a search visits few segments. A segment that
loses vectors (a re-ingest, a forget) is written again under a new name; files are never
changed in place, so a reader of the previous manifest never reads a half-written one.

Segments are ordered by the ids they hold, and ids grow with time, so a search among listed
ids (a time window) skips every segment whose id range holds none of them. The IVF segments
of an index share one set of list centroids: a search ranks the lists once and probes the
same lists in each segment, so it finds what one index over all of them would, at its cost.
Segments big enough join those lists (a flat one written before there were any, too); the
centroids are trained again, and the segments rebuilt on them, each time the index grows
four-fold (what one index did), never at a commit otherwise.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import faiss
import numpy as np

from memory import vector_index

MERGE_FACTOR = 8  # segments of one tier merged at once
SMALLEST_TIER = 1_000  # vectors: segments below this are all tier 0
LARGEST_MERGE = 2_000_000  # vectors: no merge makes a segment bigger (its rebuild stays seconds, not minutes)
MANIFEST = "manifest.json"


@dataclass(eq=False)
class Segment:
    """Some vectors with their ids; `file` is its name on disk once written, None until then
    (new, or changed since it was read)."""

    index: faiss.Index
    low: int  # smallest and largest id it was made with: a bound, still true after removals
    high: int
    file: str | None = None
    lists: bytes | None = field(init=False)  # a digest of its IVF centroids; None when flat

    def __post_init__(self):
        centroids = vector_index.centroids_of(self.index)
        self.lists = None if centroids is None else digest(centroids)

    @classmethod
    def of(cls, dim: int, ids: np.ndarray, vectors: np.ndarray, centroids: np.ndarray | None = None) -> Segment:
        return cls(vector_index.build_index(dim, ids, vectors, centroids=centroids), int(ids.min()), int(ids.max()))

    @property
    def size(self) -> int:
        return int(self.index.ntotal)

    def ids(self) -> np.ndarray:
        return vector_index.contents(self.index)[0]

    def tier(self) -> int:
        return max(0, int(math.log(max(self.size, 1) / SMALLEST_TIER, MERGE_FACTOR) // 1))

    def may_hold(self, sorted_ids: np.ndarray) -> bool:
        """Whether any of these ids (ascending) lies within this segment's id range."""
        at = int(np.searchsorted(sorted_ids, self.low))
        return at < len(sorted_ids) and int(sorted_ids[at]) <= self.high


@dataclass
class SegmentedIndex:
    """The segments of one index, searched together; what a MirroredIndex holds in memory."""

    d: int
    segments: list[Segment] = field(default_factory=list)
    _coarse: tuple[bytes, faiss.Index] | None = field(default=None, repr=False)  # the shared lists' quantizer

    @property
    def ntotal(self) -> int:
        return sum(s.size for s in self.segments)

    def ids(self) -> np.ndarray:
        parts = [s.ids() for s in self.segments]
        return np.concatenate(parts) if parts else np.zeros(0, np.int64)

    def describe(self) -> str:
        kinds = [vector_index.describe(s.index) for s in self.segments]
        return ", ".join(f"{k} x{kinds.count(k)}" for k in dict.fromkeys(kinds)) or "empty"

    def shared(self) -> Segment | None:
        """The IVF segment whose centroids the others share: the newest one trained."""
        return max((s for s in self.segments if s.lists is not None), key=lambda s: s.high, default=None)

    def centroids(self, n: int | None = None) -> np.ndarray | None:
        """The shared centroids, unless the index (grown to `n`) has outgrown them."""
        owner = self.shared()
        if owner is None:
            return None
        nlist = faiss.extract_index_ivf(owner.index).nlist
        grown = self.ntotal if n is None else n
        return None if vector_index.lists_for(grown) > nlist else vector_index.centroids_of(owner.index)

    def relist_due(self) -> bool:
        """Whether a segment is off the shared lists that should be on them: an IVF on other
        lists, a flat one with as many vectors as lists, or all of them when the index has
        outgrown its lists or has grown past `APPROXIMATE_FROM` in flat segments."""
        owner = self.shared()
        if owner is None:  # flat segments only: lists once scanning them all costs more than a search may
            return self.ntotal >= vector_index.APPROXIMATE_FROM
        centroids = self.centroids()
        return centroids is None or any(self._off_lists(s, owner.lists, len(centroids)) for s in self.segments)

    @staticmethod
    def _off_lists(segment: Segment, lists: bytes, nlist: int) -> bool:
        return segment.lists != lists and (segment.lists is not None or segment.size >= nlist)

    def add(self, ids: np.ndarray, vectors: np.ndarray) -> None:
        if len(ids):
            self.segments.append(Segment.of(self.d, ids, vectors, self.centroids(self.ntotal + len(ids))))

    def remove(self, ids: np.ndarray) -> None:
        """Remove these ids wherever held; a segment that lost any is rewritten at the next write."""
        wanted = np.unique(np.asarray(ids, dtype=np.int64))
        if not wanted.size:
            return
        selector = faiss.IDSelectorBatch(wanted)
        for segment in self.segments:
            if segment.may_hold(wanted) and segment.index.remove_ids(selector):
                segment.file = None
        self.segments = [s for s in self.segments if s.size]

    def search(self, query: np.ndarray, k: int, candidates: np.ndarray | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
        """(scores, ids) of the top k over every segment, among `candidates` when given."""
        selector, wanted = None, None
        if candidates is not None:
            wanted = np.unique(np.asarray(candidates, dtype=np.int64))
            selector = faiss.IDSelectorBatch(wanted)
        query = np.ascontiguousarray(query, dtype=np.float32).reshape(1, -1)
        owner = self.shared()
        ranked = None  # the shared lists, ranked for this query once
        scores, ids = [], []
        for segment in self.segments:
            if wanted is not None and not segment.may_hold(wanted):
                continue
            part_k = min(k, segment.size)
            if part_k <= 0:
                continue
            if owner is not None and segment.lists == owner.lists:
                if ranked is None:
                    ranked = self._rank_lists(owner, query, selector is not None)
                s, i = _search_preassigned(segment.index, query, part_k, ranked, selector)
            else:
                s, i = vector_index.search(segment.index, query, part_k, selector)
            scores.append(s)
            ids.append(i)
        if not scores:
            return np.zeros(0, np.float32), np.zeros(0, np.int64)
        scores, ids = np.concatenate(scores), np.concatenate(ids)
        keep = ids >= 0
        scores, ids = scores[keep], ids[keep]
        top = np.argsort(-scores, kind="stable")[:k]
        return scores[top], ids[top]

    def _rank_lists(self, owner: Segment, query: np.ndarray, every: bool) -> tuple[np.ndarray, np.ndarray]:
        """(scores, list numbers) of the shared lists a search probes: all of them for a search
        among listed ids (it stays exact), else as many as one IVF probes."""
        if self._coarse is None or self._coarse[0] != owner.lists:
            quantizer = faiss.IndexFlatIP(self.d)
            quantizer.add(vector_index.centroids_of(owner.index))
            self._coarse = (owner.lists, quantizer)
        quantizer = self._coarse[1]
        if every:
            return quantizer.search(query, quantizer.ntotal)
        # The share of vectors one IVF over all of them would scan; the shared lists were
        # trained for up to four times as many vectors, so they are more and smaller.
        whole = vector_index.lists_for(self.ntotal)
        share = vector_index.probes(whole) / whole
        return quantizer.search(query, min(quantizer.ntotal, max(1, math.ceil(share * quantizer.ntotal))))

    def relisted(self) -> None:
        """Every segment that `relist_due` names rebuilt on the shared lists, trained anew
        first (from a sample of every vector) when the index has outgrown them: then the whole
        index is rewritten, once per four-fold growth. One segment is read out at a time, and
        the new list replaces the old in one step: a search sees one or the other."""
        centroids = self.centroids()
        if centroids is None:
            nlist = vector_index.lists_for(4 * self.ntotal)
            share = min(1.0, vector_index.TRAIN_PER_LIST * nlist / max(self.ntotal, 1))
            rng = np.random.default_rng(0)
            sample = [v[rng.random(len(v)) < share] for _, v in (vector_index.contents(s.index) for s in self.segments)]
            centroids = vector_index.train_centroids(np.concatenate(sample), nlist)
            del sample
        lists = digest(centroids)
        rebuilt = []
        for segment in self.segments:
            if not self._off_lists(segment, lists, len(centroids)):
                rebuilt.append(segment)
                continue
            ids, vectors = vector_index.contents(segment.index)
            order = np.argsort(ids, kind="stable")
            rebuilt.append(Segment.of(self.d, ids[order], vectors[order], centroids))
        self.segments = rebuilt

    def due_merges(self) -> list[list[Segment]]:
        """Groups of segments the tier policy merges now: the oldest `MERGE_FACTOR` of a tier
        that holds that many, unless the merge would pass `LARGEST_MERGE`."""
        by_tier: dict[int, list[Segment]] = {}
        for segment in sorted(self.segments, key=lambda s: s.low):
            by_tier.setdefault(segment.tier(), []).append(segment)
        groups = []
        for members in by_tier.values():
            while len(members) >= MERGE_FACTOR:
                group, members = members[:MERGE_FACTOR], members[MERGE_FACTOR:]
                if sum(s.size for s in group) <= LARGEST_MERGE:
                    groups.append(group)
        return groups

    def replace(self, group: Sequence[Segment], merged: Segment) -> None:
        """Put `merged` where the group's segments were (they hold the same vectors)."""
        gone = {id(s) for s in group}
        self.segments = [s for s in self.segments if id(s) not in gone] + [merged]
        self.segments.sort(key=lambda s: s.low)


def digest(centroids: np.ndarray) -> bytes:
    """What tells one set of IVF lists from another."""
    return hashlib.sha1(centroids.tobytes()).digest()


def _search_preassigned(index: faiss.Index, query: np.ndarray, k: int, ranked: tuple[np.ndarray, np.ndarray],
                        selector: faiss.IDSelector | None) -> tuple[np.ndarray, np.ndarray]:
    """An IVF's top k probing the lists already ranked for the query. FAISS's Python wrapper
    of search_preassigned takes no search parameters, so the id selector goes through the C++ call."""
    list_scores, lists = ranked
    params = faiss.SearchParametersIVF(nprobe=lists.shape[1])
    if selector is not None:
        params.sel = selector
    scores, ids = np.empty((1, k), np.float32), np.empty((1, k), np.int64)
    index.search_preassigned_c(1, faiss.swig_ptr(query), k, faiss.swig_ptr(lists), faiss.swig_ptr(list_scores),
                               faiss.swig_ptr(scores), faiss.swig_ptr(ids), False, params)
    return scores[0], ids[0]


def merged(index: SegmentedIndex, group: Iterable[Segment]) -> Segment:
    """One segment holding every vector of `group`, of the kind its size calls for (an IVF on
    the index's shared centroids when it has them)."""
    parts = [vector_index.contents(s.index) for s in group]
    ids = np.concatenate([p[0] for p in parts])
    vectors = np.concatenate([p[1] for p in parts])
    order = np.argsort(ids, kind="stable")
    return Segment.of(index.d, ids[order], vectors[order], index.centroids())


@dataclass(frozen=True)
class Manifest:
    """What a folder of segments holds as of one commit."""

    generation: int
    dim: int
    segments: tuple[tuple[str, int, int, int], ...]  # (file, vectors, low id, high id)

    @classmethod
    def read(cls, folder: Path) -> Manifest | None:
        try:
            data = json.loads((folder / MANIFEST).read_text())
            return cls(int(data["generation"]), int(data["dim"]),
                       tuple((str(f), int(n), int(lo), int(hi)) for f, n, lo, hi in data["segments"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def write(self, folder: Path) -> None:
        """Atomically: a crash leaves the previous manifest or this one."""
        tmp = folder / (MANIFEST + ".tmp")
        tmp.write_text(json.dumps({"generation": self.generation, "dim": self.dim,
                                   "segments": [list(s) for s in self.segments]}))
        os.replace(tmp, folder / MANIFEST)


def write_segment(folder: Path, segment: Segment, generation: int) -> None:
    """Write a segment to a file of its own, named once and never changed."""
    name = f"{generation:010d}-{secrets.token_hex(4)}.seg"
    tmp = folder / (name + ".tmp")
    faiss.write_index(segment.index, str(tmp))
    os.replace(tmp, folder / name)
    segment.file = name


def read_segment(folder: Path, entry: tuple[str, int, int, int]) -> Segment | None:
    """The segment a manifest entry names, or None when its file is gone, unreadable or not
    what the manifest says (it is then caught up from SQLite)."""
    name, size, low, high = entry
    try:
        index = faiss.read_index(str(folder / name))
    except RuntimeError:
        return None
    return Segment(index, low, high, name) if index.ntotal == size else None
