"""Conversation cues: speaker names from introductions, speech acts."""
from __future__ import annotations

import pytest

from memory.conversation import name_speakers, speech_acts
from perception.types import AsrSegment


def _turn(text: str, speaker: str) -> AsrSegment:
    return AsrSegment(0.0, 1.0, text, 0.9, speaker=speaker)


def test_names_come_from_self_introductions_only():
    names = name_speakers([
        _turn("Good morning. I am Alice.", "S3"), _turn("Hi, it's Bob.", "S2"),
        _turn("I am leaving now.", "S2"), _turn("Hi Alice, how are you?", "S1"), _turn("I'm Sorry.", "S1"),
    ])
    assert names == {"S3": "Alice", "S2": "Bob"}


@pytest.mark.parametrize("text, act", [
    ("Could you buy oat milk on your way home?", "request"),
    ("Sure, I will pick them up after work.", "commitment"),
    ("Actually no, it moved to four thirty.", "correction"),
    ("I need to call the plumber.", "intention"),
])
def test_speech_acts(text, act):
    assert act in speech_acts(text)


def test_plain_statements_have_no_acts():
    assert speech_acts("The door is locked.") == []
