"""Keyframe choice: shot changes, new text in view, and a minimum rate, without near-duplicates.

A keyframe is a frame worth reading (OCR) and embedding (CLIP). Shot changes catch new
views; the minimum rate guarantees that even a static scene has a frame every
`min_interval` seconds, so "what was on screen at 10:42" always has an answer. Frames are
compared by HSV colour histograms, which move little with head motion (egocentric video)
but jump at cuts and when the wearer walks into another room.

Text can come and go inside one shot (a caption, a lower third, a sign the wearer turns
to) and barely moves a colour histogram. So each frame also gets a small map of its fine
vertical strokes (a strong horizontal gradient, which letters are full of); a region of the
frame where many strokes appear that the last keyframe did not have (text shown, or other
text in its place) makes a keyframe too, at most one per `text_interval` seconds. Things
in motion gain strokes too, so a busy shot gets a keyframe every `text_interval`: that
bounds what reading text costs (asking that new strokes also hold still from one sampled
frame to the next did not tell a lower third from a speaker's gestures).

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


_TEXT_THUMB = (256, 144)  # letters of a 360p lower third stay a few pixels tall
_TEXT_GRID = (12, 8)  # rows, columns of regions: a caption line fills half a region's height
_STROKE = 60  # |horizontal gradient| (Sobel, 0-255 image) of a letter's edge


def stroke_map(frame: np.ndarray) -> np.ndarray:
    """Where a thumbnail of the frame has strong vertical strokes (a boolean image)."""
    gray = cv2.cvtColor(cv2.resize(frame, _TEXT_THUMB, interpolation=cv2.INTER_AREA), cv2.COLOR_RGB2GRAY)
    return np.abs(cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)) > _STROKE


def new_strokes(now: np.ndarray, before: np.ndarray) -> np.ndarray:
    """Per region, the share of its pixels that are strokes now and were not before."""
    rows, cols = _TEXT_GRID
    fresh = now & ~before
    h, w = fresh.shape
    return fresh[: h - h % rows, : w - w % cols].reshape(rows, h // rows, cols, w // cols).mean(axis=(1, 3))


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
    and back, or a flash, returns to a view that is already kept; a frame in which some
    region gained more than `text_threshold` of stroke cover since the last keyframe (new
    text) is one, `text_interval` seconds after the last at the earliest (0 turns it off).
    """

    min_interval: float = 10.0
    shot_threshold: float = 0.4
    dedup_threshold: float = 0.05
    dedup_memory: int = 3
    text_threshold: float = 0.05
    text_interval: float = 2.0
    _last_key_t: float | None = field(default=None, init=False)
    _recent: list[np.ndarray] = field(default_factory=list, init=False)
    _prev_sig: np.ndarray | None = field(default=None, init=False)
    _key_strokes: np.ndarray | None = field(default=None, init=False)

    def offer(self, t: float, frame: np.ndarray) -> bool:
        sig = frame_signature(frame)
        strokes = stroke_map(frame) if self.text_threshold > 0 else None
        prev, self._prev_sig = self._prev_sig, sig
        if self._last_key_t is None or t - self._last_key_t >= self.min_interval - 1e-6:
            return self._take(t, sig, strokes)
        cut = prev is not None and signature_distance(sig, prev) > self.shot_threshold
        drift = signature_distance(sig, self._recent[-1]) > self.shot_threshold  # slow pans, fades
        if (cut or drift) and all(signature_distance(sig, k) > self.dedup_threshold for k in self._recent):
            return self._take(t, sig, strokes)
        if (strokes is not None and self._key_strokes is not None and t - self._last_key_t >= self.text_interval - 1e-6
                and float(new_strokes(strokes, self._key_strokes).max()) > self.text_threshold):
            return self._take(t, sig, strokes)
        return False

    def _take(self, t: float, sig: np.ndarray, strokes: np.ndarray | None) -> bool:
        self._last_key_t = t
        self._recent = [*self._recent, sig][-self.dedup_memory :]
        self._key_strokes = strokes
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
