"""The M3Eval report: memlens's and the baselines' rows beside the paper's Tables 1-3, N-Back
per attribute and per (N, K) with linear fits, repetition and source-grounding tables (the
paper gives those only as figures, so its claims are quoted), plus plots."""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from eval.m3eval.metrics import QTYPES_DA, QTYPES_IE, m3eval_metrics
from eval.m3eval.paper import NBACK_CLAIMS, REPETITION_CLAIM, SOURCE_CLAIM, TABLE1, TABLE2, TABLE3
from eval.metrics import Scored
from eval.report import REPORTED, table


def _p(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.2f}"


def _d(x: float | None) -> str:
    return "" if x is None else f" ({100 * x:+.2f})"


def _fit(f: tuple[float, float] | None) -> str:
    return "–" if f is None else f"{100 * f[0]:+.2f} pts/step, b={100 * f[1]:.1f}"


def m3eval_report(runs: Mapping[str, list[Scored]], title: str) -> str:
    ms = {name: m3eval_metrics(scored) for name, scored in runs.items()}
    t1 = [[f"**{n}**", *(_p(m["DA"]["no-swap"][q]) for q in QTYPES_DA),
           *(_p(m["DA"]["swap"][q]) + _d(m["DA_swap_delta"][q]) for q in QTYPES_DA), str(m["n"]["DA"])]
          for n, m in ms.items()]
    t1 += [[f"{model} {REPORTED}", *(f"{v:.2f}" for v in vals[:3]),
            *(f"{v:.2f} ({v - vals[i]:+.2f})" for i, v in enumerate(vals[3:])), "278"] for model, vals in TABLE1.items()]
    t2 = [[f"**{n}**", _p(m["MI"]["acc"]["proactive"]), _p(m["MI"]["acc"]["retroactive"]), _p(m["MI"]["acc_delta"]),
           _p(m["MI"]["ir"]["proactive"]), _p(m["MI"]["ir"]["retroactive"]), _p(m["MI"]["ir_delta"]),
           str(m["n"]["MI"])] for n, m in ms.items()]
    t2 += [[f"{model} {REPORTED}", *(f"{v:.2f}" for v in vals), "110"] for model, vals in TABLE2.items()]
    t3 = [[f"**{n}**", *(_p(m["IE"][q]) for q in QTYPES_IE), str(m["n"]["IE"])] for n, m in ms.items()]
    t3 += [[f"{model} {REPORTED}", *(f"{v:.2f}" for v in vals), "259"] for model, vals in TABLE3.items()]
    rep = [[n, _p(m["MI"]["acc"]["retroactive"]), _p(m["MI"]["acc"]["V1V1V2"]) + _d(m["MI"]["repetition_gain"]["V1V1V2"]),
            _p(m["MI"]["acc"]["V1V2V2"]) + _d(m["MI"]["repetition_gain"]["V1V2V2"]),
            _p(m["MI"]["ir"]["V1V1V2"]), _p(m["MI"]["ir"]["V1V2V2"])] for n, m in ms.items()]
    src = [[n, _p(m["source"]["spatial"]), _p(m["source"]["temporal"])] for n, m in ms.items()]
    nb = [[f"**{n}**", _p(m["N-Back"]["per_attribute"]["scene"]), _p(m["N-Back"]["per_attribute"]["action"]),
           _p(m["N-Back"]["overall"]), _fit(m["N-Back"]["fit_N"]), _fit(m["N-Back"]["fit_K"]), str(m["N-Back"]["n"])]
          for n, m in ms.items()]
    nb.append(["Random (chance)", "50.00", "50.00", "50.00", "+0.00 pts/step, b=50.0", "+0.00 pts/step, b=50.0", ""])
    cells = sorted({nk for m in ms.values() for nk in m["N-Back"]["per_nk"]}, key=lambda nk: (nk[1], nk[0]))
    grid = [[n, *(_p(m["N-Back"]["per_nk"].get(c)) for c in cells)] for n, m in ms.items()]
    return "\n\n".join([
        f"# {title}",
        "**Scene-specific:** memlens answers these questions with its opt-in M3Eval skill (`skills/m3eval/`, turned "
        "on by `memlens bench m3eval`, never by a default `/ask`) over the perceived source map. It reads the M3Eval wording exactly and other wordings by meaning "
        "(`skills/m3eval/questions.py`: the nearest of its own example questions, the stream named, the verb "
        "grounded in the map's captions); a question it does not recognise reaches the general planner.",
        "Generated stimuli (rendered story pairs, exact ground truth), not the paper's real videos: the paper's "
        "rows are context, not a like-for-like comparison. Chance: 25% for the 4-option tasks, 50% for N-Back "
        "and for IR (2 of 4 options).",
        "## Divided Attention (Table 1 shape), accuracy %",
        table(["system", "no-swap SI", "no-swap OU", "no-swap CR", "swap SI (Δ)", "swap OU (Δ)", "swap CR (Δ)", "n"],
              t1),
        "## Memory Interference (Table 2 shape), %; Δ = proactive − retroactive",
        "IR = share of responses that chose one of the 2 options taken from the competing video (lower is better).",
        table(["system", "Acc pro ↑", "Acc retro ↑", "Acc Δ", "IR pro ↓", "IR retro ↓", "IR Δ", "n"], t2),
        "## Interleaved Events (Table 3 shape), accuracy %",
        table(["system", "SI", "OU", "CR", "FMD", "n"], t3),
        "## Repetition (Fig. 8 shape): accuracy %, change from [V1, V2] in parentheses",
        table(["system", "[V1,V2]", "[V1,V1,V2] (Δ)", "[V1,V2,V2] (Δ)", "IR V1V1V2", "IR V1V2V2"], rep),
        f"*The paper:* {REPETITION_CLAIM}",
        "## Spatial vs temporal source grounding (Fig. 9 shape), accuracy %",
        table(["system", "spatial (DA swap SI)", "temporal (IE SI)"], src),
        f"*The paper:* {SOURCE_CLAIM}",
        "## N-Back (Figs. 10-11 shape), accuracy %",
        "Fits: least-squares lines of the (N, K) cell accuracies against N and against K (slope in points per "
        "unit of N or K, intercept b).",
        table(["system", "scene", "action", "all", "fit over N", "fit over K", "n"], nb),
        table(["system", *(f"N{n} K{k}" for n, k in cells)], grid) if cells else "",
        "*The paper (figures only):*\n" + "\n".join(f"- {c}" for c in NBACK_CLAIMS),
    ])


