"""Seed 001's retrieval baselines (Video-RAG, EgoButler) on real memlens memory: what each
retrieves, the question-time cut, the deterministic reader's choices and abstentions,
and their place in `memlens bench` reusing the memory memlens built."""
from __future__ import annotations

import os
from datetime import timedelta

import pytest

from eval.retrieval_baselines import (
    EgoButlerBaseline,
    EgoButlerConfig,
    EvidenceReader,
    VideoRagBaseline,
)
from eval.schema import Item, Option, VideoRef
from perception.pipeline import file_video_id
from perception.types import AsrSegment, ClipObservation, ClipSpan, VideoObservation
from retrieval.search import HybridRetriever, SearchQuery
from tests.conftest import T0, make_observation

AT = T0 + timedelta(minutes=5)
DAY2 = T0 + timedelta(days=1)
CANNOT = "This question cannot be answered"
BUY = ("What did Bob ask me to buy?", ["A new phone charger", "Oat milk and eggs", "Bread and butter", CANNOT])
PLUMBER = ("What did the plumber say about the kitchen sink?",
           ["The sink is fine", "The sink needs a new pipe", "The sink was painted", CANNOT])


def plumber_day(wall_start=DAY2) -> VideoObservation:
    """Day 2: one clip in which the plumber talks about the sink (nothing of day 1 repeats)."""
    span = ClipSpan("vid-day2", 0, 0.0, 30.0, wall_start)
    clip = ClipObservation(span=span, keyframe_times=[2.0], asr=[
        AsrSegment(3.0, 8.0, "The kitchen sink needs a new pipe, the old one is cracked.", 0.9, speaker="S4"),
    ])
    return VideoObservation(video_id="vid-day2", path="/videos/day2.mp4", duration=30.0, wall_start=wall_start,
                            has_audio=True, clips=[clip])


@pytest.fixture(scope="module")
def filled(tmp_path_factory, embedder):
    from memory.config import MemoryConfig
    from memory.memory import Memory

    memory = Memory(MemoryConfig(root=tmp_path_factory.mktemp("baseline-memory")), embedder=embedder)
    memory.ingest(make_observation(), "me")
    memory.ingest(plumber_day(), "me")
    yield memory
    memory.close()


@pytest.fixture(scope="module")
def videorag(filled):
    return VideoRagBaseline(HybridRetriever(filled), filled.embedder)


@pytest.fixture(scope="module")
def egobutler(filled):
    return EgoButlerBaseline(HybridRetriever(filled), filled.embedder)


def test_videorag_answers_from_transcript_and_ocr_only(videorag):
    said = videorag.answer(*BUY[:1], "me", AT, BUY[1])
    assert said.chosen == 1 and not said.abstained
    assert said.evidence[0].record.kind == "utterance" and "oat milk" in said.evidence[0].record.text
    read = videorag.answer("What is the wifi password?", "me", AT, ["REDCAT17", "BLUEFOX42", "GREENOWL99", CANNOT])
    assert read.chosen == 1 and read.evidence[0].record.kind == "text"
    hits = videorag.retrieve("Where are the scissors? What did Bob say?", "me", AT)
    assert {h.record.kind for h in hits} <= {"utterance", "text", "sighting"} and "sighting" in {h.record.kind for h in hits}


def test_option_scores_are_probabilities(videorag, egobutler):
    for baseline in (videorag, egobutler):
        for question, options in (BUY, PLUMBER):
            answer = baseline.answer(question, "me", AT, options)
            assert len(answer.option_scores) == 4 and sum(answer.option_scores) == pytest.approx(1.0, abs=1e-3)
            assert answer.option_scores[answer.chosen] == max(answer.option_scores)


def test_videorag_never_sees_memory_after_the_question_time(videorag):
    before_bob_asked = T0 + timedelta(seconds=8)  # the request runs 08:00:06-08:00:10
    early = videorag.answer(*BUY[:1], "me", before_bob_asked, BUY[1])
    assert early.abstained and early.chosen == 3
    assert all(e.record.wall_end < before_bob_asked for e in videorag.retrieve(BUY[0], "me", before_bob_asked))
    assert videorag.answer(*BUY[:1], "me", T0 + timedelta(seconds=11), BUY[1]).chosen == 1
    # the plumber speaks on day 2: asked on day 1 in the evening, nothing is there yet
    assert videorag.answer(*PLUMBER[:1], "me", T0 + timedelta(hours=12), PLUMBER[1]).abstained
    assert videorag.answer(*PLUMBER[:1], "me", DAY2 + timedelta(hours=1), PLUMBER[1]).chosen == 1


def test_egobutler_descends_from_summaries_to_clip_captions(filled):
    narrow = EgoButlerBaseline(HybridRetriever(filled), filled.embedder, EgoButlerConfig(days=1, hours=1, k=2))
    on_day2 = DAY2 + timedelta(hours=1)
    answer = narrow.answer(*PLUMBER[:1], "me", on_day2, PLUMBER[1])
    assert answer.chosen == 1 and {e.record.kind for e in answer.evidence} == {"clip"}
    assert all(e.record.video_id == "vid-day2" for e in answer.evidence)
    # the one day it keeps is the day the question is about: Bob's request is on day 1
    assert {h.record.video_id for h in narrow.retrieve(BUY[0], "me", on_day2)} == {"vid-morning"}
    assert narrow.answer(*BUY[:1], "me", on_day2, BUY[1]).chosen == 1


