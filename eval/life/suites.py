"""Generated benchmark suites: simulate, render (cached), ask, filter, sample, write.

Both suites draw on one rendered life per (size, seed), so running both costs one render
and, with the perception cache, one perception pass. Filters follow the papers: evidence
must end before t_q, and items a blind text-only answerer gets right are capped at the
chance rate per task (so the blind baseline stays at or below chance by construction).
"""
from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

import numpy as np

from eval.baselines import BlindBaseline
from eval.life.egomemreason import SHARES as EGO_SHARES
from eval.life.egomemreason import EgoMemReasonQuestions
from eval.life.log import LifeLog
from eval.life.record import record_life, video_path
from eval.life.simulate import LifeSimulator
from eval.life.supermemory import SHARES as SM_SHARES
from eval.life.supermemory import UNANSWERABLE_SHARE, SuperMemoryQuestions
from eval.life.world import make_world
from eval.phrasings import bank_for, with_phrasings
from eval.schema import Item, Suite, VideoRef

SUITES = ("supermemory", "egomemreason")
Embed = Callable[[Sequence[str]], np.ndarray]
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class LifeSize:
    people: int
    days: int
    min_episode_seconds: float  # pads each recording: sets the minutes of video per day
    items: int  # items per suite


SIZES = {
    "smoke": LifeSize(people=1, days=2, min_episode_seconds=0.0, items=30),
    "full": LifeSize(people=2, days=3, min_episode_seconds=20.0, items=330),
}


def life_folder(root: Path, size: str, seed: int) -> Path:
    return Path(root) / f"life-{size}-seed{seed}"


def suite_path(root: Path, name: str, size: str, seed: int) -> Path:
    return Path(root) / f"{name}-{size}-seed{seed}.jsonl"


def build_suite(name: str, size: str, root: Path, embed: Embed, seed: int = 0,
                progress: Progress | None = None) -> Path:
    """Write the suite file (rendering the life first if needed) and return its path."""
    if name not in SUITES:
        raise ValueError(f"unknown suite {name!r}; generated suites: {', '.join(SUITES)}")
    if size not in SIZES:
        raise ValueError(f"unknown size {size!r}; sizes: {', '.join(SIZES)}")
    spec = SIZES[size]
    folder = life_folder(root, size, seed)
    episodes = []
    for p in range(spec.people):
        episodes += LifeSimulator(make_world(seed, p), spec.days, min_episode_seconds=spec.min_episode_seconds).run()
    episodes = record_life(episodes, folder, progress)
    log = LifeLog(episodes)
    if name == "supermemory":
        items = _supermemory_items(log, spec.items, seed, embed)
    else:
        items = _egomemreason_items(log, spec.items, seed, embed)
    videos = [VideoRef(e.video_id, str(video_path(folder, e).resolve()), e.wall_start.isoformat(), e.person, e.day,
                       e.script.duration) for e in episodes]
    minutes = sum(e.script.duration for e in episodes) / 60
    suite = Suite(name, videos, items, meta={
        "generator": "memlens life simulator", "size": size, "seed": seed, "people": spec.people,
        "days": spec.days, "video_minutes": round(minutes, 1),
        "blind_filter": "blind-correct items capped at chance per task",
        "phrasings": "each item's meta holds its template's dev and held-out phrasings (eval/phrasings)",
    })
    return suite.write(suite_path(root, name, size, seed))


# ---- selection --------------------------------------------------------------------------
def _valid(item: Item) -> bool:
    """Evidence strictly precedes t_q (seed 001: evidence always occurs before the question)."""
    asked = datetime.fromisoformat(item.asked_at)
    return all(datetime.fromisoformat(e.wall_end) < asked for e in item.evidence)


def _quotas(shares: dict[str, int], total: int) -> dict[str, int]:
    scale = total / sum(shares.values())
    quotas = {k: int(v * scale) for k, v in shares.items()}
    for k in sorted(shares, key=lambda k: -shares[k])[: total - sum(quotas.values())]:
        quotas[k] += 1
    return quotas


def _diverse(pool: list[Item], k: int, rng: random.Random) -> list[Item]:
    """k items, round-robin over distinct question texts so one template cannot dominate."""
    by_text: dict[str, list[Item]] = defaultdict(list)
    for item in pool:
        by_text[item.question].append(item)
    groups = list(by_text.values())
    rng.shuffle(groups)
    for g in groups:
        rng.shuffle(g)
    out: list[Item] = []
    while len(out) < k and any(groups):
        for g in groups:
            if g and len(out) < k:
                out.append(g.pop())
    return out


def _select(pool: list[Item], k: int, rng: random.Random, blind: BlindBaseline) -> list[Item]:
    """k valid items with at most chance-rate of blind-correct ones."""
    # near-duplicates (one template at many t_q) are thinned first: the blind check embeds
    # every option, and a few times the quota is plenty to choose from
    pool = _diverse([i for i in pool if _valid(i)], 4 * k, rng)
    blind_right = {i.id or id(i): blind.answer(i, "").chosen == i.answer for i in pool}
    right = [i for i in pool if blind_right[i.id or id(i)]]
    wrong = [i for i in pool if not blind_right[i.id or id(i)]]
    chance = 1.0 / max(len(pool[0].options), 1) if pool else 0.0
    # blind-correct items at the chance rate (as a guesser would get them right), never
    # above it, even if that keeps fewer items
    take_right = min(len(right), round(k * chance))
    chosen = _diverse(wrong, k - take_right, rng)
    take_right = min(take_right, int(len(chosen) * chance / (1 - chance)) if chance < 1 else 0)
    return chosen + _diverse(right, take_right, rng)


def _number(items: list[Item], suite: str) -> list[Item]:
    """Ids in a stable order; then each item's phrasings (meta only: the id, options, times and
    template question stay as selected)."""
    items = sorted(items, key=lambda i: (i.person or "", i.asked_at, i.task, i.question))
    bank = bank_for(suite)
    numbered = [replace(i, id=f"{suite}-{n:04d}") for n, i in enumerate(items, 1)]
    return [with_phrasings(i, bank) for i in numbered] if bank else numbered


def _supermemory_items(log: LifeLog, total: int, seed: int, embed: Embed) -> list[Item]:
    pools = SuperMemoryQuestions(log, seed).candidates()
    blind, rng = BlindBaseline(embed), random.Random(f"{seed}:supermemory")
    quotas = _quotas(SM_SHARES, total)
    items: list[Item] = []
    for task, quota in quotas.items():
        unanswerable = round(quota * UNANSWERABLE_SHARE)
        items += _select(pools.get((task, False), []), unanswerable, rng, blind)
        items += _select(pools.get((task, True), []), quota - unanswerable, rng, blind)
    return _number(items, "supermemory")


def _egomemreason_items(log: LifeLog, total: int, seed: int, embed: Embed) -> list[Item]:
    pools = EgoMemReasonQuestions(log, seed).candidates()
    blind, rng = BlindBaseline(embed), random.Random(f"{seed}:egomemreason")
    items: list[Item] = []
    for task, quota in _quotas(EGO_SHARES, total).items():
        items += _select(pools.get(task, []), quota, rng, blind)
    return _number(items, "egomemreason")
