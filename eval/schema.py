"""One item schema for every benchmark suite, the prediction a system returns, and the
small Protocol the runner drives (the runner never imports service or agent: the system under
test arrives as an object).

Times: `start` / `asked_at` / evidence `wall_*` are ISO-8601 wall-clock strings on the
wearer's clock (naive local time); evidence `start` / `end` are seconds on the source video.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

# Option roles across suites (SuperMemory-VQA: correct / vague / incorrect / not_answerable;
# M3Eval adds intrusion; other suites use correct / distractor).
ROLES = ("correct", "vague", "incorrect", "distractor", "not_answerable", "intrusion")


@dataclass(frozen=True)
class VideoRef:
    video_id: str
    path: str
    start: str  # wearer's clock at source second 0 (ISO)
    person: str | None = None
    day: int | None = None
    duration: float | None = None


@dataclass(frozen=True)
class Option:
    text: str
    role: str = "distractor"


@dataclass(frozen=True)
class EvidenceSpan:
    video_id: str
    start: float
    end: float
    wall_start: str = ""
    wall_end: str = ""
    note: str = ""


@dataclass(frozen=True)
class Item:
    id: str
    suite: str
    task: str  # the paper's task / category label
    question: str
    options: tuple[Option, ...]
    answer: int | None  # index of the gold option (the not-answerable option for unanswerable items)
    asked_at: str  # question time t_q: memory is cut strictly before it
    person: str | None = None
    videos: tuple[str, ...] = ()  # the video ids the item may draw on
    evidence: tuple[EvidenceSpan, ...] = ()
    memory_type: str | None = None  # EgoMemReason: entity / event / behavior
    answerable: bool = True
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def asked_time(self) -> datetime:
        return datetime.fromisoformat(self.asked_at).replace(tzinfo=None)

    def role_of(self, index: int | None) -> str | None:
        return None if index is None else self.options[index].role

    @staticmethod
    def from_dict(d: dict) -> Item:
        return Item(**{
            **d,
            "options": tuple(Option(**o) for o in d["options"]),
            "videos": tuple(d.get("videos", ())),
            "evidence": tuple(EvidenceSpan(**e) for e in d.get("evidence", ())),
        })


@dataclass
class Suite:
    name: str
    videos: list[VideoRef]
    items: list[Item]
    meta: dict[str, Any] = field(default_factory=dict)

    def write(self, path: Path) -> Path:
        """A suite file: one JSON header line, then one item per line."""
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w") as f:
            f.write(json.dumps({"suite": self.name, "videos": [asdict(v) for v in self.videos], "meta": self.meta}) + "\n")
            for item in self.items:
                f.write(json.dumps(asdict(item)) + "\n")
        return path

    @staticmethod
    def read(path: Path) -> Suite:
        lines = Path(path).read_text().splitlines()
        head = json.loads(lines[0])
        return Suite(head["suite"], [VideoRef(**v) for v in head["videos"]],
                     [Item.from_dict(json.loads(line)) for line in lines[1:] if line.strip()], head.get("meta", {}))


@dataclass
class Prediction:
    item_id: str
    system: str
    chosen: int | None  # option index, None when the system gave no option
    option_scores: list[float]  # one per option, higher is more likely (for MRR)
    abstained: bool
    answer_text: str = ""
    evidence: list[dict] = field(default_factory=list)
    latency_s: float = 0.0
    error: str | None = None
    # which wording was asked: "template" (the item's question), "dev" or "heldout" (one of
    # the item's phrasings, eval/phrasings), and the text itself; old logs default to template
    phrasing: str = "template"
    question: str = ""
    # memlens: the sufficiency features its answer rests on (for fitting agent/sufficiency.py)
    features: dict[str, float] = field(default_factory=dict)

    @staticmethod
    def from_dict(d: dict) -> Prediction:
        return Prediction(**d)


class QASystem(Protocol):
    """What the runner needs of a system under test (memlens, or a baseline)."""

    name: str

    def ingest(self, video: VideoRef, namespace: str) -> None: ...

    def answer(self, item: Item, namespace: str) -> Prediction: ...


@runtime_checkable
class BatchIngest(Protocol):
    """A system that ingests many videos better together than one by one (perceived in
    parallel, on a cluster); it yields each (video, namespace) as it is remembered."""

    def ingest_all(self, videos: list[tuple[VideoRef, str]]) -> Iterator[tuple[VideoRef, str]]: ...


def read_jsonl(path: Path) -> Iterator[dict]:
    if Path(path).exists():
        for line in Path(path).read_text().splitlines():
            if line.strip():
                yield json.loads(line)


def append_jsonl(path: Path, rows: Iterable[dict]) -> None:
    with Path(path).open("a") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
