"""Retrieval: hybrid fusion, strict question-time cut, coarse-to-fine, operators."""
from __future__ import annotations

from datetime import timedelta

import pytest

from memory.records import RecordFilter, order_by_time
from retrieval.operators import MemoryOperators
from retrieval.search import HybridRetriever, SearchQuery
from tests.conftest import T0, make_observation, memory_holding


@pytest.fixture(scope="module")
def filled(tmp_path_factory, embedder):
    with memory_holding(tmp_path_factory.mktemp("retrieval-memory"), embedder, make_observation("day1", T0),
                        make_observation("day2", T0 + timedelta(days=1))) as memory:
        yield memory


def test_hybrid_search_fuses_dense_and_lexical(filled):
    hits = HybridRetriever(filled).search(SearchQuery("BLUEFOX42", "me", kinds=("text",), k=3))
    assert hits[0].record.attrs["line"] == "BLUEFOX42" and "lexical" in hits[0].via
    paraphrase = HybridRetriever(filled).search(SearchQuery("groceries Bob wanted", "me", kinds=("utterance",), k=3))
    assert any("oat milk" in h.record.text for h in paraphrase)


def test_question_time_cut_is_strict(filled):
    retriever = HybridRetriever(filled)
    said_at = T0 + timedelta(seconds=10)  # Bob's request ends exactly here on day 1
    hits = retriever.search(SearchQuery("oat milk eggs", "me", kinds=("utterance",), before=said_at, k=10))
    assert all(h.record.wall_end < said_at for h in hits)
    assert not any("oat milk" in h.record.text for h in hits)
    just_after = retriever.search(SearchQuery("oat milk eggs", "me", kinds=("utterance",),
                                              before=said_at + timedelta(milliseconds=1), k=10))
    assert any("oat milk" in h.record.text for h in just_after)


def test_filters_by_source_video(filled):
    hits = HybridRetriever(filled).search(SearchQuery("scissors", "me", video_ids=("day2",), k=20))
    assert hits and {h.record.video_id for h in hits} == {"day2"}


def test_coarse_to_fine_returns_fine_records_inside_the_chosen_day(filled):
    hits = HybridRetriever(filled).coarse_to_fine(
        SearchQuery("dentist appointment", "me", before=T0 + timedelta(hours=12), k=5))
    assert hits and all(h.record.kind not in ("day", "hour") for h in hits)
    assert all(h.record.wall_start.date() == T0.date() for h in hits)


def test_last_seen_and_trajectory_respect_the_time_cut(filled):
    ops = MemoryOperators(filled)
    assert ops.resolve_entity("the scissors", "me", None).entity == "scissors"
    assert ops.resolve_entity("my passport", "me", None) is None
    last = ops.last_seen("me", "scissors", before=T0 + timedelta(seconds=40))
    assert last.attrs["place"] == "living room" and last.video_id == "day1"
    assert ops.last_seen("me", "scissors", before=T0 + timedelta(seconds=20)).attrs["place"] == "kitchen"
    assert ops.last_seen("me", "scissors", before=T0) is None
    assert ops.last_seen("me", "scissors", before=None).video_id == "day2"


def test_count_distinct_sightings_merges_repeats_but_not_moves(filled):
    ops = MemoryOperators(filled)
    assert ops.count_sightings("me", "scissors", before=None) == 4  # kitchen, living room, on two days
    assert ops.count_sightings("me", "keys", before=T0 + timedelta(hours=1)) == 1


def test_order_by_time_uses_stored_timestamps(filled):
    ops = MemoryOperators(filled)
    trail = ops.trajectory("me", "scissors", None)
    assert [r.wall_start for r in order_by_time(reversed(trail))] == sorted(r.wall_start for r in trail)


