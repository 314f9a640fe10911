"""Conversation cues read from transcripts: who speaks, and what kind of speech act.

Rules, not a model: they are cheap, deterministic and easy to audit. An LLM-backed
annotator can replace `speech_acts` later without touching the stores.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from memory.language import QUESTION_WORDS, english
from perception.types import AsrSegment

# What people say right before their own name when they introduce themselves ("Hi, it's
# Bob", "this is Mike from accounting", "it's me, Alice"); the name itself must be one that
# the English pipeline reads as a person ("ugh, it's Monday" names nobody).
_INTRO_BEFORE = re.compile(r"\b(?:i'm|i am|it's|it is|this is|my name is|name's|call me)(?:\s+me)?[\s,]*$",
                           re.IGNORECASE)

_ACT_PATTERNS = {
    "request": r"\b(could you|can you|would you|will you|can i|could i|may i|please|don't forget to|remember to)\b",
    "commitment": r"\b(i will|i'll|i am going to|i'm going to|i promise|let me|we will|we'll)\b",
    "correction": r"\b(actually|(?:oh|no),? wait|wait,? no|i mean|sorry,? (?:i meant|it's|no)|no,? sorry|or rather|make that|"
                  r"scratch that|instead|changed to|moved to|not .{1,30} but)\b",
    "question": r"\?\s*$",
    "intention": r"\b(i need to|i have to|i should|i want to|i plan to|remind me)\b",
}
_ACTS = {name: re.compile(p, re.IGNORECASE) for name, p in _ACT_PATTERNS.items()}
CORRECTION_CUE = _ACTS["correction"]
CUE_OPENS = 10  # characters: a sentence or turn that corrects the one before opens with its cue


def opens_a_correction(text: str) -> bool:
    """Whether a sentence or a turn corrects the one before it ("Sorry, I mean Tuesday",
    "Oh wait, it's at 7 now"): it opens with a correction cue."""
    cue = CORRECTION_CUE.search(text)
    return cue is not None and cue.start() <= CUE_OPENS


def speech_acts(text: str) -> list[str]:
    return [name for name, pattern in _ACTS.items() if pattern.search(text)]


_ACCEPTANCE = re.compile(r"^\W*(sure|ok|okay|of course|will do|no problem|alright|all right|certainly|fine)\b", re.IGNORECASE)


def turn_acts(segments: Sequence[AsrSegment], max_gap_s: float = 10.0) -> list[list[str]]:
    """Speech acts per turn, in order. A turn that another voice answers at once with an
    acceptance or a promise ("Sure, I will buy batteries") was a request, even when ASR
    garbled the asking ("cause you buy batteries tomorrow"); a question was one when a promise
    answers it ("... batteries tomorrow?" / "Sure, I will"), not a bare "sure" ("coffee?")."""
    acts = [speech_acts(seg.text) for seg in segments]
    for i, (turn, reply) in enumerate(zip(segments, segments[1:])):
        promised = "commitment" in acts[i + 1]
        answered = (reply.speaker is not None and turn.speaker is not None and reply.speaker != turn.speaker
                    and reply.start - turn.end <= max_gap_s and (_ACCEPTANCE.search(reply.text) or promised))
        if answered and "request" not in acts[i] and ("question" not in acts[i] or promised and not _asks_what(turn.text)):
            acts[i].append("request")
    return acts


_WH_QUESTION = re.compile(rf"^\W*(?:{'|'.join(sorted(QUESTION_WORDS))})\b", re.IGNORECASE)


def _asks_what(text: str) -> bool:
    """Whether the turn's last sentence asks with a question word ("who is leading the meeting?"):
    a question for what someone knows, which a promise ("I will tell you later") does not make a request."""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]
    return bool(sentences) and _WH_QUESTION.match(sentences[-1]) is not None


# What the English pipeline labels that no one is called ("it's Monday", "it's Christmas", "it's 5").
_NEVER_A_NAME = {"DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "MONEY", "PERCENT"}
# A place may be meant after "it's" or "this is" ("this is Paris"), never after "I'm" ("I'm Marcus").
_PLACE = {"GPE", "LOC", "FAC"}
_FIRST_PERSON_BEFORE = re.compile(r"\b(?:i'm|i am|my name is|name's|call me)[\s,]*$", re.IGNORECASE)
# ... nor after a greeting ("Hi, it's Nina": the model takes Nina for a place)
_GREETED_BEFORE = re.compile(r"\b(?:hi|hey|hello|morning|evening|afternoon)\W+(?:it's|it is|this is)[\s,]*$",
                             re.IGNORECASE)


def introduced_names(text: str) -> list[str]:
    """Names a speaker gives for themselves: a name right after an introduction. The
    pipeline's small model knows common Western names only ("Priya" is no PERSON to it, and
    "Marcus" a place, "Selena" a work of art), so any proper noun right after the
    introduction counts, unless it labels it a date or a number, or a place the speaker
    does not say they are or greet as ("Hi, it's Nina")."""
    doc = english()(text)
    labelled = {t.i: ent.label_ for ent in doc.ents for t in ent}
    names = [(ent.text, ent.start_char) for ent in doc.ents if ent.label_ == "PERSON"]

    def named(i: int) -> bool:
        label = labelled.get(i)
        before = text[:doc[i].idx]
        return label not in _NEVER_A_NAME and (
            label not in _PLACE or _FIRST_PERSON_BEFORE.search(before) is not None
            or _GREETED_BEFORE.search(before) is not None)

    for token in doc:
        if token.pos_ != "PROPN" or labelled.get(token.i) == "PERSON" or not named(token.i):
            continue
        if token.i == 0 or doc[token.i - 1].pos_ != "PROPN":  # the first word of a proper-noun run
            end = token.i
            while end + 1 < len(doc) and doc[end + 1].pos_ == "PROPN" and named(end + 1):
                end += 1
            names.append((doc[token.i:end + 1].text, token.idx))
    return [name for name, at in sorted(names, key=lambda n: n[1]) if _INTRO_BEFORE.search(text[:at])]


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
