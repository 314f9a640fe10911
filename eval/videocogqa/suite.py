"""The VideoCogQA-style suite: every scene x level, rendered (cached) and asked from its log.

Sizes: `smoke` is one video per scene, levels rotating so all three appear (CI); `full` is
the paper's resampled set (Table 8: 20 videos per scene, S9 Easy only, ~4-5 questions per
video, ~1,000 items), a documented quarter of the original 80 videos / 328 items per scene
(Table 13), chosen so a full run fits a CPU afternoon.
"""
from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from eval.phrasings import bank_for, with_phrasings
from eval.schema import Item, Option, Suite, VideoRef
from eval.videocogqa import style
from eval.videocogqa.base import LEVELS, encode
from eval.videocogqa.scenes import SCENE_MODULES, load_scene

Progress = Callable[[str, int, int], None]
START = "2026-01-01T09:00:00"  # the clock on which every video is "recorded"
ASKED = "2026-01-01T09:01:00"  # after every 30 s video ended


@dataclass(frozen=True)
class VcqSize:
    videos_per_scene: int
    questions_per_video: int | None  # None = every filled template


SIZES = {"smoke": VcqSize(1, 4), "full": VcqSize(20, None)}


def suite_path(root: Path, size: str, seed: int) -> Path:
    return Path(root) / f"videocogqa-{size}-seed{seed}.jsonl"


def build_suite(size: str, root: Path, seed: int = 0, progress: Progress | None = None,
                scenes: tuple[str, ...] = tuple(SCENE_MODULES)) -> Path:
    if size not in SIZES:
        raise ValueError(f"unknown size {size!r}; sizes: {', '.join(SIZES)}")
    spec = SIZES[size]
    folder = Path(root) / f"videocogqa-{size}-seed{seed}"
    videos: list[VideoRef] = []
    items: list[Item] = []
    plan = [(code, n) for code in scenes for n in range(spec.videos_per_scene)]
    for done, (code, n) in enumerate(plan, 1):
        scene = load_scene(code)
        level = scene.levels[(n + len(videos)) % len(scene.levels)] if size == "smoke" else scene.levels[
            n * len(scene.levels) // spec.videos_per_scene]
        rng = random.Random(f"{seed}:{code}:{n}")
        episode = scene.simulate(level, rng)
        video_id = f"{code.lower()}-{level.lower()}-{n:02d}"
        path = folder / f"{video_id}.mp4"
        log = path.with_suffix(".json")
        if not (path.exists() and log.exists()):
            encode(episode, path)
            log.write_text(json.dumps({"scene": code, "level": level, "params": episode.params,
                                       "events": episode.events, "facts": episode.facts}, default=str))
        videos.append(VideoRef(video_id, str(path.resolve()), START, person=video_id, duration=episode.duration))
        drafts = scene.questions(episode, rng)
        if spec.questions_per_video is not None:
            drafts = _varied(drafts, spec.questions_per_video, rng)
        for k, d in enumerate(drafts):
            items.append(Item(
                id=f"videocogqa-{video_id}-{k}", suite="videocogqa", task=f"{code} {scene.title}",
                question=d.question, options=tuple(Option(o, "correct" if i == d.answer else "distractor")
                                                   for i, o in enumerate(d.options)),
                answer=d.answer, asked_at=ASKED, person=video_id, videos=(video_id,),
                meta={"scene": code, "ability": scene.ability, "level": level, "template": d.template,
                      "params": episode.params},
            ))
        if progress:
            progress("render + ask", done, len(plan))
    bank = bank_for("videocogqa")  # natural phrasings ride along in meta; id, options, times unchanged
    items = [with_phrasings(i, bank) for i in items] if bank else items
    suite = Suite("videocogqa", videos, items, meta={
        "generator": "memlens VideoCogQA-style scenes (OpenCV drawing, PyAV H.264)", "size": size, "seed": seed,
        "resolution": f"{style.WIDTH}x{style.HEIGHT}", "fps": style.FPS, "seconds_per_video": style.DURATION,
        "levels": "/".join(LEVELS),
    })
    return suite.write(suite_path(root, size, seed))


def _varied(drafts: list, k: int, rng: random.Random) -> list:
    """k drafts, one per template first, so a smoke run touches as many templates as it can."""
    by_template: dict[str, list] = {}
    for d in drafts:
        by_template.setdefault(d.template, []).append(d)
    groups = list(by_template.values())
    rng.shuffle(groups)
    out = []
    while len(out) < k and any(groups):
        for g in groups:
            if g and len(out) < k:
                out.append(g.pop(0))
    return out
