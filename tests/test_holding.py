"""What was in a hand, from where the detector's boxes lie (memory.holding): the wearer's arm
reaching in from an edge, someone wholly in view, a thing held up at the lower centre, and
the things that only pass by a person or sit below the camera, which are not held."""
from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest

from agent.plan import TimeSlot
from agent.tools.base import ToolContext
from agent.tools.things import in_hand
from memory.holding import WEARER, held, holder_on_frame
from memory.records import ENTITY_SIGHTING, RecordFilter
from perception.types import ClipObservation, ClipSpan, ObjectDetection, VideoObservation
from tests.conftest import T0, memory_holding
from tests.test_agent import make_agent

SIZE = (640, 480)


def _seen(label: str, t: float, box, colour: str | None = None) -> ObjectDetection:
    return ObjectDetection(label=label, confidence=0.5, frame_time=t, box=box, frame_size=SIZE, colour=colour)


def test_a_cup_on_an_arm_reaching_in_from_the_edge_is_in_the_wearer_s_hand():
    arm = _seen("person", 0.0, (310, 130, 640, 375))  # cut off by the right edge
    cup = _seen("cup", 0.0, (305, 125, 430, 385))
    assert holder_on_frame(_seen("cup", 0.0, (330, 140, 420, 360)), [arm]) == WEARER
    assert holder_on_frame(cup, [arm]) == WEARER  # most of the cup on the arm is enough


def test_a_thing_on_someone_wholly_in_view_is_in_their_hand():
    walker = _seen("person", 0.0, (200, 60, 320, 420), colour="red")
    bag = _seen("handbag", 0.0, (250, 220, 300, 300))
    assert holder_on_frame(bag, [walker]) == "person in red"
    # a thing bigger than the person is behind them, not in their hand
    assert holder_on_frame(_seen("bus", 0.0, (100, 20, 600, 440)), [walker]) is None
    assert holder_on_frame(walker, [walker]) is None  # a person is never held


def test_the_lower_centre_holds_a_small_thing_but_not_the_table_below():
    phone = _seen("cell phone", 0.0, (260, 330, 380, 480))
    table = _seen("dining table", 0.0, (0, 200, 640, 480))
    aside = _seen("cup", 0.0, (20, 400, 100, 480))  # at the bottom, but at the side
    assert holder_on_frame(phone, []) == WEARER
    assert holder_on_frame(table, []) is None and holder_on_frame(aside, []) is None


def test_held_needs_several_frames_and_most_of_the_thing_s_frames():
    arm = {t: [_seen("person", t, (310, 130, 640, 375))] for t in (0.0, 0.5, 1.0, 1.5)}
    cup_on_arm = [_seen("cup", t, (330, 140, 420, 360)) for t in (0.5, 1.0, 1.5)]
    before = [_seen("cup", t, (20, 20, 80, 90)) for t in (-2.0, -1.5)]  # on a shelf before it was taken
    holding = held(before + cup_on_arm, arm)
    assert holding is not None and holding.by == WEARER and holding.frames == 3 and holding.since == 0.5
    assert held(cup_on_arm[:1], arm) is None  # one frame is a coincidence
    on_shelf = [_seen("cup", t, (20, 20, 80, 90)) for t in (2.0, 2.5, 3.0, 3.5, 4.0)]
    assert held(cup_on_arm[:2] + on_shelf, arm) is None  # mostly not in a hand


def _recording(video_id: str, start, things: dict[str, tuple], arm: bool) -> VideoObservation:
    """A 20 s recording where each named thing lies at its box on every frame (instance 1),
    with the wearer's arm reaching in from the right edge when `arm`."""
    times = [float(t) for t in range(0, 20, 2)]
    seen = [dataclasses.replace(_seen(label, t, box), instance=1, track=i + 1)
            for i, (label, box) in enumerate(things.items()) for t in times]
    if arm:
        seen += [dataclasses.replace(_seen("person", t, (310, 130, 640, 375)), instance=1, track=99) for t in times]
    clip = ClipObservation(span=ClipSpan(video_id, 0, 0.0, 20.0, start), keyframe_times=times, objects=seen)
    return VideoObservation(video_id, f"{video_id}.mp4", 20.0, start, False, [clip], channels={"objects": "on"})


@pytest.fixture(scope="module")
def two_hands(tmp_path_factory, embedder):
    kitchen = _recording("kitchen", T0, {"cup": (330, 140, 420, 360)}, arm=True)
    desk = _recording("desk", T0 + timedelta(hours=2),
                      {"book": (340, 150, 430, 350), "dining table": (0, 200, 640, 480)}, arm=True)
    with memory_holding(tmp_path_factory.mktemp("hands"), embedder, kitchen, desk) as memory:
        yield memory


def test_what_was_held_is_asked_by_its_name_or_by_what_was_around_it(two_hands):
    c = make_agent(two_hands).context

    def asked(thing=None, by_wearer=True, around=None):
        ctx = ToolContext(c.retriever, c.operators, "me", T0 + timedelta(hours=3), TimeSlot())
        return in_hand(ctx, by_wearer, thing, around)

    assert "book" in asked().answer and "cup" in asked().answer  # latest first, both
    assert "cup" in asked("cup").answer and "book" not in asked("cup").answer  # by its own name
    assert "book" in asked("umbrella").answer  # the umbrella in my hand: the detector called it otherwise
    assert "book" in asked("table").answer  # the table in my hand: the latest thing held, whatever its name
    over_table = asked(around="table")  # holding over the table: what was held where the table was
    assert "book" in over_table.answer and "cup" not in over_table.answer, over_table.answer
    assert not asked(around="umbrella").found  # never seen: nothing was held around it
    assert not asked(by_wearer=False).found  # nobody else held anything
    tables = [r for r in two_hands.store("entity").query(RecordFilter(namespace="me", kinds=(ENTITY_SIGHTING,)))
              if r.attrs["label"] == "dining table"]
    assert tables and not any(r.attrs.get("held_by") for r in tables)  # too big to be in a hand