def test_egobutler_reaches_clips_newer_than_the_last_summary(filled, egobutler):
    """At 08:00:50 the hour summary (ending 08:01:30) is not complete; the first clip is."""
    at = T0 + timedelta(seconds=50)
    query = SearchQuery(BUY[0], "me", stores=("event",), kinds=("clip",), before=at, k=5)
    assert HybridRetriever(filled).coarse_to_fine(query) == []
    hits = HybridRetriever(filled).coarse_to_fine(query, open_tail=True)
    assert [h.record.wall_end for h in hits] == [T0 + timedelta(seconds=30)]
    assert egobutler.answer(*BUY[:1], "me", at, BUY[1]).chosen == 1
    # the dentist is mentioned in the second clip, which ends at 08:01:00: not yet remembered
    dentist = ("When is the dentist appointment?", ["At four thirty", "At nine am", "At noon", CANNOT])
    assert egobutler.answer(*dentist[:1], "me", at, dentist[1]).abstained
    assert egobutler.answer(*dentist[:1], "me", AT, dentist[1]).chosen == 0


def test_abstains_when_nothing_relevant_is_remembered(videorag, egobutler):
    car = ("What colour is my car?", ["Red", "Blue", "Silver", "N/A"])
    for baseline in (videorag, egobutler):
        answer = baseline.answer(*car[:1], "me", AT, car[1])
        assert answer.abstained and answer.chosen == 3 and answer.option_scores[3] > 0.5 and not answer.evidence
        assert baseline.answer(car[0], "me", AT).abstained  # open question
        assert baseline.answer(*BUY[:1], "someone-else", AT, BUY[1]).abstained  # another namespace's memory


def test_open_questions_return_the_best_retrieved_text(videorag):
    answer = videorag.answer(BUY[0], "me", AT)
    assert not answer.abstained and answer.chosen is None and answer.option_scores == []
    assert "oat milk" in answer.answer and answer.evidence[0].record.kind == "utterance"


def test_reader_without_an_abstain_option_still_picks(embedder):
    reader = EvidenceReader(embedder)
    answer = reader.read("What colour is my car?", ["Red", "Blue"], [], "test")
    assert not answer.abstained and answer.chosen in (0, 1) and answer.option_scores == [0.5, 0.5]


def test_bench_baselines_reuse_the_memory_memlens_built(tmp_path, embedder):
    """A video memory already holds (same bytes, same clock) is neither perceived nor re-ingested."""
    from benchmarks.suites import make_systems
    from service.config import load_config
    from service.system import MemlensSystem

    video_file = tmp_path / "morning.mp4"
    video_file.write_bytes(b"stand-in bytes: only the file's hash identifies the video")
    system = MemlensSystem(load_config(env={**os.environ, "MEMLENS_HOME": str(tmp_path / "home")}))

    class NoPerception:
        def perceive(self, *args, **kwargs):
            raise AssertionError("perception ran again on a video memory already holds")

    from memory.memory import Memory

    system._memory = Memory(system.config.memory, embedder=embedder)  # the session's embedder, not a second load
    system._perceiver = NoPerception()
    try:
        system.memory.ingest(make_observation(file_video_id(video_file), T0), "toy:p1")
        item = Item("buy", "toy", "conversation", BUY[0],
                    tuple(Option(o, "not_answerable" if o == CANNOT else "incorrect") for o in BUY[1]), 1,
                    AT.isoformat(), person="p1")
        for qa in make_systems(["videorag", "egobutler"], system):
            qa.ingest(VideoRef("morning", str(video_file), T0.isoformat(), person="p1"), "toy:p1")
            pred = qa.answer(item, "toy:p1")
            assert (pred.system, pred.chosen, pred.abstained) == (qa.name, 1, False) and pred.evidence
        with pytest.raises(AssertionError, match="perception ran again"):  # another clock is another video
            qa.ingest(VideoRef("morning", str(video_file), (T0 + timedelta(hours=1)).isoformat()), "toy:p1")
    finally:
        system.close()


@pytest.mark.slow
def test_bench_runs_the_baselines_on_one_perception_of_real_video(tmp_path, short_video):
    from benchmarks.suites import make_systems, run_bench
    from eval.schema import read_jsonl
    from service.config import load_config
    from service.system import MemlensSystem
    from tests.test_bench import tiny_suite

    system = MemlensSystem(load_config(env={**os.environ, "MEMLENS_HOME": str(tmp_path / "home")}))
    perceived = []
    perceive = system.perceiver.perceive
    system.perceiver.perceive = lambda *a, **kw: perceived.append(a) or perceive(*a, **kw)
    try:
        report = run_bench(tiny_suite(short_video), tmp_path / "out",
                           make_systems(["memlens", "videorag", "egobutler"], system))
        assert len(perceived) == 1
        for name in ("videorag", "egobutler"):
            rows = {r["item_id"]: r for r in read_jsonl(tmp_path / "out" / "predictions" / f"{name}.jsonl")}
            assert set(rows) == {"wifi", "scissors", "car", "scissors-early"} and not any(r["error"] for r in rows.values())
            assert rows["car"]["chosen"] == 3 and rows["car"]["abstained"]
            assert f"| **{name}** |" in report.read_text()
        videorag = {r["item_id"]: r for r in read_jsonl(tmp_path / "out" / "predictions" / "videorag.jsonl")}
        assert videorag["wifi"]["chosen"] == 0 and videorag["wifi"]["evidence"][0]["kind"] == "text"
    finally:
        system.close()
