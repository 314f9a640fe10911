"""Conversations from transcripts: the three formats, refusal of malformed files by file
and line, and their turns as memory the agent answers from with the same time cut."""
from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path

import pytest

from memory.records import UTTERANCE, RecordFilter
from perception.transcripts import TranscriptError, read_transcript

LOCOMO = Path(__file__).resolve().parents[1].parent / "shared" / "locomo" / "locomo_dev.json"
THREAD = """\
## Session 1 | 2026-03-02T18:00
Bob: Hi, could you pick up oat milk on your way home?
Alice: Sure, I will get it after work.
[Image #0 a photo of a shopping list on a fridge]
## Session 2 | 2026-03-09T09:30
Bob: The plumber comes on Thursday at ten.
Alice: Thanks, I'll be home then.
[Image #1: a photo of a leaking kitchen tap]
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_locomo_file_reads_as_its_conversations():
    dialogues = read_transcript(LOCOMO)
    assert [d.dialogue_id for d in dialogues] == ["conv-26", "conv-30", "conv-41", "conv-42", "conv-43"]
    first = dialogues[0]
    assert first.speakers == ["Caroline", "Melanie"] and first.sessions[0].start == datetime(2023, 5, 8, 13, 56)
    assert first.turns[2].ref == "D1:3" and "support group" in first.turns[2].text
    shared = [t for t in first.turns if t.image]
    assert shared[0].ref == "D1:5" and [t.image_index for t in shared] == list(range(len(shared)))
    assert all(a.time < b.time for s in first.sessions for a, b in zip(s.turns, s.turns[1:]))


def test_a_thread_keeps_sessions_turns_and_images_with_their_global_index(tmp_path):
    (dialogue,) = read_transcript(_write(tmp_path, "thread.txt", THREAD))
    assert [s.start for s in dialogue.sessions] == [datetime(2026, 3, 2, 18), datetime(2026, 3, 9, 9, 30)]
    alice = dialogue.sessions[0].turns[1]
    assert (alice.speaker, alice.image, alice.image_index) == ("Alice", "a photo of a shopping list on a fridge", 0)
    assert dialogue.sessions[1].turns[1].image_index == 1
    assert read_transcript(_write(tmp_path, "again.txt", THREAD))[0].dialogue_id == dialogue.dialogue_id  # same content, same id


@pytest.mark.parametrize("name, text, line, reason", [
    ("skip.txt", "Bob: hi\n[Image #1 a cat]\n", 2, "image #1 where #0"),
    ("noise.txt", "Bob: hi\nthis line has no speaker\n", 2, "expected 'Speaker: text'"),
    ("when.txt", "## Session 1 | next tuesday\nBob: hi\n", 1, "not ISO 8601"),
    ("chat.jsonl", '{"speaker": "Bob", "time": "2026-03-02T18:00", "text": "hi"}\n{"time": "2026-03-02T18:01", "text": "yo"}\n',
     2, "missing speaker"),
    ("late.jsonl", '{"speaker": "Bob", "text": "hi"}\n', 1, "missing time"),
    ("broken.jsonl", '{"speaker": "Bob", "time": "2026-03-02T18:00", "text": "hi"}\n{"speaker": \n', 2, "not a JSON object"),
    ("bad.json", '[{"conversation": {"session_1": [], "session_1_date_time": "yesterday"}}]', 0, "not a time like"),
    ("nojson.json", '{"conversation": [1, 2', 1, "not valid JSON"),
    ("empty.txt", "  \n", 0, "empty"),
])
def test_a_malformed_transcript_is_refused_naming_file_and_line(tmp_path, name, text, line, reason):
    path = _write(tmp_path, name, text)
    with pytest.raises(TranscriptError, match=reason) as refused:
        read_transcript(path)
    assert refused.value.line == line and name in str(refused.value)


def test_a_chat_export_splits_sessions_on_long_gaps(tmp_path):
    rows = [{"speaker": "Bob", "time": "2026-03-02T18:00", "text": "dinner at eight?"},
            {"speaker": "Alice", "time": "2026-03-02T18:01", "text": "yes", "image_caption": "a photo of pasta"},
            {"speaker": "Bob", "time": "2026-03-03T09:00", "text": "good morning"}]
    path = _write(tmp_path, "chat.jsonl", "\n".join(json.dumps(r) for r in rows))
    (dialogue,) = read_transcript(path)
    assert [len(s.turns) for s in dialogue.sessions] == [2, 1]
    assert dialogue.turns[1].image == "a photo of pasta" and dialogue.turns[2].time == datetime(2026, 3, 3, 9)


@pytest.fixture(scope="module")
def system(tmp_path_factory):
    from service.config import load_config
    from service.system import MemlensSystem

    system = MemlensSystem(load_config(env={**os.environ, "MEMLENS_HOME": str(tmp_path_factory.mktemp("dialogue-home"))}))
    yield system
    system.close()


def test_a_thread_becomes_memory_the_agent_answers_from_with_the_time_cut(system, tmp_path):
    path = _write(tmp_path, "thread.txt", THREAD)
    (report,) = system.ingest_transcript(path, "me")
    assert report.records[UTTERANCE] == 4
    utterances = system.memory.store("event").query(RecordFilter(namespace="me", kinds=(UTTERANCE,)))
    assert "Alice: Sure, I will get it after work. [shared an image: a photo of a shopping list on a fridge]" in {
        r.text for r in utterances}
    assert {r.attrs["ref"] for r in utterances} == {"line 2", "line 3", "line 6", "line 7"}
    after = system.ask("When is the plumber coming?", "me", datetime(2026, 3, 10))
    assert not after.abstained and "Thursday" in after.answer
    assert after.evidence and after.evidence[0].record.attrs["ref"] == "line 6"
    before = system.ask("When is the plumber coming?", "me", datetime(2026, 3, 5))
    assert before.abstained or "Thursday" not in before.answer  # said on the 9th: not known on the 5th
    again = system.ingest_transcript(path, "me")[0]  # the same file again replaces, never duplicates
    assert again.video_id == report.video_id
    assert system.memory.store("event").count(RecordFilter(namespace="me", kinds=(UTTERANCE,))) == 4


def test_a_malformed_transcript_stores_nothing(system, tmp_path):
    before = system.memory.store("event").count(RecordFilter())
    good = {"speaker": "Bob", "time": "2026-03-02T18:00", "text": "hi"}
    path = _write(tmp_path, "half.jsonl", json.dumps(good) + "\n" + json.dumps({"speaker": "Bob"}) + "\n")
    with pytest.raises(TranscriptError, match="half.jsonl:2"):
        system.ingest_transcript(path, "me")
    assert system.memory.store("event").count(RecordFilter()) == before


@pytest.mark.parametrize("sentence, said, expected", [
    ("I went to the support group yesterday and it was powerful.", datetime(2023, 5, 8, 13, 56), ["7 May 2023"]),
    ("I painted that sunrise last year.", datetime(2023, 5, 8), ["2022"]),
    ("We're thinking about going camping next month.", datetime(2023, 5, 25), ["June 2023"]),
    ("I've known these friends for 4 years.", datetime(2023, 6, 9), []),  # a length of time, not a date
    ("Good to see you! How have you been?", datetime(2023, 6, 9), []),
    ("I won my first tournament last week - so exciting!", datetime(2022, 1, 21, 19, 32), ["the week of 14 January 2022"]),
])
def test_dates_a_sentence_names_are_resolved_against_when_it_was_said(sentence, said, expected):
    from agent.question_nlp import SpacyPipeline
    from memory.language import date_phrase, stated_dates

    assert [date_phrase(text, when) for text, when in stated_dates(SpacyPipeline()(sentence), said)] == expected


def test_when_did_asks_the_date_an_utterance_tells_not_when_it_was_said(system, tmp_path):
    path = _write(tmp_path, "dentist.txt", "## Session 1 | 2026-03-09T18:00\nBob: I went to the dentist yesterday, "
                                          "finally.\nAlice: How did it go?\n")
    system.ingest_transcript(path, "told")
    answer = system.ask("When did Bob go to the dentist?", "told", datetime(2026, 3, 20))
    assert answer.answer == "8 March 2026" and answer.evidence[0].record.attrs["ref"] == "line 2"


def test_what_year_asks_the_year_a_line_tells_in_any_form_of_its_verb(system, tmp_path):
    path = _write(tmp_path, "surf.txt", "## Session 1 | 2023-07-16T16:30\nTim: How long have you been surfing?\n"
                                        "John: I started surfing five years ago and it's been great.\n"
                                        "## Session 2 | 2023-08-21T16:40\nJohn: Last year we watched that film every week.\n")
    system.ingest_transcript(path, "surf")
    answer = system.ask("What year did John start surfing?", "surf", datetime(2023, 9, 1))
    # "surfing" is a form of "surf"; "year" is what is asked, so the line saying "last year" does not answer it
    assert answer.answer == "2018" and answer.evidence[0].record.attrs["ref"] == "line 3"


def test_a_question_asked_in_the_conversation_is_answered_by_the_reply_it_got(system, tmp_path):
    path = _write(tmp_path, "team.txt", "## Session 1 | 2023-05-21T19:45\n"
                                        "Tim: Woohoo! Congrats on the new team. Which team did you sign with?\n"
                                        "John: The Minnesota Wolves! I can't wait to play with them!\n"
                                        "Tim: Cool! What position are you playing for the team?\n"
                                        "John: I'm a shooting guard for the team and our opener is next week!\n"
                                        "Tim: Nice. I joined a fantasy literature forum last week.\n")
    system.ingest_transcript(path, "team")
    at = datetime(2023, 6, 1)
    team = system.ask("Which team did John sign with?", "team", at)
    assert team.answer == "Minnesota Wolves" and not team.abstained
    assert [e.record.attrs["ref"] for e in team.evidence][:2] == ["line 3", "line 2"]  # the reply, then what it answers


def test_a_question_put_to_someone_is_answered_by_their_reply(system, tmp_path):
    thread = ("## Session 1 | 2026-04-02T19:00\nAlice: Bob, why did you buy a bike last spring?\n"
              "Bob: My doctor told me to move more, and I liked it.\nAlice: Good for you!\n"
              "Bob: Could you lend me your blue umbrella tomorrow?\nAlice: Sure, I will bring it.\n")
    system.ingest_transcript(_write(tmp_path, "run.txt", thread), "replies")
    at = datetime(2026, 4, 10)
    why = system.ask("Why did Bob buy a bike?", "replies", at)
    assert "doctor" in why.answer and why.evidence[0].record.attrs["ref"] == "line 3"
    asked = system.ask("What did Bob ask Alice to lend him?", "replies", at)  # a request is what was asked, not its reply
    assert "umbrella" in asked.answer and "bring it" not in asked.answer



def test_what_someone_realised_is_read_by_the_verb_and_a_question_they_put_is_not_theirs(system, tmp_path):
    from agent.plan import TimeSlot
    from agent.tools.base import ToolContext
    from agent.tools.talk import said

    thread = ("## Session 1 | 2026-05-02T19:00\nNora: How was the pre-season training camp?\n"
              "Theo: Tough. Keeping up with the new team's pace was the hardest part of pre-season.\n"
              "Nora: What challenges did you face in pre-season training, apart from the pace?\n"
              "Theo: The long drive there. After the camp I realized that rest matters as much as training.\n")
    system.ingest_transcript(_write(tmp_path, "camp.txt", thread), "camp")
    at = datetime(2026, 5, 10)
    realised = system.ask("What did Theo realize after the camp?", "camp", at)  # no noun asked about: the verb is the topic
    assert not realised.abstained and "rest matters" in realised.answer, realised.trace
    assert realised.evidence[0].record.attrs["ref"] == "line 5"
    assert any(t.startswith("tool said:") and "topic 0.00" not in t for t in realised.trace), realised.trace
    # "pre-season" is a word, not "before season"
    theirs = system.ask("What challenge did Nora face in pre-season training?", "camp", at)
    assert not any("before season" in t for t in theirs.trace)
    # Nora only asked about challenges: no line of hers says one
    context = system.agent.context
    ctx = ToolContext(context.retriever, context.operators, "camp", at, TimeSlot())
    assert not said(ctx, ["challenge"], "Nora").found
    assert said(ctx, ["challenge"], "Nora", verb="ask").found  # "what did Nora ask about challenges?": her question
    assert said(ctx, ["pace"], "Theo").found
