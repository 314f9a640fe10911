"""The REST API's contract: request and response models, so the OpenAPI schema states every
body the server sends (errors included) and FastAPI checks each response against it."""
from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, Field

from agent.graph import MAX_QUESTION_CHARS
from memory.records import STORE_OF_KIND

MAX_OPTIONS, MAX_OPTION_CHARS = 26, 500


def _iso_only(value: Any) -> Any:
    """A time is an ISO 8601 string: a bare number would be read as seconds since 1970."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        raise ValueError("give an ISO 8601 date-time such as 2026-11-23T08:30, not a number")
    if isinstance(value, str) and value.strip().lstrip("+-").replace(".", "", 1).isdigit():
        raise ValueError("give an ISO 8601 date-time such as 2026-11-23T08:30, not a number")
    return value


IsoTime = Annotated[datetime, BeforeValidator(_iso_only)]
Option = Annotated[str, Field(min_length=1, max_length=MAX_OPTION_CHARS)]
StoreName = Literal["entity", "event", "behavior"]
JobStatus = Literal["queued", "running", "done", "failed", "cancelled"]


class Problem(BaseModel):
    """Every error: what was wrong, in words; `errors` lists each invalid field."""
    detail: str
    errors: list[dict[str, Any]] | None = None


def problems(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The `responses` entry declaring these error statuses with the Problem body."""
    return {code: {"model": Problem} for code in codes}


class AskRequest(BaseModel):
    question: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS, pattern=r"\S",
                          description="any text with a character that is not a space; one without a word is "
                                      "answered with an abstention")
    at: IsoTime | None = Field(None, description="question time; memory is cut strictly before it. "
                               "With an offset it is converted to the wearer's clock")
    options: list[Option] | None = Field(None, max_length=MAX_OPTIONS)


class ForgetRequest(BaseModel):
    """A video, a wall-clock range, or both (at least one); or a person on their own. A
    range may be open at one end: only `start` forgets everything since, only `end`
    everything before."""
    video_id: str | None = Field(None, min_length=1, max_length=200, description="a video id this memory holds")
    person: str | None = Field(None, min_length=1, max_length=200, pattern=r"\S",
                               description="a person memory knows (\"person 3\" or their name): their face, "
                               "sightings and name are forgotten; what was said stays, as someone's")
    start: IsoTime | None = Field(None, description="from this time on")
    end: IsoTime | None = Field(None, description="up to this time")


class EvidenceView(BaseModel):
    record_id: int
    kind: str
    source: str
    text: str
    video_id: str | None = Field(description="none for a behavior, which spans videos")
    start: float
    end: float
    wall_start: str
    wall_end: str
    keyframes: list[float]
    score: float
    role: Literal["answer", "related"] = Field(
        description="answer: a record the answer rests on (first); related: another record about the question "
                    "(an abstention's evidence is all related: the closest memory came, not an answer)")
    detail: dict[str, Any]


class AnswerView(BaseModel):
    question: str
    answer: str
    abstained: bool
    confidence: float
    sufficiency: float
    question_type: str
    chosen_option: int | None
    option_scores: list[float] | None
    evidence: list[EvidenceView]
    trace: list[str]


class Accepted(BaseModel):
    job_id: str
    status: JobStatus


class JobView(BaseModel):
    job_id: str
    status: JobStatus
    file: str = Field(description="the uploaded file's name as the client gave it")
    created: str
    stage: str | None = Field(description="the step running now (a perception stage, 'done')")
    percent: float = Field(description="how far that step is, 0-100")
    cancel_requested: bool = Field(description="a client asked to cancel it; it stops at its next step")
    result: dict[str, Any] | None
    error: str | None


class JobList(BaseModel):
    jobs: list[JobView]


MemoryKind = Literal[tuple(STORE_OF_KIND)]


class MemoryView(BaseModel):
    id: int
    kind: str
    text: str
    video_id: str | None = Field(description="none for a behavior, which spans videos")
    wall_start: str
    wall_end: str
    start: float = Field(0.0, description="seconds into its recording")
    end: float = 0.0
    speaker: str | None = Field(None, description="who said it (an utterance), when known")


class MemoriesView(BaseModel):
    records: list[MemoryView]


class Forgotten(BaseModel):
    removed: int


class KnownView(BaseModel):
    id: int
    name: str | None
    named_by: str | None = Field(None, description="user, or what named it: lower third, introduction, sign, objects")
    sightings: int


class KnownList(BaseModel):
    known: list[KnownView]


class NameRequest(BaseModel):
    name: str = Field(min_length=1, max_length=100, description="what to call this person or place from now on")


class Named(BaseModel):
    id: int
    name: str
    records_changed: int


class Health(BaseModel):
    status: str
    version: str
    # False while the server reads its namespaces' indexes at start: questions are answered
    # meanwhile, the first ones slower (a load balancer may wait for it).
    ready: bool
