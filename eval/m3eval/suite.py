"""The M3Eval-style suite: story pairs rendered, composed into DA / MI / IE stimuli, N-Back
prefix sequences, and questions from ground truth; one stimulus video per item, each its
own namespace.

Sizes. `smoke` (CI; memlens OCRs every stimulus): 1 story pair -> DA no-swap + swap, MI
retroactive + proactive, IE, and 2 N-Back instances (scene K=6, action K=8): 7 videos,
268 s (~4.5 min), 33 items; the repetition variants are left to `full` (90 s each). `full`: 6 pairs
(a documented fraction of the paper's 739 non-N-Back questions, in its type proportions:
DA 4 SI / 3 OU / 4 CR per pair and condition (paper 48/40/51), MI 5 per pair and order
(paper 55), the same MI questions on V1V1V2 and V1V2V2, IE 5 SI / 2 OU / 4 CR / 6 FMD per
pair (paper 79/30/55/95)) and 8 N-Back instances (4 scene, 4 action) x the 26 (N, K) of
`nback.NK_FULL` = 208 (paper 64 x 26 = 1,664), Yes/No balanced per instance.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path

from eval.m3eval import questions as qs
from eval.m3eval.nback import NK_FULL, Instance, describe_nk, make_instance, render_clip
from eval.m3eval.stimuli import Manifest, concatenate, interleave, nback, split_screen
from eval.m3eval.stories import (
    BACKDROPS,
    FPS,
    HEIGHT,
    TOPICS,
    WIDTH,
    StoryPair,
    StoryScript,
    make_pair,
    render_story,
)
from eval.phrasings import bank_for, with_phrasings
from eval.schema import Item, Suite, VideoRef

Progress = Callable[[str, int, int], None]
PHRASINGS = bank_for("m3eval")
START = "2026-01-01T09:00:00"  # every stimulus is "recorded" from this wall-clock time


@dataclass(frozen=True)
class M3Size:
    pairs: int
    da: tuple[int, int, int]  # SI, OU, CR per pair and condition
    mi: int  # per pair and order
    repetition: bool  # also V1V1V2 and V1V2V2
    ie: tuple[int, int, int, int]  # SI, OU, CR, FMD per pair
    nback: tuple[tuple[str, tuple[tuple[int, int], ...]], ...]  # (attribute, (N, K) set) per instance


SIZES = {
    "smoke": M3Size(1, (2, 1, 2), 3, False, (2, 1, 2, 2),
                    (("scene", tuple((n, 6) for n in range(1, 6))),
                     ("action", tuple((n, 8) for n in (1, 2, 3, 5, 7))))),
    "full": M3Size(6, (4, 3, 4), 5, True, (5, 2, 4, 6), tuple((a, NK_FULL) for a in ("scene", "action") * 4)),
}


def suite_path(root: Path, size: str, seed: int) -> Path:
    return Path(root) / f"m3eval-{size}-seed{seed}.jsonl"


def asked_after(duration: float) -> str:
    return (datetime.fromisoformat(START) + timedelta(seconds=int(duration) + 60)).isoformat()


class _Builder:
    def __init__(self, folder: Path):
        self.folder = folder
        self.videos: list[VideoRef] = []
        self.items: list[Item] = []

    def video(self, m: Manifest, video_id: str) -> VideoRef:
        ref = VideoRef(video_id, str(Path(m.path).resolve()), START, person=video_id, duration=m.duration)
        self.videos.append(ref)
        return ref

    def add(self, q: qs.Q, ref: VideoRef, paradigm: str, condition: str, **meta) -> None:
        """One item; its meta also carries the question's phrasings (eval/phrasings/m3eval.py)."""
        n = sum(i.person == ref.video_id for i in self.items)
        self.items.append(with_phrasings(Item(
            id=f"m3eval-{ref.video_id}-{n}", suite="m3eval", task=paradigm, question=q.question, options=q.options,
            answer=q.answer, asked_at=asked_after(ref.duration or 0.0), person=ref.video_id, videos=(ref.video_id,),
            meta={"paradigm": paradigm, "condition": condition, "qtype": q.qtype, **q.meta, **meta}), PHRASINGS))


def _mcq(pair: StoryPair, counts: tuple[int, ...], names: tuple[str, str], rng: random.Random,
         fmd_verbs: list[str] | None = None) -> list[qs.Q]:
    """SI / OU / CR (/ FMD) questions, targets alternating between the two sources, each
    SI / CR on a beat not asked before, each FMD on a verb not asked before."""
    out = []
    stories = (pair.a, pair.b)
    used: dict[int, set[int]] = {0: set(), 1: set()}
    for qtype, count in zip(("SI", "OU", "CR", "FMD"), counts):
        for k in range(count):
            side = (k + len(out)) % 2
            target, other = stories[side], stories[1 - side]
            if qtype in ("SI", "CR"):
                beat = rng.choice([i for i in range(len(target.beats)) if i not in used[side]])
                used[side].add(beat)
                q = (qs.si if qtype == "SI" else qs.cr)(target, other, names[side], rng, beat)
            elif qtype == "OU":
                q = qs.ou(target, names[side], rng)
            else:
                verb = fmd_verbs[k % len(fmd_verbs)]
                q = qs.fmd(target, other, names[side], verb, rng)
            out.append(q)
    return out


