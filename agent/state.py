"""Typed agent state and the answer it returns."""
from __future__ import annotations

import operator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Annotated, Literal

from agent.plan import QueryPlan
from memory.records import MemoryRecord

RELATED = "related"  # how an Evidence's `why` starts when it is cited beside the answer
CLOSEST = "closest in memory (not an answer)"  # how an abstention's evidence is headed where it is shown


@dataclass
class Evidence:
    record: MemoryRecord
    score: float
    why: str  # which step found it; "related (...)" for a record cited beside the answer (agent.citing)

    @property
    def related(self) -> bool:
        """Cited beside the answer, as a record about the question, not as what it rests on."""
        return self.why.startswith(RELATED)

    @property
    def source(self) -> str:
        return {
            "utterance": "transcript", "text": "ocr", "sighting": "sighting", "visit": "place", "stay": "place",
            "behavior": "behavior",
        }.get(self.record.kind, "caption")


@dataclass
class AgentAnswer:
    question: str
    answer: str
    abstained: bool
    confidence: float
    sufficiency: float
    question_type: str
    evidence: list[Evidence]
    option_scores: list[float] | None = None
    chosen_option: int | None = None
    trace: list[str] = field(default_factory=list)
    features: dict[str, float] = field(default_factory=dict)  # what the sufficiency was computed from
    draft: str = ""  # the answer the evidence gave, also when it was judged too weak to give (calibration reads it)


@dataclass(frozen=True)
class Verdict:
    """The judge's decision, which the router follows: is the evidence enough, and where
    the question goes next."""

    next: Literal["answer", "abstain", "refine", "skill", "understand"]
    why: str


@dataclass
class AgentInput:
    """What a caller gives the graph."""

    question: str
    namespace: str
    at: datetime | None = None
    options: list[str] | None = None


@dataclass
class AgentState(AgentInput):
    """The graph's state. Tool branches run in parallel and their results meet through the
    `results` reducer (and `trace`'s); everything else is written by one node at a time."""

    skill_answer: AgentAnswer | None = None  # an opt-in skill's answer, for the judge to weigh
    plan: QueryPlan | None = None
    calls: list = field(default_factory=list)  # ToolCall: this round's calls
    results: Annotated[list, operator.add] = field(default_factory=list)  # ToolResult from every branch
    reading: object = None  # agent.reader.Reading: the answer read out of this round's evidence
    wanted: object = None  # agent.wanted.Wanted: what the question asks for, when a line may answer it
    scope: object = None  # agent.scope.Scope: the recording the question names, when it names one
    anchored: str | None = None  # the record that dates the question ("when I was checking my email"): no answer to it
    draft: str = ""
    note: str = ""  # why the reasoner reached its sufficiency
    support: list[Evidence] = field(default_factory=list)  # the evidence the draft rests on
    looked_at: list[Evidence] = field(default_factory=list)  # what `read` searched beside the tools (agent.citing)
    sufficiency: float = 0.0
    option_scores: list[float] | None = None
    features: dict[str, float] = field(default_factory=dict)
    refinements: int = 0
    verdict: Verdict | None = None
    trace: Annotated[list[str], operator.add] = field(default_factory=list)
    result: AgentAnswer | None = None
