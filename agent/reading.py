"""A reading: an answer read out of remembered records (agent.reader), how it is said, and
how readings of one question combine: the same answer read in several records cites them
all, and several things asked for are listed."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from agent.state import Evidence
from agent.told import how_told
from memory.records import CLIP_CAPTION, RECORDING, SEGMENT, UTTERANCE

# Records written from other records (captions, roll-ups): their words are second-hand, so
# they weigh less and do not count as a second record agreeing.
DERIVED = (CLIP_CAPTION, SEGMENT, RECORDING)
QUOTE_KINDS = ("quote", "reason")  # kinds whose answer is a line, not a span inside one
AGREEING = 3  # other lines an answer cites beside its own when they gave the same answer
LISTED = 5  # the most things a list reading names
LIST_SHARE = 0.75  # ... each read at least this strongly against the best
KINDRED_SHARE = 0.5  # ... or this strongly, when each names the kind asked for


@dataclass(frozen=True)
class Reading:
    """An answer read out of one record: the short span, its kind, the record, the
    sentence around it and how strongly the evidence supports it (0..1)."""

    answer: str
    kind: str
    evidence: Evidence
    sentence: str
    score: float
    agreeing: int = 1  # how many records offered the same answer
    also: tuple[Evidence, ...] = ()  # other records it rests on: lines that agree, a list's other things
    asked: str = ""  # the line it replies to, when it was read as a reply: with it, it meets the question
    beside: bool = False  # read beside a sentence that only restates the question: what that one leaves unsaid

    @property
    def meets(self) -> str:
        """The words that meet the question: the sentence, after the line it replies to."""
        return f"{self.asked} {self.sentence}".strip()

    @property
    def records(self) -> tuple[Evidence, ...]:
        """Every record the reading rests on, its own first."""
        return (self.evidence, *self.also)

    def statement(self) -> str:
        """The answer with where it came from, as a short sentence."""
        told = how_told(self.evidence.record)
        return f'{self.answer} ({told} "{self.sentence}", {self.evidence.record.wall_start:%a %d %b %H:%M})' if told \
            else f"{self.answer} ({self.sentence}, {self.evidence.record.wall_start:%a %d %b %H:%M})"

    def as_answer(self) -> str:
        """What to answer: the short span, or a line quoted with who said or showed it."""
        if self.kind not in QUOTE_KINDS:
            return self.answer
        record = self.evidence.record
        told = how_told(record)
        if record.kind == UTTERANCE:
            return f'{told}: "{self.answer}" (at {record.wall_start:%H:%M})'
        return f'"{self.answer}" ({told} at {record.wall_start:%H:%M})' if told else \
            f"{self.answer} ({record.wall_start:%H:%M})"


def listed(chosen: Reading, readings: Sequence[Reading], names_kind: Callable[[str], bool] | None = None) -> Reading:
    """Several things asked for ("what activities does she do?"): every reading of the kind
    nearly as strong as the best, best first, one naming another once ("pottery" and "pottery
    class"), as one reading citing each one's record. When the best names the kind asked for
    (`names_kind`: "homeless shelter" for "which shelters?"), another naming it is listed
    though read less strongly ("a dog shelter", said further down the evidence)."""
    kindred = names_kind is not None and names_kind(chosen.answer)
    picked = [chosen]
    for r in sorted(readings, key=lambda r: -r.score):
        if len(picked) == LISTED or r.score < chosen.score * (KINDRED_SHARE if kindred else LIST_SHARE):
            break
        if r.score < chosen.score * LIST_SHARE and not names_kind(r.answer):
            continue
        same = r.answer.lower()
        if r.kind == chosen.kind and not any(same in p.answer.lower() or p.answer.lower() in same for p in picked):
            picked.append(r)
    if len(picked) == 1:
        return chosen
    also, cited = [], {chosen.evidence.record.id}
    for e in (*chosen.also, *(e for p in picked[1:] for e in p.records)):  # each record once, in the order named
        if e.record.id not in cited:
            cited.add(e.record.id)
            also.append(e)
    return replace(chosen, answer=", ".join(p.answer for p in picked), also=tuple(also))


def agreeing(top: Reading, same: Sequence[Reading]) -> tuple[Evidence, ...]:
    """The other lines that offered the same answer, strongest first (at most AGREEING): an
    answer said twice is cited where it was said both times, not only where it read best.
    A caption restating a line is no other line."""
    out, cited = list(top.also), {top.evidence.record.id, *(e.record.id for e in top.also)}  # a reply's question first
    for r in sorted(same, key=lambda r: -r.score):
        if len(out) == AGREEING + len(top.also):
            break
        if r.evidence.record.kind not in DERIVED and r.evidence.record.id not in cited:
            cited.add(r.evidence.record.id)
            out.append(r.evidence)
    return tuple(out)
