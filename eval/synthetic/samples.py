"""Small ready-made scripts for tests, notebooks and quick checks."""
from __future__ import annotations

from .script import Person, Placement, Question, Room, SceneObject, Script, Shot, TextArtifact, Utterance


def short_scene() -> Script:
    """20 s: kitchen with a note and Bob speaking, then the living room with scissors."""
    return Script(
        title="short",
        duration=20,
        fps=10,
        size=(640, 360),
        start_datetime="2024-05-14T07:30:00Z",
        rooms=(Room("kitchen", (236, 214, 140)), Room("living room", (150, 200, 160))),
        objects=(SceneObject("scissors", (45, 45, 50), "diamond"),),
        people=(Person("Bob", "en-us+m3"),),
        shots=(
            Shot(0, 10, "kitchen", (Placement("scissors", 0.15, 0.78),),
                 TextArtifact("note", ("WIFI PASSWORD", "BLUEFOX42")), "Bob"),
            Shot(10, 20, "living room", (Placement("scissors", 0.15, 0.78),)),
        ),
        utterances=(Utterance(4.0, "Bob", "en-us+m3", "Hi, it's Bob. Please buy eggs."),),
        questions=(
            Question("wifi", "What is the wifi password?", "BLUEFOX42", "text",
                     ("bluefox42",), ((0.0, 10.0),)),
            Question("scissors", "Where did I leave the scissors?", "living room",
                     "object_location", ("living room",), ((10.0, 20.0),)),
            Question("car", "What colour is my car?", "", "unanswerable"),
        ),
        seed=3,
    )
