"""How much of memlens's VideoCogQA accuracy survives a worse picture: every scene and level
rendered clean, then the same frames with sensor-like noise, blur and heavy H.264
compression (a phone filming a screen is worse still). Perception runs as ingest runs it,
auto gate included (a declined video answers nothing), then the templates; prints accuracy
per scene and condition and the videos declined, writes JSON and a plot.

    .venv/bin/python benchmarks/symbolic_robustness.py --videos 1 --out benchmarks/results
"""
from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from eval.videocogqa.base import Episode, encode
from eval.videocogqa.scenes import SCENE_MODULES, load_scene
from perception.config import PerceptionConfig
from perception.decode import iter_frames, probe
from perception.ocr import make_text_reader
from skills.videocogqa.programs import all_templates, option_scores
from skills.videocogqa.timeline import SymbolicTimeline
from skills.videocogqa.vision import observe_symbols

CONDITIONS = {"clean": None, "noisy": (8.0, 3, 32), "harsh": (16.0, 5, 38)}  # noise sigma, blur kernel, crf


def degrade(clean: Path, episode: Episode, out: Path, sigma: float, blur: int, crf: int, seed: int) -> Path:
    rng = np.random.default_rng(seed)
    frames = []
    for _, frame in iter_frames(clean, 10.0):
        f = cv2.GaussianBlur(frame, (blur, blur), 0).astype(np.float32)
        frames.append(np.clip(f + rng.normal(0, sigma, f.shape), 0, 255).astype(np.uint8))
    paint = lambda t: frames[min(len(frames) - 1, round(t * 10))]  # noqa: E731
    return encode(replace(episode, paint=paint), out, crf=crf)


def accuracy(path: Path, drafts, templates, reader) -> list[bool] | None:
    """Per draft, answered right; None when the auto gate (as ingest runs it) declined the
    video, so every question of it goes unanswered."""
    track = observe_symbols(path, probe(path), PerceptionConfig(symbolic="auto"), reader)
    if track is None:
        return None
    timeline = SymbolicTimeline(track)
    right = []
    for d in drafts:
        template = next((t for t in templates if t.match(d.question)), None)
        solved = template.solve(timeline, template.match(d.question)) if template else None
        if solved is None:
            right.append(False)
            continue
        scores = option_scores(solved.value, list(d.options))
        right.append(max(range(len(scores)), key=scores.__getitem__) == d.answer)
    return right


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--videos", type=int, default=1, help="videos per scene and level")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    args = ap.parse_args()
    templates, reader = all_templates(), make_text_reader(PerceptionConfig())
    results: dict[str, dict[str, list[bool]]] = {}
    declined = {name: 0 for name in CONDITIONS}
    began = time.perf_counter()
    plan = [(c, lv, n) for c in SCENE_MODULES for lv in load_scene(c).levels for n in range(args.videos)]
    with tempfile.TemporaryDirectory() as tmp, Progress() as bar:
        task = bar.add_task("scenes x levels x conditions", total=len(plan))
        for code, level, n in plan:
            scene = load_scene(code)
            rng = random.Random(f"robust:{code}:{level}:{n}")
            episode = scene.simulate(level, rng)
            drafts = scene.questions(episode, rng)
            clean = encode(episode, Path(tmp) / f"{code}-{level}-{n}.mp4")
            for name, spec in CONDITIONS.items():
                path = clean if spec is None else degrade(clean, episode, Path(tmp) / f"{code}-{level}-{n}-{name}.mp4",
                                                          *spec, seed=n)
                right = accuracy(path, drafts, templates, reader)
                declined[name] += right is None
                results.setdefault(code, {}).setdefault(name, []).extend(right or [False] * len(drafts))
            bar.advance(task)
    table = Table(title=f"VideoCogQA accuracy under degraded pictures ({time.perf_counter() - began:.0f} s)")
    table.add_column("scene")
    for name in CONDITIONS:
        table.add_column(name, justify="right")
    summary = {code: {name: 100 * sum(r) / len(r) for name, r in conds.items()} for code, conds in results.items()}
    for code, row in summary.items():
        table.add_row(code, *(f"{row[c]:.1f}" for c in CONDITIONS))
    overall = {c: 100 * sum(sum(v[c]) for v in results.values()) / sum(len(v[c]) for v in results.values())
               for c in CONDITIONS}
    table.add_row("all", *(f"{overall[c]:.1f}" for c in CONDITIONS))
    table.add_row("videos declined by the gate", *(f"{declined[c]} / {len(plan)}" for c in CONDITIONS))
    Console().print(table)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "symbolic_robustness.json").write_text(json.dumps(
        {"conditions": {k: v for k, v in CONDITIONS.items()}, "per_scene": summary, "overall": overall,
         "declined": declined, "videos": len(plan)}, indent=2))
    plot(summary, args.out / "symbolic_robustness.png")


def plot(summary: dict[str, dict[str, float]], path: Path) -> None:
    """Bars per scene, one per condition."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 4))
    x = np.arange(len(summary))
    for i, c in enumerate(CONDITIONS):
        ax.bar(x + (i - 1) * 0.27, [summary[s][c] for s in summary], 0.27, label=c)
    ax.set_xticks(x, list(summary))
    ax.set_ylim(0, 118)
    ax.set_ylabel("accuracy (%)")
    ax.set_title("memlens on VideoCogQA-style scenes: clean vs degraded video")
    ax.legend(loc="upper center", ncol=len(CONDITIONS))
    fig.tight_layout()
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    main()
