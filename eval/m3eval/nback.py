"""N-Back instances: 12 short clips, each with a scene and an action attribute, and the
(N, K) probes asked of their K-clip prefixes.

The paper annotates real clips with a running label list; ours carry their labels on screen
(a scene sign, a caption "a person is {action}"), each clip on its own backdrop so adjacent
clips are visibly different sources. It lists neither the (N, K) set nor the Yes/No balance:
we take the 26 pairs below (N = 1..5 at K = 6, 8, 10, 12, plus the long lags N = 6..11 at
K = 12) and search the designated attribute's sequence so that half the probes are "Yes".
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from eval.m3eval.stories import BACKDROPS, FPS, HEIGHT, WIDTH, Writer, draw_caption, draw_sign, frame_times

SCENES = ("BEACH", "KITCHEN", "OFFICE", "PARK", "GARAGE", "LIBRARY", "STREET", "GYM")
ACTIONS = ("running", "cooking", "reading", "typing", "painting", "swimming", "dancing", "cleaning")
CLIPS, CLIP_SECONDS = 12, 2.0
NK_FULL = tuple(sorted([(n, k) for k in (6, 8, 10, 12) for n in range(1, 6)] + [(n, 12) for n in range(6, 12)],
                       key=lambda nk: (nk[1], nk[0])))
assert len(NK_FULL) == 26


def describe_nk(nk: tuple[tuple[int, int], ...]) -> str:
    """The (N, K) set for a reader: "K=6: N=1-5; K=12: N=1-11" (N runs shown as ranges)."""
    parts = []
    for k in sorted({k for _, k in nk}):
        ns = sorted(n for n, kk in nk if kk == k)
        runs: list[list[int]] = []
        for n in ns:
            if runs and n == runs[-1][-1] + 1:
                runs[-1].append(n)
            else:
                runs.append([n])
        parts.append(f"K={k}: N=" + ",".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs))
    return "; ".join(parts)


@dataclass(frozen=True)
class Clip:
    clip_id: str
    scene: str
    action: str
    backdrop: tuple[int, int, int]

    @property
    def caption(self) -> str:
        return f"a person is {self.action}"

    def attr(self, attribute: str) -> str:
        return self.scene if attribute == "scene" else self.action


@dataclass(frozen=True)
class Instance:
    instance_id: str
    attribute: str  # scene | action: the designated attribute
    clips: tuple[Clip, ...]
    nk: tuple[tuple[int, int], ...]

    def gold(self, n: int, k: int) -> bool:
        """Does clip K (1-based, the last of the prefix) match clip K - N on the attribute?"""
        return self.clips[k - 1].attr(self.attribute) == self.clips[k - 1 - n].attr(self.attribute)


def _yes(seq: list[str], nk: tuple[tuple[int, int], ...]) -> int:
    return sum(seq[k - 1] == seq[k - 1 - n] for n, k in nk)


def make_instance(instance_id: str, attribute: str, rng: random.Random,
                  nk: tuple[tuple[int, int], ...] = NK_FULL, values: int = 4) -> Instance:
    """A 12-clip instance whose designated attribute takes `values` values (the paper's 4
    groups), searched so that Yes answers are as close to half of `nk` as possible."""
    vocab = SCENES if attribute == "scene" else ACTIONS
    chosen = rng.sample(vocab, values)
    target = len(nk) // 2
    best = [rng.choice(chosen) for _ in range(CLIPS)]
    for _ in range(4000):
        if _yes(best, nk) == target:
            break
        cand = list(best)
        cand[rng.randrange(CLIPS)] = rng.choice(chosen)
        if abs(_yes(cand, nk) - target) <= abs(_yes(best, nk) - target):
            best = cand
    other = SCENES if attribute == "action" else ACTIONS
    clips, prev = [], None
    for k, value in enumerate(best):
        backdrop = rng.choice([b for b in BACKDROPS if b != prev])
        prev = backdrop
        second = rng.choice(other)
        scene, action = (value, second) if attribute == "scene" else (second, value)
        clips.append(Clip(f"{instance_id}-c{k:02d}", scene, action, backdrop))
    return Instance(instance_id, attribute, tuple(clips), tuple(nk))


def draw_clip(clip: Clip, t: float) -> np.ndarray:
    img = np.empty((HEIGHT, WIDTH, 3), np.uint8)
    img[:] = clip.backdrop
    draw_sign(img, clip.scene)
    # a person (moving a little) so each clip is video, not a still
    x = 240 + int(30 * np.sin(np.pi * t))
    cv2.circle(img, (x, 90), 16, (235, 205, 170), -1, cv2.LINE_AA)
    cv2.line(img, (x, 106), (x, 165), (25, 25, 30), 6)
    cv2.line(img, (x, 125), (x - 30, 145 + int(10 * np.sin(3 * t))), (25, 25, 30), 5)
    cv2.line(img, (x, 125), (x + 30, 145 - int(10 * np.sin(3 * t))), (25, 25, 30), 5)
    cv2.line(img, (x, 165), (x - 15, 205), (25, 25, 30), 5)
    cv2.line(img, (x, 165), (x + 15, 205), (25, 25, 30), 5)
    draw_caption(img, clip.caption)
    return img


def render_clip(clip: Clip, path: Path, seconds: float = CLIP_SECONDS, fps: int = FPS) -> Path:
    """One source clip (cached)."""
    path = Path(path)
    if not path.exists():
        with Writer(path, WIDTH, HEIGHT, fps) as w:
            for t in frame_times(seconds, fps):
                w.write(draw_clip(clip, t))
    return path
