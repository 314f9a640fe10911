"""Conversation cues: speaker names from introductions, speech acts."""
from __future__ import annotations

import pytest

from memory.conversation import introduced_names, name_speakers, speech_acts, turn_acts
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
    ("Can I borrow your ladder on Sunday?", "request"),  # asking leave is asking too
    ("Oh wait, it's at 7 now.", "correction"),
    ("No, sorry, at five on Saturdays.", "correction"),  # a hurried correction of one's own line
    ("Make that Thursday.", "correction"),
])
def test_speech_acts(text, act):
    assert act in speech_acts(text)


def test_plain_statements_have_no_acts():
    assert speech_acts("The door is locked.") == []


def test_a_yes_no_question_a_promise_answers_was_a_request():
    turns = [AsrSegment(0.0, 2.0, "Hey, it's Alice, cause you buy batteries tomorrow?", 0.8, speaker="S1"),
             AsrSegment(2.5, 4.0, "Sure, I will buy batteries after work.", 0.9, speaker="S2"),
             AsrSegment(5.0, 6.0, "Coffee?", 0.9, speaker="S2"),
             AsrSegment(6.5, 7.0, "Sure.", 0.9, speaker="S1")]
    acts = turn_acts(turns)
    assert "request" in acts[0]  # Whisper heard the asking as a question: the promise makes it a request
    assert "request" not in acts[2]  # an offer accepted is no request


def test_a_turn_another_voice_accepts_is_a_request_even_when_asr_garbled_it():
    turns = [AsrSegment(0.0, 2.0, "Hey, cause you buy batteries tomorrow.", 0.8, speaker="S1"),
             AsrSegment(2.5, 4.0, "Sure, I will buy batteries after work.", 0.9, speaker="S2"),
             AsrSegment(5.0, 6.0, "Who is leading the meeting?", 0.9, speaker="S2"),
             AsrSegment(6.5, 8.0, "I will tell you later.", 0.9, speaker="S1"),
             AsrSegment(9.0, 10.0, "The door is locked.", 0.9, speaker="S1"),
             AsrSegment(10.5, 11.0, "Okay.", 0.9, speaker="S1"),
             AsrSegment(60.0, 61.0, "Fine.", 0.9, speaker="S2")]
    acts = turn_acts(turns)
    assert "request" in acts[0]
    assert "request" not in acts[2]  # a question for what someone knows, answered with a promise, stays a question
    assert "request" not in acts[4]  # the same voice going on is not an answer
    assert "request" not in acts[5]  # a minute later is not an answer either


@pytest.mark.parametrize(("text", "names"), [
    ("ugh, it's Monday again", []),  # a capitalised word after "it's" is not a name
    ("It's Paris in the spring", []),
    ("this is Mike from accounting", ["Mike"]),
    ("I'm Tina Seelig and I teach at Stanford", ["Tina Seelig"]),
    ("It's me, Alice", ["Alice"]),
    ("Hi, it's Nina. Could you send me the report?", ["Nina"]),  # a greeting: a name the model takes for a place
    ("I met Bob yesterday", []),  # named, but not introducing themselves
    # names the small English model does not know as people ("My name is Priya" is an ORG to it)
    ("Hi, I'm Priya. Dinner is ready.", ["Priya"]),
    ("My name is Priya", ["Priya"]),
    ("I'm Oluwaseun Adeyemi", ["Oluwaseun Adeyemi"]),
    ("Hi there, I'm Marcus from the flat upstairs.", ["Marcus"]),  # a place to the model
    ("Hey, it's Selena, the kettle is on.", ["Selena"]),  # a work of art to it
    ("I'm Catholic", []),  # a faith, a nationality, a day or a place is no one's name
    ("I'm fine, Bob", []),
])
def test_a_name_is_a_person_named_right_after_an_introduction(text, names):
    assert introduced_names(text) == names
