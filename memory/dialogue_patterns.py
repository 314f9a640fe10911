"""Patterns across a conversation's sessions that no single turn states, found at ingest with
nothing but the sentence embedder. Reflective questions (RefMem-Bench's dimensions: habits,
boundaries, how a view changed) rest on them:

- **a repeated behaviour**: a person says the same kind of thing (a habit, a stance, the same
  kind of photo) in several sessions: their turns, clustered by meaning;
- **a deflected topic**: a person meets questions alike, more than once, with a reply that
  has nothing to do with them and turns the talk elsewhere (a question of their own).

Each pattern becomes one record: its text says it in words, so it is found by meaning like a
segment's cue, and its attrs list the turns it rests on, which are what gets cited.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from memory.conversation import speech_acts

ALIKE = 0.6  # cosine at which two turns say the same kind of thing
OFF_TOPIC = 0.2  # a reply this far from the question before it does not answer it
MIN_SESSIONS = 3  # a behaviour said in at least this many sessions is a pattern
MIN_DEFLECTIONS = 2  # a topic turned away from at least this often is avoided
EXAMPLES = 3  # lines quoted in a pattern's text


@dataclass(frozen=True)
class Said:
    """One turn as the patterns see it: who, in which session, its words, its place in the chat."""

    speaker: str
    session: int
    text: str
    index: int


@dataclass
class Pattern:
    kind: str  # "repeated" | "deflected"
    person: str
    text: str
    turns: list[int]  # indices (Said.index) of the turns it rests on, in time order
    sessions: list[int] = field(default_factory=list)


def _clusters(members: Sequence[int], vectors: np.ndarray) -> list[list[int]]:
    """Greedy clustering in time order: a turn joins the first cluster whose mean it is alike."""
    groups: list[list[int]] = []
    sums: list[np.ndarray] = []
    for m in members:
        v = vectors[m]
        alike = [float(total @ v) / float(np.linalg.norm(total)) for total in sums]
        best = int(np.argmax(alike)) if alike else None
        if best is not None and alike[best] >= ALIKE:
            groups[best].append(m)
            sums[best] = sums[best] + v
        else:
            groups.append([m])
            sums.append(v.copy())
    return groups


def _quote(said: Sequence[Said], turns: Sequence[int]) -> str:
    return " / ".join(f'"{said[t].text}"' for t in turns[:EXAMPLES])


def _sessions(said: Sequence[Said], turns: Sequence[int]) -> list[int]:
    return sorted({said[t].session for t in turns})


def repeated_behaviours(said: Sequence[Said], vectors: np.ndarray) -> list[Pattern]:
    found = []
    for person in dict.fromkeys(s.speaker for s in said):
        mine = [n for n, s in enumerate(said) if s.speaker == person]
        for group in _clusters(mine, vectors):
            sessions = _sessions(said, group)
            if len(sessions) >= MIN_SESSIONS:
                text = (f"{person} said things like this in {len(sessions)} conversations "
                        f"(sessions {', '.join(map(str, sessions))}): {_quote(said, group)}")
                found.append(Pattern("repeated", person, text, [said[t].index for t in group], sessions))
    return found


def deflected_topics(said: Sequence[Said], vectors: np.ndarray) -> list[Pattern]:
    """Questions a person turned away from (by the turn after them), grouped by likeness."""
    turned: dict[str, list[int]] = {}  # person -> indices of the questions they turned from
    for n in range(1, len(said)):
        asked, reply = said[n - 1], said[n]
        if (asked.speaker != reply.speaker and asked.session == reply.session and "question" in speech_acts(asked.text)
                and "?" in reply.text and float(vectors[n] @ vectors[n - 1]) < OFF_TOPIC):
            turned.setdefault(reply.speaker, []).append(n - 1)
    found = []
    for person, questions in turned.items():
        for group in _clusters(questions, vectors):
            if len(group) >= MIN_DEFLECTIONS:
                sessions = _sessions(said, group)
                lines = sorted({t for q in group for t in (q, q + 1)})
                text = (f"{person} turned away from questions like these {len(group)} times "
                        f"(sessions {', '.join(map(str, sessions))}) and changed the subject: "
                        f"{_quote(said, group)}")
                found.append(Pattern("deflected", person, text, [said[t].index for t in lines], sessions))
    return found


def conversation_patterns(said: Sequence[Said], vectors: np.ndarray) -> list[Pattern]:
    """`vectors`: unit-norm embeddings of each turn's words, in the order of `said`."""
    if len(said) < 2:
        return []
    return repeated_behaviours(said, vectors) + deflected_topics(said, vectors)
