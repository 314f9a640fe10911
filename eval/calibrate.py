"""Fit the agent's sufficiency model on development runs: the features memlens logged per
answer and whether its best real answer was right. Held-out phrasings are never used."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from agent.sufficiency import FITTED, fit
from eval.metrics import answered_right, pair
from eval.schema import Prediction, Suite, read_jsonl

DEVELOPMENT_LOGS = ("memlens.jsonl", "memlens.dev.jsonl")  # template and dev phrasings only


def development_rows(runs: Sequence[tuple[Path, Path]]) -> tuple[list[dict[str, float]], list[int]]:
    """(features, label) for every memlens answer in the runs' template and dev logs."""
    rows, labels = [], []
    for suite_file, predictions in runs:
        items = Suite.read(suite_file).items
        for log in DEVELOPMENT_LOGS:
            path = predictions / log
            if not path.exists():
                continue
            preds = [Prediction.from_dict(r) for r in read_jsonl(path)]
            for scored in pair(items, [p for p in preds if p.features and not p.error]):
                rows.append(scored.pred.features)
                labels.append(answered_right(scored))
    return rows, labels


def rows_file(path: Path) -> tuple[list[dict[str, float]], list[int]]:
    """(features, label) rows kept as JSONL ({"question", "features", "right"}): answers to
    development phrasings asked outside a bench run (eval/calibration/)."""
    records = list(read_jsonl(path))
    return [r["features"] for r in records], [int(r["right"]) for r in records]


def fit_sufficiency(runs: Sequence[tuple[Path, Path]], out: Path = FITTED, extra: Sequence[Path] = ()) -> dict:
    rows, labels = development_rows(runs)
    for path in extra:
        more_rows, more_labels = rows_file(path)
        rows, labels = rows + more_rows, labels + more_labels
    return fit(rows, labels, out)  # refuses rows with a single outcome
