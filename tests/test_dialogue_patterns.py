"""Patterns across a conversation's sessions, found at ingest with the real sentence embedder:
a topic a person keeps turning away from, a thing they keep saying, and neither where a
question is answered or a remark made once or twice."""
from __future__ import annotations

from datetime import datetime

from agent.tools.base import ToolContext
from agent.tools.reflect import reflect
from memory.dialogue_patterns import Said, conversation_patterns, deflected_topics, repeated_behaviours
from memory.records import PATTERN, RecordFilter

SESSIONS = [
    [("Jon", "how was the trip to Lisbon?"), ("Maya", "amazing, the old town and the pastries were the highlight"),
     ("Jon", "have you talked to your dad lately?"), ("Maya", "let's not go there. anyway, what are you cooking tonight?"),
     ("Maya", "sorry I'm late again, the bus never came")],
    [("Jon", "how's your dad doing these days?"), ("Maya", "hmm, did you see the match on Sunday?"),
     ("Jon", "yes, what a finish"), ("Maya", "so sorry for running late, my bus was cancelled again")],
    [("Jon", "did the new job start well?"), ("Maya", "it did, my team is lovely and the work is interesting"),
     ("Maya", "apologies, running late once more, the bus broke down")],
    [("Jon", "any plans for the weekend?"), ("Maya", "a long hike if the weather holds")],
]


def _said() -> list[Said]:
    lines = [(n, speaker, text) for n, turns in enumerate(SESSIONS, 1) for speaker, text in turns]
    return [Said(speaker, session, text, i) for i, (session, speaker, text) in enumerate(lines)]


def test_a_topic_turned_away_from_twice_is_a_pattern_and_an_answered_question_is_not(embedder):
    said = _said()
    patterns = deflected_topics(said, embedder.embed([s.text for s in said]))
    assert [(p.person, p.kind, p.sessions) for p in patterns] == [("Maya", "deflected", [1, 2])]
    quoted = [said[t].text for t in patterns[0].turns]
    assert quoted == ["have you talked to your dad lately?", "let's not go there. anyway, what are you cooking tonight?",
                      "how's your dad doing these days?", "hmm, did you see the match on Sunday?"]
    assert "how was the trip to Lisbon?" not in patterns[0].text  # answered, however briefly


def test_a_thing_said_in_three_sessions_is_a_pattern_and_said_in_two_is_not(embedder):
    said = _said()
    vectors = embedder.embed([s.text for s in said])
    late = [p for p in repeated_behaviours(said, vectors) if "bus" in p.text]
    assert [(p.person, p.sessions) for p in late] == [("Maya", [1, 2, 3])]
    two_sessions = [s for s in said if s.session < 3]
    assert not [p for p in repeated_behaviours(two_sessions, vectors[:len(two_sessions)]) if "bus" in p.text]
    assert conversation_patterns(said[:1], vectors[:1]) == []


def test_patterns_are_remembered_and_bring_their_turns_to_a_reflective_question(tmp_path):
    import os

    from agent.plan import TimeSlot
    from service.config import load_config
    from service.system import MemlensSystem

    lines = []
    for n, turns in enumerate(SESSIONS, 1):
        lines.append(f"## Session {n} | 2026-03-{n * 3:02d}T19:00")
        lines += [f"{speaker}: {text}" for speaker, text in turns]
    (tmp_path / "thread.txt").write_text("\n".join(lines) + "\n")
    base = {k: v for k, v in os.environ.items() if not k.startswith("MEMLENS_")}
    system = MemlensSystem(load_config(env={**base, "MEMLENS_HOME": str(tmp_path / "home")}))
    system.ingest_transcript(tmp_path / "thread.txt", "chat")
    patterns = system.memory.store("event").query(RecordFilter(namespace="chat", kinds=(PATTERN,)))
    agent = system.agent
    ctx = ToolContext(agent.context.retriever, agent.context.operators, "chat", datetime(2026, 3, 30), TimeSlot())
    result = reflect(ctx, "what does Maya keep avoiding talking about?", "Maya")
    early = ToolContext(agent.context.retriever, agent.context.operators, "chat", datetime(2026, 3, 5), TimeSlot())
    before = system.memory.store("event").query(RecordFilter(namespace="chat", kinds=(PATTERN,), before=early.at))
    system.close()
    assert {p.attrs["pattern"] for p in patterns} == {"deflected", "repeated"}
    deflected = next(p for p in patterns if p.attrs["pattern"] == "deflected")
    assert deflected.attrs["person"] == "Maya" and len(deflected.attrs["refs"]) == 4
    said = [e.record.attrs["said"] for e in result.support]
    assert "have you talked to your dad lately?" in said and "how's your dad doing these days?" in said
    assert before == []  # seen only once its second time was said: the time cut holds for patterns too
