"""Which FAISS index a set of vectors gets, and how it is searched.

Exact (flat inner product) while small. From `APPROXIMATE_FROM` vectors, scanning them all
costs more than a question may, so they go into an inverted file (IVF) with flat codes:
each vector's score is still its exact inner product, only the lists probed are a choice.
A search limited to listed ids probes every list, so a selective filter stays exact.
"""
from __future__ import annotations

import math

import faiss
import numpy as np

# Vectors: below, a flat scan is cheap; its time grows with the count. A week's event
# store (157,000) took 31.6 ms a search flat against 2.5 ms as IVF395 probing 40 lists, and
# a question may search ten times.
APPROXIMATE_FROM = 50_000
TRAIN_PER_LIST = 40  # k-means sample per list (FAISS warns below 39)
# Lists probed by a search over all vectors: this share of them, and at least MIN_PROBES.
# At 157,000 vectors (395 lists) 40 probes found 96.7 % of the exact top 30's scores and 79
# all of them. At 1M (1,000 lists) of the scale bench's text-like vectors, 64 probes find
# 99.7 % as 100 did, at p95 14-16 ms against 20-21; of vectors mixed from random directions
# (harder) 88.5 % against 90.0 % (docs/results/README.md, "Ingest, stop 7").
PROBE_SHARE = 1 / 16
MIN_PROBES = 64


def lists_for(n: int) -> int:
    """IVF lists for n vectors: about sqrt(n), so a list holds about as many as there are lists."""
    return max(1, int(math.sqrt(n)))


def build_index(dim: int, ids: np.ndarray, vectors: np.ndarray, seed: int = 0) -> faiss.Index:
    """The index for these vectors: flat below `APPROXIMATE_FROM`, else IVF trained on a sample."""
    if len(ids) < APPROXIMATE_FROM:
        index = faiss.IndexIDMap2(faiss.IndexFlatIP(dim))
    else:
        nlist = lists_for(len(ids))
        index = faiss.index_factory(dim, f"IVF{nlist},Flat", faiss.METRIC_INNER_PRODUCT)
        rng = np.random.default_rng(seed)
        sample = rng.choice(len(ids), size=min(len(ids), TRAIN_PER_LIST * nlist), replace=False)
        index.train(np.ascontiguousarray(vectors[np.sort(sample)]))
    if len(ids):
        index.add_with_ids(np.ascontiguousarray(vectors, dtype=np.float32), np.asarray(ids, dtype=np.int64))
    return index


def outgrown(index: faiss.Index) -> bool:
    """Whether an index no longer suits its size: flat past `APPROXIMATE_FROM`, or IVF with
    lists trained for a quarter of what it now holds."""
    ivf = _ivf(index)
    if ivf is None:
        return index.ntotal >= APPROXIMATE_FROM
    return lists_for(index.ntotal) > 2 * ivf.nlist


def contents(index: faiss.Index) -> tuple[np.ndarray, np.ndarray]:
    """Every (id, vector) the index holds, to rebuild it as another kind."""
    ivf = _ivf(index)
    if ivf is None:
        ids = faiss.vector_to_array(index.id_map).astype(np.int64)
        return ids, index.index.reconstruct_n(0, index.ntotal) if len(ids) else np.zeros((0, index.d), np.float32)
    chunks_ids, chunks = [], []
    invlists = ivf.invlists
    for lst in range(ivf.nlist):
        size = invlists.list_size(lst)
        if size:
            chunks_ids.append(faiss.rev_swig_ptr(invlists.get_ids(lst), size).copy())
            codes = faiss.rev_swig_ptr(invlists.get_codes(lst), size * invlists.code_size).copy()
            chunks.append(codes.view(np.float32).reshape(size, ivf.d))
    if not chunks:
        return np.zeros(0, np.int64), np.zeros((0, ivf.d), np.float32)
    return np.concatenate(chunks_ids).astype(np.int64), np.concatenate(chunks)


def search(index: faiss.Index, query: np.ndarray, k: int, candidates: np.ndarray | None = None
           ) -> tuple[np.ndarray, np.ndarray]:
    """(scores, ids) of the top k, among `candidates` when given (then exhaustively)."""
    ivf = _ivf(index)
    selector = faiss.IDSelectorBatch(candidates) if candidates is not None else None
    if ivf is None:
        params = faiss.SearchParameters(sel=selector) if selector is not None else None
    else:
        probes = ivf.nlist if selector is not None else min(ivf.nlist, max(MIN_PROBES, math.ceil(PROBE_SHARE * ivf.nlist)))
        params = faiss.SearchParametersIVF(nprobe=probes)
        if selector is not None:
            params.sel = selector
    scores, ids = index.search(np.ascontiguousarray(query, dtype=np.float32).reshape(1, -1), k, params=params)
    return scores[0], ids[0]


def describe(index: faiss.Index) -> str:
    ivf = _ivf(index)
    return f"IVF{ivf.nlist},Flat" if ivf is not None else "Flat"


def _ivf(index: faiss.Index):
    try:
        return faiss.extract_index_ivf(index)
    except RuntimeError:
        return None
