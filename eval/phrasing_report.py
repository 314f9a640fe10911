"""The report section that puts held-out phrasings beside the template wording.

Template accuracy on a generated suite measures the wording the agent's authors also wrote;
the held-out column measures the same items asked the way a wearer might ask them
(eval/phrasings). The gap is computed on the items asked in both sets, so a set that covers
fewer items (an item without phrasings) cannot move it.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from eval.metrics import Scored, accuracy, expected_calibration_error
from eval.phrasings import DEV, HELDOUT, TEMPLATE

CONFIDENT = 0.8
SET_LABELS = {TEMPLATE: "template", DEV: "dev", HELDOUT: "held-out"}


def confidence(s: Scored) -> float:
    """The chosen option's score (the agent's own confidence; risk-coverage ranks by it too)."""
    scores, chosen = s.pred.option_scores, s.pred.chosen
    return float(scores[chosen]) if chosen is not None and 0 <= chosen < len(scores) else 0.0


def confident_wrong(scored: Sequence[Scored], threshold: float = CONFIDENT) -> int:
    """Wrong answers given with confidence >= threshold: the ones a wearer would believe."""
    return sum(1 for s in scored if not s.correct and confidence(s) >= threshold)


def _pct(x: float | None) -> str:
    return "" if x is None else f"{100 * x:.1f}"


def _by_task(scored: Sequence[Scored]) -> dict[str, list[Scored]]:
    out: dict[str, list[Scored]] = defaultdict(list)
    for s in scored:
        out[s.item.task].append(s)
    return out


def _gap(template: Sequence[Scored], other: Sequence[Scored]) -> tuple[float | None, int]:
    """(other - template) accuracy in points over the items both sets asked, and how many."""
    mine = {s.item.id: s for s in template}
    both = [(mine[s.item.id], s) for s in other if s.item.id in mine]
    if not both:
        return None, 0
    return 100 * (accuracy([o for _, o in both]) - accuracy([t for t, _ in both])), len(both)


def _table(header: list[str], rows: list[list[str]]) -> str:
    return "\n".join(["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
                     + ["| " + " | ".join(r) + " |" for r in rows])


def phrasing_report(system: str, by_set: Mapping[str, Sequence[Scored]], total_items: int,
                    template_only: Sequence[str] = ()) -> str:
    """Accuracy per task for each phrasing set run (template and held-out side by side), the
    held-out minus template gap in points, and confident wrong answers per set."""
    lines = [f"## Template vs held-out phrasings ({system})"]
    notes = [
        "The same items asked in other words (eval/phrasings): **template** is the generator's own wording; "
        "**dev** and **held-out** (`--phrasing dev|heldout`) ask one of the item's phrasings of that split, "
        "chosen by a stable hash of the item id (the same one every run). Held-out phrasings are never used to "
        "develop the agent. Slots, times, options and gold answers are identical across sets.",
        "Gap = held-out minus template accuracy, in points, over the items asked in both.",
    ]
    empty = [s for s in (DEV, HELDOUT) if s in by_set and not by_set[s]]
    if empty:
        notes.append(f"Not asked: {', '.join(SET_LABELS[s] for s in empty)} (no item of this suite has such "
                     "phrasings; only the generated life suites have a phrasing bank).")
    sets = [s for s in (TEMPLATE, DEV, HELDOUT) if by_set.get(s)]
    missing = {s: total_items - len(by_set[s]) for s in sets if len(by_set[s]) < total_items}
    if missing:
        notes.append("Items missing from a set (their question matches no template, or the ask failed and is "
                     "retried when the run resumes): " + ", ".join(f"{SET_LABELS[s]} {n} of {total_items}"
                                                                   for s, n in missing.items()) + ".")
    if template_only:
        notes.append(f"Baselines ({', '.join(template_only)}) run on the template phrasing only.")
    tasks = sorted({s.item.task for scored in by_set.values() for s in scored})
    per_set = {s: _by_task(by_set[s]) for s in sets}
    header = ["task", *(f"{SET_LABELS[s]} acc (n)" for s in sets)]
    with_gap = TEMPLATE in sets and HELDOUT in sets
    if with_gap:
        header.append("gap held-out - template (points)")
    rows = []
    for task in [*tasks, None]:
        cells = []
        for s in sets:
            scored = by_set[s] if task is None else per_set[s].get(task, [])
            cells.append(f"{_pct(accuracy(scored))} ({len(scored)})" if scored else "-")
        row = ["**overall**" if task is None else task, *cells]
        if with_gap:
            template = by_set[TEMPLATE] if task is None else per_set[TEMPLATE].get(task, [])
            heldout = by_set[HELDOUT] if task is None else per_set[HELDOUT].get(task, [])
            gap, _ = _gap(template, heldout)
            row.append("-" if gap is None else f"{gap:+.1f}")
        rows.append(row)
    lines += [*notes, _table(header, rows)]
    if with_gap:
        gap, n = _gap(by_set[TEMPLATE], by_set[HELDOUT])
        if gap is not None:
            lines.append(f"Overall gap: **{gap:+.1f} points** held-out vs template on {n} items.")
    lines.append(f"### Confident wrong answers (confidence >= {CONFIDENT}, wrong)")
    lines.append(_table(["phrasing set", "n", "accuracy", "confident wrong", "abstained", "ECE", "s / question"], [
        [SET_LABELS[s], str(len(by_set[s])), _pct(accuracy(by_set[s])), str(confident_wrong(by_set[s])),
         str(sum(x.chose_abstain for x in by_set[s])), f"{expected_calibration_error(by_set[s]):.3f}",
         f"{sum(x.pred.latency_s for x in by_set[s]) / len(by_set[s]):.2f}"] for s in sets]))
    lines.append("Confidence is the chosen option's score. A confident wrong answer is one a wearer would act on; "
                 "held-out wording should lower confidence, not produce these.")
    return "\n\n".join(lines)
