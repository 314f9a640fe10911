"""The script of a synthetic video: every shot, object sighting, utterance and question
with its time. It is both the renderer's input and the ground truth that evaluation
scores against, so it serialises to one plain JSON file and validates itself: a script
the renderer accepts is one whose questions can be checked exactly.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from typing import Any

RGB = tuple[int, int, int]
Span = tuple[float, float]

QUESTION_KINDS = frozenset(
    {"speech", "text", "object_location", "person", "event", "unanswerable"}
)
CANNOT_ANSWER = "This question cannot be answered"


class ScriptError(ValueError):
    """The script contradicts itself (overlaps, gaps, unknown names, bad spans)."""


def _tupled(value: Any) -> Any:
    """Lists become tuples, recursively, so a script built with lists and one read back
    from JSON compare equal and stay hashable."""
    if isinstance(value, (list, tuple)):
        return tuple(_tupled(v) for v in value)
    return value


class _Frozen:
    def __post_init__(self) -> None:
        for f in fields(self):  # type: ignore[arg-type]
            object.__setattr__(self, f.name, _tupled(getattr(self, f.name)))


@dataclass(frozen=True)
class Room(_Frozen):
    """A place; rendered as a flat background colour with a big name sign."""

    name: str
    background_rgb: RGB


@dataclass(frozen=True)
class SceneObject(_Frozen):
    """A movable thing; its label is printed on screen so OCR and detectors can see it."""

    name: str
    color_rgb: RGB
    shape: str = "square"  # circle | square | rect | triangle | diamond


@dataclass(frozen=True)
class Person(_Frozen):
    """Someone who speaks; `voice` is an espeak-ng voice (e.g. "en-us+f3")."""

    name: str
    voice: str
    color_rgb: RGB = (70, 90, 160)


@dataclass(frozen=True)
class Placement(_Frozen):
    """Where an object is drawn: centre as fractions of frame width and height."""

    object: str
    x: float
    y: float
    state: str = ""  # printed after the label, e.g. "PAN (DIRTY)": clean/dirty, open/closed, full/empty


@dataclass(frozen=True)
class TextArtifact(_Frozen):
    """A note, screen or sign with 1 to 3 short lines that OCR must be able to read."""

    kind: str  # note | screen | sign
    lines: tuple[str, ...]
    x: float = 0.5
    y: float = 0.45


@dataclass(frozen=True)
class Shot(_Frozen):
    """A contiguous time segment showing one room. What is visible is constant within the
    shot, so an object's sightings are exactly the shots that place it."""

    start: float
    end: float
    room: str
    objects: tuple[Placement, ...] = ()
    text: TextArtifact | None = None
    speaker: str | None = None  # a person shown on screen (figure with a name tag)
    activity: str = ""  # what the wearer is doing, for event-style questions


@dataclass(frozen=True)
class Utterance(_Frozen):
    """One spoken line. `end` is None in a hand-written script; the renderer fills it in
    from the synthesised audio so the written ground truth has exact spans."""

    start: float
    speaker: str
    voice: str
    text: str
    end: float | None = None