def m3eval_plots(runs: Mapping[str, list[Scored]], out_dir: Path) -> list[Path]:
    """N-Back accuracy per (N, K) against N and against K with each system's fitted line,
    and per-attribute bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    ms = {name: m3eval_metrics(scored)["N-Back"] for name, scored in runs.items()}
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, axis, fit in ((axes[0], 0, "fit_N"), (axes[1], 1, "fit_K")):
        for k, (name, m) in enumerate(ms.items()):
            if not m["per_nk"]:
                continue
            pts = sorted(m["per_nk"].items())
            xs = [nk[axis] for nk, _ in pts]
            colour = f"C{k}"
            ax.scatter(xs, [100 * a for _, a in pts], color=colour, s=14, alpha=0.7, label=name)
            slope, icpt = m[fit]
            lo, hi = min(xs), max(xs)
            ax.plot([lo, hi], [100 * (icpt + slope * lo), 100 * (icpt + slope * hi)], color=colour)
        ax.axhline(50, color="grey", ls="--", lw=1, label="chance")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("N (lag)" if axis == 0 else "K (sequence length)")
        ax.legend(fontsize=7)
    axes[0].set_ylabel("accuracy (%)")
    fig.suptitle("N-Back accuracy per (N, K) with linear fits")
    fig.tight_layout()
    nk_path = out_dir / "m3eval_nback_nk.png"
    fig.savefig(nk_path, dpi=120)
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(6, 4))
    width = 0.8 / max(len(ms), 1)
    for k, (name, m) in enumerate(ms.items()):
        vals = [100 * (m["per_attribute"][a] or 0.0) for a in ("scene", "action")]
        ax.bar([i + k * width for i in range(2)], vals, width, label=name)
    ax.axhline(50, color="grey", ls="--", lw=1)
    ax.set_xticks([0.4 - width / 2, 1.4 - width / 2], ["scene", "action"])
    ax.set_ylabel("accuracy (%)")
    ax.set_title("N-Back accuracy per attribute")
    ax.legend(fontsize=8)
    fig.tight_layout()
    attr_path = out_dir / "m3eval_nback_attribute.png"
    fig.savefig(attr_path, dpi=120)
    plt.close(fig)
    return [nk_path, attr_path]
