"""Is the evidence enough to answer? A logistic regression over features of the plan, the
tool results and the options, fitted on development items (`memlens fit-sufficiency`),
instead of a share of the question's words found in the evidence.

The fitted weights live in a small JSON file beside this module (fitted on
eval/calibration/'s development answers, multiple choice). Where no weights are fitted (no
file, or open questions without open development rows) the prior weights below say the
same thing in fewer words: a tool that found what the plan asked for, with its premises in
memory and the plan's slots in its evidence, is enough.
"""
from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from agent.attribution import about, line_about, sentence_speaker
from agent.plan import WEARER, QueryPlan
from agent.reading import Reading
from agent.reasoning import Alike, coverage, evidence_text
from agent.state import Evidence
from agent.tools.base import ToolResult

FEATURES = ("found", "partial", "premise_failed", "coverage", "intent_confidence", "support", "agreement",
            "typed_match", "option_margin", "refinements", "reading", "clear_reading", "named", "unmet")
FITTED = Path(__file__).with_name("sufficiency_model.json")
# "named" outweighs any other evidence (its bias moved with it: a question naming nobody, or
# answered from its people's lines, scores as before): an answer about Maria from a line
# neither by nor about her is another person's story. On LoCoMo's development questions
# (issue 39) this took adversarial refusal 0.48 -> 0.61 at no F1 cost on categories 1-4.
# A short answer read clearly out of the evidence weighs more than an intent's tool finding
# something (reading 1.5 -> 3.5, found 3.6 -> 3.3): the tool ranks channels, it does not
# decide. On the same questions F1 0.2587 -> 0.2634, refusal 0.616 as before (stop 18);
# found 3.0 gave refusal 0.629 but lost two signs and screens read for open questions.
_PRIOR = {"bias": -10.4, "found": 3.3, "partial": 1.4, "premise_failed": -8.0, "coverage": 2.0,
          "intent_confidence": 0.6, "support": 0.3, "agreement": 0.3, "typed_match": 0.8, "option_margin": 0.5,
          "refinements": -0.4, "reading": 3.5, "clear_reading": 2.5, "named": 8.0, "unmet": -3.0}
CLEAR = 0.5  # a reading stronger than this is clear: read out of lines that meet the question closely


def features(plan: QueryPlan, results: Sequence[ToolResult], support_texts: Sequence[str], terms: Sequence[str],
             typed: Sequence[float] | None, raw_options: Sequence[float] | None, refinements: int,
             max_refinements: int, reading: float = 0.0, named: float = 1.0, unmet: float = 0.0,
             span_read: bool = False, alike: Alike | None = None) -> dict[str, float]:
    primary = [r for r in results if r.tool not in ("premise", "search")]
    premise = next((r for r in results if r.tool == "premise"), None)
    searched = {e.record.id for r in results if r.tool == "search" for e in r.support}
    used = [e.record.id for r in primary if r.found for e in r.support]
    ranked = sorted(raw_options or [], reverse=True)
    values = {
        "found": float(any(r.found for r in primary)),
        "partial": float(not any(r.found for r in primary) and any(r.answer for r in primary)),
        "premise_failed": float(premise is not None and not premise.found),
        "coverage": coverage(terms, support_texts, alike) if terms else 0.5,
        "intent_confidence": plan.confidence,
        "support": min(len(support_texts), 4) / 4,
        "agreement": sum(i in searched for i in used) / len(used) if used else 0.0,
        "typed_match": float(bool(typed) and max(typed) >= 1.0),
        "option_margin": (ranked[0] - ranked[1]) if len(ranked) > 1 else 0.0,
        "refinements": refinements / max(max_refinements, 1),
        "reading": reading,  # the strength of a short answer read out of the evidence (agent.reader), 0 if none
        # how far above CLEAR a name, place, date or number was read (weak readings are mostly
        # wrong; a noun chunk read as "the thing" is too often another thing, however strong)
        "clear_reading": max(0.0, reading - CLEAR) / (1 - CLEAR) if span_read else 0.0,
        "named": named,  # the share of the people the question names that its answer's evidence is by or about
        # a line answers though what was asked could not be read out of it (agent.reader.unmet),
        # or a spoken line answers whole that speaks of too little of the question (agent.compose.off_topic)
        "unmet": unmet,
    }
    if raw_options is None:  # an open question: what options would say is unknown, not zero
        del values["typed_match"], values["option_margin"]
    return values


def multiple_choice(values: dict[str, float]) -> bool:
    """Whether features came from a question with options (open ones lack option features)."""
    return "option_margin" in values


