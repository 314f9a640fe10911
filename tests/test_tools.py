"""Each general tool over a real memory of three days (tests/test_skills.py's episodes):
called directly with typed slots, so a wrong answer fails here before any planner runs."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from agent.compose import who_answers
from agent.plan import QueryPlan, TimeSlot
from agent.tools import ToolCall, calls_for
from agent.tools.base import ToolContext
from agent.tools.premise import premise_check
from agent.tools.talk import people, read, said, speech_acts
from agent.tools.things import count, locate, seen, state, trajectory
from agent.tools.timeline import activity, duration, habit, order, when, where_was_i
from tests.test_skills import agent, at  # noqa: F401  (the three-day memory fixture)


def ctx_at(agent, when: datetime, time: TimeSlot | None = None) -> ToolContext:  # noqa: F811
    c = agent.context
    return ToolContext(c.retriever, c.operators, "me", when, time or TimeSlot())


def test_locate_is_the_last_place_before_t_q(agent):  # noqa: F811
    assert locate(ctx_at(agent, at(1, 10)), "keys").value == "office"
    assert locate(ctx_at(agent, at(1, 22)), "keys").value == "living room"
    assert not locate(ctx_at(agent, at(3, 22)), "passport").found


def test_trajectory_and_state(agent):  # noqa: F811
    assert trajectory(ctx_at(agent, at(2, 22)), "bottle").value == ["park", "gym"]
    assert state(ctx_at(agent, at(1, 22)), "pan").value == "dirty kitchen"
    assert state(ctx_at(agent, at(2, 22)), "pan").value == "clean kitchen"


def test_count_instances_and_visits(agent):  # noqa: F811
    assert count(ctx_at(agent, at(1, 22)), "mugs").value == 2
    assert count(ctx_at(agent, at(2, 22)), "mug").value == 3
    assert count(ctx_at(agent, at(3, 22)), "cafe").value == 2
    assert count(ctx_at(agent, at(3, 22)), "unicorns").value == 0


def test_when_gives_the_day_that_meets_every_constraint(agent):  # noqa: F811
    lunch = TimeSlot(hours=(11.0, 14.5), part="lunch")
    soup = when(ctx_at(agent, at(3, 22), lunch), ["soup"], ["cafe"], "date")
    assert soup.found and soup.value == at(1, 0).date()
    assert when(ctx_at(agent, at(3, 22), lunch), ["sandwich"], ["park"], "date").value == at(3, 0).date()
    assert not when(ctx_at(agent, at(3, 22), lunch), ["soup"], ["park"], "date").found


def test_duration_adds_up_stays(agent):  # noqa: F811
    gym = duration(ctx_at(agent, at(3, 22)), "gym")
    assert gym.found and 0 < gym.value <= 20
    assert not duration(ctx_at(agent, at(1, 22)), "gym").found  # first gym visit is on day 2


def test_duration_with_no_time_named_is_the_last_day_there_and_a_window_adds_up_its_days(agent):  # noqa: F811
    days = {day: duration(ctx_at(agent, at(day, 23), TimeSlot(day_offset=0)), "cafe") for day in (1, 2, 3)}
    visited = [day for day, result in days.items() if result.found]
    assert len(visited) >= 2  # the cafe on two days (count: 2 visits by day 3)
    assert duration(ctx_at(agent, at(3, 23)), "cafe").value == days[visited[-1]].value
    every_day = duration(ctx_at(agent, at(3, 23), TimeSlot(start=at(1, 0), end=at(3, 23))), "cafe")
    assert every_day.value == sum(days[day].value for day in visited) > days[visited[-1]].value


def test_order_and_where_was_i(agent):  # noqa: F811
    result = order(ctx_at(agent, at(2, 22), TimeSlot(day_offset=0)), ["the park", "the office", "the cafe"])
    assert result.answer == "the office -> the cafe -> the park"
    lunch_day3 = TimeSlot(day_offset=0, hours=(11.0, 14.5), part="lunch")
    assert where_was_i(ctx_at(agent, at(3, 22), lunch_day3)).value == "park"


def test_activity_after_an_anchor(agent):  # noqa: F811
    after_lunch = TimeSlot(day_offset=0, hours=(11.0, 14.5), part="lunch", relation="after")
    assert activity(ctx_at(agent, at(3, 22), after_lunch)).value == ["library"]


def test_after_lunch_with_no_day_named_is_after_the_last_lunch(agent):  # noqa: F811
    after_lunch = TimeSlot(hours=(11.0, 14.5), part="lunch", relation="after")
    last_evening = ctx_at(agent, at(3, 22), after_lunch)
    assert last_evening.window() == (at(3, 0), at(3, 22))  # day 3's lunch, not every day's
    assert activity(last_evening).value == ["library"]
    assert ctx_at(agent, at(2, 22), after_lunch).window() == (at(2, 0), at(2, 22))
    things_after = seen(last_evening)
    assert all(at(3, 14, 30) <= e.record.wall_start < at(3, 22) for e in things_after.support)


def test_habits(agent):  # noqa: F811
    assert habit(ctx_at(agent, at(3, 22)), "lunch", None).value == "cafe"
    assert habit(ctx_at(agent, at(3, 22)), None, "lunch").value == "park"
    assert habit(ctx_at(agent, at(2, 22)), "laptop", None).value == "office"
    assert habit(ctx_at(agent, at(3, 22)), None, "the office").value == "cafe"
    # the office is a morning place here: after it in the afternoon nothing is known
    assert not habit(ctx_at(agent, at(3, 22)), None, "the office", within="afternoon").found


def test_said_follows_corrections_and_speakers(agent):  # noqa: F811
    plumber = said(ctx_at(agent, at(1, 22)), ["plumber"], "Alice")
    assert plumber.found and "five" in plumber.value.lower() and "Alice" in plumber.answer
    # corrected within one line: the answer says what it became, then what was first said
    assert plumber.answer.startswith('Alice corrected it: "Actually, no, it moved to five."')
    assert 'first said "The plumber comes at three."' in plumber.answer
    budget = said(ctx_at(agent, at(2, 22), TimeSlot(day_offset=0)), ["send"], "Bob")
    assert "budget" in budget.value


def test_the_person_a_question_names_is_whose_words_answer(agent):  # noqa: F811
    # "what did Bob think of the plumber?": Alice's line on the plumber is not Bob's
    assert not said(ctx_at(agent, at(1, 22)), ["plumber"], about="Bob").found
    alice = said(ctx_at(agent, at(1, 22)), ["plumber"], about="Alice")
    assert alice.found and "Alice" in alice.answer
    # "who inspired Alice ...?" is never answered by Alice's own line
    asked = QueryPlan("speech", "person", people=["Alice"], verb="inspire")
    assert who_answers(asked, alice) == "" and who_answers(replace(asked, people=[]), alice) == "Alice"


def test_people_requests_commitments_and_reading(agent):  # noqa: F811
    assert people(ctx_at(agent, at(1, 22), TimeSlot(day_offset=0))).value == ["Bob", "Alice"]
    assert people(ctx_at(agent, at(3, 22), TimeSlot(day_offset=0))).found is False
    asks = speech_acts(ctx_at(agent, at(2, 22)), "request", "Bob")
    assert asks.found and "budget" in asks.support[0].record.text
    plans = speech_acts(ctx_at(agent, at(2, 7)), "commitment")
    assert "dentist" in plans.value
    locker = read(ctx_at(agent, at(2, 22)), ["locker"], "locker number")
    assert locker.found and "42" in locker.value


def test_requests_for_a_day_ahead_are_those_told_for_that_day(agent):  # noqa: F811
    c = agent.context
    friday = TimeSlot(ahead=(datetime(2026, 3, 6), datetime(2026, 3, 7)))  # asked on Tuesday evening
    ctx = ToolContext(c.retriever, c.operators, "me", at(2, 22), friday, dates_in=c.planner.dates_in)
    asks = speech_acts(ctx, "request", "Bob")
    assert [e.record.attrs["said"] for e in asks.support] == ["Could you send me the slides by Friday?"]
    anyday = speech_acts(ctx_at(agent, at(2, 22)), "request", "Bob")  # no day named: both, the latest first
    assert len(anyday.support) == 2 and "budget" in anyday.support[0].record.text


def test_premise_check(agent):  # noqa: F811
    c = ctx_at(agent, at(3, 22))
    assert premise_check(c, ["Bob"], ["cafe"], ["laptop"]).found
    assert premise_check(c, ["Carol"], [], []).note == "nothing in memory mentions Carol"
    assert "pharmacy" in premise_check(c, [], ["pharmacy"], []).note
    assert not premise_check(ctx_at(agent, at(1, 8)), [], ["gym"], []).found  # not yet visited at t_q
    assert not premise_check(c, [], [], ["giraffe"]).found  # a thing one could see, never seen
    assert premise_check(c, [], [], ["lockers"]).found  # a plural names what its singular does: a locker was read
    # an event is not a thing one sees, and "phone" in "phone call" presupposes no phone
    assert premise_check(c, [], [], ["talk"]).found
    assert premise_check(c, [], [], ["phone"], phrases=["phone call"]).found
    assert not premise_check(c, [], [], ["phone"], phrases=["phone charger"]).found


def test_calls_for_a_plan_and_refinement_changes_it(agent):  # noqa: F811
    plan = agent.context.planner.plan("where did I leave my keys?", at(2, 22))
    first = calls_for(plan, [], 0)
    assert first[0] == ToolCall("locate", {"thing": "keys"}) and any(c.tool == "premise_check" for c in first)
    second = calls_for(plan, [], 1)
    assert [c.tool for c in second] != [c.tool for c in first]
    assert calls_for(plan, [], 2)[-1].args.get("broad") is True


def test_seen_in_a_window(agent):  # noqa: F811
    breakfast = TimeSlot(day_offset=-1, hours=(5.0, 10.5), part="breakfast")
    things = seen(ctx_at(agent, at(2, 22), breakfast)).value
    assert "blue mug" in things and "oatmeal" in things and "red mug" not in things  # day 1's breakfast only
    assert not seen(ctx_at(agent, at(1, 6), breakfast)).found  # before anything was seen


def test_a_clock_time_as_people_say_and_write_it():
    from memory.language import states_a_time
    assert all(states_a_time(t) for t in ("make it 4.30", "at 5", "4:30 PM", "half past, at noon"))
    assert not any(states_a_time(t) for t in ("it cost $4.30", "version 1.25.3", "I bought 3 apples"))



def test_a_request_to_be_told_is_a_question_put_and_tells_nothing_of_its_speaker():
    from agent.tools.talk import only_asks
    from memory.records import UTTERANCE, MemoryRecord

    def line(said: str, acts: list[str]) -> MemoryRecord:
        return MemoryRecord("event", UTTERANCE, "ns", f"Maria: {said}", at(1, 9), at(1, 9), "v",
                            attrs={"said": said, "acts": acts})

    assert only_asks(line("Could you tell me more about how you organized the run?", ["request"]), ["run"], "")
    assert not only_asks(line("Could you send me the budget by Monday?", ["request"]), ["budget"], "")  # wants it done
    assert not only_asks(line("I ran a 5K for the shelter.", []), ["run"], "")


def test_a_span_before_memory_began_is_a_time_told_of_not_a_window(agent):  # noqa: F811
    told = agent.ask("Where did Bob move from in 2019?", "me", at(3, 22))  # only Bob could have told it
    assert any("before memory began" in step for step in told.trace)
    mine = agent.ask("Where did I go in 2019?", "me", at(3, 22))  # the wearer's own year: nothing remembered
    assert not any("before memory began" in step for step in mine.trace) and mine.abstained
