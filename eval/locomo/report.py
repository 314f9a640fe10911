"""Scores a LoCoMo run and writes it up: per-category F1, abstention, adversarial refusal and
evidence recall (report.md), the fixed-shape summary.json, and a bar plot."""
from __future__ import annotations

import json
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from eval.locomo.dataset import ADVERSARIAL, ANSWERABLE, CATEGORIES, Conversation, LocomoItem
from eval.locomo.paper import HUMAN_F1, MEM0_JUDGE
from eval.locomo.runner import LocomoPrediction
from eval.locomo.scoring import answer_f1, recall_at, refused
from eval.report import REPORTED, plot_axes, save_plot, table

KS = (5, 10)
OVERALL = "overall_1_4"


@dataclass(frozen=True)
class ItemScore:
    item: LocomoItem
    pred: LocomoPrediction
    f1: float | None  # None on category 5
    refused: bool
    retrieved: dict[int, float | None]  # k -> recall of the gold turns in the retriever's top-k
    answered: dict[int, float | None]  # k -> the same in the answer's own first k evidence turns


def score(conversations: list[Conversation], preds: Mapping[str, LocomoPrediction]) -> list[ItemScore]:
    return [
        ItemScore(i, p, answer_f1(i.category, p.answer, p.abstained, i.answer), refused(p.answer, p.abstained),
                  {k: recall_at(i.evidence, p.retrieved_refs, k) for k in KS},
                  {k: recall_at(i.evidence, p.answer_refs, k) for k in KS})
        for c in conversations for i in c.items if (p := preds.get(i.id)) is not None
    ]


def _mean(values: Iterable[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.fmean(present) if present else None


def _group(scores: list[ItemScore]) -> dict:
    return {
        "n": len(scores),
        "f1": _mean(s.f1 for s in scores),
        "abstained": _mean(float(s.pred.abstained) for s in scores),
        "refusal": _mean(float(s.refused) for s in scores),
        "retrieved": {k: _mean(s.retrieved[k] for s in scores) for k in KS},
        "answered": {k: _mean(s.answered[k] for s in scores) for k in KS},
    }


def locomo_metrics(scores: list[ItemScore]) -> dict[str, dict]:
    """Per category ("1".."5") and over categories 1-4 together (question-weighted, as the
    Mem0 paper's J over 1,540 questions is). Recall is averaged over items with gold evidence."""
    groups = {str(c): _group([s for s in scores if s.item.category == c]) for c in CATEGORIES}
    groups[OVERALL] = _group([s for s in scores if s.item.category in ANSWERABLE])
    return groups


def summary(metrics: Mapping[str, dict], llm: str) -> dict:
    """summary.json, in this exact shape; every figure a fraction in 0-1 (None: no items)."""
    return {
        "f1": {**{str(c): metrics[str(c)]["f1"] for c in ANSWERABLE}, OVERALL: metrics[OVERALL]["f1"]},
        "adversarial_refusal": metrics[str(ADVERSARIAL)]["refusal"],
        "evidence_recall_at_10": metrics[OVERALL]["retrieved"][10],
        "questions": sum(metrics[str(c)]["n"] for c in CATEGORIES),
        "llm": llm,
    }


def _p(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}"


def locomo_report(metrics: Mapping[str, dict], title: str, llm: str, setup: Mapping[str, str], notes: list[str]) -> str:
    def row(key: str, name: str) -> list[str]:
        m = metrics[key]
        adversarial = key == str(ADVERSARIAL)
        return [name, str(m["n"]), "–" if adversarial else _p(m["f1"]), _p(m["abstained"]),
                _p(m["refusal"]) if adversarial else "–",
                *(("–",) * 4 if adversarial else (_p(m["retrieved"][5]), _p(m["retrieved"][10]),
                                                 _p(m["answered"][5]), _p(m["answered"][10])))]

    rows = [row(str(c), f"{c} {CATEGORIES[c]}") for c in ANSWERABLE]
    rows += [row(OVERALL, "**1-4 together**"), row(str(ADVERSARIAL), f"{ADVERSARIAL} {CATEGORIES[ADVERSARIAL]}")]
    main = table(["category", "n", "F1", "abstained", "refusal", "retriever recall@5", "retriever recall@10",
                  "answer evidence recall@5", "answer evidence recall@10"], rows)
    reference = table(["system", "setup", "figure", "value (%)"],
                      [[f"human {REPORTED}", "LoCoMo paper, people answering", "token F1", f"{HUMAN_F1:.1f}"]]
                      + [[f"{name} {REPORTED}", "Mem0 paper, GPT-4o-mini answering, 10 conversations",
                          "LLM-as-judge J, categories 1-4", f"{value:.2f}"] for name, value in MEM0_JUDGE]
                      + [[f"**memlens** (LLM: {llm})", "this run", "token F1, categories 1-4",
                          _p(metrics[OVERALL]["f1"])]])
    return "\n\n".join([
        f"# {title}", "\n".join(f"- {k}: {v}" for k, v in {"LLM (writes answers)": llm, **setup}.items()),
        "## Per category", main,
        "Figures in this report are percentages; `summary.json` holds the same figures as fractions in 0-1. "
        "Category names are LoCoMo's own evaluation's (task_eval/evaluation.py); papers disagree on whether "
        "1 or 4 is single-hop, so read the numbers.",
        "## Published reference figures (different setups, not a leaderboard)", reference,
        "These come from other setups: a strong LLM (GPT-4o-mini) writes the answers, and the Mem0 paper scores "
        "them with an LLM judge, not token F1, over all ten conversations; the human F1 is the LoCoMo paper's. "
        "memlens's row is token F1 of its own answers on this file, with the backend named above.",
        "## How it was measured", "\n".join(f"- {n}" for n in notes),
    ])


def write_summary(path: Path, data: dict) -> Path:
    path.write_text(json.dumps(data, indent=2) + "\n")
    return path


def plot_locomo(metrics: Mapping[str, dict], path: Path, title: str) -> Path:
    """Per category: F1, and the gold turns' recall@10 in the retriever's and the answer's
    evidence; category 5 shows its refusal rate."""
    import numpy as np

    answerable = [metrics[str(c)] for c in ANSWERABLE] + [metrics[OVERALL]]
    labels = [f"{c} {CATEGORIES[c]}" for c in ANSWERABLE] + ["1-4", f"{ADVERSARIAL} {CATEGORIES[ADVERSARIAL]}"]
    bars = {
        "F1 (cat 5: refusal rate)": [m["f1"] for m in answerable] + [metrics[str(ADVERSARIAL)]["refusal"]],
        "retriever recall@10": [m["retrieved"][10] for m in answerable] + [None],
        "answer evidence recall@10": [m["answered"][10] for m in answerable] + [None],
    }
    fig, ax = plot_axes((9, 4))
    width = 0.8 / len(bars)
    x = np.arange(len(labels))
    for n, (name, ys) in enumerate(bars.items()):
        ax.bar(x + n * width, [100 * (y or 0.0) for y in ys], width, label=name)
    ax.set_xticks(x + 0.4 - width / 2, labels, rotation=15, ha="right")
    ax.set_ylabel("%")
    ax.set_ylim(0, 115)  # headroom for the legend
    return save_plot(fig, ax, path, title, loc="upper center", ncol=3)
