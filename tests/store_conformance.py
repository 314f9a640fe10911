"""What every record store must answer alike for retrieval (memory.store.RecordStore).

A test class of a store subclasses `StoreConformance` and supplies the fixture `holding`: a
function that puts records into a fresh event store and returns it. The answers are checked
against `RecordFilter.matches` and `cut_at`, the reference semantics, so the SQLite + FAISS
store (with its indexes and planned reads) and the in-memory one (brute force) agree.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta

import pytest

from memory.records import TEXT_SIGHTING, MemoryRecord, RecordFilter, cut_at
from memory.store import RecordStore
from tests.conftest import T0

SEEN_AT = T0 + timedelta(minutes=5, seconds=30)  # the wifi note has been seen on two keyframes of three


def _rec(text: str, minute: int, ns: str = "me", kind: str = "utterance", video: str = "v1", seconds: int = 30,
         keyframes: tuple[float, ...] = (), **attrs) -> MemoryRecord:
    return MemoryRecord("event", kind, ns, text, T0 + timedelta(minutes=minute),
                        T0 + timedelta(minutes=minute, seconds=seconds), video_id=video, start=0.0,
                        end=float(seconds), keyframes=list(keyframes), attrs=attrs)


def records() -> list[MemoryRecord]:
    """A morning of two wearers, each record starting at its own minute."""
    return [
        _rec("Hi, it's Bob. Could you buy oat milk and eggs?", 0, speaker_name="Bob", mood="glad", acts=["request"]),
        _rec("Sure, I will pick them up after work.", 2, speaker_name="me", acts=["commitment"]),
        _rec("WIFI PASSWORD BLUEFOX", 5, kind=TEXT_SIGHTING, seconds=60, keyframes=(0.0, 20.0, 40.0)),
        _rec("The dentist appointment moved to four thirty.", 20, speaker_name="Alice"),
        _rec("the car keys are on the hook by the door", 35, kind=TEXT_SIGHTING),
        _rec("Alice again: the password is not BLUEFOX any more", 50, video="v2", speaker_name="Alice"),
        _rec("keys to the shed are in the garden", 70, ns="you", video="v3", speaker_name="Bob"),
        _rec("a note about the train timetable", 95, video="v2"),
    ]


class StoreConformance:
    """The tests; a subclass per store supplies `holding`."""

    @pytest.fixture
    def holding(self) -> Callable[[list[MemoryRecord]], RecordStore]:
        raise NotImplementedError("a store's test class supplies `holding`")

    @pytest.fixture
    def store(self, holding) -> RecordStore:
        return holding(records())

    @pytest.fixture
    def held(self, store) -> list[MemoryRecord]:
        return store.query(RecordFilter())

    def test_it_offers_all_that_retrieval_reads(self, store):
        members = [name for name in vars(RecordStore) if not name.startswith("_")]
        assert members and all(callable(getattr(store, name)) for name in members)

    def test_a_record_comes_back_as_it_was_given_in_time_order(self, held):
        assert [replace(r, id=None) for r in held] == records()
        assert len({r.id for r in held}) == len(held) and all(r.id is not None for r in held)

    def test_a_query_keeps_what_the_filter_matches(self, store, held):
        for flt in (RecordFilter(namespace="me"), RecordFilter(kinds=(TEXT_SIGHTING,)),
                    RecordFilter(video_ids=("v2",)), RecordFilter(before=SEEN_AT),
                    RecordFilter(not_before=T0 + timedelta(minutes=20)),
                    RecordFilter(overlaps=(T0 + timedelta(minutes=19), T0 + timedelta(minutes=36))),
                    RecordFilter(attrs=(("speaker_name", "Alice"),)), RecordFilter(attrs_in=(("acts", ("commitment",)),)),
                    RecordFilter(attrs_in=(("speaker_name", ("Bob", "Alice")),)), RecordFilter(mentions=(("bluefox",),)),
                    RecordFilter(mentions=(("password", "bluefox"), ("keys",))), RecordFilter(hours=(8.25, 9.0)),
                    RecordFilter(after_id=held[3].id), RecordFilter(ids=(held[1].id, held[6].id)),
                    RecordFilter(namespace="me", kinds=("utterance",), before=T0 + timedelta(hours=1))):
            assert [r.id for r in store.query(flt)] == [r.id for r in held if flt.matches(r)], flt

    def test_the_newest_come_first_and_a_limit_keeps_them(self, store, held):
        for flt in (RecordFilter(namespace="me"), RecordFilter(namespace="me", kinds=("utterance",)),
                    RecordFilter(namespace="me", mentions=(("bluefox",),)),
                    RecordFilter(namespace="me", attrs_in=(("speaker_name", ("Alice", "Bob")),))):
            newest = [r.id for r in reversed(held) if flt.matches(r)]
            for limit in (1, 2, 3):
                assert [r.id for r in store.query(flt, limit=limit, newest_first=True)] == newest[:limit], (flt, limit)

    def test_a_sighting_going_on_at_question_time_is_cut_to_its_keyframes_before_it(self, store, held):
        (note,) = store.query(RecordFilter(kinds=(TEXT_SIGHTING,), before=SEEN_AT))
        assert note == cut_at(held[2], SEEN_AT) and note.keyframes == [0.0, 20.0]

    def test_it_may_hold_only_the_kinds_written(self, store):
        assert store.may_hold((TEXT_SIGHTING,)) and store.may_hold(("visit", "utterance"))
        assert not store.may_hold(("visit",))

    def test_distinct_lists_each_combination_once_in_the_order_first_seen(self, store):
        me = RecordFilter(namespace="me")
        assert store.distinct(("speaker_name",), me) == [("Bob",), ("me",), ("Alice",)]
        assert store.distinct(("speaker_name", "mood"), me) == [("Bob", "glad"), ("me", None), ("Alice", None)]
        assert store.distinct(("speaker_name",), replace(me, before=T0 + timedelta(minutes=10))) == [("Bob",), ("me",)]
        assert store.distinct(("place",), me) == [] and store.distinct((), me) == []

    def test_first_of_gives_the_first_record_of_each_combination(self, store, held):
        me = RecordFilter(namespace="me")
        assert [r.id for r in store.first_of(("speaker_name",), me)] == [held[0].id, held[1].id, held[3].id]
        later = replace(me, not_before=T0 + timedelta(minutes=30))
        assert [r.id for r in store.first_of(("speaker_name",), later)] == [held[5].id]

    def test_a_dense_ranking_puts_the_nearest_text_first_within_the_filter(self, store, held):
        (car_keys,) = [r for r in held if "car keys" in r.text]
        (shed_keys,) = [r for r in held if "shed" in r.text]
        assert store.rank_dense("where are my keys", RecordFilter(namespace="me"), 3)[0][0] == car_keys.id
        assert store.rank_dense("where are my keys", RecordFilter(namespace="you"), 3)[0][0] == shed_keys.id
        texts = RecordFilter(namespace="me", kinds=(TEXT_SIGHTING,))
        ranked = store.rank_dense("where are my keys", texts, 10)
        assert sorted(i for i, _ in ranked) == sorted(r.id for r in held if texts.matches(r))
        assert [s for _, s in ranked] == sorted((s for _, s in ranked), reverse=True)

    def test_a_lexical_ranking_finds_the_rows_holding_the_words(self, store, held):
        assert [i for i, _ in store.rank_lexical("bluefox", RecordFilter(namespace="me"), 5)] == [held[2].id, held[5].id]
        assert [i for i, _ in store.rank_lexical("keys", RecordFilter(namespace="you"), 5)] == [held[6].id]
        assert store.rank_lexical("zeppelin", RecordFilter(), 5) == [] and store.rank_lexical("", RecordFilter(), 5) == []
        seen = RecordFilter(namespace="me", before=SEEN_AT)
        assert [i for i, _ in store.rank_lexical("bluefox", seen, 5)] == [held[2].id]

    def test_a_search_shows_the_records_of_its_ranking(self, store):
        for flt in (RecordFilter(namespace="me"), RecordFilter(namespace="me", before=SEEN_AT)):
            for search, rank in ((store.search_dense, store.rank_dense), (store.search_lexical, store.rank_lexical)):
                found = search("the wifi password", flt, 3)
                assert [(r.id, s) for r, s in found] == [(i, s) for i, s in rank("the wifi password", flt, 3)]
                assert found and all(r == cut_at(r, flt.before) and flt.matches(r) for r, _ in found)

    def test_shown_leaves_out_ids_not_held_or_not_yet_seen(self, store, held):
        ranked = [(held[5].id, 0.9), (10**6, 0.8), (held[2].id, 0.7), (held[0].id, 0.1)]
        shown = store.shown(ranked, RecordFilter(before=SEEN_AT))
        assert shown == [(cut_at(held[2], SEEN_AT), 0.7), (held[0], 0.1)]
        assert store.shown([], RecordFilter()) == []
