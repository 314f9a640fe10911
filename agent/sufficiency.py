"""Is the evidence enough to answer? A logistic regression over features of the plan, the
tool results and the options, fitted on development items (`memlens fit-sufficiency`),
instead of a share of the question's words found in the evidence.

The fitted weights live in a small JSON file beside this module; until one is fitted, the
prior weights below say the same thing in fewer words: a tool that found what the plan
asked for, with its premises in memory and the plan's slots in its evidence, is enough.
"""
from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from agent.plan import QueryPlan
from agent.reasoning import coverage, evidence_text
from agent.tools.base import ToolResult

FEATURES = ("found", "partial", "premise_failed", "coverage", "intent_confidence", "support", "agreement",
            "typed_match", "option_margin", "refinements")
FITTED = Path(__file__).with_name("sufficiency_model.json")
_PRIOR = {"bias": -2.4, "found": 3.6, "partial": 1.4, "premise_failed": -8.0, "coverage": 2.0,
          "intent_confidence": 0.6, "support": 0.3, "agreement": 0.3, "typed_match": 0.8, "option_margin": 0.5,
          "refinements": -0.4}


def features(plan: QueryPlan, results: Sequence[ToolResult], support_texts: Sequence[str], terms: Sequence[str],
             typed: Sequence[float] | None, raw_options: Sequence[float] | None, refinements: int,
             max_refinements: int) -> dict[str, float]:
    primary = [r for r in results if r.tool not in ("premise", "search")]
    premise = next((r for r in results if r.tool == "premise"), None)
    searched = {e.record.id for r in results if r.tool == "search" for e in r.support}
    used = [e.record.id for r in primary if r.found for e in r.support]
    ranked = sorted(raw_options or [], reverse=True)
    return {
        "found": float(any(r.found for r in primary)),
        "partial": float(not any(r.found for r in primary) and any(r.answer for r in primary)),
        "premise_failed": float(premise is not None and not premise.found),
        "coverage": coverage(terms, support_texts) if terms else 0.5,
        "intent_confidence": plan.confidence,
        "support": min(len(support_texts), 4) / 4,
        "agreement": sum(i in searched for i in used) / len(used) if used else 0.0,
        "typed_match": float(bool(typed) and max(typed) >= 1.0),
        "option_margin": (ranked[0] - ranked[1]) if len(ranked) > 1 else 0.0,
        "refinements": refinements / max(max_refinements, 1),
    }


@dataclass(frozen=True)
class SufficiencyModel:
    weights: dict[str, float]
    source: str  # "prior" or the file it was fitted into

    @staticmethod
    def load(path: Path = FITTED) -> SufficiencyModel:
        if path.exists():
            data = json.loads(path.read_text())
            return SufficiencyModel({**data["weights"], "bias": data["bias"]}, str(path.name))
        return SufficiencyModel(dict(_PRIOR), "prior")

    def __call__(self, values: dict[str, float]) -> float:
        z = self.weights.get("bias", 0.0) + sum(self.weights.get(k, 0.0) * v for k, v in values.items())
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def support_texts(results: Sequence[ToolResult]) -> list[str]:
    return [evidence_text(e.record) for r in results if r.tool not in ("premise", "search") for e in r.support]


def fit(rows: Sequence[dict[str, float]], labels: Sequence[int], path: Path = FITTED) -> dict:
    """Fit the weights on development rows (features, 1 = the answer would be right) and save them."""
    from sklearn.linear_model import LogisticRegression

    x = [[row.get(k, 0.0) for k in FEATURES] for row in rows]
    # Right answers far outnumber wrong ones on development runs: weigh the classes equally.
    model = LogisticRegression(C=1.0, max_iter=2000, class_weight="balanced").fit(x, labels)
    data = {"features": list(FEATURES), "weights": dict(zip(FEATURES, (round(float(w), 4) for w in model.coef_[0]))),
            "bias": round(float(model.intercept_[0]), 4), "rows": len(rows), "positives": int(sum(labels))}
    path.write_text(json.dumps(data, indent=1) + "\n")
    return data
