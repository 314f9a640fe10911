"""What a recording was (memory.recordings), the day summarised over every recording of it,
and questions that name a recording ("the call", "that talk") asked within it (agent.scope)."""
from __future__ import annotations

from datetime import timedelta

import pytest

from agent.question_nlp import SpacyPipeline
from agent.scope import recording_word
from memory.recordings import recording_facts
from memory.records import (
    CLIP_CAPTION,
    DAY_SUMMARY,
    RECORDING,
    TEXT_SIGHTING,
    UTTERANCE,
    MemoryRecord,
    RecordFilter,
)
from tests.conftest import T0, make_observation, memory_holding
from tests.test_agent import make_agent


def _turn(who: str, start: float, end: float) -> MemoryRecord:
    return MemoryRecord("event", UTTERANCE, "n", f"{who}: words", T0, T0, start=start, end=end,
                        attrs={"said": "words"})


def _shown(line: str, t: float) -> MemoryRecord:
    return MemoryRecord("event", TEXT_SIGHTING, "n", f'Read "{line}"', T0, T0, start=t, end=t, attrs={"line": line})


@pytest.mark.parametrize("records, seconds, pictures, sort", [
    ([_turn("Ann", 0, 10), _turn("Bo", 10, 20)], 30, False, "call"),  # sound only, two voices
    ([_turn("Ann", 0, 25)], 30, False, "voice"),
    ([], 30, False, "sound"),
    ([_turn("Ann", 0, 40), _turn("Bo", 40, 44)], 60, True, "talk"),  # one voice holds the floor
    ([_turn("Ann", 0, 20), _turn("Bo", 20, 40)], 60, True, "conversation"),
    ([_shown("A FILM", 1), _shown("BY SOMEONE", 5), _shown("COMING SOON", 9)], 60, True, "film"),
    ([_shown("ES", 1)], 60, True, "scene"),  # a word on a mug is not a title card
])
def test_what_a_recording_was_is_read_from_measured_facts(records, seconds, pictures, sort):
    assert recording_facts(records, seconds, pictures).sort == sort


@pytest.fixture(scope="module")
def nlp():
    return SpacyPipeline()


@pytest.mark.parametrize("question, word", [
    ("who was on the call?", "call"),
    ("what did that talk say about luck?", "talk"),
    ("what was this morning's lecture about?", "lecture"),
    ("who was on the phone call?", "phone call"),
    ("who did I talk to?", None),  # a verb
    ("did I watch a film today?", None),  # not one recording pointed at
    ("where did I leave my keys?", None),
    ("what time was the budget meeting?", None),  # an event named, not a recording pointed at
    ("in what order did these happen: I bought batteries, I learned Peter leads the meeting?", None),
    ("what was I holding after the cartoon?", "cartoon"),
    ("what year was the talk recorded?", "talk"),  # parsed with "recorded" hung off "was": still the question's own
])
def test_a_question_points_at_a_recording_by_what_it_was(nlp, question, word):
    assert recording_word(nlp, question) == word


def test_the_day_is_summarised_over_every_recording_as_it_stood(memory):
    memory.ingest(make_observation("vid-a", T0), "me")
    memory.ingest(make_observation("vid-b", T0 + timedelta(hours=2)), "me")
    days = memory.store("event").query(RecordFilter(namespace="me", kinds=(DAY_SUMMARY,)))
    assert sorted(d.attrs["recordings"] for d in days) == [1, 2]
    whole = max(days, key=lambda d: d.attrs["recordings"])
    assert whole.text.count("video recording") == 2 and whole.wall_end > T0 + timedelta(hours=2)
    # asked between the two recordings, only the day as it stood then is shown
    between = RecordFilter(namespace="me", kinds=(DAY_SUMMARY,), before=T0 + timedelta(hours=1))
    assert [d.attrs["recordings"] for d in memory.store("event").query(between)] == [1]
    ids = {d.id for d in days}
    memory.ingest(make_observation("vid-b", T0 + timedelta(hours=2)), "me")  # nothing changed: nothing rewritten
    assert {d.id for d in memory.store("event").query(RecordFilter(namespace="me", kinds=(DAY_SUMMARY,)))} == ids
    memory.forget("me", between=(T0 + timedelta(hours=1), T0 + timedelta(hours=1, minutes=5)))  # only a summary there
    assert sorted(d.attrs["recordings"] for d in memory.store("event").query(
        RecordFilter(namespace="me", kinds=(DAY_SUMMARY,)))) == [1, 2]  # written again, not lost
    memory.forget("me", video_id="vid-b")
    left = memory.store("event").query(RecordFilter(namespace="me", kinds=(DAY_SUMMARY, RECORDING)))
    assert sorted((r.kind, r.video_id) for r in left) == [("day", "day:" + T0.date().isoformat()), ("recording", "vid-a")]


