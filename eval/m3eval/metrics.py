"""M3Eval metrics as the paper defines them (Sec. 2 of the seed notes).

Accuracy per paradigm x condition x question type; DA swap delta (swap - no-swap); MI
intrusion rate IR = share of responses that chose one of the 2 options from the competing
video (no answer counts in the denominator, as a non-intrusion), with Delta = proactive -
retroactive for Acc and IR; N-Back accuracy per attribute and per (N, K) with least-squares
lines of accuracy against N and against K fitted over the (N, K) cell accuracies (Fig. 11
fits one line per model over its points); spatial (DA swap SI) vs temporal (IE SI) source
accuracy (Fig. 9). Empty groups are None, never 0, so a report can print "-".
"""
from __future__ import annotations

from collections.abc import Sequence

from eval.metrics import Scored, accuracy, grouped

QTYPES_DA = ("SI", "OU", "CR")
QTYPES_IE = ("SI", "OU", "CR", "FMD")
MI_ORDERS = ("proactive", "retroactive")
REPETITION = ("retroactive", "V1V1V2", "V1V2V2")


def select(scored: Sequence[Scored], paradigm: str, condition: str | None = None,
           qtype: str | None = None) -> list[Scored]:
    return [s for s in scored if s.item.meta.get("paradigm") == paradigm
            and (condition is None or s.item.meta.get("condition") == condition)
            and (qtype is None or s.item.meta.get("qtype") == qtype)]


def acc(scored: Sequence[Scored]) -> float | None:
    return accuracy(scored) if scored else None


def intrusion_rate(scored: Sequence[Scored]) -> float | None:
    """Share of responses choosing an "intrusion"-role option (Zaromb et al. 2006)."""
    if not scored:
        return None
    return sum(s.item.role_of(s.pred.chosen) == "intrusion" for s in scored) / len(scored)


def delta(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a - b


def linear_fit(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float] | None:
    """(slope, intercept) of the least-squares line; a flat line at the mean when x never varies."""
    if not xs:
        return None
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return 0.0, my
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return slope, my - slope * mx


def nback_metrics(scored: Sequence[Scored]) -> dict:
    rows = select(scored, "N-Back")
    cells = grouped(rows, lambda s: f"{s.item.meta['N']},{s.item.meta['K']}")
    nk = {tuple(int(v) for v in key.split(",")): a for key, a in cells.items()}
    points = sorted(nk.items())
    return {
        "n": len(rows), "overall": acc(rows),
        "per_attribute": {a: acc([s for s in rows if s.item.meta.get("attribute") == a]) for a in ("scene", "action")},
        "per_nk": nk,
        "fit_N": linear_fit([n for (n, _), _ in points], [a for _, a in points]),
        "fit_K": linear_fit([k for (_, k), _ in points], [a for _, a in points]),
        "per_N": {n: acc([s for s in rows if s.item.meta["N"] == n]) for n in sorted({n for n, _ in nk})},
        "per_K": {k: acc([s for s in rows if s.item.meta["K"] == k]) for k in sorted({k for _, k in nk})},
    }


def m3eval_metrics(scored: Sequence[Scored]) -> dict:
    da = {c: {q: acc(select(scored, "DA", c, q)) for q in QTYPES_DA} for c in ("no-swap", "swap")}
    mi_acc = {c: acc(select(scored, "MI", c)) for c in (*MI_ORDERS, "V1V1V2", "V1V2V2")}
    mi_ir = {c: intrusion_rate(select(scored, "MI", c)) for c in (*MI_ORDERS, "V1V1V2", "V1V2V2")}
    return {
        "n": {p: len(select(scored, p)) for p in ("DA", "MI", "IE", "N-Back")},
        "DA": da,
        "DA_swap_delta": {q: delta(da["swap"][q], da["no-swap"][q]) for q in QTYPES_DA},
        "MI": {"acc": mi_acc, "ir": mi_ir,
               "acc_delta": delta(mi_acc["proactive"], mi_acc["retroactive"]),
               "ir_delta": delta(mi_ir["proactive"], mi_ir["retroactive"]),
               "repetition_gain": {c: delta(mi_acc[c], mi_acc["retroactive"]) for c in ("V1V1V2", "V1V2V2")}},
        "IE": {q: acc(select(scored, "IE", "interleaved", q)) for q in QTYPES_IE},
        "N-Back": nback_metrics(scored),
        "source": {"spatial": acc(select(scored, "DA", "swap", "SI")), "temporal": acc(select(scored, "IE", None, "SI"))},
    }
