"""LoCoMo predictions, run through eval.grouped (resumable JSONL, one line per question)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from eval.grouped import GroupSolver, Progress, RunStats, run_grouped
from eval.locomo.dataset import Conversation


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


def run_locomo(conversations: list[Conversation], solver: GroupSolver, path: Path,
               progress: Progress | None = None) -> tuple[dict[str, LocomoPrediction], RunStats]:
    """Predictions of every selected item (failed ones left out), and what this run did."""
    return run_grouped([(c.sample_id, c.items) for c in conversations], solver, path, LocomoPrediction.from_dict,
                       lambda item, error: LocomoPrediction(item.id, item.question, "", False, 0.0, error=error),
                       progress)
