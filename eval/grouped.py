"""Runs a solver over items grouped by the conversation they ask about, one JSONL line per
question as it finishes (LoCoMo, RefMem-Bench). A killed or repeated run resumes: answered
questions are read back and not asked again (a line whose question text differs from the
item's is asked again); failed ones are retried."""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

from eval.schema import append_jsonl, read_jsonl

Progress = Callable[[str, int, int], None]  # (stage, done, total), as eval.runner


class GroupSolver(Protocol):
    def prepare(self, group_id: str) -> bool:
        """Make the conversation's memory ready; True when it had to be ingested."""

    def answer(self, item: Any) -> Any:
        """A prediction dataclass with item_id, question, latency_s and error fields."""


@dataclass
class RunStats:
    asked: int = 0
    resumed: int = 0
    ingested: int = 0
    failed: int = 0


def run_grouped(groups: Sequence[tuple[str, Sequence[Any]]], solver: GroupSolver, path: Path,
                load: Callable[[dict], Any], failed: Callable[[Any, str], Any],
                progress: Progress | None = None) -> tuple[dict[str, Any], RunStats]:
    """Predictions of every item (failed ones left out), keyed by item id in item order, and
    what this run did. `load` reads a prediction back from its JSON line; `failed` makes
    the prediction that records an exception for an item."""
    progress = progress or (lambda stage, done, total: None)
    wanted = {i.id: i for _, items in groups for i in items}
    done: dict[str, Any] = {}
    for row in read_jsonl(path):
        pred = load(row)
        if not pred.error and pred.item_id in wanted and pred.question == wanted[pred.item_id].question:
            done[pred.item_id] = pred
    stats = RunStats(resumed=len(done))
    todo = [(gid, [i for i in items if i.id not in done]) for gid, items in groups]
    todo = [(gid, items) for gid, items in todo if items]
    total = sum(len(items) for _, items in todo)
    path.parent.mkdir(parents=True, exist_ok=True)
    for n, (group_id, items) in enumerate(todo, 1):
        stats.ingested += bool(solver.prepare(group_id))
        progress("ingest", n, len(todo))
        for item in items:
            began = time.perf_counter()
            try:
                pred = solver.answer(item)
            except Exception as exc:  # one failing question must not end a long run; it is logged and retried
                pred = failed(item, f"{type(exc).__name__}: {exc}")
            pred.latency_s = round(time.perf_counter() - began, 4)
            append_jsonl(path, [asdict(pred)])
            stats.asked += 1
            if pred.error:
                stats.failed += 1
            else:
                done[item.id] = pred
            progress("ask", stats.asked, total)
    return {i: done[i] for i in wanted if i in done}, stats
