"""Whole-video tracks in memory: stored with the video, cut at question time, forgotten with
it; and the agent's structured node answering from a symbolic timeline before retrieval."""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta

from skills.videocogqa.answerer import SymbolicAnswerer
from skills.videocogqa.programs.templates import Solved, Template, canon, option_scores
from skills.videocogqa.symbols import Layout, SymbolFrame, SymbolShape, SymbolTrack
from skills.videocogqa.timeline import SymbolicTimeline
from tests.conftest import T0, make_observation


def _track(n_frames: int = 50) -> SymbolTrack:
    """A red circle moving right then back left on a 2x2 grid, a blue square from t=2 s."""
    frames = []
    for i in range(n_frames):
        t = i / 10
        x = 100 + 20 * i if i < 25 else 100 + 20 * (50 - i)
        shapes = [SymbolShape("circle", "red", x, 150, 30, 30, 706.9)]
        if t >= 2.0:
            shapes.append(SymbolShape("square", "blue", 300, 250, 40, 40, 1600))
        frames.append(SymbolFrame(t, tuple(shapes)))
    layout = Layout(480, 360, grid_xs=(40.0, 240.0, 440.0), grid_ys=(40.0, 200.0, 360.0))
    return SymbolTrack(10.0, layout, frames)


def test_symbol_track_round_trips_through_memory_and_forget_removes_it(memory):
    obs = replace(make_observation(), tracks={"symbols": _track()})
    memory.ingest(obs, "me")
    stored = memory.tracks.get("me", "symbols")
    assert len(stored) == 1 and stored[0].wall_start == T0
    assert SymbolTrack.from_dict(stored[0].payload) == obs.tracks["symbols"]
    assert memory.tracks.get("me", "symbols", before=T0) == []  # not yet recorded at t_q
    assert memory.tracks.get("other", "symbols") == []  # namespaces stay apart
    memory.ingest(obs, "me")  # re-ingest replaces, never duplicates
    assert len(memory.tracks.get("me", "symbols")) == 1
    assert memory.forget("me", video_id=obs.video_id) > 0
    assert memory.tracks.get("me", "symbols") == []


def test_timeline_operators_read_what_was_perceived():
    tl = SymbolicTimeline(_track())
    assert tl.grid_shape == (2, 2) and tl.cell == 200.0
    assert tl.cell_of(100, 150) == (0, 0) and tl.cell_of(300, 250) == (1, 1) and tl.cell_of(10, 10) is None
    circle, square = tl.occurrences()
    assert (circle.colour, square.colour) == ("red", "blue") and square.start == 2.0
    assert tl.direction_changes(circle, "x") == 1 and tl.direction_changes(circle, "y") == 0
    assert tl.max_simultaneous() == 2 and tl.max_simultaneous(lambda s: s.colour == "red") == 1
    cut = SymbolicTimeline(_track(), until=1.5)  # the question was asked at 1.5 s
    assert cut.max_simultaneous() == 1 and len(cut.occurrences()) == 1


def test_option_scores_prefer_exact_then_nearest_number():
    assert canon("Green Circle.") == "green circle"
    scores = option_scores(3.1, ["2 seconds", "3 seconds", "5 seconds"])
    assert max(range(3), key=scores.__getitem__) == 1
    assert option_scores("red circle", ["Red circle", "Blue circle", "Both are equal"])[0] == 1.0
    assert option_scores(True, ["No", "Yes"]) == [0.0, 1.0]
    assert option_scores(False, ["Yes, it did", "No, never"]) == [0.0, 0.9]


def test_structured_node_answers_before_retrieval_and_falls_through_otherwise(memory):
    obs = replace(make_observation(), tracks={"symbols": _track()})
    memory.ingest(obs, "me")
    template = Template("T", "max simultaneous", re.compile(r"most objects on screen at once"),
                        lambda tl, m: Solved(tl.max_simultaneous(), (2.0,)))
    answerer = SymbolicAnswerer(memory.tracks, [template])
    at = T0 + timedelta(minutes=5)
    got = answerer.answer("What is the most objects on screen at once?", "me", at, ["1", "2", "3"])
    assert got is not None and got.chosen_option == 1 and not got.abstained
    assert got.evidence[0].record.video_id == obs.video_id
    early = answerer.answer("What is the most objects on screen at once?", "me", T0 + timedelta(seconds=1.5),
                            ["1", "2", "3"])
    assert early.chosen_option == 0  # memory is cut at the question time
    assert answerer.answer("Where are my keys?", "me", at, None) is None  # not a symbolic question
    assert answerer.answer("What is the most objects on screen at once?", "nobody", at, ["1", "2"]) is None


def test_a_question_recognised_only_by_meaning_that_the_timeline_cannot_solve_is_left_to_others(memory, embedder):
    """Another skill's question ("what does the janitor sweep in the second video?") can sit
    near a symbolic template by meaning; when that template cannot be solved on this
    timeline the question is not ours, and the next skill or the planner answers it. The
    generator's own wording still abstains: there it is ours and the video shows too little."""
    memory.ingest(replace(make_observation(), tracks={"symbols": _track()}), "me")
    template = Template("T", "most frequent action", re.compile(r"which action is performed most often", re.I),
                        lambda tl, m: None, asked="Which action is performed most often?",
                        about=("which action is performed most often", "the action done most frequently"))
    answerer = SymbolicAnswerer(memory.tracks, [template], embedder)
    at = T0 + timedelta(minutes=5)
    exact = answerer.answer("Which action is performed most often?", "me", at, ["a", "b"])
    assert exact is not None and exact.abstained
    assert answerer.recogniser.recognise("which action was done most frequently?", _vocab()) is not None
    assert answerer.answer("which action was done most frequently?", "me", at, ["a", "b"]) is None


def _vocab():
    from skills.videocogqa.programs.slots import vocabulary

    return vocabulary()
