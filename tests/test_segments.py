"""Segmented vector indexes: tier merges, shared lists, and catching up with SQLite."""
from __future__ import annotations

import math
from datetime import datetime, timedelta

import faiss
import numpy as np
import pytest

from memory import segments, vector_index
from memory.records import MemoryRecord, RecordFilter
from memory.segments import Manifest, SegmentedIndex, merged
from memory.sqlite_faiss import MemoryDatabase
from tests.memory_checks import indexed_ids, on_disk

T0 = datetime(2024, 5, 14, 8, 0)


def _unit(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def _clustered(rng: np.random.Generator, n: int, dim: int = 32) -> np.ndarray:
    centres = _unit(rng.standard_normal((40, dim), dtype=np.float32))
    return _unit(centres[rng.integers(40, size=n)] + 0.3 * rng.standard_normal((n, dim), dtype=np.float32))


def _grown(vectors: np.ndarray, commit: int) -> SegmentedIndex:
    """What a namespace's commits and the flushes after them make of these vectors."""
    index = SegmentedIndex(vectors.shape[1])
    for lo in range(0, len(vectors), commit):
        index.add(np.arange(lo, min(lo + commit, len(vectors))), vectors[lo:lo + commit])
        if index.relist_due():
            index.relisted()
        for group in index.due_merges():
            index.replace(group, merged(index, group))
    return index


def test_segments_on_shared_lists_find_what_one_index_finds(monkeypatch):
    """Commits merge in tiers into IVF segments on one set of centroids, retrained as the
    index grows; listed ids are searched exactly, skipping segments outside their range; a
    search over all finds the exact neighbours as well as one IVF over every vector would."""
    monkeypatch.setattr(vector_index, "APPROXIMATE_FROM", 2_000)
    monkeypatch.setattr(segments, "SMALLEST_TIER", 500)
    monkeypatch.setattr(segments, "MERGE_FACTOR", 4)
    rng = np.random.default_rng(3)
    vectors = _clustered(rng, 40_000)
    early = _grown(vectors[:3_000], 1_000)  # three flat segments, too many to scan: lists, before any merge
    assert [s.size for s in early.segments] == [1_000] * 3 and len({s.lists for s in early.segments} - {None}) == 1
    index = _grown(vectors, 1_000)
    ivf = [s for s in index.segments if s.lists is not None]
    assert len(index.segments) > 1 and len(ivf) >= 2 and len({s.lists for s in ivf}) == 1
    assert index.ntotal == 40_000 and sorted(index.ids().tolist()) == list(range(40_000))
    assert not index.relist_due() and not index.due_merges()
    exact = faiss.IndexFlatIP(vectors.shape[1])
    exact.add(vectors)
    one = vector_index.build_index(vectors.shape[1], np.arange(40_000), vectors)
    queries = _unit(vectors[rng.integers(40_000, size=50)] + 0.1 * rng.standard_normal((50, 32), dtype=np.float32))
    window = np.arange(30_500, 31_500)  # a time window: one or two segments hold it
    recall_segments, recall_one = [], []
    for q in queries:
        _, truth = exact.search(q[None], 10)
        recall_segments.append(len(set(truth[0]) & set(index.search(q, 40)[1])) / 10)
        recall_one.append(len(set(truth[0]) & set(vector_index.search(one, q, 40)[1])) / 10)
        scores, ids = index.search(q, 10, window)
        expected = window[np.argsort(-(vectors[window] @ q), kind="stable")[:10]]
        assert ids.tolist() == expected.tolist()
        assert np.allclose(scores, vectors[ids] @ q, atol=1e-5)
    assert np.mean(recall_segments) >= min(0.95, np.mean(recall_one) - 0.03), (recall_segments, recall_one)


def _rec(text: str, minute: int) -> MemoryRecord:
    return MemoryRecord(id=None, store="event", namespace="me", video_id="v", kind="utterance", text=text,
                        start=minute * 60.0, end=minute * 60.0 + 30, wall_start=T0 + timedelta(minutes=minute),
                        wall_end=T0 + timedelta(minutes=minute, seconds=30))


@pytest.mark.parametrize("damage", ["stale manifest", "lost segment", "one old file"])
def test_an_index_behind_sqlite_is_caught_up_from_its_rows(tmp_path, embedder, damage):
    """A crash between a commit and its index write leaves the manifest a commit behind; a
    segment file may be gone; a memory from before segments has one whole-index file. Each is
    brought to exactly SQLite's rows, reading only the rows it lacks, and written back."""
    db = MemoryDatabase(tmp_path, embedder)
    store = db.stores["event"]
    store.add([_rec(f"note {i} about the garden", i) for i in range(6)])
    folder = store.partition("me").path
    written = (folder / "manifest.json").read_text()
    store.add([_rec("the keys are on the hallway shelf", 10)])
    store.delete(RecordFilter(ids=(store.query(RecordFilter(), limit=1)[0].id,)))
    db.close()
    if damage == "stale manifest":
        (folder / "manifest.json").write_text(written)
    elif damage == "lost segment":
        for entry in Manifest.read(folder).segments:
            (folder / entry[0]).unlink()
    else:
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()
        folder.write_bytes(b"an index file from before segments")
    again = MemoryDatabase(tmp_path, embedder)
    store = again.stores["event"]
    rows = sorted(r.id for r in store.query(RecordFilter()))
    assert len(rows) == 6 and indexed_ids(store) == rows
    assert store.search_dense("where are my keys", RecordFilter(), 1)[0][0].text.startswith("the keys")
    again.close()
    assert folder.is_dir() and on_disk(again.stores["event"].partition("me"))[1] == rows


def test_big_segments_keep_codes_whose_candidates_are_reranked_exactly(monkeypatch):
    """Segments grown past `CODE_FROM` keep PQ codes and are then left alone (never merged
    or rebuilt on new lists); their candidates are scored again from the exact vectors, so
    every score is exact and the neighbours found are those flat codes find."""
    monkeypatch.setattr(vector_index, "APPROXIMATE_FROM", 2_000)
    monkeypatch.setattr(segments, "SMALLEST_TIER", 500)
    monkeypatch.setattr(segments, "MERGE_FACTOR", 4)
    rng = np.random.default_rng(4)
    vectors = _clustered(rng, 40_000, dim=128)  # codes of two dimensions each lose less as dimensions add up
    monkeypatch.setattr(segments, "CODE_FROM", 10**9)
    flat = _grown(vectors, 1_000)
    monkeypatch.setattr(segments, "CODE_FROM", 8_000)
    coded = _grown(vectors, 1_000)
    coded.exact = lambda ids: (ids, vectors[ids])
    assert not any(s.coded for s in flat.segments)
    assert sum(s.size for s in coded.segments if s.coded) >= 24_000 and "PQ" in coded.describe()
    for segment in (s for s in coded.segments if s.coded):  # lists of its own, as many as its size calls for
        assert segment.lists != coded.shared().lists
        assert vector_index.nlist(segment.index) == vector_index.lists_for(4 * segment.size)
    assert not coded.relist_due() and not any(s.coded for group in coded.due_merges() for s in group)
    assert sorted(coded.ids().tolist()) == list(range(40_000))
    exact = faiss.IndexFlatIP(vectors.shape[1])
    exact.add(vectors)
    queries = _unit(vectors[rng.integers(40_000, size=50)] + 0.1 * rng.standard_normal((50, 128), dtype=np.float32))
    window = np.arange(9_500, 10_500)  # held by a coded segment
    recall_coded, recall_flat, recall_wide = [], [], []
    for q in queries:
        _, truth = exact.search(q[None], 10)
        scores, ids = coded.search(q, 40)
        assert np.allclose(scores, vectors[ids] @ q, atol=1e-5) and list(scores) == sorted(scores, reverse=True)
        recall_coded.append(len(set(truth[0]) & set(ids)) / 10)
        recall_flat.append(len(set(truth[0]) & set(flat.search(q, 40)[1])) / 10)
        expected = window[np.argsort(-(vectors[window] @ q), kind="stable")[:10]]
        assert coded.search(q, 10, window)[1].tolist() == expected.tolist()  # few listed ids: scored exactly
        recall_wide.append(len(set(truth[0]) & set(coded.search(q, 40, np.arange(40_000))[1])) / 10)
    assert np.mean(recall_coded) >= np.mean(recall_flat) - 0.02, (np.mean(recall_coded), np.mean(recall_flat))
    assert np.mean(recall_wide) >= 0.95  # too many to read: every list probed, the best re-ranked
    # a segment coded on the shared lists (as before coded segments had lists of their own)
    # probes as many of them as it would of its own: a bigger share of coarser lists
    own = next(s for s in coded.segments if s.coded)
    shared = vector_index.centroids_of(coded.shared().index)
    ids = np.sort(own.ids())
    legacy = segments.Segment(vector_index.build_index(128, ids, vectors[ids], centroids=shared, coded=True),
                              int(ids[0]), int(ids[-1]))
    assert legacy.lists == coded.shared().lists and legacy.coded
    share = coded._probes(own) / vector_index.nlist(own.index)
    assert coded._probes(legacy) == min(len(shared), math.ceil(share * vector_index.lists_for(4 * legacy.size)))
    assert coded._probes(legacy) / len(shared) > coded._probes(coded.shared()) / len(shared)
    coded.exact = None  # without the exact vectors the codes' scores stand: approximate, still ranked
    scores, ids = coded.search(queries[0], 10)
    assert len(ids) == 10 and not np.allclose(scores, vectors[ids] @ queries[0], atol=1e-5)
    coded.remove(np.arange(9_000, 11_000))
    assert coded.ntotal == 38_000 and not set(range(9_000, 11_000)) & set(coded.ids().tolist())


def test_one_query_is_scanned_on_every_thread_and_finds_what_the_default_scan_finds(tmp_path, monkeypatch):
    """Every IVF segment, built or read back, scans one query's lists on all of FAISS's
    threads (FAISS's default splits only many queries); it finds what the default scan
    finds. The exact scores of a flat segment and of coded candidates come from FAISS's
    kernel and equal numpy's products."""
    monkeypatch.setattr(vector_index, "APPROXIMATE_FROM", 2_000)
    monkeypatch.setattr(segments, "SMALLEST_TIER", 500)
    monkeypatch.setattr(segments, "MERGE_FACTOR", 4)
    monkeypatch.setattr(segments, "CODE_FROM", 8_000)
    rng = np.random.default_rng(8)
    vectors = _clustered(rng, 20_000, dim=64)
    index = _grown(vectors, 1_000)
    index.exact = lambda ids: (ids, vectors[ids])
    for i, segment in enumerate(index.segments):
        segments.write_segment(tmp_path, segment, i)
    read = [segments.read_segment(tmp_path, (s.file, s.size, s.low, s.high)) for s in index.segments]

    def settings(segment):
        ivf = faiss.downcast_index(faiss.extract_index_ivf(segment.index))
        return ivf.implem if segment.coded else ivf.parallel_mode

    assert {s.coded for s in index.segments} == {True, False}
    assert [settings(s) for s in index.segments] == [settings(s) for s in read] == \
        [15 if s.coded else 1 for s in index.segments]
    queries = _unit(vectors[rng.integers(20_000, size=30)] + 0.1 * rng.standard_normal((30, 64), dtype=np.float32))
    found = [index.search(q, 20) for q in queries]
    for segment in index.segments:  # FAISS's defaults
        ivf = faiss.downcast_index(faiss.extract_index_ivf(segment.index))
        if segment.coded:
            ivf.implem = 0
        else:
            ivf.parallel_mode = 0
    for q, (scores, ids) in zip(queries, found):
        default_scores, default_ids = index.search(q, 20)
        assert np.allclose(scores, vectors[ids] @ q, atol=1e-5)
        assert len(set(ids.tolist()) & set(default_ids.tolist())) >= 19 and np.allclose(scores[:10], default_scores[:10])
    assert vector_index.inner_products(np.zeros((0, 64), np.float32), queries[0]).shape == (0,)
    assert np.allclose(vector_index.inner_products(vectors[:999], queries[0]), vectors[:999] @ queries[0], atol=1e-5)


def test_coded_segments_persist_and_answer_from_sqlite_vectors(tmp_path, embedder, monkeypatch):
    """Through a store: a merge past `CODE_FROM` writes a coded segment; searches score its
    candidates with the vectors SQLite keeps; a delete rewrites it without them; it reads back
    as written and agrees with SQLite."""
    monkeypatch.setattr(vector_index, "APPROXIMATE_FROM", 6_000)
    monkeypatch.setattr(segments, "SMALLEST_TIER", 1_000)
    monkeypatch.setattr(segments, "MERGE_FACTOR", 3)
    monkeypatch.setattr(segments, "CODE_FROM", 10_000)
    rng = np.random.default_rng(5)
    vectors = _clustered(rng, 10_500, dim=embedder.dim)
    db = MemoryDatabase(tmp_path, embedder)
    store = db.stores["event"]
    for lo in range(0, 10_500, 3_500):
        store.add([_rec(f"note {i}", i % 600) for i in range(lo, lo + 3_500)], vectors[lo:lo + 3_500])
    mirror = store.partition("me")
    assert [s.coded for s in mirror.index.segments] == [True]
    ids = np.array(sorted(r.id for r in store.query(RecordFilter())))
    by_id = dict(zip(ids.tolist(), vectors))

    def agrees(mirror, q) -> float:
        """The share of the exact top 10 among the 40 found (a store fetches several times
        what it returns), each found with its exact score."""
        found = mirror.search(q, None, 40)
        assert all(abs(score - float(by_id[i] @ q)) < 1e-5 for i, score in found)
        truth = sorted(by_id, key=lambda i: -float(by_id[i] @ q))[:10]
        return len(set(truth) & {i for i, _ in found}) / 10

    queries = _unit(vectors[:20] + 0.1 * rng.standard_normal((20, embedder.dim), dtype=np.float32))
    # what a flat IVF on the coded segment's own lists, probing as many, finds
    [coded] = mirror.index.segments
    flat = vector_index.build_index(embedder.dim, ids, vectors, centroids=vector_index.centroids_of(coded.index))
    probes = mirror.index._probes(coded)
    truths = [sorted(by_id, key=lambda i: -float(by_id[i] @ q))[:10] for q in queries]
    flat_found = [vector_index.search(flat, q[None], 40, None, probes)[1] for q in queries]
    recall_flat = np.mean([len(set(t) & set(f.tolist())) / 10 for t, f in zip(truths, flat_found)])
    assert np.mean([agrees(mirror, q) for q in queries]) >= min(0.95, recall_flat - 0.02) and recall_flat >= 0.85
    gone = ids[100:200]
    store.delete(RecordFilter(ids=tuple(int(i) for i in gone)))
    for i in gone.tolist():
        del by_id[i]
    db.close()
    again = MemoryDatabase(tmp_path, embedder)
    mirror = again.stores["event"].partition("me")
    assert [s.coded for s in mirror.index.segments] == [True] and indexed_ids(again.stores["event"]) == sorted(by_id)
    assert np.mean([agrees(mirror, q) for q in queries]) >= 0.9
    again.close()
    assert on_disk(mirror)[1] == sorted(by_id)


def test_a_window_over_interleaved_segments_finds_each_id_once(monkeypatch):
    """A coded segment's id range can span ids another segment holds (a catch-up, a tier
    merge around a bigger commit); its listed ids are read from SQLite by range, and each
    id is still returned once, with its exact score."""
    monkeypatch.setattr(segments, "CODE_FROM", 1_000)
    rng = np.random.default_rng(6)
    vectors = _clustered(rng, 3_000, dim=64)
    outer = np.setdiff1d(np.arange(3_000), np.arange(1_000, 1_100))
    index = SegmentedIndex(64, [segments.Segment.of(64, outer, vectors[outer]),
                                segments.Segment.of(64, np.arange(1_000, 1_100), vectors[1_000:1_100])],
                           exact=lambda ids: (ids, vectors[ids]))
    assert [s.coded for s in index.segments] == [True, False]
    window = np.arange(900, 1_200)
    scores, ids = index.search(vectors[1_050], 50, window)
    expected = window[np.argsort(-(vectors[window] @ vectors[1_050]), kind="stable")[:50]]
    assert ids.tolist() == expected.tolist() and len(set(ids.tolist())) == 50


def test_flat_lists_are_mapped_from_their_file_and_read_into_memory_only_to_change(tmp_path):
    """A segment read back keeps an IVF's flat lists as a map of its file: its search finds
    what the segment written found, even once the file is deleted (a merge replaced it).
    Removing ids it holds copies its lists into memory first (a map is read-only, and FAISS
    aborts on a write to one); a segment that holds none of them stays mapped."""
    rng = np.random.default_rng(5)
    vectors = _clustered(rng, 6_000)
    centroids = vector_index.train_centroids(vectors, 40)
    written = [segments.Segment.of(32, np.arange(lo, lo + 3_000), vectors[lo:lo + 3_000], centroids)
               for lo in (0, 3_000)]
    for segment in written:
        segments.write_segment(tmp_path, segment, generation=1)
    read = [segments.read_segment(tmp_path, (s.file, s.size, s.low, s.high)) for s in written]
    assert all(vector_index.is_mapped(s.index) for s in read) and not any(vector_index.is_mapped(s.index) for s in written)
    assert read[0].lists == written[0].lists  # still on the shared lists
    queries = vectors[rng.integers(6_000, size=20)]
    before = [SegmentedIndex(32, written).search(q, 10) for q in queries]
    index = SegmentedIndex(32, read)
    for segment in read:
        (tmp_path / segment.file).unlink()
    for (scores, ids), q in zip(before, queries):
        found = index.search(q, 10)
        np.testing.assert_array_equal(found[1], ids)
        np.testing.assert_allclose(found[0], scores, rtol=1e-6)
    index.remove(np.array([3, 4, 5]))
    first, second = index.segments
    assert not vector_index.is_mapped(first.index) and first.file is None and first.size == 2_997
    assert vector_index.is_mapped(second.index) and second.file is not None  # untouched, still its file's
    assert not np.isin([3, 4, 5], index.ids()).any() and index.ntotal == 5_997
    assert 3 not in index.search(vectors[3], 5)[1]