@pytest.fixture(scope="module")
def two_recordings(tmp_path_factory, embedder):
    with memory_holding(tmp_path_factory.mktemp("scoped"), embedder, make_observation("vid-first", T0),
                        make_observation("vid-second", T0 + timedelta(hours=3))) as memory:
        yield memory


def test_a_named_recording_is_asked_within_and_not_before_it_happened(two_recordings):
    agent = make_agent(two_recordings)
    early = agent.ask("who was on the call?", "me", T0 - timedelta(hours=1))
    assert early.abstained and any("no such recording" in t for t in early.trace)
    late = agent.ask("who was on the call?", "me", T0 + timedelta(hours=4))
    scope = next(t for t in late.trace if t.startswith("scope:"))
    assert f"{T0 + timedelta(hours=3):%H:%M}" in scope  # the latest call, not the first
    assert not late.abstained and "Bob" in late.answer and "Alice" in late.answer
    assert late.evidence and all(e.record.wall_start >= T0 + timedelta(hours=3) for e in late.evidence)


def test_when_a_named_recording_happened_is_its_own_time(two_recordings):
    answer = make_agent(two_recordings).ask("what time did I take the call?", "me", T0 + timedelta(hours=4))
    assert not answer.abstained and f"{T0 + timedelta(hours=3):%H:%M}" in answer.answer
    assert [e.record.kind for e in answer.evidence][:1] == [RECORDING]


def test_how_many_people_were_on_a_call_counts_its_voices(two_recordings):
    answer = make_agent(two_recordings).ask("how many people were on the call?", "me", T0 + timedelta(hours=4))
    assert not answer.abstained and answer.answer.startswith("3 ")


def test_questions_naming_no_recording_are_not_scoped(two_recordings):
    answer = make_agent(two_recordings).ask("what is the wifi password?", "me", T0 + timedelta(hours=4))
    assert not any(t.startswith("scope:") for t in answer.trace)


def test_acts_no_line_of_which_holds_the_topic_are_all_listed(two_recordings):
    """"did I agree to do anything?": no commitment of the day holds "agree", so every one
    answers, not only the newest."""
    from agent.plan import TimeSlot
    from agent.tools.base import ToolContext
    from agent.tools.talk import speech_acts
    from retrieval.operators import MemoryOperators
    from retrieval.search import HybridRetriever

    ctx = ToolContext(HybridRetriever(two_recordings), MemoryOperators(two_recordings), "me",
                      T0 + timedelta(hours=4), TimeSlot(day_offset=0))
    everything = speech_acts(ctx, "commitment")
    unmatched = speech_acts(ctx, "commitment", topic=["agree"])
    assert len(everything.support) >= 2
    assert [e.record.id for e in unmatched.support] == [e.record.id for e in everything.support]


def test_a_sentence_a_caption_restates_is_cited_from_the_turn_that_said_it(two_recordings):
    from retrieval.operators import MemoryOperators

    store = two_recordings.store("event")
    turns = store.query(RecordFilter(namespace="me", kinds=(UTTERANCE,), video_ids=("vid-second",)))
    captions = store.query(RecordFilter(namespace="me", kinds=(CLIP_CAPTION,), video_ids=("vid-second",)))
    turn, caption = next((t, c) for t in turns for c in captions if t.attrs.get("said") and t.attrs["said"] in c.text)
    operators = MemoryOperators(two_recordings)
    assert operators.said_in(caption, turn.attrs["said"], None).id == turn.id
    assert operators.said_in(caption, "Words nobody said.", None) is None
    assert operators.said_in(caption, turn.attrs["said"], turn.wall_start) is None  # said after the question


def test_what_did_i_read_lists_every_text_of_the_window_in_order(two_recordings):
    agent = make_agent(two_recordings)
    answer = agent.ask("what did I read?", "me", T0 + timedelta(hours=1))
    texts = [e.record for e in answer.evidence]
    assert not answer.abstained and len(texts) > 2 and texts == sorted(texts, key=lambda r: r.wall_start)
    assert all(r.wall_end < T0 + timedelta(hours=1) for r in texts)  # the later recording is not yet read
    assert answer.answer.index("KITCHEN") < answer.answer.index("LIVING ROOM")
    assert len({r.text for r in texts}) == len(texts)  # a text read twice is named once


