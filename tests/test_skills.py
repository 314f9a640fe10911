"""Agent skills over stored timestamps (time scopes, anchors, premises, orderings, counts,
habits, trajectories, conditions, which-day links) on a real memory of three days."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from memory.config import MemoryConfig
from memory.memory import Memory
from memory.records import ENTITY_SIGHTING, RecordFilter
from perception.types import AsrSegment, ClipObservation, ClipSpan, OcrLine, VideoObservation
from tests.test_agent import CANNOT, make_agent

DAY1 = datetime(2026, 3, 2)


def _label(text: str, t: float, x: float, y: float = 400.0) -> OcrLine:
    return OcrLine(text=text, confidence=0.95, frame_time=t, box=(x, y, x + 180.0, y + 30), frame_size=(960, 540))


def episode(video_id: str, start: datetime, place: str, labels=(), lines=(), note=()) -> VideoObservation:
    """A 20 s recording: a place sign, labels side by side, an optional stacked note, speech."""
    ocr = [_label(place.upper(), t, 380, 20) for t in (1.0, 12.0)]
    for t in (1.0, 12.0):
        ocr += [_label(text, t, 60 + 300 * k) for k, text in enumerate(labels)]
        ocr += [_label(text, t, 380, 150 + 40 * k) for k, text in enumerate(note)]
    asr = [AsrSegment(2.0 + 4 * k, 5.0 + 4 * k, text, 0.9, speaker=speaker) for k, (speaker, text) in enumerate(lines)]
    span = ClipSpan(video_id, 0, 0.0, 20.0, start)
    return VideoObservation(video_id=video_id, path=f"/v/{video_id}.mp4", duration=20.0, wall_start=start,
                            has_audio=True, clips=[ClipObservation(span=span, keyframe_times=[1.0, 12.0], ocr=ocr, asr=asr)])


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return DAY1 + timedelta(days=day - 1, hours=hour, minutes=minute)


@pytest.fixture(scope="module")
def agent(tmp_path_factory, embedder):
    memory = Memory(MemoryConfig(root=tmp_path_factory.mktemp("skills")), embedder=embedder)
    days = [
        # day 1: blue mug at breakfast in the kitchen, Bob asks for the slides, lunch at the cafe, park after
        episode("d1-breakfast", at(1, 7, 10), "kitchen", ("BLUE MUG", "OATMEAL"), [("S1", "Oatmeal for breakfast today.")]),
        episode("d1-work", at(1, 9), "office", ("LAPTOP", "KEYS"),
                [("S2", "Hi, it's Bob."), ("S2", "Could you send me the slides by Friday?")]),
        episode("d1-lunch", at(1, 12, 10), "cafe", ("SOUP",), [("S1", "The soup here is good.")]),
        episode("d1-walk", at(1, 12, 50), "park", ("BOTTLE (EMPTY)",)),
        episode("d1-dinner", at(1, 19), "kitchen", ("PAN (DIRTY)", "RED MUG"),
                [("S2", "Hey, it's Alice."), ("S2", "The plumber comes at three. Actually, no, it moved to five.")]),
        episode("d1-evening", at(1, 21), "living room", ("KEYS", "LAPTOP"), [("S1", "Tomorrow I need to call the dentist.")]),
        # day 2: red mug again, Bob asks for the budget, lunch at the cafe, park after, gym in the evening
        episode("d2-breakfast", at(2, 7, 5), "kitchen", ("RED MUG", "TOAST")),
        episode("d2-work", at(2, 9), "office", ("LAPTOP", "KEYS"),
                [("S2", "Hi, it's Bob."), ("S2", "Could you send me the budget by Monday?")]),
        episode("d2-lunch", at(2, 12, 5), "cafe", ("SALAD",)),
        episode("d2-walk", at(2, 12, 45), "park", ("BOTTLE (FULL)",)),
        episode("d2-gym", at(2, 17, 30), "gym", ("BOTTLE (EMPTY)",), note=("LOCKER", "42")),
        episode("d2-dinner", at(2, 19), "kitchen", ("PAN (CLEAN)", "GREEN MUG")),
        # day 3: lunch in the park, library after
        episode("d3-lunch", at(3, 12), "park", ("SANDWICH",)),
        episode("d3-walk", at(3, 12, 40), "library", ("BLUE BOOK",)),
    ]
    for video in days:
        memory.ingest(video, "me")
    yield make_agent(memory)
    memory.close()


def choose(agent, question: str, options: list[str], when: datetime) -> str:
    answer = agent.ask(question, "me", when, options)
    import os
    if os.environ.get("DEBUG_TRACE"):
        print(answer.trace, answer.option_scores)
    return options[answer.chosen_option]


def test_time_slots_from_the_question(agent):
    planner = agent.context.planner
    assert planner.plan("What did Bob ask me to send today?", at(2, 22)).time.day_offset == 0
    last_night = planner.plan("Last night, what did I say I need to do today?", at(2, 22)).time
    assert (last_night.day_offset, last_night.part) == (-1, "night")
    anchored = planner.plan("Where did I have lunch on the day Bob asked me for the slides?", at(3, 22)).time
    assert anchored.anchor == "Bob asked me for the slides" and anchored.part == "lunch" and anchored.relation == "day_of"
    after = planner.plan("Where am I most likely to go after lunch?", at(3, 22)).time
    assert (after.relation, after.part) == ("after", "lunch")  # "after lunch" relates, it is not the window


def test_side_by_side_labels_and_states(agent):
    sightings = agent.context.operators.memory.store("entity").query(RecordFilter(namespace="me", kinds=(ENTITY_SIGHTING,)))
    entities = {(r.attrs["entity"], r.attrs.get("state")) for r in sightings}
    assert {("blue mug", None), ("oatmeal", None), ("pan", "dirty"), ("pan", "clean")} <= entities
    assert not any(e in ("locker", "42") for e, _ in entities)  # a stacked note is text, not a thing


def test_today_excludes_yesterday(agent):
    options = ["The slides", "The budget", "A document", CANNOT]
    assert choose(agent, "What did Bob ask me to send today?", options, at(2, 22)) == "The budget"
    assert choose(agent, "What did Bob ask me to send today?", options, at(2, 8)) == CANNOT  # not yet asked today


def test_correction_inside_one_utterance(agent):
    options = ["3:00 PM", "5:00 PM", "Sometime after lunch", CANNOT]
    assert choose(agent, "What time did Alice finally say the plumber comes?", options, at(1, 22)) == "5:00 PM"


def test_last_night_intention(agent):
    options = ["Call the dentist", "Fix the bike", "Run an errand", CANNOT]
    assert choose(agent, "Last night, what did I say I need to do today?", options, at(2, 7, 30)) == "Call the dentist"


def test_premises_never_met_or_never_visited(agent):
    assert choose(agent, "What did Carol ask me to buy?", ["Milk", "Bread", "Rice", CANNOT], at(3, 22)) == CANNOT
    total = ["$12.50", "$8.25", "$30.10", CANNOT]
    assert choose(agent, "What was the total on the pharmacy receipt?", total, at(3, 22)) == CANNOT


def test_anchor_resolves_the_day(agent):
    options = ["At the cafe", "At the park", "Somewhere outside the home", CANNOT]
    assert choose(agent, "Where did I have lunch on the day Bob asked me for the slides?", options, at(3, 22)) == "At the cafe"
    assert choose(agent, "Where did I have lunch today?", options, at(3, 22)) == "At the park"


def test_distinct_instances_and_visits_are_counted_at_t_q(agent):
    numbers = ["1", "2", "3", "4", "5"]
    assert choose(agent, "How many different mugs have I seen so far?", numbers, at(1, 22)) == "2"
    assert choose(agent, "How many different mugs have I seen so far?", numbers, at(2, 22)) == "3"
    assert choose(agent, "How many times have I been to the cafe so far?", numbers, at(3, 22)) == "2"


def test_ordering_by_stored_time(agent):
    options = ["Bob asked me for the budget; then I went to the gym; then Bob asked me for the slides",
               "Bob asked me for the slides; then Bob asked me for the budget; then I went to the gym",
               "I went to the gym; then Bob asked me for the slides; then Bob asked me for the budget"]
    question = "In what order did these happen: (a) Bob asked me for the budget, (b) Bob asked me for the slides, (c) I went to the gym?"
    assert choose(agent, question, options, at(3, 22)) == options[1]
    timeline = ["the office, then the cafe, then the park", "the cafe, then the office, then the park",
                "The office first, then the other two", CANNOT]
    assert choose(agent, "In what order did I go to the cafe, the office and the park today?", timeline, at(2, 22)) == timeline[0]


def test_habits_and_next_places(agent):
    places = ["The kitchen", "The office", "The living room", "The park", "The cafe"]
    assert choose(agent, "Where do I usually use my laptop?", places, at(2, 22)) == "The office"
    assert choose(agent, "Where do I usually have lunch?", places, at(3, 22)) == "The cafe"
    assert choose(agent, "Where am I most likely to go after lunch?", places, at(3, 22)) == "The park"


def test_trajectory_and_last_condition(agent):
    options = ["park -> gym -> park", "park -> park", "park -> gym", "gym -> park"]
    assert choose(agent, "Where has my bottle been over the last days, from earliest to latest?", options, at(2, 22)) == "park -> gym"
    pan = ["Clean, in the kitchen", "Dirty, in the kitchen", "Clean, in the office", "Dirty, in the office"]
    question = "What condition was the pan in, and where, the last time I saw it?"
    assert choose(agent, question, pan, at(1, 22)) == "Dirty, in the kitchen"
    assert choose(agent, question, pan, at(2, 22)) == "Clean, in the kitchen"


def test_which_day_meets_every_constraint(agent):
    days = ["Monday (March 2)", "Tuesday (March 3)", "Wednesday (March 4)", "Thursday (March 5)"]
    assert choose(agent, "On which day did I have soup for lunch in the cafe?", days, at(3, 22)) == "Monday (March 2)"
    assert choose(agent, "On which day did I have a sandwich for lunch in the park?", days, at(3, 22)) == "Wednesday (March 4)"



def test_what_was_on_screen_while_something_was_said_is_read_in_that_stay(tmp_path, embedder):
    # the office, then the bedroom two seconds after it, in one recording: "when I was checking my
    # email" dates the question (the office stay); the line that says so is not its answer, nor is
    # the bedroom's first sign
    start = at(1, 7, 30)
    office = [_label("OFFICE", 1.0, 380, 20), _label("TEAM MEETING", 1.0, 380, 150), _label("10:00 AM", 1.0, 380, 190),
              _label("OFFICE", 18.0, 380, 20)]
    bedroom = [_label(text, t, 380, y) for t in (22.0, 30.0) for text, y in (("BEDROOM", 20), ("KEYS", 150))]
    clips = [ClipObservation(span=ClipSpan("morning", 0, 0.0, 20.0, start), keyframe_times=[1.0, 18.0], ocr=office,
                             asr=[AsrSegment(3.0, 5.0, "Let me check my email before I go.", 0.9, speaker="S1")]),
             ClipObservation(span=ClipSpan("morning", 1, 20.0, 40.0, start + timedelta(seconds=20)), keyframe_times=[22.0, 30.0], ocr=bedroom)]
    memory = Memory(MemoryConfig(root=tmp_path), embedder=embedder)
    memory.ingest(VideoObservation(video_id="morning", path="/v/morning.mp4", duration=40.0, wall_start=start,
                                   has_audio=True, clips=clips), "me")
    try:
        answer = make_agent(memory).ask("what was on the screen when I was checking my email?", "me", at(1, 9))
        trace = "\n".join(answer.trace)
        assert not answer.abstained and "team meeting" in answer.answer.lower(), trace
        assert "email" not in answer.answer.lower() and "keys" not in answer.answer.lower(), trace
    finally:
        memory.close()
