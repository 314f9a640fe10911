"""Runs a solver over LoCoMo conversations, one JSONL line per question as it finishes. A
killed or repeated run resumes: answered questions are read back and not asked again (a line
whose question text differs from the file's is asked again); failed ones are retried."""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Protocol

from eval.locomo.dataset import Conversation, LocomoItem
from eval.schema import append_jsonl, read_jsonl

Progress = Callable[[str, int, int], None]  # (stage, done, total), as eval.runner


@dataclass
class LocomoPrediction:
    item_id: str
    question: str
    answer: str
    abstained: bool
    confidence: float
    answer_refs: list[str] = field(default_factory=list)  # dia_ids of the answer's own evidence, in order
    retrieved_refs: list[str] = field(default_factory=list)  # dia_ids of the retriever's top-k for the question
    latency_s: float = 0.0
    error: str | None = None

    @staticmethod
    def from_dict(d: dict) -> LocomoPrediction:
        return LocomoPrediction(**d)


class LocomoSolver(Protocol):
    def prepare(self, sample_id: str) -> bool:
        """Make the conversation's memory ready; True when it had to be ingested."""

    def answer(self, item: LocomoItem) -> LocomoPrediction: ...


@dataclass
class RunStats:
    asked: int = 0
    resumed: int = 0
    ingested: int = 0
    failed: int = 0


def run_locomo(conversations: list[Conversation], solver: LocomoSolver, path: Path,
               progress: Progress | None = None) -> tuple[dict[str, LocomoPrediction], RunStats]:
    """Predictions of every selected item (failed ones left out), and what this run did."""
    progress = progress or (lambda stage, done, total: None)
    wanted = {i.id: i for c in conversations for i in c.items}
    done: dict[str, LocomoPrediction] = {}
    for row in read_jsonl(path):
        pred = LocomoPrediction.from_dict(row)
        if not pred.error and pred.item_id in wanted and pred.question == wanted[pred.item_id].question:
            done[pred.item_id] = pred
    stats = RunStats(resumed=len(done))
    todo = [(c.sample_id, [i for i in c.items if i.id not in done]) for c in conversations]
    todo = [(sid, items) for sid, items in todo if items]
    total = sum(len(items) for _, items in todo)
    path.parent.mkdir(parents=True, exist_ok=True)
    for n, (sample_id, items) in enumerate(todo, 1):
        stats.ingested += bool(solver.prepare(sample_id))
        progress("ingest", n, len(todo))
        for item in items:
            began = time.perf_counter()
            try:
                pred = solver.answer(item)
            except Exception as exc:  # one failing question must not end a long run; it is logged and retried
                pred = LocomoPrediction(item.id, item.question, "", False, 0.0, error=f"{type(exc).__name__}: {exc}")
            pred.latency_s = round(time.perf_counter() - began, 4)
            append_jsonl(path, [asdict(pred)])
            stats.asked += 1
            if pred.error:
                stats.failed += 1
            else:
                done[item.id] = pred
            progress("ask", stats.asked, total)
    return {i: done[i] for i in wanted if i in done}, stats
