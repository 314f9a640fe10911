"""Keyframe choice: shot changes plus a minimum rate, without near-duplicates.

A keyframe is a frame worth reading (OCR) and embedding (CLIP). Shot changes catch new
views; the minimum rate guarantees that even a static scene has a frame every
`min_interval` seconds, so "what was on screen at 10:42" always has an answer. Frames are
compared by HSV colour histograms, which move little with head motion (egocentric video)
but jump at cuts and when the wearer walks into another room.

The selector is online (`offer` one sampled frame at a time) so a long clip never holds
more than its keyframes in memory; `select_keyframes` is the pure list form for tests.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import cv2
import numpy as np

_THUMB = (64, 36)  # histograms of a thumbnail: fast, and blind to sensor noise
_BINS = (8, 4, 4)  # hue, saturation, value


def frame_signature(frame: np.ndarray) -> np.ndarray:
    """A normalised HSV histogram of an RGB frame (sums to 1)."""
    thumb = cv2.resize(frame, _THUMB, interpolation=cv2.INTER_AREA)
    hsv = cv2.cvtColor(thumb, cv2.COLOR_RGB2HSV)
    hist = cv2.calcHist([hsv], [0, 1, 2], None, list(_BINS), [0, 180, 0, 256, 0, 256])
    hist = hist.reshape(-1).astype(np.float64)
    return hist / max(hist.sum(), 1e-9)


def signature_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Half the L1 distance of two histograms: 0 = same colours, 1 = nothing shared."""
    return float(0.5 * np.abs(a - b).sum())


@dataclass
class KeyframeSelector:
    """Decides, frame by frame, whether a sampled frame becomes a keyframe.

    Rules, in order: the first frame offered is a keyframe; a frame at least
    `min_interval` seconds after the last keyframe is one (coverage beats dedup); a frame
    whose distance to the previous sampled frame (a cut) or to the last keyframe (a slow
    pan or fade) exceeds `shot_threshold` is one unless it
    is within `dedup_threshold` of one of the last `dedup_memory` keyframes: glancing away
    and back, or a flash, returns to a view that is already kept.
    """

    min_interval: float = 10.0
    shot_threshold: float = 0.4
    dedup_threshold: float = 0.05
    dedup_memory: int = 3
    _last_key_t: float | None = field(default=None, init=False)
    _recent: list[np.ndarray] = field(default_factory=list, init=False)
    _prev_sig: np.ndarray | None = field(default=None, init=False)

    def offer(self, t: float, frame: np.ndarray) -> bool:
        sig = frame_signature(frame)
        prev, self._prev_sig = self._prev_sig, sig
        if self._last_key_t is None or t - self._last_key_t >= self.min_interval - 1e-6:
            return self._take(t, sig)
        cut = prev is not None and signature_distance(sig, prev) > self.shot_threshold
        drift = signature_distance(sig, self._recent[-1]) > self.shot_threshold  # slow pans, fades
        if (cut or drift) and all(signature_distance(sig, k) > self.dedup_threshold for k in self._recent):
            return self._take(t, sig)
        return False

    def _take(self, t: float, sig: np.ndarray) -> bool:
        self._last_key_t = t
        self._recent = [*self._recent, sig][-self.dedup_memory :]
        return True


def select_keyframes(
    frames: Iterable[tuple[float, np.ndarray]],
    min_interval: float = 10.0,
    shot_threshold: float = 0.4,
    dedup_threshold: float = 0.05,
) -> list[int]:
    """Indices of the keyframes among (t, RGB frame) pairs, in time order."""
    selector = KeyframeSelector(min_interval, shot_threshold, dedup_threshold)
    return [i for i, (t, frame) in enumerate(frames) if selector.offer(t, frame)]
