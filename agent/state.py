"""Typed agent state and the answer it returns."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from agent.timescope import TimeScope
from memory.records import MemoryRecord

QuestionType = Literal[
    "entity_location", "conversation", "text", "count", "order", "behavior", "event"
]


@dataclass
class QuestionAnalysis:
    qtype: QuestionType
    target: str  # the thing asked about, e.g. "scissors" or "wifi password"
    key_terms: list[str]  # content words the evidence must cover
    person: str | None = None  # a named person the question is about
    abstain_options: list[int] = field(default_factory=list)  # indexes of "cannot be answered"
    speech_act: str | None = None  # "commitment", "request", ... when the question asks for one


@dataclass
class RetrievalStep:
    operator: str  # "search", "coarse_to_fine", "last_seen", "count", "order"
    query: str
    stores: tuple[str, ...] = ("entity", "event")
    kinds: tuple[str, ...] | None = None
    k: int = 8
    speaker: str | None = None


@dataclass
class Evidence:
    record: MemoryRecord
    score: float
    why: str  # which step found it

    @property
    def source(self) -> str:
        return {
            "utterance": "transcript", "text": "ocr", "sighting": "sighting", "visit": "place",
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


@dataclass
class AgentState:
    question: str
    namespace: str
    at: datetime | None = None
    options: list[str] | None = None
    analysis: QuestionAnalysis | None = None
    scope: TimeScope = field(default_factory=TimeScope)  # when the question is about, anchors resolved
    plan: list[RetrievalStep] = field(default_factory=list)
    evidence: list[Evidence] = field(default_factory=list)
    draft: str = ""
    note: str = ""  # why the reasoner reached its sufficiency
    support: list[Evidence] = field(default_factory=list)  # the evidence the draft rests on
    sufficiency: float = 0.0
    option_scores: list[float] | None = None
    refinements: int = 0
    trace: list[str] = field(default_factory=list)
    result: AgentAnswer | None = None
