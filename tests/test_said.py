"""Whose words answer what someone said, over a real memory of a short conversation: a
name only called out to marks the listener, and an ordinal no line says is another thing."""
from __future__ import annotations

import os
from datetime import datetime

import pytest

from agent.plan import TimeSlot
from agent.tools.base import ToolContext
from agent.tools.talk import said

THREAD = """## Session 1 | 2026-03-02T19:00
Jon: Hey Maya, I finally finished my first screenplay last week.
Maya: Thanks, Jon! My pottery class starts on Monday and I love working the clay.
Jon: Maybe I'll write a drama myself some day.
Maya: That sounds great, you should.
Jon: Thanks, Maya. When I was a kid my grandpa paid for my first camera.
"""
AT = datetime(2026, 3, 3, 9)


@pytest.fixture(scope="module")
def ctx(tmp_path_factory):
    from service.config import load_config
    from service.system import MemlensSystem

    root = tmp_path_factory.mktemp("said")
    path = root / "thread.txt"
    path.write_text(THREAD)
    system = MemlensSystem(load_config(env={**os.environ, "MEMLENS_HOME": str(root / "home")}))
    system.ingest_transcript(path, "chat")
    agent = system.agent
    yield ToolContext(agent.context.retriever, agent.context.operators, "chat", AT, TimeSlot(),
                      people_in=agent.context.planner.people_in)
    system.close()


def test_a_name_only_called_out_to_is_the_listener_not_whose_words_answer(ctx):
    # "what does Jon think of pottery?": Maya thanks Jon, then speaks of her own class
    assert not said(ctx, ["pottery class"], about="Jon").found
    maya = said(ctx, ["pottery class"], about="Maya")
    assert maya.found and "pottery" in maya.answer and maya.answer.startswith("Maya")


def test_an_ordinal_no_line_says_is_another_thing_than_the_one_said(ctx):
    first = said(ctx, ["first screenplay"], about="Jon")
    assert first.found and "first screenplay" in first.answer
    # "what is Jon's third screenplay about?": his line on a screenplay does not say which
    third = said(ctx, ["third screenplay"], about="Jon")
    assert not third.found and not third.support and "'third'" in third.note


def test_the_people_a_line_speaks_of_are_not_the_listener_it_thanks(ctx):
    # "who paid for Jon's first camera?": not Maya, whom the line only thanks
    camera = said(ctx, ["camera"], about="Jon")
    assert camera.found and "Maya" not in camera.names
    pottery = said(ctx, ["pottery class"], about="Maya")
    assert "Jon" not in pottery.names


PARK = """## Session 1 | 2026-03-02T19:00
Maya: My friend took her dog to the park last week.
Jon: Nice. Work has been busy.
## Session 2 | 2026-03-09T19:00
Jon: I took my kids to the park yesterday, they loved the swings.
"""


def test_when_someone_did_a_thing_is_dated_by_their_line_not_another_persons(tmp_path):
    """"when did Jon go to the park?": Maya's friend's visit "last week" is told first, but
    Jon's own "yesterday" dates his."""
    from agent.tools.timeline import when
    from service.config import load_config
    from service.system import MemlensSystem

    path = tmp_path / "park.txt"
    path.write_text(PARK)
    system = MemlensSystem(load_config(env={**os.environ, "MEMLENS_HOME": str(tmp_path / "home")}))
    try:
        system.ingest_transcript(path, "chat")
        c = system.agent.context
        ctx = ToolContext(c.retriever, c.operators, "chat", datetime(2026, 3, 10, 9), TimeSlot(),
                          dates_in=c.planner.dates_in)
        anyone = when(ctx, ["park"], answer_type="date")  # asked of nobody: the first told
        assert anyone.support[0].record.attrs["speaker_name"] == "Maya"
        jon = when(ctx, ["park"], answer_type="date", people=["Jon"])
        assert jon.found and jon.value == datetime(2026, 3, 8).date()
        assert jon.support[0].record.attrs["speaker_name"] == "Jon"
    finally:
        system.close()


NICKNAMES = """## Session 1 | 2026-03-02T19:00
Melanie: My pottery class made bowls this week, mine came out lopsided.
Caroline: I started a painting class in May, we painted sunsets.
Melanie: Lopsided bowls still hold soup!
"""


