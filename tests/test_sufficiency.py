"""The sufficiency model: features from tool results, the prior, and a fit that round-trips."""
from __future__ import annotations

from datetime import datetime

from agent.plan import QueryPlan
from agent.state import Evidence
from agent.sufficiency import FEATURES, SufficiencyModel, features, fit
from agent.tools.base import ToolResult
from memory.records import MemoryRecord


def _evidence(i: int) -> Evidence:
    when = datetime(2026, 3, 2, 8, 0, i)
    return Evidence(MemoryRecord("event", "text", "me", f"line {i}", when, when, id=i), 0.5, "t")


def test_features_read_the_results():
    plan = QueryPlan(intent="locate", objects=["keys"], confidence=0.7)
    found = ToolResult("locate", "In the hall", [_evidence(1)], True, "hall")
    search = ToolResult("search", "", [_evidence(1), _evidence(2)], True)
    premise = ToolResult("premise", "", [], False, "Carol")
    values = features(plan, [found, search, premise], ["keys in the hall"], ["keys"], [1.0, 0.0], [1.0, 0.0], 1, 2)
    assert set(values) == set(FEATURES)
    assert values["found"] == 1.0 and values["premise_failed"] == 1.0 and values["agreement"] == 1.0
    assert values["typed_match"] == 1.0 and values["option_margin"] == 1.0 and values["refinements"] == 0.5
    assert values["coverage"] == 1.0 and values["intent_confidence"] == 0.7


def test_prior_prefers_found_evidence_and_a_fit_round_trips(tmp_path):
    prior = SufficiencyModel.load(tmp_path / "absent.json")
    good = {"found": 1.0, "coverage": 1.0, "intent_confidence": 0.8, "support": 0.5, "named": 1.0}
    bad = {"found": 0.0, "coverage": 0.0, "intent_confidence": 0.8, "support": 0.0, "named": 1.0}
    assert prior.source == "prior" and prior(good) > 0.5 > prior(bad)
    # found, but in lines neither by nor about the person the question names: another's story
    assert prior({**good, "named": 0.0}) < 0.5
    rows = [good] * 6 + [bad] * 6
    data = fit(rows, [1] * 6 + [0] * 6, tmp_path / "model.json")
    fitted = SufficiencyModel.load(tmp_path / "model.json")
    assert data["rows"] == 12 and fitted.source == "model.json"
    assert fitted(good) > 0.5 > fitted(bad)


def test_weights_fitted_on_multiple_choice_leave_open_questions_to_the_prior(tmp_path):
    """Option features decide much of a multiple-choice fit; an open question has none, so
    without open development rows it keeps the prior instead of inheriting that fit."""
    good = {"found": 1.0, "coverage": 1.0, "support": 0.5, "typed_match": 1.0, "option_margin": 0.9}
    bad = {"found": 1.0, "coverage": 1.0, "support": 0.5, "typed_match": 0.0, "option_margin": 0.0}
    fit([good] * 6 + [bad] * 6, [1] * 6 + [0] * 6, tmp_path / "model.json")
    model = SufficiencyModel.load(tmp_path / "model.json")
    prior = SufficiencyModel.load(tmp_path / "absent.json")
    open_question = {k: v for k, v in good.items() if k not in ("typed_match", "option_margin")}
    assert model(good) > 0.5 > model(bad)
    assert model(open_question) == prior(open_question) and model.describe(open_question) == "prior"
    assert model.describe(good) == "model.json"


