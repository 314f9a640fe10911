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

Segments of `CODE_FROM` vectors and more are coded (memory.vector_index): they are built once
(from a merge, or from a segment grown past it), on lists of their own trained for their
size, and then kept as they are: never merged, never rebuilt, so no rewrite reads a vector
back. Their candidates are re-ranked with the exact vectors `exact` reads (SQLite's),
so every score a search returns is an exact inner product.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import faiss
import numpy as np

from memory import vector_index

MERGE_FACTOR = 8  # segments of one tier merged at once
SMALLEST_TIER = 1_000  # vectors: segments below this are all tier 0
LARGEST_MERGE = 2_000_000  # vectors: no merge makes a segment bigger (its rebuild stays seconds, not minutes)
# Vectors: from here a segment keeps PQ codes. The flat vectors held stay below about seven
# segments of each tier under it (a few per cent of a year), while a day's merges still read
# vectors from memory. At 1M text-like vectors, re-ranking the coded candidates found what
# flat codes did (docs/results/README.md, "Coded segments and folded behaviors, stop 10").
CODE_FROM = 256_000
RERANK_DEPTH = 2  # candidates of coded segments re-ranked exactly, per result asked for
# Listed ids (a time window) a coded segment may hold: up to this many, their exact vectors
# are read and scored, so a selective search stays exact (4,096 vectors: 6 MB, a few ms).
EXACT_WITHIN = 4_096
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
        vector_index.for_one_query(self.index)
        centroids = vector_index.centroids_of(self.index)
        self.lists = None if centroids is None else digest(centroids)

    @classmethod
    def of(cls, dim: int, ids: np.ndarray, vectors: np.ndarray, centroids: np.ndarray | None = None) -> Segment:
        """A segment of these vectors (ids ascending), on `centroids` when given; coded from
        `CODE_FROM` of them, and then on lists of its own: a coded segment is never rebuilt,
        and the shared lists, sized for the flat segments, are coarser than its size calls
        for. At 2M of the scale bench's vectors, coded segments on their own lists found 99.65 %
        of the exact top 30 scanning 6.4 % of their codes, on the shared lists 99.55 % scanning
        12.5 %; a merge into one took 17 % longer (docs/results/README.md, stop 13)."""
        coded = len(ids) >= CODE_FROM
        index = vector_index.build_index(dim, ids, vectors, centroids=None if coded else centroids, coded=coded)
        return cls(index, int(ids.min()), int(ids.max()))

    @property
    def size(self) -> int:
        return int(self.index.ntotal)

    @property
    def coded(self) -> bool:
        return vector_index.is_coded(self.index)

    def ids(self) -> np.ndarray:
        return vector_index.ids_of(self.index)

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
    # The exact vectors of some ids, as (ids found, vectors): what coded candidates are re-ranked with.
    exact: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] | None = field(default=None, repr=False)
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
        """The IVF segment whose centroids the others share: the newest one trained that is
        not coded (a coded one keeps the lists it was built on)."""
        return max((s for s in self.segments if s.lists is not None and not s.coded), key=lambda s: s.high,
                   default=None)

    @property
    def held(self) -> int:
        """Vectors held as they are (not coded): the ones the shared lists are sized for,
        since coded segments keep lists of their own."""
        return sum(s.size for s in self.segments if not s.coded)

    def centroids(self, adding: int = 0) -> np.ndarray | None:
        """The shared centroids, unless the vectors held (with `adding` more) have outgrown them."""
        owner = self.shared()
        if owner is None:
            return None
        nlist = faiss.extract_index_ivf(owner.index).nlist
        grown = self.held + adding
        return None if vector_index.lists_for(grown) > nlist else vector_index.centroids_of(owner.index)

    def relist_due(self) -> bool:
        """Whether a segment is off the shared lists that should be on them: an IVF on other
        lists, a flat one with as many vectors as lists, or all of them when the index has
        outgrown its lists or has grown past `APPROXIMATE_FROM` in flat segments."""
        owner = self.shared()
        if owner is None:  # flat segments only: lists once scanning them all costs more than a search may
            return self.held >= vector_index.APPROXIMATE_FROM
        centroids = self.centroids()
        return centroids is None or any(self._off_lists(s, owner.lists, len(centroids)) for s in self.segments)

    @staticmethod
    def _off_lists(segment: Segment, lists: bytes, nlist: int) -> bool:
        """Whether a segment should be rebuilt on these lists (a coded one never is)."""
        return not segment.coded and segment.lists != lists and (segment.lists is not None or segment.size >= nlist)

    def add(self, ids: np.ndarray, vectors: np.ndarray) -> None:
        if len(ids):
            self.segments.append(Segment.of(self.d, ids, vectors, self.centroids(len(ids))))

    def remove(self, ids: np.ndarray) -> None:
        """Remove these ids wherever held; a segment that lost any is rewritten at the next write."""
        wanted = np.unique(np.asarray(ids, dtype=np.int64))
        if not wanted.size:
            return
        selector = faiss.IDSelectorBatch(wanted)
        for segment in self.segments:
            if not segment.may_hold(wanted):
                continue
            if vector_index.is_mapped(segment.index) and not np.isin(segment.ids(), wanted).any():
                continue  # holds none of them: stays mapped
            if vector_index.owned(segment.index).remove_ids(selector):
                segment.file = None
        self.segments = [s for s in self.segments if s.size]

    def search(self, query: np.ndarray, k: int, candidates: np.ndarray | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
        """(scores, ids) of the top k over every segment, among `candidates` when given (then
        probing every list); the coded segments' best `RERANK_DEPTH` x k scored again exactly
        (when `exact` is set)."""
        selector, wanted = None, None
        if candidates is not None:
            wanted = np.unique(np.asarray(candidates, dtype=np.int64))
            selector = faiss.IDSelectorBatch(wanted)
        query = np.ascontiguousarray(query, dtype=np.float32).reshape(1, -1)
        owner = self.shared()
        probes = {id(s): self._probes(s) for s in self.segments}
        ranked = None  # the shared lists, ranked for this query once
        found: dict[bool, list[tuple[np.ndarray, np.ndarray]]] = {False: [], True: []}  # by coded
        for segment in self.segments:
            if wanted is not None and not segment.may_hold(wanted):
                continue
            part_k = min(k * (RERANK_DEPTH if segment.coded else 1), segment.size)
            if part_k <= 0:
                continue
            if segment.coded and wanted is not None and self.exact is not None:
                inside = wanted[(wanted >= segment.low) & (wanted <= segment.high)]
                if len(inside) <= EXACT_WITHIN:  # few enough to score them all exactly
                    found[False].append(_scored(self.exact(inside), query))
                    continue
            nlist = vector_index.nlist(segment.index)
            if nlist is None:
                found[False].append(vector_index.flat_search(segment.index, query, part_k, wanted))
                continue
            nprobe = nlist if selector is not None else probes[id(segment)]
            if owner is not None and segment.lists == owner.lists:
                if ranked is None:
                    ranked = self._rank_lists(owner, query, nlist if selector is not None else max(
                        probes[id(s)] for s in self.segments if s.lists == owner.lists))
                part = _search_preassigned(segment.index, query, part_k, ranked, nprobe, selector)
            else:
                part = vector_index.search(segment.index, query, part_k, selector, nprobe)
            found[segment.coded].append(part)
        scores, ids = _best(found[False], k)
        if found[True]:
            coded_scores, coded_ids = _best(found[True], k * RERANK_DEPTH)
            if self.exact is not None:
                coded_scores, coded_ids = _scored(self.exact(coded_ids), query)
            scores, ids = _best([(scores, ids), (coded_scores, coded_ids)], k)
        return scores, ids

    def _probes(self, segment: Segment) -> int:
        """Lists of an IVF segment probed by a search over all vectors (0 for a flat one): the
        share of them one IVF over the whole index would scan (lists trained for up to four
        times as many vectors are more and smaller). A coded segment probes as many as lists
        trained for it would hold: the same share of its own lists, and more of coarser
        shared ones (segments coded before they had lists of their own). On 1,006 shared
        lists, a coded segment of 955,000 vectors probed twice the share to find 99.7 % of the
        exact top 30, what one flat IVF finds (docs/results/README.md, stop 13)."""
        nlist = vector_index.nlist(segment.index) or 0
        whole = vector_index.lists_for(self.ntotal)
        share = vector_index.probes(whole) / whole
        sized_for = max(nlist, vector_index.lists_for(4 * segment.size)) if segment.coded else nlist
        return min(nlist, max(1, math.ceil(share * sized_for)))

    def _rank_lists(self, owner: Segment, query: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
        """(scores, list numbers) of the best `count` shared lists for the query, best first."""
        if self._coarse is None or self._coarse[0] != owner.lists:
            quantizer = faiss.IndexFlatIP(self.d)
            quantizer.add(vector_index.centroids_of(owner.index))
            self._coarse = (owner.lists, quantizer)
        return self._coarse[1].search(query, count)

    def relisted(self) -> None:
        """Every segment that `relist_due` names rebuilt on the shared lists, trained anew
        first (from a sample of every vector) when the index has outgrown them: then the whole
        index is rewritten, once per four-fold growth. One segment is read out at a time, and
        the new list replaces the old in one step: a search sees one or the other."""
        centroids = self.centroids()
        if centroids is None:
            held = [s for s in self.segments if not s.coded]
            nlist = vector_index.lists_for(4 * self.held)
            share = min(1.0, vector_index.TRAIN_PER_LIST * nlist / max(self.held, 1))
            rng = np.random.default_rng(0)
            sample = [v[rng.random(len(v)) < share] for _, v in (vector_index.contents(s.index) for s in held)]
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
        that holds that many (as many of them as `LARGEST_MERGE` allows, two at least), and
        alone each segment grown to `CODE_FROM` and not coded yet. Coded segments stay as they are."""
        by_tier: dict[int, list[Segment]] = {}
        groups = []
        for segment in sorted(self.segments, key=lambda s: s.low):
            if segment.coded:
                continue
            if segment.size >= CODE_FROM:
                groups.append([segment])
            else:
                by_tier.setdefault(segment.tier(), []).append(segment)
        for members in by_tier.values():
            while len(members) >= MERGE_FACTOR:
                group, members = members[:MERGE_FACTOR], members[MERGE_FACTOR:]
                while len(group) > 2 and sum(s.size for s in group) > LARGEST_MERGE:
                    members.insert(0, group.pop())
                if sum(s.size for s in group) <= LARGEST_MERGE:
                    groups.append(group)
                else:
                    break
        return groups

    def replace(self, group: Sequence[Segment], merged: Segment) -> None:
        """Put `merged` where the group's segments were (they hold the same vectors)."""
        gone = {id(s) for s in group}
        self.segments = [s for s in self.segments if id(s) not in gone] + [merged]
        self.segments.sort(key=lambda s: s.low)


def _scored(found: tuple[np.ndarray, np.ndarray], query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(scores, ids) of some (ids, vectors) against the query."""
    ids, vectors = found
    return vector_index.inner_products(vectors, query), ids


def _best(parts: Sequence[tuple[np.ndarray, np.ndarray]], k: int) -> tuple[np.ndarray, np.ndarray]:
    """The top k of some (scores, ids) results, each id once, FAISS's empty slots (id -1)
    left out. An id can come twice when a coded segment's listed ids, read from SQLite by
    its id range, include some another segment holds (ranges may interleave)."""
    if not parts:
        return np.zeros(0, np.float32), np.zeros(0, np.int64)
    scores = np.concatenate([np.asarray(p[0], np.float32) for p in parts])
    ids = np.concatenate([np.asarray(p[1], np.int64) for p in parts])
    keep = ids >= 0
    scores, ids = scores[keep], ids[keep]
    order = np.argsort(-scores, kind="stable")
    scores, ids = scores[order], ids[order]
    _, first = np.unique(ids, return_index=True)
    top = np.sort(first)[:k]
    return scores[top], ids[top]


def digest(centroids: np.ndarray) -> bytes:
    """What tells one set of IVF lists from another."""
    return hashlib.sha1(centroids.tobytes()).digest()


def _search_preassigned(index: faiss.Index, query: np.ndarray, k: int, ranked: tuple[np.ndarray, np.ndarray],
                        nprobe: int, selector: faiss.IDSelector | None) -> tuple[np.ndarray, np.ndarray]:
    """An IVF's top k probing the best `nprobe` of the lists already ranked for the query.
    FAISS's Python wrapper of search_preassigned takes no search parameters, so the id
    selector goes through the C++ call."""
    list_scores, lists = (np.ascontiguousarray(a[:, :nprobe]) for a in ranked)
    params = faiss.SearchParametersIVF(nprobe=nprobe)
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
        index = vector_index.read(folder / name)
    except RuntimeError:
        return None
    return Segment(index, low, high, name) if index.ntotal == size else None
