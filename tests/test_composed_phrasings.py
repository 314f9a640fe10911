"""The source answerer (skills/m3eval/answerer.py) reads composed-video questions by meaning: a
question in other words than M3Eval's reaches the same kind with the same stream, verb and
N-Back slots; an unrelated question is left to the main graph. The wordings here are this
test's own (never the evaluation banks'). Source maps are built by hand; nothing is rendered."""
from __future__ import annotations

from datetime import datetime

import pytest

from agent.question_nlp import SpacyPipeline
from skills.m3eval.answerer import SourceAnswerer
from skills.m3eval.questions import nback_slots, numbers_in, stream_words
from skills.m3eval.sources import SourceMap, SourceSegment, SourceText

T0 = datetime(2026, 3, 2, 9, 0, 0)
OPTIONS = ["the pear", "the leek", "the plum", "Not in either video"]


@pytest.fixture(scope="module")
def nlp():
    return SpacyPipeline()


def story_map() -> SourceMap:
    """Two concatenated stories: stream 0 peels a pear then slices a plum; stream 1 fries a leek."""
    texts = [SourceText(0.5, 0, "full", "the chef peels the pear", y=0.9),
             SourceText(1.5, 0, "full", "the chef slices the plum", y=0.9),
             SourceText(3.5, 1, "full", "the chef fries the leek", y=0.9),
             SourceText(4.5, 1, "full", "the chef washes the pear", y=0.9)]
    return SourceMap("sequence", [SourceSegment(0, 3, 0), SourceSegment(3, 6, 1)], texts=texts, duration=6.0)


def split_map() -> SourceMap:
    texts = [SourceText(0.5, 0, "left", "the clerk signs the memo", y=0.9),
             SourceText(0.5, 1, "right", "the clerk stamps the ticket", y=0.9)]
    return SourceMap("split", [SourceSegment(0, 6, 0, "left"), SourceSegment(0, 6, 1, "right")], texts=texts,
                     duration=6.0)


def nback_map() -> SourceMap:
    """Six clips; the scene sign (top) of clip 6 repeats clip 4's, not clip 5's."""
    scenes = ["PARK", "BEACH", "OFFICE", "ZOO", "SCHOOL", "ZOO"]
    segs = [SourceSegment(2 * i, 2 * i + 2, i) for i in range(6)]
    texts = [SourceText(2 * i + 0.5, i, "full", s, y=0.1) for i, s in enumerate(scenes)]
    texts += [SourceText(2 * i + 0.5, i, "full", f"the dog is {a}", y=0.9)
              for i, a in enumerate(["running", "eating", "sleeping", "running", "eating", "digging"])]
    return SourceMap("sequence", segs, texts=texts, duration=12.0)


@pytest.fixture
def answerer(memory, embedder, nlp):
    for ns, smap in (("story", story_map()), ("split", split_map()), ("nback", nback_map())):
        memory.tracks.put(ns, ns, "sources", T0, smap.duration, smap.to_dict())
    return SourceAnswerer(memory.tracks, embedder, nlp)


def ask(answerer, namespace, question, options):
    got = answerer.answer(question, namespace, None, options)
    assert got is not None, question
    assert got.trace[0].startswith("sources: ") and "(by meaning)" in got.trace[0], got.trace
    return got


@pytest.mark.parametrize("question, answer", [
    ("hmm, what did the chef end up peeling in the first video?", "the pear"),
    ("In video two, what's the thing the chef fries?", "the leek"),
    ("quick question: the second one of the two videos, what got fried by the chef there?", "the leek"),
    ("Thinking of the first video: what did the chef wash?", "Not in either video"),  # only video 2 washes
    ("In the second video, which fruit did the chef juggle?", "Not in either video"),  # no stream juggles
])
def test_what_questions_in_other_words_keep_stream_and_verb(answerer, question, answer):
    assert ask(answerer, "story", question, OPTIONS).answer == answer


def test_which_and_order_questions_in_other_words(answerer):
    opts = ["the chef fries the leek", "the chef peels the pear", "the chef bakes the bread", "the chef boils rice"]
    assert ask(answerer, "story", "could you say which of these events is from the second video?", opts).answer \
        == "the chef fries the leek"
    orders = ["the chef slices the plum, then the chef peels the pear",
              "the chef peels the pear, then the chef slices the plum"]
    assert ask(answerer, "story", "in the first video, in what sequence did these take place?", orders).answer \
        == orders[1]
    sides = ["the clerk stamps the ticket", "the clerk signs the memo", "the clerk files the form"]
    assert ask(answerer, "split", "Which of these was going on over on the right side?", sides).answer == sides[0]


def test_nback_in_other_words(answerer):
    yes_no = ["Yes", "No"]
    got = ask(answerer, "nback", "Of these six clips, is the final one set in the same scene as two clips earlier?",
              yes_no)
    assert got.answer == "Yes"
    assert ask(answerer, "nback", "does the last clip's action match the one a single clip before it? (6 clips)",
               yes_no).answer in yes_no
    assert ask(answerer, "nback", "6 clips: is the place in the last clip the same as one clip back?",
               yes_no).answer == "No"


@pytest.mark.parametrize("question", [
    "Where did I leave my keys?", "What does the sign on the left say?", "Who did I talk to after lunch?",
    "How long was I in the first meeting?",
])
def test_unrelated_questions_reach_the_main_graph(answerer, question):
    for ns in ("story", "split"):
        assert answerer.answer(question, ns, None, None) is None


def test_without_an_embedder_only_the_m3eval_wording_is_read(memory, nlp):
    smap = story_map()
    memory.tracks.put("story", "story", "sources", T0, smap.duration, smap.to_dict())
    plain = SourceAnswerer(memory.tracks, nlp=nlp)
    assert plain.answer("In the first video, what does the chef peel?", "story", None, OPTIONS).answer == "the pear"
    assert plain.answer("what did the chef end up peeling in the first video?", "story", None, OPTIONS) is None


def test_stream_words_and_numbers():
    assert stream_words("the one on the right, what did it show") == "right"
    assert stream_words("in the right-hand video") == "right"
    assert stream_words("which came first in the second story") == "second"
    assert stream_words("in video 2") == "2" and stream_words("story number two") == "2"
    assert stream_words("what did the chef slice") == ""
    assert numbers_in("is the last one the same as three clips back, of 7") == [3, 7]
    assert nback_slots("is the last one the same action as one clip back in this 5-clip video", 0) == (5, 1, "action")
    assert nback_slots("is the last clip the same as two back", 6) is None  # scene or action not said
