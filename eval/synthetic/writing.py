"""Helpers the scenario scripts (morning.py, evening.py, weekend.py) write with: things laid
along the floor, lines in a person's voice, and the spans and last sightings their questions'
evidence comes from. One place, so every scenario draws and scores the same way."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from .script import RGB, Person, Placement, Question, Script, Span, Utterance


def row(*names: str, y: float = 0.76) -> tuple[Placement, ...]:
    """Things spread along the floor on the left, clear of notes and people."""
    return tuple(Placement(n, 0.12 + 0.22 * k, y) for k, n in enumerate(names))


def voiced(voices: Mapping[str, str]) -> Callable[[float, str, str], Utterance]:
    """`say(start, speaker, text)`: a line in the speaker's voice."""
    return lambda start, speaker, text: Utterance(start, speaker, voices[speaker], text)


def said(script: Script, fragment: str) -> Span:
    """The span of the first line holding `fragment`."""
    return script.speech_span(next(u for u in script.utterances if fragment in u.text))


def shown(script: Script, line: str) -> tuple[Span, ...]:
    """The shots whose note, screen or sign shows `line`."""
    return tuple((sh.start, sh.end) for sh in script.shots if sh.text and line in sh.text.lines)


def where_last(script: Script, obj: str, text: str, synonyms: Mapping[str, tuple[str, ...]] = {}) -> Question:
    """"Where is X?": the room it was last seen in (or a word for that room)."""
    span, room = script.last_seen(obj)
    return Question(obj, text, room, "object_location", (room, *synonyms.get(room, ())), (span,))


def cast(voices: Mapping[str, str], colours: Mapping[str, RGB]) -> tuple[Person, ...]:
    """The people of a script, each in their voice and the colour they are drawn in."""
    return tuple(Person(name, voices[name], colour) for name, colour in colours.items())


def finished(draft: Script, questions: Callable[[Script], tuple[Question, ...]]) -> Script:
    """The script with the questions written from it, checked."""
    script = replace(draft, questions=questions(draft))
    script.validate()
    return script