def test_a_short_name_is_the_one_known_person_it_begins_and_a_month_is_no_one(tmp_path):
    from agent.attribution import known_names
    from agent.question_nlp import SpacyPipeline
    from service.config import load_config
    from service.system import MemlensSystem

    nlp = SpacyPipeline()
    people = {"melanie", "caroline", "maya"}
    assert known_names(nlp("What did Mel and her kids paint in May?"), people) == {"Mel": "Melanie"}
    assert known_names(nlp("What did Maya start in May?"), people) == {}  # a month, and a full name
    assert known_names(nlp("What did Mel say?"), people | {"melissa"}) == {}  # two people it could be
    # a name speech recognition heard another way ("it's Selena" for Elena), not two people's names
    assert known_names(nlp("what did Elena say about the dog?"), {"selena", "marcus"}) == {"Elena": "Selena"}
    assert known_names(nlp("what did John say?"), {"jon", "gina"}) == {}
    assert known_names(nlp("what did I do in Paris?"), {"parisa"}) == {}  # a place, not a name misheard
    path = tmp_path / "nick.txt"
    path.write_text(NICKNAMES)
    system = MemlensSystem(load_config(env={**os.environ, "MEMLENS_HOME": str(tmp_path / "home")}))
    try:
        system.ingest_transcript(path, "chat")
        a = system.ask("What did Mel say about the pottery class?", "chat", datetime(2026, 3, 3, 9))
        assert "understand: 'Mel' is Melanie" in a.trace
        assert any(line.startswith("tool said") and "not by" not in line for line in a.trace)  # her own line
        assert not a.abstained and "bowls" in a.answer
    finally:
        system.close()


CHURCH = """## Session 1 | 2026-05-06T17:00
Maria: Just yesterday I joined a nearby church. I wanted to feel closer to a community and my faith. So far it has been great.
John: That's wonderful, Maria! We're going camping this summer. What about you, any summer plans?
Maria: Thanks, John! Researching adoption agencies, it has been a dream of mine for years.
"""


@pytest.mark.parametrize("question, said", [
    ("Why did Maria join a nearby church?", "I wanted to feel closer to a community and my faith"),
    ("What are Maria's plans for the summer?", "Researching adoption agencies"),
])
def test_what_was_asked_is_answered_beside_the_line_restating_it_and_by_the_reply_to_it(tmp_path, question, said):
    from service.config import load_config
    from service.system import MemlensSystem

    path = tmp_path / "church.txt"
    path.write_text(CHURCH)
    system = MemlensSystem(load_config(env={**os.environ, "MEMLENS_HOME": str(tmp_path / "home")}))
    try:
        system.ingest_transcript(path, "chat")
        a = system.ask(question, "chat", datetime(2026, 5, 7, 9))
        assert not a.abstained and said in a.answer, (a.answer, a.trace[-4:])
    finally:
        system.close()


def test_a_thing_asked_in_the_singular_is_in_memory_when_said_in_the_plural(tmp_path):
    """"What kind of pot did they make?" presupposes a pot; "we all made our own pots" says so."""
    from agent.tools.premise import premise_check
    from service.config import load_config
    from service.system import MemlensSystem

    path = tmp_path / "pots.txt"
    path.write_text("## Session 1 | 2026-05-06T17:00\nMel: Last Fri I took my kids to a workshop. We all made our own pots.\n")
    system = MemlensSystem(load_config(env={**os.environ, "MEMLENS_HOME": str(tmp_path / "home")}))
    try:
        system.ingest_transcript(path, "chat")
        agent = system.agent
        ctx = ToolContext(agent.context.retriever, agent.context.operators, "chat", datetime(2026, 5, 7, 9), TimeSlot())
        assert premise_check(ctx, [], [], ["pot"]).found
        assert not premise_check(ctx, [], [], ["giraffe"]).found
    finally:
        system.close()


def _volunteering() -> str:
    """Twenty evenings of small talk; Maria names one shelter on the second, another on the seventeenth."""
    small_talk = ["Did you watch the game?", "Only the end, it was close.", "The weather has been awful.",
                  "I know, rain all week.", "How is your sister?", "She is good, busy with work.",
                  "I tried the new bakery.", "Were the croissants good?"]
    lines = []
    for session in range(1, 21):
        lines.append(f"## Session {session} | 2026-03-{session:02d}T19:00")
        lines += [f"{'Maria' if n % 2 else 'John'}: {said}" for n, said in enumerate(small_talk)]
        if session % 3 == 0:  # John's volunteering fills the stretches that match best
            lines.append(f"John: I volunteered at the food bank again, shift number {session}, so many volunteers.")
        lines += {2: ["Maria: I volunteer at the homeless shelter on Saturdays, serving breakfast."],
                  17: ["Maria: I also started volunteering at a dog shelter near my place, walking the dogs."]
                  }.get(session, [])
    return "\n".join(lines) + "\n"


def test_every_one_asked_for_is_read_from_lines_the_tool_did_not_choose(tmp_path):
    """"What shelters does Maria volunteer at?" asks for each: the tool chose the turns of
    the best-matching stretch, the other shelter is named weeks later."""
    from service.config import load_config
    from service.system import MemlensSystem

    path = tmp_path / "volunteering.txt"
    path.write_text(_volunteering())
    system = MemlensSystem(load_config(env={**os.environ, "MEMLENS_HOME": str(tmp_path / "home")}))
    try:
        system.ingest_transcript(path, "chat")
        a = system.ask("What shelters does Maria volunteer at?", "chat", datetime(2026, 3, 25))
        assert not a.abstained and a.answer == "homeless shelter, dog shelter"
    finally:
        system.close()
