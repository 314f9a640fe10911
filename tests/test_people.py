"""People from faces: one video's faces grouped into people, matched to the namespace's
people across videos, named by a caption under the face or by the voice seen speaking, and
renamed by the user; forgetting the last video someone was in forgets their face."""
from __future__ import annotations

from datetime import datetime, timedelta

import numpy as np
import pytest

from memory.records import ENTITY_SIGHTING, UTTERANCE, RecordFilter
from perception.faces import cluster_faces
from perception.types import (
    AsrSegment,
    ClipObservation,
    ClipSpan,
    FaceSighting,
    ObjectDetection,
    OcrLine,
    VideoObservation,
)

T0 = datetime(2026, 3, 2, 9, 0)
rng = np.random.default_rng(7)
ANNA, BEN = rng.normal(0, 1, 128), rng.normal(0, 1, 128)
ANNA, BEN = ANNA / np.linalg.norm(ANNA) * 0.9, BEN / np.linalg.norm(BEN) * 0.9  # ~1.27 apart


def _face(t: float, who: np.ndarray, x: float = 300.0) -> FaceSighting:
    jitter = rng.normal(0, 0.01, 128)  # the same face, another frame: ~0.11 away
    return FaceSighting(t, (x, 60.0, x + 60, 130.0), (640, 360), 0.8, tuple(float(v) for v in who + jitter))


def _video(video_id: str, faces, asr=(), ocr=(), start: datetime = T0, objects=()) -> VideoObservation:
    span = ClipSpan(video_id, 0, 0.0, 30.0, start)
    clip = ClipObservation(span, keyframe_times=[0.0, 10.0, 20.0], asr=list(asr), ocr=list(ocr),
                           faces=cluster_faces(faces), objects=list(objects))
    return VideoObservation(video_id, f"/{video_id}.mp4", 30.0, start, True, [clip])


def test_faces_of_one_person_group_together_and_others_apart():
    labelled = cluster_faces([_face(0, ANNA), _face(1, BEN), _face(2, ANNA), _face(3, BEN, x=100)])
    assert [f.person for f in labelled] == ["F1", "F2", "F1", "F2"]


def test_a_lower_third_under_a_face_names_that_person_and_the_voice_they_speak_with(memory):
    caption = OcrLine("TINASEELIG", 0.95, 4.0, (40.0, 300.0, 260.0, 330.0), (640, 360))  # run together by OCR
    logo = OcrLine("Ideas worth spreading", 0.95, 4.0, (400.0, 20.0, 600.0, 40.0), (640, 360))  # above: not a caption
    talk = [AsrSegment(3.0, 9.0, "I've spent two decades studying luck.", 0.9, speaker="S1")]
    video = _video("talk", [_face(t, ANNA) for t in (4.0, 5.0, 6.0, 8.0)], asr=talk, ocr=[caption, logo])
    memory.ingest(video, "me")
    (person,) = memory.people.all("me")
    assert (person.name, person.named_by) == ("Tina Seelig", "lower third")
    (said,) = memory.store("event").query(RecordFilter(namespace="me", kinds=(UTTERANCE,)))
    assert said.text.startswith("Tina Seelig:") and said.attrs["person_id"] == person.id
    seen = memory.store("entity").query(RecordFilter(namespace="me", kinds=(ENTITY_SIGHTING,), attrs=(("source", "face"),)))
    assert [r.text for r in seen] == ["Tina Seelig seen"]


def test_the_same_face_in_another_video_is_the_same_person_and_a_new_face_is_a_new_one(memory):
    intro = [AsrSegment(1.0, 4.0, "Hi, I'm Anna, nice to meet you.", 0.9, speaker="S1")]
    memory.ingest(_video("monday", [_face(t, ANNA) for t in (1.0, 2.0, 3.0)], asr=intro), "me")
    memory.ingest(_video("tuesday", [_face(1.0, ANNA), _face(2.0, BEN, x=50), _face(3.0, BEN, x=50)],
                         start=T0 + timedelta(days=1)), "me")
    people = {p.id: p for p in memory.people.all("me")}
    assert len(people) == 2
    assert people[1].name == "Anna" and people[1].named_by == "introduction" and people[1].count == 4
    assert people[2].name is None
    tuesday = memory.store("entity").query(RecordFilter(namespace="me", video_ids=("tuesday",)))
    assert sorted(r.text for r in tuesday) == ["Anna seen", "person 2 seen"]


