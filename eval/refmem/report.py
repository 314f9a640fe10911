"""Scores a RefMem-Bench run and writes it up: per format and dimension Acc and MemR (and
BLEU-1 / F1 on direct answers), the unweighted mean over dimensions as the paper's Table 1
takes it, template beside held-out phrasings, the paper's rows beside, summary.json and a plot."""
from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from eval.refmem.dataset import DIMENSION_NAMES, DIMENSIONS, FORMATS, RefMemItem
from eval.refmem.judge import Judge
from eval.refmem.metrics import bleu1, memr_text, memr_visual, option_accuracy, token_f1
from eval.refmem.paper import TABLE1, TABLE1_COLUMNS, TABLE4_ACC
from eval.report import REPORTED, plot_axes, save_plot, table


@dataclass(frozen=True)
class ItemScore:
    item: RefMemItem
    acc: float  # MC/SC exact option set; DA the judge's verdict
    memr: float | None  # None: not counted (the paper's valid-sample rule)
    cited: bool  # the prediction cited any evidence
    bleu1: float | None = None  # DA only
    f1: float | None = None
    abstained: bool = False


def score_item(item: RefMemItem, pred: Any, judge: Judge, embedder) -> ItemScore:
    if item.visual:
        memr = memr_visual(item.evidence.images, pred.evidence_images)
    else:
        memr = memr_text(item.evidence.text, pred.evidence_text, embedder)
    cited = bool(pred.evidence_text or pred.evidence_images)
    if item.format == "DA":
        answer = pred.answer.strip()
        return ItemScore(item, float(judge.verdict(item.question, answer, item.answer)) if answer else 0.0, memr, cited,
                         bleu1(answer, item.answer), token_f1(answer, item.answer), pred.abstained)
    return ItemScore(item, option_accuracy(pred.letters, item.answer), memr, cited, abstained=pred.abstained)


def score(items: Sequence[RefMemItem], preds: Mapping[str, Any], judge: Judge, embedder) -> list[ItemScore]:
    return [score_item(i, preds[i.id], judge, embedder) for i in items if i.id in preds]


