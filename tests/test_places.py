"""Places without signs: one video's keyframes grouped into stays by their views, matched to
the namespace's places across videos, typed by what the detector saw there and named by the
user (which re-writes what memory says happened there); a sign still names the time it is
read."""
from __future__ import annotations

import dataclasses
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


def test_camera_cuts_within_one_recording_are_one_place_unless_a_view_lasts_or_a_sign_names_it():
    cuts = [(t, [1, 2, 3][i % 3]) for i, t in enumerate(range(0, 60, 4))]  # a talk cut between three cameras
    stays = video_stays(_video("talk", cuts))
    assert [(s.start, s.until) for s in stays] == [(0, 60.0)]
    walk = [(0, 1), (4, 2), (8, 1), (12, 4), (16, 4), (20, 4), (24, 4), (28, 4), (32, 4)]  # then a new room, for long
    assert [s.start for s in video_stays(_video("walk", walk))] == [0, 12]
    assert [s.start for s in video_stays(_video("talk", cuts), signs=[9.0])] == [0, 8]  # a sign read at 9 s: from there on


def _kinds(things, views=((0, 1), (20, 1), (40, 1)), still: bool = False) -> list[str | None]:
    video = _video("v", list(views), [_thing(label, t) for label, t in things])
    if still:
        video = dataclasses.replace(video, duration=0.04, still=True)
    return [kind_of(stay, DEFAULT_PLACE_KINDS) for stay in video_stays(video)]


def test_a_place_is_typed_by_the_things_seen_across_it():
    assert _kinds([("bed", t) for t in (2, 20, 41)] + [("chair", 5)]) == ["bedroom"]
    assert _kinds([(label, t) for t in (1, 30) for label in ("toilet", "sink")]) in (["bathroom"], ["kitchen"])
    assert _kinds([("bed", 3)]) == [None]  # one frame is not enough
    assert _kinds([("person", t) for t in range(0, 60, 5)]) == [None]  # people are everywhere


def test_one_moment_of_a_long_stay_or_a_photo_never_types_a_place():
    # a "toilet" on two frames of a minute-long close-up of a face (seen on real footage)
    assert _kinds([("toilet", 31.0), ("toilet", 31.5)]) == [None]
    assert _kinds([("bed", 0.0)], views=((0, 1),), still=True) == [None]
    assert _kinds([("bed", t) for t in (10.0, 10.5, 11.0, 25.0)]) == ["bedroom"]  # seen again later: it is there


def test_places_from_views_are_typed_named_by_signs_and_by_the_user(memory):
    bed = [_thing("bed", t) for t in (1.0, 12.0, 25.0)]
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
