"""Turns a transcribed conversation (perception.transcripts.Dialogue) into memory records of
the same kinds speech from video becomes, so every tool of the agent and the same strict
time cut work over both: one utterance per turn (an image shared with it is in its text,
by caption), one caption per session, and hour / day roll-ups. A pure function, like the
video builder: a failure while building leaves memory as it was.

It also writes REMIND's first level (RefMem-Bench, arXiv:2606.01223): the conversation cut
into segments of a few turns, each embedded by an event cue written once here and reused by
every question (the injected summariser writes it when an LLM is configured; without one
the cue is the segment's own words), and, given the embedder, the patterns across sessions
that no turn states (memory.dialogue_patterns). The reflective tool ranks both.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

import numpy as np

from memory.captions import Summarizer, extractive_summary, roll_up
from memory.conversation import speech_acts, turn_acts
from memory.dialogue_patterns import Said, conversation_patterns
from memory.records import CLIP_CAPTION, PATTERN, SEGMENT, UTTERANCE, MemoryRecord
from perception.transcripts import Dialogue, Session, Turn
from perception.types import AsrSegment

TURN_LENGTH = timedelta(seconds=10)  # a turn's end: the time cut is strict on it
# Turns per segment: a remark, the reply and what follows it, within the 256 word pieces
# all-MiniLM-L6-v2 reads (the paper leaves the granularity open).
SEGMENT_TURNS = 6


SHARED_IMAGE = "[shared an image:"  # how a turn's text carries a picture shared with it, by its caption
# The words memlens frames a shared image's caption with, and an image captioner's own opening
# ("a photo of"): they say that a picture was shared, not what it shows.
_IMAGE_FRAME = re.compile(
    re.escape(SHARED_IMAGE) + r"\s*(?:an?\s+(?:photo|picture|image|close up|painting|drawing)\s+of\s+)?", re.IGNORECASE)


def image_frames(text: str) -> list[tuple[int, int]]:
    """The character ranges of the frames of the shared images a text holds."""
    return [m.span() for m in _IMAGE_FRAME.finditer(text)]


def turn_text(turn: Turn) -> str:
    """What a turn contributes, speaker first, as an utterance from video reads."""
    shared = f"{SHARED_IMAGE} {turn.image}]" if turn.image else ""
    return f"{turn.speaker}: {' '.join(p for p in (turn.text, shared) if p)}"


def segments_of(session: Session, size: int = SEGMENT_TURNS) -> list[tuple[Turn, ...]]:
    """A session cut into consecutive stretches of `size` turns; a short tail joins the one before."""
    turns = session.turns
    cuts = list(range(0, len(turns), size))
    if len(cuts) > 1 and len(turns) - cuts[-1] < size // 2:
        cuts.pop()
    return [turns[a:b] for a, b in zip(cuts, cuts[1:] + [len(turns)])]


def build_dialogue(dialogue: Dialogue, namespace: str, summarize: Summarizer | None = None,
                   embed: Callable[[Sequence[str]], np.ndarray] | None = None) -> list[MemoryRecord]:
    origin = dialogue.sessions[0].start

    def record(kind: str, text: str, begun: datetime, ended: datetime, **attrs) -> MemoryRecord:
        return MemoryRecord(store="event", kind=kind, namespace=namespace, text=text, video_id=dialogue.dialogue_id,
                            start=(begun - origin).total_seconds(), end=(ended - origin).total_seconds(),
                            wall_start=begun, wall_end=ended, attrs=attrs)

    turns = [(session, turn) for session in dialogue.sessions for turn in session.turns]
    segments = [AsrSegment((t.time - origin).total_seconds(), (t.time + TURN_LENGTH - origin).total_seconds(),
                           t.text, 1.0, speaker=t.speaker) for _, t in turns]
    records = [
        record(UTTERANCE, turn_text(turn), turn.time, turn.time + TURN_LENGTH,
               speaker=turn.speaker, speaker_name=turn.speaker, said=turn.text, acts=acts or speech_acts(turn.text),
               session=session.index, ref=turn.ref, image=turn.image, image_index=turn.image_index, confidence=1.0,
               turn=n)
        for n, ((session, turn), acts) in enumerate(zip(turns, turn_acts(segments)))
    ]
    summarize = summarize or extractive_summary
    clips, cues = [], []
    for session in dialogue.sessions:
        people = " and ".join(dict.fromkeys(t.speaker for t in session.turns))
        head = f"Conversation {session.index} between {people} on {session.start:%A %d %B %Y, %H:%M}: "
        clips.append(record(CLIP_CAPTION, head + summarize([turn_text(t) for t in session.turns]),
                            session.start, session.turns[-1].time + TURN_LENGTH,
                            places=[], clip_index=session.index - 1, session=session.index))
        for part in segments_of(session):
            cues.append(record(SEGMENT, summarize([turn_text(t) for t in part]), part[0].time,
                               part[-1].time + TURN_LENGTH, session=session.index,
                               speakers=list(dict.fromkeys(t.speaker for t in part)),
                               refs=[t.ref for t in part if t.ref]))
    return records + clips + cues + roll_up(clips, summarize) + (_patterns(records, embed) if embed else [])


def _patterns(utterances: Sequence[MemoryRecord], embed: Callable[[Sequence[str]], np.ndarray]) -> list[MemoryRecord]:
    said = [Said(u.attrs["speaker"], u.attrs["session"], u.text.split(": ", 1)[-1], u.attrs["turn"]) for u in utterances]
    found = conversation_patterns(said, embed([s.text for s in said]))
    out = []
    for p in found:
        members = [utterances[t] for t in p.turns]
        out.append(MemoryRecord(
            store="event", kind=PATTERN, namespace=members[0].namespace, text=p.text, video_id=members[0].video_id,
            start=members[0].start, end=members[-1].end, wall_start=members[0].wall_start, wall_end=members[-1].wall_end,
            attrs={"person": p.person, "pattern": p.kind, "sessions": p.sessions, "turns": p.turns,
                   "refs": [m.attrs["ref"] for m in members if m.attrs.get("ref")]}))
    return out
