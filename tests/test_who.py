"""Which detected body a face is on (memory.who.bodies_to_faces): the face's centre in the
upper half of the body's box on two frames or more, each face on one body."""
from __future__ import annotations

from datetime import datetime

from memory.who import bodies_to_faces
from perception.types import ClipObservation, ClipSpan, FaceSighting, ObjectDetection, VideoObservation

SIZE = (640, 480)


def _video(bodies: dict[int, tuple], faces: dict[str, tuple], times=(0.0, 1.0, 2.0)) -> VideoObservation:
    objects = [ObjectDetection("person", 0.6, t, box, SIZE, colour="red", instance=n, track=n)
               for t in times for n, box in bodies.items()]
    seen = [FaceSighting(t, box, SIZE, 0.9, (0.0,) * 128, person=who) for t in times for who, box in faces.items()]
    clip = ClipObservation(ClipSpan("v", 0, 0.0, 3.0, datetime(2026, 1, 1)), list(times), objects=objects, faces=seen)
    return VideoObservation("v", "v.mp4", 3.0, datetime(2026, 1, 1), False, [clip])


def test_a_face_at_the_top_of_a_body_is_that_body_s():
    video = _video({1: (100, 50, 220, 470), 2: (400, 60, 520, 470)},
                   {"F1": (140, 70, 180, 120), "F2": (430, 80, 480, 130)})
    assert bodies_to_faces(video) == {1: "F1", 2: "F2"}


def test_a_face_at_a_body_s_feet_or_seen_once_names_nobody():
    assert bodies_to_faces(_video({1: (100, 50, 220, 470)}, {"F1": (140, 400, 180, 450)})) == {}
    assert bodies_to_faces(_video({1: (100, 50, 220, 470)}, {"F1": (140, 70, 180, 120)}, times=(0.0,))) == {}


def test_overlapping_bodies_share_no_face():
    # a person standing in front of another: the face lies in both boxes' upper halves
    video = _video({1: (100, 50, 300, 470), 2: (120, 40, 320, 300)}, {"F1": (150, 70, 200, 120)})
    links = bodies_to_faces(video)
    assert list(links.values()) == ["F1"]