def _mean(values: Iterable[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.fmean(present) if present else None


def _cell(scores: list[ItemScore]) -> dict:
    return {"n": len(scores), "acc": _mean(s.acc for s in scores), "memr": _mean(s.memr for s in scores),
            "cited": _mean(float(s.cited) for s in scores), "bleu1": _mean(s.bleu1 for s in scores),
            "f1": _mean(s.f1 for s in scores), "abstained": _mean(float(s.abstained) for s in scores)}


def refmem_metrics(scores: list[ItemScore]) -> dict:
    """{format: {dimension: cell, "mean": unweighted mean over dimensions}} plus, per
    phrasing, {format: accuracy}."""
    out: dict = {}
    for fmt in FORMATS:
        cells = {d: _cell([s for s in scores if s.item.format == fmt and s.item.dimension == d]) for d in DIMENSIONS}
        present = [c for c in cells.values() if c["n"]]
        cells["mean"] = {k: _mean(c[k] for c in present) for k in ("acc", "memr", "cited", "bleu1", "f1", "abstained")}
        cells["mean"]["n"] = sum(c["n"] for c in present)
        out[fmt] = cells
    phrasings = sorted({s.item.phrasing for s in scores})
    out["phrasing"] = {p: {fmt: _mean(s.acc for s in scores if s.item.phrasing == p and s.item.format == fmt)
                           for fmt in FORMATS} for p in phrasings}
    return out


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 4)  # embeddings differ in the last bits with the batch they ride in


def summary(metrics: Mapping, system: str, llm: str, judge: str) -> dict:
    """summary.json: Table 1's figures for this run (fractions in 0-1), and per phrasing."""
    return {
        "system": system, "llm": llm, "judge": judge,
        "table1": {f"{fmt} {k}": _r(metrics[fmt]["mean"][key]) for fmt in FORMATS
                   for k, key in (("Acc", "acc"), ("MemR", "memr"))}
                  | {"DA BLEU-1": _r(metrics["DA"]["mean"]["bleu1"]), "DA F1": _r(metrics["DA"]["mean"]["f1"])},
        "phrasing": {p: {fmt: _r(v) for fmt, v in accs.items()} for p, accs in metrics["phrasing"].items()},
        "items": sum(metrics[fmt]["mean"]["n"] for fmt in FORMATS),
    }


def _p(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}"


def _table1(metrics: Mapping, name: str) -> str:
    ours = [metrics["MC"]["mean"]["acc"], metrics["MC"]["mean"]["memr"], metrics["SC"]["mean"]["acc"],
            metrics["SC"]["mean"]["memr"], metrics["DA"]["mean"]["acc"], metrics["DA"]["mean"]["memr"],
            metrics["DA"]["mean"]["bleu1"], metrics["DA"]["mean"]["f1"]]
    rows = [[f"{system} {REPORTED}", *("–" if v is None else f"{v:.1f}" for v in values)]
            for system, values in TABLE1.items()]
    return table(["system", *TABLE1_COLUMNS], rows + [[f"**{name}** (this run)", *map(_p, ours)]])


def _per_dimension(metrics: Mapping, fmt: str, name: str) -> str:
    cells = metrics[fmt]
    head = ["system", "figure", *DIMENSIONS, "mean"]
    rows = [[f"{system} {REPORTED}", "Acc", *(f"{v:.1f}" for v in values), f"{statistics.fmean(values):.1f}"]
            for system, values in TABLE4_ACC[fmt].items()]
    rows.append([f"**{name}**", "Acc", *(_p(cells[d]["acc"]) for d in DIMENSIONS), _p(cells["mean"]["acc"])])
    rows.append([f"**{name}**", "MemR", *(_p(cells[d]["memr"]) for d in DIMENSIONS), _p(cells["mean"]["memr"])])
    rows.append([f"**{name}**", "cited any evidence", *(_p(cells[d]["cited"]) for d in DIMENSIONS),
                 _p(cells["mean"]["cited"])])
    if fmt == "DA":
        rows.append([f"**{name}**", "BLEU-1", *(_p(cells[d]["bleu1"]) for d in DIMENSIONS), _p(cells["mean"]["bleu1"])])
        rows.append([f"**{name}**", "F1", *(_p(cells[d]["f1"]) for d in DIMENSIONS), _p(cells["mean"]["f1"])])
    rows.append([f"**{name}**", "items", *(str(cells[d]["n"]) for d in DIMENSIONS), str(cells["mean"]["n"])])
    return table(head, rows)


def refmem_report(metrics: Mapping, title: str, name: str, setup: Mapping[str, str], notes: list[str]) -> str:
    phrasing = table(["phrasing", *(f"{fmt} Acc" for fmt in FORMATS)],
                     [[p, *(_p(v[fmt]) for fmt in FORMATS)] for p, v in metrics["phrasing"].items()])
    parts = [f"# {title}", "\n".join(f"- {k}: {v}" for k, v in setup.items()),
             "## Averages over the eight dimensions (the paper's Table 1 shape)", _table1(metrics, name),
             "## Template beside held-out phrasings", phrasing]
    for fmt, label in (("MC", "Multi-choice (every correct option, exact set)"), ("SC", "Single-choice"),
                       ("DA", "Direct answer (1-4 words)")):
        parts += [f"## {label}, per dimension (the paper's Table 4{' and 6' if fmt == 'DA' else ''} shape)",
                  _per_dimension(metrics, fmt, name)]
    parts += ["Dimensions: " + "; ".join(f"{d} {n}" for d, n in DIMENSION_NAMES.items()) + ".",
              "## How it was measured", "\n".join(f"- {n}" for n in notes)]
    return "\n\n".join(parts)


def plot_refmem(metrics: Mapping, path: Path, title: str) -> Path:
    """Accuracy per dimension, one bar per format."""
    import numpy as np

    fig, ax = plot_axes((9, 4))
    width = 0.8 / len(FORMATS)
    x = np.arange(len(DIMENSIONS) + 1)
    for n, fmt in enumerate(FORMATS):
        ys = [metrics[fmt][d]["acc"] for d in DIMENSIONS] + [metrics[fmt]["mean"]["acc"]]
        ax.bar(x + n * width, [100 * (y or 0.0) for y in ys], width, label=f"{fmt} Acc")
    ax.set_xticks(x + 0.4 - width / 2, [*DIMENSIONS, "mean"])
    ax.set_ylabel("%")
    ax.set_ylim(0, 115)
    return save_plot(fig, ax, path, title, loc="upper center", ncol=3)