@dataclass(frozen=True)
class Question(_Frozen):
    """A question with its exact answer. `accepted` holds lowercase keywords: an answer
    containing any of them is correct. Open-ended unanswerable questions have answer "";
    multiple-choice questions (options set) have answer equal to one option, which is
    CANNOT_ANSWER when the video does not contain the answer."""

    id: str
    text: str
    answer: str
    kind: str
    accepted: tuple[str, ...] = ()
    evidence: tuple[Span, ...] = ()
    options: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Script(_Frozen):
    """A whole video. `start_datetime` is the wearer's clock at t=0 (ISO 8601; naive
    times are taken as UTC), written into the container as creation_time."""

    title: str
    duration: float
    fps: int = 10
    size: tuple[int, int] = (960, 540)
    start_datetime: str = "2024-05-14T07:30:00Z"
    rooms: tuple[Room, ...] = ()
    objects: tuple[SceneObject, ...] = ()
    people: tuple[Person, ...] = ()
    shots: tuple[Shot, ...] = ()
    utterances: tuple[Utterance, ...] = ()
    questions: tuple[Question, ...] = ()
    seed: int = 0
    speech_wpm: int = 150
    # espeak-ng -g (pause between words, 10 ms units): 60 ms makes espeak's speech far
    # easier for Whisper-class ASR ("oat milk" instead of "oatmeal")
    speech_word_gap: int = 6

    # ---- serialisation -------------------------------------------------------------
    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(asdict(self), indent=indent)

    @classmethod
    def from_json(cls, text: str) -> Script:
        d = json.loads(text)
        d["rooms"] = [Room(**r) for r in d.get("rooms", [])]
        d["objects"] = [SceneObject(**o) for o in d.get("objects", [])]
        d["people"] = [Person(**p) for p in d.get("people", [])]
        d["shots"] = [
            Shot(
                **{
                    **s,
                    "objects": [Placement(**p) for p in s.get("objects", [])],
                    "text": TextArtifact(**s["text"]) if s.get("text") else None,
                }
            )
            for s in d.get("shots", [])
        ]
        d["utterances"] = [Utterance(**u) for u in d.get("utterances", [])]
        d["questions"] = [Question(**q) for q in d.get("questions", [])]
        return cls(**d)

    # ---- queries the ground truth is derived from ------------------------------------
    def start_time(self) -> datetime:
        return parse_iso(self.start_datetime)

    def shot_at(self, t: float) -> Shot:
        for shot in self.shots:
            if shot.start <= t < shot.end:
                return shot
        if self.shots and t == self.shots[-1].end:
            return self.shots[-1]
        raise ScriptError(f"no shot covers t={t:.2f}s")

    def sightings(self, obj: str) -> list[tuple[Span, str]]:
        """Every (span, room) in which `obj` is visible, in time order."""
        return [
            ((s.start, s.end), s.room)
            for s in self.shots
            if any(p.object == obj for p in s.objects)
        ]

    def last_seen(self, obj: str, before: float | None = None) -> tuple[Span, str]:
        seen = [(span, room) for span, room in self.sightings(obj)
                if before is None or span[0] < before]
        if not seen:
            raise ScriptError(f"object {obj!r} is never seen")
        return seen[-1]

    def speech_span(self, u: Utterance) -> Span:
        """Exact span once rendered; before that a generous estimate."""
        end = u.end if u.end is not None else u.start + estimate_speech_seconds(
            u.text, self.speech_wpm, self.speech_word_gap)
        return (u.start, round(end, 3))

    # ---- consistency -----------------------------------------------------------------
    def validate(self) -> None:
        """Raise ScriptError on anything that would make the ground truth wrong."""
        rooms = {r.name for r in self.rooms}
        objects = {o.name for o in self.objects}
        people = {p.name: p for p in self.people}
        if self.duration <= 0 or self.fps <= 0 or min(self.size) <= 0:
            raise ScriptError("duration, fps and size must be positive")
        if any(v % 2 for v in self.size):
            raise ScriptError(f"size {self.size} must be even for yuv420p")
        parse_iso(self.start_datetime)
        if not self.shots:
            raise ScriptError("a script needs at least one shot")
        cursor = 0.0
        for s in self.shots:
            if abs(s.start - cursor) > 1e-6 or s.end <= s.start:
                raise ScriptError(f"shots must tile the video: {s.start}-{s.end} after {cursor}")
            cursor = s.end
            if s.room not in rooms:
                raise ScriptError(f"shot at {s.start}s shows unknown room {s.room!r}")
            for p in s.objects:
                if p.object not in objects or not (0 <= p.x <= 1 and 0 <= p.y <= 1):
                    raise ScriptError(f"bad placement {p} in shot at {s.start}s")
            if s.speaker is not None and s.speaker not in people:
                raise ScriptError(f"unknown on-screen speaker {s.speaker!r}")
            if s.text is not None and not 1 <= len(s.text.lines) <= 3:
                raise ScriptError(f"text artifact at {s.start}s needs 1 to 3 lines")
        if abs(cursor - self.duration) > 1e-6:
            raise ScriptError(f"shots end at {cursor}s but duration is {self.duration}s")
        previous_end = -1.0
        for u in sorted(self.utterances, key=lambda u: u.start):
            if u.speaker not in people:
                raise ScriptError(f"utterance by unknown person {u.speaker!r}")
            start, end = self.speech_span(u)
            if start < previous_end:
                raise ScriptError(f"utterance at {start}s overlaps the previous one")
            shot = self.shot_at(start)
            if end > shot.end + 1e-6:
                raise ScriptError(
                    f"utterance {u.text!r} ({start}-{end:.2f}s) runs past its shot end {shot.end}s")
            previous_end = end
        for q in self.questions:
            _validate_question(q, self.duration)


def _validate_question(q: Question, duration: float) -> None:
    if q.kind not in QUESTION_KINDS:
        raise ScriptError(f"question {q.id}: unknown kind {q.kind!r}")
    if any(a != a.lower() for a in q.accepted):
        raise ScriptError(f"question {q.id}: accepted keywords must be lowercase")
    if q.options is not None and q.answer not in q.options:
        raise ScriptError(f"question {q.id}: answer is not one of the options")
    if q.kind == "unanswerable":
        if q.evidence or q.answer not in ("", CANNOT_ANSWER):
            raise ScriptError(f"question {q.id}: unanswerable questions have no answer")
        return
    if not q.answer or not q.evidence:
        raise ScriptError(f"question {q.id}: answerable questions need answer and evidence")
    for a, b in q.evidence:
        if not 0 <= a < b <= duration + 1e-6:
            raise ScriptError(f"question {q.id}: evidence span {a}-{b} outside the video")


def estimate_speech_seconds(text: str, wpm: int = 150, word_gap: int = 0) -> float:
    """An upper bound on espeak-ng's duration for `text`, for planning before rendering.
    Calibrated on espeak-ng 1.51 at 150 wpm (about 13 characters a second plus pauses);
    over the morning script it exceeds the real duration by 9 to 45 %."""
    pauses = len(re.findall(r"[,.;:?!]", text))
    words = len(text.split())
    return (len(text) / 13.0) * (150 / wpm) + 0.3 * pauses + 0.01 * word_gap * words


def parse_iso(value: str) -> datetime:
    """ISO 8601 with 'Z' or an offset; naive times are taken as UTC."""
    try:
        dt = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as exc:
        raise ScriptError(f"bad ISO datetime {value!r}") from exc
    return dt if dt.tzinfo else dt.replace(tzinfo=UTC)


def iso_utc(dt: datetime) -> str:
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