@dataclass(frozen=True)
class SufficiencyModel:
    """Weights over FEATURES for multiple-choice questions, and for open questions (which
    have no option features). A form without fitted weights keeps the prior: weights
    fitted where options decide much of the answer do not carry over to open questions."""

    weights: dict[str, float]
    source: str  # "prior" or the file it was fitted into
    open_weights: dict[str, float] = field(default_factory=lambda: dict(_PRIOR))
    open_source: str = "prior"

    @staticmethod
    def load(path: Path = FITTED) -> SufficiencyModel:
        if not path.exists():
            return SufficiencyModel(dict(_PRIOR), "prior")
        data = json.loads(path.read_text())
        fitted = SufficiencyModel({**data["weights"], "bias": data["bias"]}, str(path.name))
        if "open" in data:
            fitted = replace(fitted, open_weights={**data["open"]["weights"], "bias": data["open"]["bias"]},
                             open_source=str(path.name))
        return fitted

    def describe(self, values: dict[str, float]) -> str:
        return self.source if multiple_choice(values) else self.open_source

    def __call__(self, values: dict[str, float]) -> float:
        weights = self.weights if multiple_choice(values) else self.open_weights
        z = weights.get("bias", 0.0) + sum(weights.get(k, 0.0) * v for k, v in values.items())
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def named_share(plan: QueryPlan, support: Sequence[Evidence], reading: Reading | None = None) -> float:
    """The share of the people a question names (not the wearer) whom the answer's evidence
    is by or speaks of (agent.reader.about): "what did Caroline realise after the race?"
    answered from what only Melanie said to her is about someone else. An answer read out of
    one line (`reading`) is judged by that line alone, not by the caption it sits in."""
    named = [p.lower() for p in plan.people if p not in (WEARER, plan.listener)]
    if not named or plan.speaker == WEARER:  # "what did I say I'd get over to Bob?": the wearer's words, Bob listened
        return 1.0
    speaker = plan.speaker.lower() if plan.speaker else None
    if speaker in named:  # "what did Bob ask Alice to lend him?": Bob's own line answers, Alice listened
        lines = [(reading.evidence.record, reading.sentence)] if reading is not None else \
            [(e.record, e.record.attrs.get("said") or e.record.text) for e in support]
        said_by = [(sentence_speaker(record, sentence) or "").lower() for record, sentence in lines]
        if any(speaker == by or speaker in by.split() for by in said_by):
            return 1.0
    if reading is not None:
        return sum(line_about(reading.evidence.record, reading.sentence, [p]) for p in named) / len(named)
    return sum(any(about(e.record, [p]) for e in support) for p in named) / len(named)


def support_texts(results: Sequence[ToolResult]) -> list[str]:
    return [evidence_text(e.record) for r in results if r.tool not in ("premise", "search") for e in r.support]


def _logistic(rows: Sequence[dict[str, float]], labels: Sequence[int]) -> dict:
    from sklearn.linear_model import LogisticRegression

    x = [[row.get(k, 0.0) for k in FEATURES] for row in rows]
    # No class re-weighting: the output is read as a probability (abstain threshold, ECE),
    # and re-weighting the rare wrong answers would shift every probability towards them.
    model = LogisticRegression(C=1.0, max_iter=2000).fit(x, labels)
    return {"weights": dict(zip(FEATURES, (round(float(w), 4) for w in model.coef_[0]))),
            "bias": round(float(model.intercept_[0]), 4), "rows": len(rows), "positives": int(sum(labels))}


def fit(rows: Sequence[dict[str, float]], labels: Sequence[int], path: Path = FITTED) -> dict:
    """Fit the weights on development rows (features, 1 = the answer would be right) and save
    them: one model for multiple-choice rows, one for open rows, each only where its rows
    hold both outcomes (an open question with no fitted weights keeps the prior)."""
    forms = {True: ([], []), False: ([], [])}
    for row, label in zip(rows, labels):
        forms[multiple_choice(row)][0].append(row)
        forms[multiple_choice(row)][1].append(label)
    fitted = {options: _logistic(*forms[options]) for options in forms if len(set(forms[options][1])) == 2}
    if not fitted:
        raise ValueError(f"{len(rows)} development answers with a single outcome: nothing to fit")
    main = fitted.get(True) or fitted[False]
    data = {"features": list(FEATURES), **main}
    if False in fitted:
        data["open"] = fitted[False]
    path.write_text(json.dumps(data, indent=1) + "\n")
    return data
