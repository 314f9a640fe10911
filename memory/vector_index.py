"""Which FAISS index a segment of vectors gets, and how it is searched.

Exact (flat inner product) while small. From `APPROXIMATE_FROM` vectors, scanning them all
costs more than a question may, so they go into an inverted file (IVF) with flat codes:
each vector's score is still its exact inner product, only the lists probed are a choice.
A search limited to listed ids probes every list, so a selective filter stays exact. The
IVF segments of one namespace share their lists' centroids (memory.segments), so a search
ranks the lists once and probes the same ones in each, as in one index.
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


def build_index(dim: int, ids: np.ndarray, vectors: np.ndarray, seed: int = 0,
                centroids: np.ndarray | None = None) -> faiss.Index:
    """The index for these vectors: flat while few, else IVF on lists trained on a sample (as
    many as suit four times as many vectors: the namespace grows into them), or
    on `centroids` shared with the other segments of its namespace (no training: then IVF
    from as many vectors as lists)."""
    if len(ids) < (APPROXIMATE_FROM if centroids is None else min(APPROXIMATE_FROM, len(centroids))):
        index = faiss.IndexIDMap2(faiss.IndexFlatIP(dim))
    else:
        index = ivf_on(centroids if centroids is not None else train_centroids(vectors, lists_for(4 * len(ids)), seed))
    if len(ids):
        index.add_with_ids(np.ascontiguousarray(vectors, dtype=np.float32), np.asarray(ids, dtype=np.int64))
    return index


def train_centroids(vectors: np.ndarray, nlist: int, seed: int = 0) -> np.ndarray:
    """IVF list centroids (k-means under inner product) from a sample of `vectors`."""
    index = faiss.index_factory(vectors.shape[1], f"IVF{nlist},Flat", faiss.METRIC_INNER_PRODUCT)
    rng = np.random.default_rng(seed)
    sample = rng.choice(len(vectors), size=min(len(vectors), TRAIN_PER_LIST * nlist), replace=False)
    index.train(np.ascontiguousarray(vectors[np.sort(sample)], dtype=np.float32))
    return centroids_of(index)


def ivf_on(centroids: np.ndarray) -> faiss.Index:
    """An empty IVF (flat codes) whose lists are these centroids: no training."""
    index = faiss.index_factory(centroids.shape[1], f"IVF{len(centroids)},Flat", faiss.METRIC_INNER_PRODUCT)
    index.quantizer.add(np.ascontiguousarray(centroids, dtype=np.float32))
    index.is_trained = True
    return index


def centroids_of(index: faiss.Index) -> np.ndarray | None:
    ivf = _ivf(index)
    return None if ivf is None else ivf.quantizer.reconstruct_n(0, ivf.nlist)


def probes(nlist: int) -> int:
    """Lists probed by a search over all vectors."""
    return min(nlist, max(MIN_PROBES, math.ceil(PROBE_SHARE * nlist)))


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


def search(index: faiss.Index, query: np.ndarray, k: int, selector: faiss.IDSelector | None = None
           ) -> tuple[np.ndarray, np.ndarray]:
    """(scores, ids) of the top k, among the ids `selector` admits when given (then probing
    every list: a selective filter stays exact)."""
    ivf = _ivf(index)
    if ivf is None:
        params = faiss.SearchParameters(sel=selector) if selector is not None else None
    else:
        params = faiss.SearchParametersIVF(nprobe=ivf.nlist if selector is not None else probes(ivf.nlist))
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