def build_suite(size: str, root: Path, seed: int = 0, progress: Progress | None = None) -> Path:
    if size not in SIZES:
        raise ValueError(f"unknown size {size!r}; sizes: {', '.join(SIZES)}")
    spec = SIZES[size]
    folder = Path(root) / f"m3eval-{size}-seed{seed}"
    src = folder / "sources"
    b = _Builder(folder)
    rng = random.Random(f"m3eval:{seed}")
    topics = rng.sample(sorted(TOPICS), spec.pairs)
    colours = rng.sample(BACKDROPS, 2 * spec.pairs)
    steps = spec.pairs + len(spec.nback)
    for p, topic in enumerate(topics):
        pid = f"p{p}-{topic}"
        prng = random.Random(f"m3eval:{seed}:{pid}")
        pair = make_pair(topic, prng, pid, (colours[2 * p], colours[2 * p + 1]))
        va, vb = render_story(pair.a, src / f"{pair.a.story_id}.mp4"), render_story(pair.b, src / f"{pair.b.story_id}.mp4")
        _pair_items(b, pair, va, vb, spec, seed, pid, swap_v1=p % 2 == 1)
        if progress:
            progress("render + ask", p + 1, steps)
    for i, (attribute, nk) in enumerate(spec.nback):
        inst = make_instance(f"nb{i}-{attribute}", attribute, random.Random(f"{seed}:nback:{i}"), nk)
        _nback(b, inst, src, folder)
        if progress:
            progress("render + ask", spec.pairs + i + 1, steps)
    attributes = " + ".join(f"{n} {a}" for a, n in Counter(a for a, _ in spec.nback).items())
    nk_sets = " | ".join(sorted({describe_nk(nk) for _, nk in spec.nback}))
    suite = Suite("m3eval", b.videos, b.items, meta={
        "generator": "memlens M3Eval-style stories (OpenCV drawing, PyAV H.264) and builders", "size": size,
        "seed": seed, "source": f"{WIDTH}x{HEIGHT} @ {FPS} fps, 10 beats x 3 s", "pairs": topics,
        "nback": f"{len(spec.nback)} instances ({attributes}); (N, K) probed: {nk_sets}",
    })
    return suite.write(suite_path(root, size, seed))


def _pair_items(b: _Builder, pair: StoryPair, va: Path, vb: Path, spec: M3Size, seed: int, pid: str,
                swap_v1: bool = False) -> None:
    """DA / MI / IE stimuli of one pair of source videos and their questions."""
    folder = b.folder
    # DA: both conditions ask the same content (a paired swap delta), targets named by condition.
    for cond, swaps in (("no-swap", 0), ("swap", 10)):
        vid = f"{pid}-da-{cond}"
        ref = b.video(split_screen(va, vb, folder / f"{vid}.mp4", swaps=swaps), vid)
        for q in _mcq(pair, spec.da, qs.NAMES[cond], random.Random(f"{seed}:{pid}:da")):
            b.add(q, ref, "DA", cond, pair=pid)
    # MI: target V1 alternates between the pair's stories; the same questions in every order.
    v1, v2 = (pair.b, pair.a) if swap_v1 else (pair.a, pair.b)
    p1, p2 = (vb, va) if swap_v1 else (va, vb)
    mrng = random.Random(f"{seed}:{pid}:mi")
    drafts = [qs.mi(v1, v2, verb, mrng) for verb in qs.mi_verbs(v1, v2)[:spec.mi]]
    orders = [("retroactive", [p1, p2], "the first video"), ("proactive", [p2, p1], "the second video")]
    if spec.repetition:
        orders += [("V1V1V2", [p1, p1, p2], "the first video"), ("V1V2V2", [p1, p2, p2], "the first video")]
    for cond, seq, name in orders:
        vid = f"{pid}-mi-{cond.lower()}"
        ref = b.video(concatenate(seq, folder / f"{vid}.mp4"), vid)
        for q in drafts:
            b.add(q.named(name), ref, "MI", cond, pair=pid)
    # IE: A1 B1 ... A10 B10, "the first story" = A.
    vid = f"{pid}-ie"
    ref = b.video(interleave(va, vb, folder / f"{vid}.mp4"), vid)
    for q in _mcq(pair, spec.ie, qs.NAMES["story"], random.Random(f"{seed}:{pid}:ie"),
                  qs.absent_verbs(pair.a, pair.b, pair.unused_verbs)):
        b.add(q, ref, "IE", "interleaved", pair=pid)


def build_user_suite(pairs: Sequence[tuple[Path, Path]], root: Path, size: str = "full", seed: int = 0,
                     name: str = "m3eval-user") -> Path:
    """DA / MI / IE stimuli and questions from users' own videos: each pair is two JSON
    manifests in the StoryScript shape (with "video": path), e.g. two similar cooking clips."""
    spec = SIZES[size]
    folder = Path(root) / name
    b = _Builder(folder)
    for p, (ma, mb) in enumerate(pairs):
        a, bb = StoryScript.load(ma), StoryScript.load(mb)
        pid = f"u{p}"
        pair = StoryPair(replace(a, story_id=f"{pid}-a"), replace(bb, story_id=f"{pid}-b"))
        _pair_items(b, pair, Path(a.video), Path(bb.video), spec, seed, pid, swap_v1=p % 2 == 1)
    suite = Suite("m3eval", b.videos, b.items, meta={"generator": "memlens M3Eval builders on user videos",
                                                     "size": size, "seed": seed, "pairs": [list(map(str, x)) for x in pairs]})
    return suite.write(Path(root) / f"{name}-seed{seed}.jsonl")


def _nback(b: _Builder, inst: Instance, src: Path, folder: Path) -> None:
    clips = [render_clip(c, src / f"{c.clip_id}.mp4") for c in inst.clips]
    for k in sorted({k for _, k in inst.nk}):
        vid = f"{inst.instance_id}-k{k:02d}"
        ref = b.video(nback(clips[:k], folder / f"{vid}.mp4"), vid)
        for n in sorted(n for n, kk in inst.nk if kk == k):
            b.add(qs.nback_q(inst, n, k), ref, "N-Back", "nback", instance=inst.instance_id)
