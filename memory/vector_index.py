"""Which FAISS index a segment of vectors gets, and how it is searched.

Exact (flat inner product) while small. From `APPROXIMATE_FROM` vectors, scanning them all
costs more than a question may, so they go into an inverted file (IVF) with flat codes:
each vector's score is still its exact inner product, only the lists probed are a choice.
A search limited to listed ids probes every list, so a selective filter stays exact. The
IVF segments of one namespace share their lists' centroids (memory.segments), so a search
ranks the lists once and probes the same ones in each, as in one index.

A year of one wearer is some 13 million vectors: 20 GB as float32, more than the memory of
the machine it runs on. Big segments therefore keep product-quantized codes instead ("coded":
FAISS fast-scan PQ with a 4-bit code per dimension: 192 bytes a 384-d vector rather than
1,536) and scan about seven times faster; their scores are approximate, so their candidates
are re-ranked exactly from the vectors SQLite keeps (memory.segments).
"""
from __future__ import annotations

import math
from pathlib import Path

import faiss
import numpy as np

# Vectors: below, a flat scan is cheap; its time grows with the count. A week's event
# store (157,000) took 31.6 ms a search flat against 2.5 ms as IVF395 probing 40 lists, and
# a question may search ten times.
APPROXIMATE_FROM = 50_000
TRAIN_PER_LIST = 40  # k-means sample per list (FAISS warns below 39)
PQ_TRAINING = 65_536  # vectors the product quantizer of a coded segment is trained on (FAISS's own cap)
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
                centroids: np.ndarray | None = None, coded: bool = False) -> faiss.Index:
    """The index for these vectors: flat while few, else IVF on lists trained on a sample (as
    many as suit four times as many vectors: the namespace grows into them), or
    on `centroids` shared with the other segments of its namespace (no training: then IVF
    from as many vectors as lists); `coded`: IVF with fast-scan PQ codes trained on them."""
    if not coded and len(ids) < (APPROXIMATE_FROM if centroids is None else min(APPROXIMATE_FROM, len(centroids))):
        index = faiss.IndexIDMap2(faiss.IndexFlatIP(dim))
    else:
        lists = centroids if centroids is not None else train_centroids(vectors, lists_for(4 * len(ids)), seed)
        index = ivf_on(lists, coded)
        if coded:  # the lists are set; this trains the product quantizer (on residuals to them)
            index.train(_sample(vectors, PQ_TRAINING, seed))
    if len(ids):
        index.add_with_ids(np.ascontiguousarray(vectors, dtype=np.float32), np.asarray(ids, dtype=np.int64))
    return index


def train_centroids(vectors: np.ndarray, nlist: int, seed: int = 0) -> np.ndarray:
    """IVF list centroids (k-means under inner product) from a sample of `vectors`."""
    index = faiss.index_factory(vectors.shape[1], f"IVF{nlist},Flat", faiss.METRIC_INNER_PRODUCT)
    index.train(_sample(vectors, TRAIN_PER_LIST * nlist, seed))
    return centroids_of(index)