def test_a_user_given_name_wins_over_what_footage_says_later(memory):
    memory.ingest(_video("monday", [_face(t, BEN) for t in (1.0, 2.0)]), "me")
    renamed = memory.people.rename("me", "person 1", "Benjamin")
    assert renamed.named_by == "user"
    intro = [AsrSegment(1.0, 4.0, "Hey, it's Ben.", 0.9, speaker="S1")]
    memory.ingest(_video("tuesday", [_face(t, BEN) for t in (1.0, 2.0, 3.0)], asr=intro,
                         start=T0 + timedelta(days=1)), "me")
    (person,) = memory.people.all("me")
    assert person.name == "Benjamin"
    (said,) = memory.store("event").query(RecordFilter(namespace="me", kinds=(UTTERANCE,)))
    assert said.text.startswith("Benjamin:")
    with pytest.raises(KeyError):
        memory.people.rename("me", "person 9", "Nobody")
    with pytest.raises(ValueError):
        memory.people.rename("me", "Benjamin", "  ")


def test_forgetting_the_last_video_a_person_was_in_forgets_their_face(memory):
    memory.ingest(_video("monday", [_face(t, ANNA) for t in (1.0, 2.0)]), "me")
    memory.ingest(_video("tuesday", [_face(t, BEN) for t in (1.0, 2.0)], start=T0 + timedelta(days=1)), "me")
    memory.forget("me", video_id="tuesday")
    assert [p.id for p in memory.people.all("me")] == [1]


def test_naming_someone_rewrites_what_memory_says_about_them(memory):
    memory.ingest(_video("monday", [_face(t, BEN) for t in (1.0, 2.0, 3.0)],
                         asr=[AsrSegment(1.0, 3.5, "The keys are on the shelf.", 0.9, speaker="S1")]), "me")
    person, changed = memory.name_person("me", "person 1", "Ben")
    assert changed == 2  # his sighting and his turn
    texts = sorted(r.text for s in ("entity", "event") for r in memory.store(s).query(
        RecordFilter(namespace="me", attrs=(("person_id", person.id),))))
    assert texts == ["Ben seen", "Ben: The keys are on the shelf."]
    hits = memory.store("entity").search_lexical("Ben", RecordFilter(namespace="me"), k=3)
    assert hits and hits[0][0].text == "Ben seen"


def test_the_body_a_named_face_is_on_stays_a_person_and_forgetting_them_leaves_no_name(memory):
    times = (1.0, 2.0, 3.0)
    body = [ObjectDetection("person", 0.6, t, (280.0, 40.0, 380.0, 350.0), (640, 360), colour="green",
                            instance=1, track=1) for t in times]  # the face lies in its upper half
    memory.ingest(_video("monday", [_face(t, BEN) for t in times], objects=body,
                         asr=[AsrSegment(1.0, 3.5, "The keys are on the shelf.", 0.9, speaker="S1")]), "me")
    memory.name_person("me", "person 1", "Ben")

    def sightings() -> list:
        return memory.store("entity").query(RecordFilter(namespace="me", kinds=(ENTITY_SIGHTING,)))

    (his_body,) = [r for r in sightings() if r.attrs.get("source") != "face"]
    assert his_body.attrs["label"] == "person" and his_body.attrs["name"] == "Ben in green"  # still counted as a person
    (face,) = [r for r in sightings() if r.attrs.get("source") == "face"]
    assert face.attrs["colour"] == "green" and face.text.startswith("Ben in green")
    person, videos, changed = memory.forget_person("me", "Ben")
    assert videos == ["monday"] and changed >= 3  # his face sighting, his body, his turn (and captions)
    left = [r for s in ("entity", "event", "behavior") for r in memory.store(s).query(RecordFilter(namespace="me"))]
    assert not [r.text for r in left if "ben" in (r.text + str(r.attrs)).lower()]
    assert [r.attrs["name"] for r in sightings()] == ["person in green"] and memory.people.all("me") == []
    said = memory.store("event").query(RecordFilter(namespace="me", kinds=(UTTERANCE,)))
    assert [r.text for r in said] == ["someone: The keys are on the shelf."]
    with pytest.raises(KeyError):
        memory.forget_person("me", "Ben")