def test_follow_up_turns_stay_with_the_speaker_and_before_the_cut(filled):
    ops = MemoryOperators(filled)
    turns = filled.store("event").query(RecordFilter(namespace="me", video_ids=("day1",), kinds=("utterance",)))
    first = next(r for r in turns if "three pm" in r.text)
    later = ops.follow_up_turns(first, before=None)
    assert [r.attrs["said"] for r in later] == ["Actually no, it moved to four thirty."]
    assert ops.follow_up_turns(first, before=T0 + timedelta(seconds=42)) == []


def test_rankings_computed_at_once_read_the_commit_the_search_began_on(tmp_path, embedder, monkeypatch):
    """A search's rankings run on the retriever's threads, together: a re-ingest that commits
    while one of them runs is seen by none of them, and the fused hits are those the same
    rankings give one after another."""
    import threading

    from memory.config import MemoryConfig
    from memory.memory import Memory
    from memory.records import MemoryRecord
    from retrieval.search import RetrievalConfig

    def said(text: str) -> MemoryRecord:
        return MemoryRecord("event", "utterance", "me", text, T0, T0 + timedelta(seconds=30), video_id="v1")

    memory = Memory(MemoryConfig(root=tmp_path), embedder=embedder)
    store = memory.store("event")
    store.add([said("the wifi password is BLUEFOX42"), said("the kettle is on")])
    query = SearchQuery("wifi password", "me", stores=("event",), k=3)
    one_by_one = HybridRetriever(memory, RetrievalConfig(parallel_rankings=1)).search(query)
    together = HybridRetriever(memory, RetrievalConfig(parallel_rankings=2))
    assert [(h.record.id, h.score, h.via) for h in together.search(query)] == \
        [(h.record.id, h.score, h.via) for h in one_by_one]

    def replace():
        with memory.db.batch():
            store.delete(RecordFilter(video_ids=("v1",)))
            store.add([said("the wifi password changed to REDOWL7")])

    committed, threads = threading.Event(), set()
    dense, lexical = store.rank_dense, store.rank_lexical

    def dense_after_a_commit(*args):
        threads.add(threading.get_ident())
        writer = threading.Thread(target=replace)
        writer.start()
        writer.join(30)
        committed.set()
        return dense(*args)

    def lexical_once_committed(*args):
        threads.add(threading.get_ident())
        assert committed.wait(30)
        return lexical(*args)

    monkeypatch.setattr(store, "rank_dense", dense_after_a_commit)
    monkeypatch.setattr(store, "rank_lexical", lexical_once_committed)
    hits = together.search(query)
    assert len(threads) == 2 and threading.get_ident() not in threads
    assert {h.record.text for h in hits} == {"the wifi password is BLUEFOX42", "the kettle is on"}
    assert {"dense", "lexical"} <= {v for h in hits for v in h.via}
    monkeypatch.undo()
    assert [h.record.text for h in together.search(query)] == ["the wifi password changed to REDOWL7"]
    memory.close()


def test_a_search_reads_the_rows_of_its_hits_only_and_keeps_the_fused_order(filled, monkeypatch):
    """Rankings are of ids; a cold row is a random read of the database, so only the fused
    top k are read, and the hits are those a search of whole records would return."""
    query = SearchQuery("where did I leave the keys", "me", k=3)
    retriever = HybridRetriever(filled)
    store = filled.store("event")
    by_records = {}
    for _label, search in (("dense", store.search_dense), ("lexical", store.search_lexical)):
        for rank, (record, _) in enumerate(search(query.text, query.record_filter(), 9)):
            by_records[record.id] = by_records.get(record.id, 0) + 1 / (60 + rank + 1)
    read = []
    for name in ("entity", "event"):
        get = filled.store(name).get
        monkeypatch.setattr(filled.store(name), "get", lambda ids, get=get: read.extend(ids) or get(ids))
    hits = retriever.search(query)
    assert len(hits) == 3 and sorted(read) == sorted(h.record.id for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    event_hits = [h.record.id for h in retriever.search(SearchQuery(query.text, "me", stores=("event",), k=3))]
    assert event_hits == sorted(by_records, key=lambda i: -by_records[i])[:3]