def _talk(video_id: str, wall_start):
    """A minute of video in which one voice, who names herself, holds the floor: a talk."""
    from perception.types import AsrSegment, ClipObservation, ClipSpan, VideoObservation

    span = ClipSpan(video_id, 0, 0.0, 60.0, wall_start)
    lines = ["Hello everyone, I'm Tina Seelig.", "Today I want to talk about luck.",
             "Luck is not a lightning strike.", "It is more like the wind, always blowing."]
    asr = [AsrSegment(1.0 + 14 * i, 14.0 + 14 * i, text, 0.9, speaker="S1") for i, text in enumerate(lines)]
    clip = ClipObservation(span=span, keyframe_times=[2.0, 30.0], asr=asr)
    return VideoObservation(video_id=video_id, path="/videos/talk.mp4", duration=60.0, wall_start=wall_start,
                            has_audio=True, clips=[clip])


def test_who_did_i_ring_hears_calls_not_a_talks_speaker(tmp_path, embedder):
    from agent.plan import TimeSlot
    from agent.tools.base import ToolContext
    from agent.tools.talk import people

    with memory_holding(tmp_path, embedder, make_observation("vid-call", T0),
                        _talk("vid-talk", T0 + timedelta(hours=1))) as memory:
        sorts = {r.video_id: r.attrs["sort"] for r in memory.store("event").query(
            RecordFilter(namespace="me", kinds=(RECORDING,)))}
        assert sorts["vid-talk"] == "talk" and sorts["vid-call"] != "talk"
        c = make_agent(memory).context
        ctx = ToolContext(c.retriever, c.operators, "me", T0 + timedelta(hours=2), TimeSlot(day_offset=0))
        heard = people(ctx).value
        assert "Tina Seelig" in heard and "Bob" in heard
        rung = people(ctx, by_phone=True).value
        assert "Bob" in rung and "Tina Seelig" not in rung


def _unnamed_call(video_id: str, wall_start, lines: list[str]):
    """Sound only, two voices taking turns, neither named: a call to a business line."""
    from perception.types import AsrSegment, ClipObservation, ClipSpan, VideoObservation

    asr = [AsrSegment(1.0 + 6 * i, 6.0 + 6 * i, text, 0.9, speaker=f"S{i % 2 + 1}") for i, text in enumerate(lines)]
    clip = ClipObservation(span=ClipSpan(video_id, 0, 0.0, 60.0, wall_start), keyframe_times=[], asr=asr)
    return VideoObservation(video_id=video_id, path=f"/calls/{video_id}.m4a", duration=60.0,
                            wall_start=wall_start, has_audio=True, clips=[clip])


def test_with_no_voice_named_each_recordings_opening_is_cited(tmp_path, embedder):
    """"who did I ring?" over two calls whose voices nobody named: the greeting that opens
    each call says whom it reached, so each call's first turns are cited, not the first call's
    whole opening minute."""
    from agent.plan import TimeSlot
    from agent.tools.base import ToolContext
    from agent.tools.talk import people

    bakery = ["Good morning, thanks for calling the corner bakery.", "Hi, do you have rye bread today?",
              "We do, two loaves left.", "Great, please keep one for me.", "Sure, see you soon.", "Bye."]
    garage = ["Hello, city garage, how can I help?", "My car is making a noise.", "Bring it in at noon."]
    with memory_holding(tmp_path, embedder, _unnamed_call("call-1", T0, bakery),
                        _unnamed_call("call-2", T0 + timedelta(hours=1), garage)) as memory:
        c = make_agent(memory).context
        ctx = ToolContext(c.retriever, c.operators, "me", T0 + timedelta(hours=2), TimeSlot(day_offset=0))
        result = people(ctx, by_phone=True)
        assert not result.found and "unnamed voice" in result.note
        cited = [e.record for e in result.support]
        assert {r.video_id for r in cited} == {"call-1", "call-2"}
        assert any("corner bakery" in r.text for r in cited) and any("city garage" in r.text for r in cited)
        assert not any("noon" in r.text or "two loaves" in r.text for r in cited)  # openings only