def test_a_spoken_line_given_whole_must_speak_of_what_the_question_is_about():
    from agent.compose import off_topic
    from agent.reasoning import Draft
    from memory.records import TEXT_SIGHTING, UTTERANCE

    def line(kind: str, said: str) -> Evidence:
        when = datetime(2026, 3, 2, 8, 0)
        return Evidence(MemoryRecord("event", kind, "me", f"Nate: {said}", when, when, attrs={"said": said}, id=1), 0.5, "t")

    plan = QueryPlan(intent="speech", people=["Nate"], objects=["ladies", "writing club"], speaker="Nate")
    turtles = "You obviously have a passion for writing, and the story was about a turtle!"
    bookmark = "I just finished a bookmark for one of the ladies at my writing club!"
    assert off_topic(plan, Draft(f'Nate said: "{turtles}"', [line(UTTERANCE, turtles)], 0.0, ""))  # 1 of 3
    assert not off_topic(plan, Draft(f'Nate said: "{bookmark}"', [line(UTTERANCE, bookmark)], 0.0, ""))
    assert not off_topic(plan, Draft("a bookmark", [line(UTTERANCE, bookmark)], 0.0, "", reading=0.6))  # read out
    assert not off_topic(plan, Draft("6 October 2022", [line(UTTERANCE, turtles)], 0.0, ""))  # a tool's value
    sign = "OPEN 9 TO 5"  # what a sign says is its own answer, whatever the question's words
    assert not off_topic(QueryPlan(intent="read", objects=["sign"]), Draft(sign, [line(TEXT_SIGHTING, sign)], 0.0, ""))
    asked = QueryPlan(intent="requests", people=["Nate"], speaker="Nate", act="request", topic=["pick"])
    assert not off_topic(asked, Draft(f'Nate said: "{turtles}"', [line(UTTERANCE, turtles)], 0.0, ""))  # by its act
    assert not off_topic(QueryPlan(intent="speech", people=["Nate"], speaker="Nate"),
                         Draft(f'Nate said: "{turtles}"', [line(UTTERANCE, turtles)], 0.0, ""))  # nothing but whom
    # a reply is judged with the line it answers: "Any plans for the summer?" - "Researching adoption agencies"
    summer = QueryPlan(intent="speech", people=["Caroline"], objects=["plans", "summer"], speaker="Caroline")
    reply = "Researching adoption agencies, it has been a dream of mine."
    answer = Draft(f'Caroline said: "{reply}"', [line(UTTERANCE, reply)], 0.0, "")
    assert off_topic(summer, answer) and not off_topic(summer, answer, asked="Any plans for the summer?")


def test_a_noun_naming_the_same_thing_covers_the_questions_noun(kinds):
    """The evidence speaks of her "kids": what the question calls her "children" is covered."""
    from agent.question_nlp import SpacyPipeline
    from agent.reader import EvidenceReader
    from agent.reasoning import coverage

    reader = EvidenceReader(SpacyPipeline(), kinds=kinds)
    alike = reader.wanted("How did Melanie's children handle the accident?").alike_to
    said = ["They were scared after the accident. They're tough kids."]
    assert coverage(["children", "accident"], said) == 0.5
    assert coverage(["children", "accident"], said, alike) == 1.0
    dogs = reader.wanted("How did Melanie's dogs handle the accident?").alike_to
    assert coverage(["dogs", "accident"], said, dogs) == 0.5
    # only the question's nouns: "help" asked as a verb is not covered by "assist"
    helping = reader.wanted("Why did John help his cousin?").alike_to
    assert coverage(["help", "cousin"], ["I'll see who can assist my cousin."], helping) == 0.5


def test_the_reader_quoting_the_line_a_tool_answers_with_is_agreement():
    """A tool chose a line and the reader, reading every channel, quotes the same one clearly:
    two ways of looking agree, and the draft carries the reading's strength for the
    sufficiency. A weak quote, or a quote of another line, is no agreement."""
    from agent.compose import draft
    from agent.reading import Reading

    trailer = Evidence(MemoryRecord("event", "text", "me", 'Read "Revenge is coming..."', datetime(2026, 3, 2, 20, 30),
                                    datetime(2026, 3, 2, 20, 30), attrs={"line": "Revenge is coming..."}, id=7), 0.5, "t")
    plan = QueryPlan(intent="read", objects=["trailer"])
    found = [ToolResult("read", '"Revenge is coming..." (read at 20:30)', [trailer], True, note="best text block")]

    def quoted(answer: str, score: float) -> Reading:
        return Reading(answer, "quote", trailer, answer, score)
    assert draft(plan, found, quoted("Revenge is coming", 0.76)).agreed == 0.76
    assert draft(plan, found, quoted("Revenge is coming", 0.3)).agreed == 0.0  # read weakly
    assert draft(plan, found, quoted("Tickets on sale now", 0.8)).agreed == 0.0  # another line
    assert draft(plan, found, None).agreed == 0.0
