"""The VideoCogQA report: accuracy per scene (Table 4 shape), per ability and per level
(Table 32 shape), memlens and baselines beside the paper's rows, plus a per-scene plot."""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from eval.metrics import Scored, accuracy, grouped
from eval.report import REPORTED, pct, plot_per_task, table
from eval.videocogqa.paper import ABILITIES, HUMAN_BY_LEVEL, RANDOM, SCENES, TABLE4, TABLE32

LEVELS = ("Easy", "Medium", "Hard")


def scene_scores(scored: list[Scored]) -> dict[str, float]:
    """The paper's scene score: the mean of its level accuracies (levels it has)."""
    out = {}
    by_scene: dict[str, list[Scored]] = {}
    for s in scored:
        by_scene.setdefault(s.item.meta["scene"], []).append(s)
    for scene, rows in by_scene.items():
        levels = grouped(rows, lambda s: s.item.meta["level"])
        out[scene] = sum(levels.values()) / len(levels)
    return out


def _cell(scores: Mapping[str, float], key: str) -> str:
    return pct(scores[key]) if key in scores else "–"


def videocogqa_report(runs: Mapping[str, list[Scored]], title: str) -> str:
    scenes = {n: scene_scores(s) for n, s in runs.items()}
    head = ["system", *SCENES, "Avg", "micro", "n"]
    rows = []
    for name, sc in scenes.items():
        avg = sum(sc.values()) / len(sc) if sc else 0.0
        rows.append([f"**{name}**", *(_cell(sc, k) for k in SCENES), pct(avg), pct(accuracy(runs[name])),
                     str(len(runs[name]))])
    rows += [[f"{m} {REPORTED}", *(f"{v:.1f}" for v in vals), "", ""] for m, vals in TABLE4.items()]
    rows.append([f"Random {REPORTED}", *(f"{v:.1f}" for v in RANDOM), f"{sum(RANDOM) / 10:.1f}", "", ""])
    abilities = []
    for name, sc in scenes.items():
        abilities.append([name, *(pct(sum(sc[s] for s in ss if s in sc) / max(1, sum(s in sc for s in ss)))
                                  if any(s in sc for s in ss) else "–" for ss in ABILITIES.values())])
    for m, vals in TABLE4.items():
        abilities.append([f"{m} {REPORTED}", *(f"{sum(vals[SCENES.index(s)] for s in ss) / len(ss):.1f}"
                                              for ss in ABILITIES.values())])
    levels = []
    for name, scored in runs.items():
        by_level = {lv: grouped([s for s in scored if s.item.meta["level"] == lv], lambda s: s.item.meta["scene"])
                    for lv in LEVELS}
        for lv in LEVELS:
            if by_level[lv]:
                levels.append([name, lv, *(_cell(by_level[lv], k) for k in SCENES),
                               pct(accuracy([s for s in scored if s.item.meta["level"] == lv]))])
    for model, table32 in TABLE32.items():
        for lv in LEVELS:
            levels.append([f"{model} {REPORTED}", lv, *("–" if v is None else f"{v:.1f}" for v in table32[lv]), ""])
    levels += [[f"Human {REPORTED}", lv, *[""] * len(SCENES), f"{v:.1f}"] for lv, v in HUMAN_BY_LEVEL.items()]
    templates = []
    if "memlens" in runs:
        by_template = grouped(runs["memlens"], lambda s: f"{s.item.meta['scene']}: {s.item.meta['template']}")
        worst = sorted(by_template.items(), key=lambda kv: kv[1])[:12]
        templates = [[t, pct(a)] for t, a in worst]
    return "\n\n".join([
        f"# {title}",
        "**Scene-specific:** memlens answers these questions with its opt-in VideoCogQA skill (`skills/videocogqa/`, "
        "turned on by `memlens bench videocogqa`, never by a default `/ask`): one program per question form of the "
        "ten scenes, over the perceived symbolic timeline, its answer weighed by the agent's judge. They measure "
        "the symbolic perception and its operators, not general question answering; a question the skill does "
        "not recognise, or recognises too weakly, reaches the general planner instead.",
        "## Accuracy per scene (Table 4 shape)",
        "Scene score = mean of its level accuracies (the paper's convention; S9 has Easy only); Avg = mean of "
        "the scene scores; micro = accuracy over all items. GPT-4o's Avg is the mean of its scene scores (61.2; "
        "the paper prints 66.1).",
        table(head, rows),
        "## Accuracy per ability",
        table(["system", *ABILITIES], abilities),
        "## Accuracy per level (Table 32 shape)",
        table(["system", "level", *SCENES, "all"], levels),
        *(["## memlens's weakest templates", table(["scene: template", "accuracy"], templates)] if templates else []),
    ])


def videocogqa_plots(runs: Mapping[str, list[Scored]], out: Path, title: str) -> list[Path]:
    per_scene = {n: scene_scores(s) for n, s in runs.items()}
    per_scene["Qwen2.5-VL-72B (reported)"] = dict(zip(SCENES, (v / 100 for v in TABLE4["Qwen2.5-VL-72B (best open)"])))
    per_scene["Human (reported)"] = dict(zip(SCENES, (v / 100 for v in TABLE4["Human"])))
    path = out / "per_scene.png"
    plot_per_task(per_scene, SCENES, path, title)
    return [path]
