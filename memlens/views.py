"""What the Python API hands back: an answer with its evidence, and remembered moments, as
plain frozen dataclasses that print as text and display in Jupyter (memlens.display draws
them). They hold no models and no open files, so they can be kept, pickled and compared."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from agent.state import CLOSEST


@dataclass(frozen=True, repr=False)
class Moment:
    """One remembered record as a person reads it: what was said, read, seen or summarised,
    when (on the wearer's clock), and where in which recording (`path`, seconds `start`..`end`)."""

    text: str
    kind: str  # utterance, text, sighting, clip, recording, day, ... (memory.records)
    when: datetime
    until: datetime
    video_id: str | None = None
    start: float = 0.0
    end: float = 0.0
    path: str | None = None  # the recording's file, when memory knows where it came from
    source: str = ""  # the channel it came from: transcript, ocr, sighting, place, caption ...
    speaker: str | None = None
    score: float | None = None  # how strongly it supports an answer (evidence only)
    record_id: int | None = None
    related: bool = False  # evidence cited beside the answer, about the question, not what it rests on

    def __str__(self) -> str:
        return f"{'also: ' if self.related else ''}{self.when:%a %d %b %H:%M:%S} [{self.source or self.kind}] {self.text}"

    __repr__ = __str__

    def _repr_html_(self) -> str:
        from memlens.display import moments_html

        return moments_html([self])


class Moments(tuple):
    """Remembered moments in time order; a table in Jupyter, one line each in a terminal."""

    def __new__(cls, moments: Sequence[Moment] = ()):
        return super().__new__(cls, moments)

    def __str__(self) -> str:
        return "\n".join(str(m) for m in self) or "(nothing remembered)"

    __repr__ = __str__

    def _repr_html_(self) -> str:
        from memlens.display import moments_html

        return moments_html(list(self))


@dataclass(frozen=True, repr=False)
class Answer:
    """An answer with the evidence it rests on, or an abstention (`abstained`, and `answer`
    says why; its evidence, all `related`, is the closest memory came). `confidence` is the
    agent's calibrated belief it is right."""

    question: str
    answer: str
    abstained: bool
    confidence: float
    evidence: Moments = field(default_factory=Moments)
    asked_at: datetime | None = None
    chosen_option: int | None = None
    trace: tuple[str, ...] = ()  # how the agent got there, step by step

    def __str__(self) -> str:
        head = f"{'(abstained) ' if self.abstained else ''}{self.answer}  [confidence {self.confidence:.2f}]"
        closest = [f"  {CLOSEST}:"] if self.abstained and self.evidence else []
        return "\n".join([head, *closest, *(f"  {m}" for m in self.evidence)])

    __repr__ = __str__

    def _repr_html_(self) -> str:
        from memlens.display import answer_html

        return answer_html(self)
