"""Queries over a rendered life's log, and the item builder both question generators use.

Only question generators read this: it is the ground truth. Every answer is computed from
facts strictly before the question time, so the time cut holds by construction (and the
suite filter checks it again).
"""
from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from eval.life.simulate import Episode, Fact
from eval.schema import EvidenceSpan, Item, Option

NOT_ANSWERABLE = "This question cannot be answered"


@dataclass(frozen=True)
class At:
    """A fact where it happened: its episode, and its span on the wearer's clock."""

    episode: Episode
    fact: Fact

    @property
    def start(self) -> datetime:
        return self.episode.wall(self.fact.start)

    @property
    def end(self) -> datetime:
        return self.episode.wall(self.fact.end)

    @property
    def day(self) -> int:
        return self.episode.day

    def evidence(self, note: str = "") -> EvidenceSpan:
        return EvidenceSpan(self.episode.video_id, round(self.fact.start, 3), round(self.fact.end, 3),
                            self.start.isoformat(), self.end.isoformat(), note)


class LifeLog:
    def __init__(self, episodes: Sequence[Episode]):
        self.episodes = sorted(episodes, key=lambda e: e.wall_start)

    @property
    def people(self) -> list[str]:
        return sorted({e.person for e in self.episodes})

    def of(self, person: str) -> list[Episode]:
        return [e for e in self.episodes if e.person == person]

    def facts(self, person: str, kind: str, before: datetime | None = None, **match: str) -> Iterator[At]:
        """Facts of a kind in time order, ending strictly before `before`."""
        for episode in self.of(person):
            for fact in sorted(episode.facts, key=lambda f: f.start):
                if fact.kind != kind:
                    continue
                at = At(episode, fact)
                if before is not None and not at.end < before:
                    continue
                if all(getattr(fact, k, None) == v or fact.get(k) == v for k, v in match.items()):
                    yield at

    def question_times(self, person: str) -> list[datetime]:
        """Moments a question may be asked: just before each episode, and late each evening."""
        times = [e.wall_start - timedelta(minutes=2) for e in self.of(person)]
        days = sorted({e.wall_start.date() for e in self.of(person)})
        times += [datetime.combine(d, datetime.min.time()) + timedelta(hours=22, minutes=30) for d in days]
        return sorted(times)

    def day_of(self, person: str, when: datetime) -> int | None:
        days = {e.wall_start.date(): e.day for e in self.of(person)}
        return days.get(when.date())


def weekday_label(when: datetime) -> str:
    return f"{when.strftime('%A')} ({when.strftime('%B')} {when.day})"


def make_item(suite: str, task: str, question: str, options: Sequence[tuple[str, str]],
              asked_at: datetime, person: str, evidence: Sequence[At], rng: random.Random,
              memory_type: str | None = None, abstain_option: bool = False, **meta) -> Item:
    """Shuffle the options (the papers give no order; a fixed order would leak) and put
    the not-answerable option last, as seed 001 appends it at evaluation."""
    texts = [t for t, _ in options]
    if len(set(texts)) != len(texts):
        raise ValueError(f"duplicate options for {question!r}: {texts}")
    shuffled = list(options)
    rng.shuffle(shuffled)
    if abstain_option:
        shuffled.append((NOT_ANSWERABLE, "not_answerable"))
    roles = [r for _, r in shuffled]
    gold = roles.index("correct") if "correct" in roles else roles.index("not_answerable")
    videos = tuple(dict.fromkeys(a.episode.video_id for a in evidence))
    return Item(
        id="", suite=suite, task=task, question=question,
        options=tuple(Option(t, r) for t, r in shuffled), answer=gold,
        asked_at=asked_at.isoformat(timespec="seconds"), person=person, videos=videos,
        evidence=tuple(a.evidence() for a in evidence), memory_type=memory_type,
        answerable="correct" in roles, meta=dict(meta),
    )


def distinct_others(rng: random.Random, pool: Sequence[str], exclude: Sequence[str], k: int) -> list[str]:
    """k values from `pool` not in `exclude`, in a seeded order."""
    left = [p for p in dict.fromkeys(pool) if p not in set(exclude)]
    rng.shuffle(left)
    if len(left) < k:
        raise ValueError(f"need {k} distractors from {pool} minus {exclude}")
    return left[:k]
