"""The typed plan every question becomes: what is asked (an intent from an open set), its
slots (objects, people, places, times), the answer type and the premises to verify.

Both planners (deterministic NLP and a language model with schema-constrained output)
produce a `QueryPlan`; tools read slots from it instead of re-reading the question, so no
part of the agent depends on how a question is worded. The JSON schema is what a model is
constrained to; `QueryPlan.validate` is what its reply must pass.
"""
from __future__ import annotations

import dataclasses
from dataclasses import asdict, field
from datetime import datetime
from typing import Literal, Protocol

from pydantic import TypeAdapter
from pydantic.dataclasses import dataclass

from memory.records import WEARER  # noqa: F401  (the wearer, as plans name them: "I", "me", "we")

Intent = Literal[
    "locate",        # where is X / where did I leave X / when did I last see X
    "trajectory",    # where has X been, earliest to latest
    "count",         # how many distinct things / visits / times
    "when",          # when / what time / which day did something happen
    "duration",      # how long did a stay or activity last
    "order",         # in what order did things happen
    "activity",      # what did I do / what happened (often around an anchor: "after lunch")
    "speech",        # what did X say / who said Y
    "people",        # who did I meet / talk to / who was there
    "read",          # what was written / shown / read (signs, notes, screens, receipts)
    "requests",      # what was I asked to do (open requests to the wearer)
    "commitments",   # what did I promise / plan / intend to do
    "habit",         # what usually happens / where do I usually go next
    "state",         # what condition / colour / state was X in
    "sources",       # which video / stream / screen half showed something
    "verify",        # did something happen (yes / no)
    "reflect",       # what a person is like: patterns, beliefs, boundaries, how a view changed, what they'd do
    "search",        # anything else: open retrieval
]
INTENTS: tuple[str, ...] = Intent.__args__  # type: ignore[attr-defined]

AnswerType = Literal["place", "time", "date", "duration", "person", "number", "money", "text", "yes_no", "list",
                     "choice"]
SpeechAct = Literal["request", "commitment", "intention"]
# Constraints that ask what was in a hand (the wearer's, or someone else's)
IN_MY_HAND, IN_ANOTHER_HAND = "in my hand", "in someone else's hand"


@dataclass
class TimeSlot:
    """When the question is about, relative to the question time t_q.

    `day_offset` 0 is t_q's day, -1 the day before; `hours` a span of that day (a meal or
    a part of the day); `relation` + `anchor` place the question before / after / during
    an event that retrieval must find first ("after lunch", "the day Bob asked for the
    slides"); `start` / `end` are absolute bounds when the question names a clock time."""

    day_offset: int | None = None
    hours: tuple[float, float] | None = None
    part: str | None = None  # the words that named `hours` ("lunch", "this morning")
    relation: Literal["before", "after", "during", "day_of"] | None = None
    anchor: str | None = None  # an event phrase ("Bob asked for the slides")
    start: datetime | None = None
    end: datetime | None = None
    recording: str | None = None  # the recording start / end bound (agent.scope): all of it, not one moment
    # the span a question names after t_q ("a to-do for tomorrow"): a plan's time, what was said
    # or written is about it; memory holds no moment then, so it is no window
    ahead: tuple[datetime, datetime] | None = None

    @property
    def empty(self) -> bool:
        return all(v is None for v in (self.day_offset, self.hours, self.anchor, self.start, self.end))


@dataclass
class QueryPlan:
    intent: Intent
    answer_type: AnswerType = "text"
    objects: list[str] = field(default_factory=list)  # things, as said ("black scissors")
    people: list[str] = field(default_factory=list)  # named or described people; WEARER for I / me / we
    places: list[str] = field(default_factory=list)
    speaker: str | None = None  # who said it (speech / requests / commitments)
    listener: str | None = None  # to whom
    act: SpeechAct | None = None
    topic: list[str] = field(default_factory=list)  # content words the evidence must be about
    event: str | None = None  # the activity asked about, as a phrase ("had oatmeal")
    time: TimeSlot = field(default_factory=TimeSlot)
    premises: list[str] = field(default_factory=list)  # entities the question presupposes exist
    constraints: list[str] = field(default_factory=list)  # "first", "last", IN_MY_HAND, ...
    text: str = ""  # the question as asked, without a leading address ("Hey glasses,")
    verb: str | None = None  # the lemma of the verb the question is about ("say", "lead", "go")
    listed: list[str] = field(default_factory=list)  # items the question lists ("the gym, the cafe and ...")
    alternatives: list[Intent] = field(default_factory=list)  # runner-up intents, best first
    planner: str = "deterministic"
    confidence: float = 1.0  # the planner's confidence in the intent
    # "when is Tom coming?", "when am I bringing it back?": what is still to come is answered by
    # a time someone told of it, never by the moment it was spoken of
    to_come: bool = False
    # "is my mug in the kitchen?", "when is the review?": asked in the present, of how things
    # stand now (a thing where it was last seen) or of an event set for later
    now: bool = False
    choice: bool = False  # "was it full or empty in the laundry room?": it offers the answers to choose from

    def to_json(self) -> dict:
        return _ADAPTER.dump_python(self, mode="json")

    @staticmethod
    def validate(data: dict) -> QueryPlan:
        """A plan from untrusted JSON (a model's reply); raises pydantic.ValidationError."""
        return _ADAPTER.validate_python(data)

    @staticmethod
    def json_schema() -> dict:
        return _ADAPTER.json_schema()

    def summary(self) -> str:
        slots = {k: v for k, v in asdict(self).items()
                 if v and k not in ("intent", "planner", "confidence", "time", "answer_type")}
        when = {k: v for k, v in asdict(self.time).items() if v is not None}
        return f"{self.intent}->{self.answer_type} {slots}{' time=' + str(when) if when else ''}"


_ADAPTER = TypeAdapter(QueryPlan)


@dataclasses.dataclass(frozen=True)
class Vocabulary:
    """What memory already knows by name (before t_q): grounds places and people."""

    places: tuple[str, ...] = ()
    people: tuple[str, ...] = ()


class Planner(Protocol):
    """Turns a question (asked at `at`, maybe with options) into a QueryPlan; its readers
    of names and dates in remembered text are what the tools use to read evidence."""

    name: str

    def plan(self, question: str, at: datetime | None, options: list[str] | None = None,
             vocabulary: Vocabulary = Vocabulary()) -> QueryPlan: ...

    def people_in(self, text: str) -> list[str]: ...

    def dates_in(self, text: str, said_at: datetime) -> list[tuple[str, datetime]]: ...
