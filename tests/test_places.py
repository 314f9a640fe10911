"""Places without signs: one video's keyframes grouped into stays by their views, matched to
the namespace's places across videos, typed by what the detector saw there and named by the
user (which re-writes what memory says happened there); a sign still names the time it is
read."""
from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta

import numpy as np

from memory.config import DEFAULT_PLACE_KINDS
from memory.records import ENTITY_SIGHTING, PLACE_VISIT, STAY, RecordFilter
from memory.where import kind_of, video_stays
from perception.types import ClipObservation, ClipSpan, ObjectDetection, OcrLine, VideoObservation

T0 = datetime(2026, 3, 2, 9, 0)
rng = np.random.default_rng(11)


def _view(seed: int) -> tuple[float, ...]:
    base = np.random.default_rng(seed).random(120)
    v = base + rng.normal(0, 0.02, 120)  # the same place, another keyframe
    return tuple(float(x) for x in v / np.linalg.norm(v))


def _thing(label: str, t: float, instance: int = 1) -> ObjectDetection:
    return ObjectDetection(label, 0.6, t, (100.0, 100.0, 300.0, 300.0), (640, 480), "red", (), 1, instance)


def _video(video_id: str, views: list[tuple[float, int]], things=(), ocr=(), start: datetime = T0) -> VideoObservation:
    span = ClipSpan(video_id, 0, 0.0, 60.0, start)
    clip = ClipObservation(span, keyframe_times=[t for t, _ in views], ocr=list(ocr), objects=list(things),
                           views=[_view(seed) for _, seed in views])
    return VideoObservation(video_id, f"/{video_id}.mp4", 60.0, start, False, [clip])


def test_alike_views_in_a_row_are_one_stay_and_a_new_view_starts_another():
    stays = video_stays(_video("v", [(0, 1), (10, 1), (20, 2), (30, 2), (40, 1)]))
    assert [(s.start, s.times[:2]) for s in stays] == [(0, [0, 10]), (20, [20, 30]), (40, [40])]


def test_a_place_is_typed_by_the_things_seen_in_it():
    assert kind_of(Counter({"bed": 3, "chair": 1}), DEFAULT_PLACE_KINDS) == "bedroom"
    assert kind_of(Counter({"toilet": 2, "sink": 2, "toothbrush": 1}), DEFAULT_PLACE_KINDS) in ("bathroom", "kitchen")
    assert kind_of(Counter({"bed": 1}), DEFAULT_PLACE_KINDS) is None  # one frame is not enough
    assert kind_of(Counter({"person": 9}), DEFAULT_PLACE_KINDS) is None


def test_places_from_views_are_typed_named_by_signs_and_by_the_user(memory):
    bed = [_thing("bed", t) for t in (1.0, 2.0, 3.0)]
    mug = [_thing("cup", t) for t in (31.0, 32.0, 33.0)]
    sign = OcrLine("GARAGE", 0.95, 50.0, (100.0, 50.0, 300.0, 90.0), (640, 480))
    memory.ingest(_video("monday", [(0, 1), (10, 1), (30, 2), (40, 2), (50, 3)], bed + mug, [sign]), "me")
    places = {p.id: p for p in memory.places.all("me")}
    assert (places[1].name, places[1].named_by) == ("bedroom", "objects")
    assert places[2].name is None
    visits = sorted(r.text for r in memory.store("event").query(RecordFilter(namespace="me", kinds=(PLACE_VISIT,))))
    assert visits == ["Was in the bedroom", "Was in the garage"]  # the sign names the stay it was read in
    (stay,) = memory.store("event").query(RecordFilter(namespace="me", kinds=(STAY,)))
    assert stay.text == "Was at place 2"  # kept apart from visits until something names it
    place, changed = memory.name_place("me", "place 2", "kitchen")
    assert place.named_by == "user" and changed >= 2
    assert not memory.store("event").query(RecordFilter(namespace="me", kinds=(STAY,)))  # now a visit
    cup = memory.store("entity").query(RecordFilter(namespace="me", kinds=(ENTITY_SIGHTING,), attrs=(("label", "cup"),)))
    assert [r.text for r in cup] == ["red cup seen in the kitchen"] and cup[0].attrs["place"] == "kitchen"
    # the same room another day is the same place, still called what the user called it
    memory.ingest(_video("tuesday", [(0, 2), (10, 2)], start=T0 + timedelta(days=1)), "me")
    assert [p.id for p in memory.places.all("me")] == [1, 2, 3]
    tuesday = memory.store("event").query(RecordFilter(namespace="me", kinds=(PLACE_VISIT,), video_ids=("tuesday",)))
    assert [r.text for r in tuesday] == ["Was in the kitchen"]
    memory.forget("me", video_id="monday")
    assert [p.id for p in memory.places.all("me")] == [2]  # the bedroom and the garage views went with monday
