"""Conversation cues read from transcripts: who speaks, and what kind of speech act.

Rules, not a model: they are cheap, deterministic and easy to audit. An LLM-backed
annotator can replace `speech_acts` later without touching the stores.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from memory.language import person_names
from perception.types import AsrSegment

# What people say right before their own name when they introduce themselves ("Hi, it's
# Bob", "this is Mike from accounting", "it's me, Alice"); the name itself must be one that
# the English pipeline reads as a person ("ugh, it's Monday" names nobody).
_INTRO_BEFORE = re.compile(r"\b(?:i'm|i am|it's|it is|this is|my name is|name's|call me)(?:\s+me)?[\s,]*$",
                           re.IGNORECASE)

_ACT_PATTERNS = {
    "request": r"\b(could you|can you|would you|will you|please|don't forget to|remember to)\b",
    "commitment": r"\b(i will|i'll|i am going to|i'm going to|i promise|let me|we will|we'll)\b",
    "correction": r"\b(actually|no wait|wait,? no|i mean|sorry,? (?:i meant|it's)|instead|changed to|moved to|not .{1,30} but)\b",
    "question": r"\?\s*$",
    "intention": r"\b(i need to|i have to|i should|i want to|i plan to|remind me)\b",
}
_ACTS = {name: re.compile(p, re.IGNORECASE) for name, p in _ACT_PATTERNS.items()}
CORRECTION_CUE = _ACTS["correction"]


def speech_acts(text: str) -> list[str]:
    return [name for name, pattern in _ACTS.items() if pattern.search(text)]


_ACCEPTANCE = re.compile(r"^\W*(sure|ok|okay|of course|will do|no problem|alright|all right|certainly|fine)\b", re.IGNORECASE)


def turn_acts(segments: Sequence[AsrSegment], max_gap_s: float = 10.0) -> list[list[str]]:
    """Speech acts per turn, in order. A turn that another voice answers at once with an
    acceptance or a promise ("Sure, I will buy batteries") was a request, even when ASR
    garbled the asking ("cause you buy batteries tomorrow")."""
    acts = [speech_acts(seg.text) for seg in segments]
    for i, (turn, reply) in enumerate(zip(segments, segments[1:])):
        answered = (reply.speaker is not None and turn.speaker is not None and reply.speaker != turn.speaker
                    and reply.start - turn.end <= max_gap_s
                    and (_ACCEPTANCE.search(reply.text) or "commitment" in acts[i + 1]))
        if answered and not {"request", "question"} & set(acts[i]):
            acts[i].append("request")
    return acts


def introduced_names(text: str) -> list[str]:
    """Names a speaker gives for themselves: a person's name right after an introduction."""
    return [name for name, at in person_names(text) if _INTRO_BEFORE.search(text[:at])]


def name_speakers(segments: Iterable[AsrSegment]) -> dict[str, str]:
    """Map speaker labels to names people give for themselves ("Hi, it's Bob")."""
    votes: dict[str, Counter] = defaultdict(Counter)
    for seg in segments:
        if seg.speaker is None:
            continue
        for name in introduced_names(seg.text):
            votes[seg.speaker][name] += 1
    names: dict[str, str] = {}
    taken: set[str] = set()
    for label, counter in sorted(votes.items(), key=lambda kv: -kv[1].most_common(1)[0][1]):
        for name, _ in counter.most_common():
            if name not in taken:
                names[label] = name
                taken.add(name)
                break
    return names