def _sample(vectors: np.ndarray, size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    rows = rng.choice(len(vectors), size=min(len(vectors), size), replace=False)
    return np.ascontiguousarray(vectors[np.sort(rows)], dtype=np.float32)


def ivf_on(centroids: np.ndarray, coded: bool = False) -> faiss.Index:
    """An empty IVF whose lists are these centroids: flat codes (trained already), or PQ
    codes (to be trained)."""
    dim = centroids.shape[1]
    index = faiss.index_factory(dim, f"IVF{len(centroids)},{_codes(dim) if coded else 'Flat'}",
                                faiss.METRIC_INNER_PRODUCT)
    index.quantizer.add(np.ascontiguousarray(centroids, dtype=np.float32))
    index.quantizer.is_trained = True
    index.is_trained = not coded
    return index


def _codes(dim: int) -> str:
    """Fast-scan PQ, a 4-bit code per dimension. At 320,000 text-like vectors, re-ranking the
    best 120 of these found the exact top 30 as often as flat codes did (0.997), where codes
    of two dimensions each needed four times as many read back (docs/results/README.md)."""
    return f"PQ{dim}x4fs"


def read(path: Path) -> faiss.Index:
    """A segment file read for searching. An IVF with flat codes is memory-mapped rather than
    copied into this process: its lists live in the page cache, shared with every process
    that reads this memory (a server and a CLI), and the kernel may drop them under memory
    pressure. At a year of one wearer these are half the bytes of its indexes (2.6 of 4.9
    GB). Every page of the map is still touched once, in file order, so that searches do not
    each wait for the lists they probe first: searches right after a restart took p95 70 ms
    against 44 ms once their lists had been read. Coded (fast-scan) lists and flat indexes
    are read into memory: FAISS maps neither."""
    index = faiss.read_index(str(path), faiss.IO_FLAG_MMAP)
    if is_mapped(index):
        _touch_lists(_ivf(index))
    return index


def _touch_lists(ivf, page: int = 4096) -> None:
    """Read one byte of every page of every list, so that the kernel reads the file into the
    page cache and maps it into this process now rather than at a search."""
    lists = ivf.invlists
    for lst in range(ivf.nlist):
        size = lists.list_size(lst)
        if size:
            codes = faiss.rev_swig_ptr(lists.get_codes(lst), size * lists.code_size)
            int(codes[::page].sum())
            int(faiss.rev_swig_ptr(lists.get_ids(lst), size)[:: page // 8].sum())


def is_mapped(index: faiss.Index) -> bool:
    """Whether its lists are a read-only map of its file (`read`)."""
    ivf = _ivf(index)
    return ivf is not None and isinstance(faiss.downcast_InvertedLists(ivf.invlists), faiss.OnDiskInvertedLists)


def owned(index: faiss.Index) -> faiss.Index:
    """The index with its lists in memory, so that it can be changed: a mapped file is
    read-only, and FAISS aborts the process when one is written to."""
    if not is_mapped(index):
        return index
    ivf = _ivf(index)
    mapped, lists = ivf.invlists, faiss.ArrayInvertedLists(ivf.nlist, ivf.code_size)
    for lst in range(ivf.nlist):
        size = mapped.list_size(lst)
        if size:
            lists.add_entries(lst, size, mapped.get_ids(lst), mapped.get_codes(lst))
    ivf.replace_invlists(lists, True)  # the index owns them now; the map is released
    lists.this.disown()
    return index


def for_one_query(index: faiss.Index) -> faiss.Index:
    """The index set to scan one query's lists on all of FAISS's threads. By default FAISS
    parallelises a search over its queries, and memlens asks one at a time: one thread
    scanned while the other idled. An IVF with flat codes then splits its probed lists
    (`parallel_mode` 1), a fast-scan one its queries x probes (`implem` 15: the multithreaded
    scan, results kept in a reservoir). At a year, the coded segments' scans took half as
    long on two cores (docs/results/README.md). Set on every segment built or read: files
    written before it carry FAISS's defaults."""
    ivf = _ivf(index)
    if ivf is not None:
        ivf = faiss.downcast_index(ivf)
        if isinstance(ivf, faiss.IndexIVFFastScan):
            ivf.implem = 15
        else:
            ivf.parallel_mode = 1
        if is_mapped(ivf):  # its prefetch starts 32 threads a search to touch lists the scan reads anyway
            faiss.downcast_InvertedLists(ivf.invlists).prefetch_nthread = 0
    return index


def inner_products(vectors: np.ndarray, query: np.ndarray) -> np.ndarray:
    """One query's inner product with each of `vectors`, on FAISS's SIMD kernel in the calling
    thread. numpy hands a product this size to BLAS threads that spin for a while after it,
    and on two cores they took the cores from FAISS's scan threads (`for_one_query`): at 1M
    vectors a search's p95 was 70 ms with them, 13 ms with BLAS on one thread."""
    vectors = np.ascontiguousarray(vectors, dtype=np.float32)
    query = np.ascontiguousarray(query, dtype=np.float32).reshape(-1)
    scores = np.empty(len(vectors), np.float32)
    if len(vectors):
        faiss.fvec_inner_products_ny(faiss.swig_ptr(scores), faiss.swig_ptr(query), faiss.swig_ptr(vectors),
                                     vectors.shape[1], len(vectors))
    return scores


def is_coded(index: faiss.Index) -> bool:
    """Whether the index keeps codes rather than the vectors themselves."""
    ivf = _ivf(index)
    return ivf is not None and ivf.code_size != 4 * ivf.d


def nlist(index: faiss.Index) -> int | None:
    """Its IVF lists; None when flat."""
    ivf = _ivf(index)
    return None if ivf is None else int(ivf.nlist)


def centroids_of(index: faiss.Index) -> np.ndarray | None:
    ivf = _ivf(index)
    return None if ivf is None else ivf.quantizer.reconstruct_n(0, ivf.nlist)


def probes(nlist: int) -> int:
    """Lists probed by a search over all vectors."""
    return min(nlist, max(MIN_PROBES, math.ceil(PROBE_SHARE * nlist)))


def ids_of(index: faiss.Index) -> np.ndarray:
    """Every id the index holds."""
    ivf = _ivf(index)
    if ivf is None:
        return faiss.vector_to_array(index.id_map).astype(np.int64)
    invlists = ivf.invlists
    parts = [faiss.rev_swig_ptr(invlists.get_ids(lst), invlists.list_size(lst)).copy()
             for lst in range(ivf.nlist) if invlists.list_size(lst)]
    return np.concatenate(parts).astype(np.int64) if parts else np.zeros(0, np.int64)


def contents(index: faiss.Index) -> tuple[np.ndarray, np.ndarray]:
    """Every (id, vector) the index holds, to rebuild it as another kind; a coded index
    holds no vectors to give."""
    if is_coded(index):
        raise ValueError("a coded index keeps no vectors: read them from the rows it mirrors")
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


def flat_search(index: faiss.Index, query: np.ndarray, k: int, wanted: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """(scores, ids) of the top k of a flat index, among the ids `wanted` (ascending) when
    given: one query's inner products with its vectors, read in place. FAISS's own scan of
    one query keeps a heap per vector; at 40,000 vectors and k 120 it took 9.4 ms on one
    thread, this 2.3 ms."""
    n = int(index.ntotal)
    if n == 0 or k <= 0:
        return np.zeros(0, np.float32), np.zeros(0, np.int64)
    vectors = faiss.rev_swig_ptr(faiss.downcast_index(index.index).get_xb(), n * index.d).reshape(n, index.d)
    ids = faiss.rev_swig_ptr(index.id_map.data(), n)
    scores = inner_products(vectors, query)
    if wanted is not None:
        at = np.minimum(np.searchsorted(wanted, ids), max(len(wanted) - 1, 0))
        keep = np.flatnonzero(wanted[at] == ids) if len(wanted) else np.zeros(0, np.int64)
        scores, ids = scores[keep], ids[keep]
    if k < len(scores):
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
    else:
        top = np.argsort(-scores, kind="stable")
    return scores[top].astype(np.float32), ids[top].astype(np.int64)


def search(index: faiss.Index, query: np.ndarray, k: int, selector: faiss.IDSelector | None = None,
           nprobe: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(scores, ids) of the top k, among the ids `selector` admits when given (then probing
    every list: a selective filter stays exact), probing `nprobe` lists of an IVF (`probes`
    of them by default)."""
    ivf = _ivf(index)
    if ivf is None:
        params = faiss.SearchParameters(sel=selector) if selector is not None else None
    else:
        if nprobe is None:
            nprobe = ivf.nlist if selector is not None else probes(ivf.nlist)
        params = faiss.SearchParametersIVF(nprobe=nprobe)
        if selector is not None:
            params.sel = selector
    scores, ids = index.search(np.ascontiguousarray(query, dtype=np.float32).reshape(1, -1), k, params=params)
    return scores[0], ids[0]


def describe(index: faiss.Index) -> str:
    ivf = _ivf(index)
    if ivf is None:
        return "Flat"
    return f"IVF{ivf.nlist},{_codes(ivf.d) if is_coded(index) else 'Flat'}"


def _ivf(index: faiss.Index):
    try:
        return faiss.extract_index_ivf(index)
    except RuntimeError:
        return None
