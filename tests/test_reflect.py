"""Reflective questions over a conversation (RefMem-Bench's dimensions): segments with event
cues written at ingest, the reflective tool's top-fifth selection and speaker lift, option
sets for "all that apply", and short answers lifted from evidence."""
from __future__ import annotations

import math
import os
from datetime import datetime
from pathlib import Path

import pytest

from agent.compose import all_that_apply
from agent.plan import TimeSlot
from agent.tools.base import ToolContext
from agent.tools.reflect import MIN_SEGMENTS, SEGMENT_SHARE, reflect
from eval.short_answer import ShortAnswerer
from memory.dialogue_builder import SEGMENT_TURNS
from memory.records import SEGMENT, UTTERANCE, RecordFilter

FILLER = [
    ("Jon", "did you catch the match last night?"), ("Maya", "only the second half, it was a mess"),
    ("Jon", "the new bakery on Elm opened, the croissants are decent"), ("Maya", "oh nice, I'll try it"),
    ("Jon", "my landlord still hasn't fixed the heating"), ("Maya", "that's awful, it's freezing this week"),
    ("Jon", "are you watching that detective series?"), ("Maya", "yes, episode four was wild"),
    ("Jon", "I need a new phone, mine keeps dying"), ("Maya", "the battery on mine is fine so far"),
]
CUES = {  # session -> what Maya says about running, dreading it first and loving it at the end
    1: "ugh, my manager signed the whole team up for a charity 5k. I really can't stand running",
    4: "went for a short jog this morning, honestly it was less miserable than I expected",
    8: "I signed up for a half marathon in May, I actually love running now",
}
AVOIDS = {3: "let's not get into that. anyway, what are you cooking tonight?",
          6: "can we talk about something else? how's your sister?"}


def _thread() -> str:
    lines = []
    for session in range(1, 11):
        lines.append(f"## Session {session} | 2026-03-{session * 2:02d}T19:00")
        turns = FILLER[(session * 2) % len(FILLER):] + FILLER[: (session * 2) % len(FILLER)]
        for speaker, text in turns[:8]:
            lines.append(f"{speaker}: {text}")
        if session in AVOIDS:
            lines += ["Jon: have you talked to your dad lately?", f"Maya: {AVOIDS[session]}"]
        if session in CUES:
            lines.append(f"Maya: {CUES[session]}")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def system(tmp_path_factory):
    from service.config import load_config
    from service.system import MemlensSystem

    root = tmp_path_factory.mktemp("reflect")
    path = root / "thread.txt"
    path.write_text(_thread())
    system = MemlensSystem(load_config(env={**os.environ, "MEMLENS_HOME": str(root / "home")}))
    system.ingest_transcript(path, "chat")
    yield system
    system.close()


def _ctx(system, at: datetime) -> ToolContext:
    agent = system.agent
    return ToolContext(agent.context.retriever, agent.context.operators, "chat", at, TimeSlot())


def test_a_conversation_is_cut_into_segments_that_cover_every_turn_once(system):
    store = system.memory.store("event")
    segments = store.query(RecordFilter(namespace="chat", kinds=(SEGMENT,)))
    turns = store.query(RecordFilter(namespace="chat", kinds=(UTTERANCE,)))
    refs = [r for s in segments for r in s.attrs["refs"]]
    assert sorted(refs) == sorted(t.attrs["ref"] for t in turns) and len(set(refs)) == len(refs)
    assert all(len(s.attrs["refs"]) < 2 * SEGMENT_TURNS for s in segments)
    # the cue is what the segment said (extractive without an LLM), so it is searchable by meaning
    running = [s for s in segments if "half marathon" in s.text]
    assert len(running) == 1 and running[0].attrs["session"] == 8


def test_reflect_gathers_the_persons_scattered_turns_from_the_top_fifth_of_segments(system):
    result = reflect(_ctx(system, datetime(2026, 3, 25)), "how does Maya feel about running these days", "Maya")
    segments = system.memory.store("event").query(RecordFilter(namespace="chat", kinds=(SEGMENT,)))
    want = max(MIN_SEGMENTS, math.ceil(SEGMENT_SHARE * len(segments)))
    assert result.found and f"top {want} of {len(segments)} segments" in result.note
    said = [e.record.attrs["said"] for e in result.support]
    assert CUES[1] in said and CUES[8] in said  # the start and the end of the change, not only the latest
    assert [e.record.wall_start for e in result.support] == sorted(e.record.wall_start for e in result.support)


def test_reflect_never_reads_past_the_question_time(system):
    result = reflect(_ctx(system, datetime(2026, 3, 10)), "how does Maya feel about running", "Maya")
    assert result.found and all(e.record.wall_end < datetime(2026, 3, 10) for e in result.support)
    assert CUES[8] not in [e.record.attrs["said"] for e in result.support]


def test_a_reflective_question_reaches_the_reflective_tool(system):
    a = system.ask("how has Maya's view of running changed since March began?", "chat", datetime(2026, 3, 25),
                   ["she went from dreading it to loving it", "she has always hated it", "she never mentioned it",
                    "she stopped because of an injury"])
    assert any(line.startswith("tool reflect") for line in a.trace)
    assert a.option_scores is not None and len(a.option_scores) == 4


def test_all_that_apply_picks_near_ties_and_never_the_cannot_answer_option():
    options = ["a", "b", "c", "It cannot be answered from the conversation"]
    assert all_that_apply([0.45, 0.40, 0.05, 0.10], options) == [0, 1]
    assert all_that_apply([0.90, 0.04, 0.03, 0.03], options) == [0]
    assert all_that_apply([0.30, 0.28, 0.02, 0.40], options) == [0, 1]  # the unanswerable option is no answer here


def test_a_short_answer_is_a_few_words_the_evidence_holds(system):
    lines = [f"Maya: {CUES[1]}", f"Maya: {CUES[4]}", f"Maya: {CUES[8]}"]
    short = ShortAnswerer(system.memory.embedder)("what sport does Maya talk about", lines)
    assert 1 <= len(short.split()) <= 4
    assert set(short.lower().split()) <= set(" ".join(lines).lower().replace(",", " ").replace(".", " ").split())
    assert ShortAnswerer(system.memory.embedder)("anything", []) == ""


def test_segments_leave_conversations_heard_in_video_alone(tmp_path: Path):
    """Video speech has no segments: the tool reads every turn instead (checked without a model)."""
    from memory.dialogue_builder import segments_of
    from perception.transcripts import Session, Turn

    turns = tuple(Turn("A", f"line {n}", datetime(2026, 1, 1, 9, 0, n)) for n in range(SEGMENT_TURNS * 2 + 1))
    parts = segments_of(Session(1, turns[0].time, turns))
    assert [len(p) for p in parts] == [SEGMENT_TURNS, SEGMENT_TURNS + 1]  # a one-turn tail joins the one before


def test_reflect_answers_with_the_sentence_of_its_best_turn_that_meets_the_question(system):
    """A turn that says two things is answered with the one asked about, and who said it."""
    result = reflect(_ctx(system, datetime(2026, 3, 25)), "what did Maya say about her manager", "Maya")
    assert result.found and result.answer == "Maya: ugh, my manager signed the whole team up for a charity 5k."


def test_a_question_the_person_put_is_not_what_they_told(system):
    """Jon only ever asks about Maya's dad: his question tells nothing of his own, so the
    reflective tool does not answer with it (an answer would be another person's story)."""
    result = reflect(_ctx(system, datetime(2026, 3, 25)), "what did Jon say about his dad", "Jon")
    assert "?" not in result.answer
    assert not result.found or "dad" not in result.answer
