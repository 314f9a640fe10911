"""Layout and stream identity of composed video from small thumbnails (pure NumPy/OpenCV).

A region's appearance is its dominant colour (the backdrop of a composed source, constant
for a whole source) plus a coarse colour histogram. Streams are followed by appearance, not
by position: a split-screen swap moves a stream to the other half without changing its id,
and interleaved segments with the same look are one stream.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .sources import SourceSegment

# Thresholds on the appearance distance (see `distance`): sources of one composed video have
# clearly different backdrops (a distance of 0.5 or more), one source against itself stays
# under ~0.1 (captions and props change, the backdrop does not).
CUT_DISTANCE = 0.3
SAME_STREAM_DISTANCE = 0.2
FLAT_FRACTION = 0.3  # dominant-colour share of a synthetic (flat-colour) picture


@dataclass(frozen=True)
class Look:
    """Appearance of one region on one frame."""

    colour: np.ndarray  # Lab dominant colour, float32 (3,)
    hist: np.ndarray  # normalised 64-bin RGB histogram
    flat: float  # share of pixels within a few levels of the dominant colour


def look(rgb: np.ndarray) -> Look:
    """Appearance of a (small) RGB image."""
    q = (rgb >> 4).astype(np.int32)
    code = (q[..., 0] << 8) | (q[..., 1] << 4) | q[..., 2]
    counts = np.bincount(code.ravel(), minlength=4096)
    top = int(counts.argmax())
    mean = rgb[code == top].reshape(-1, 3).mean(axis=0).astype(np.uint8)
    lab = cv2.cvtColor(mean.reshape(1, 1, 3), cv2.COLOR_RGB2LAB).reshape(3).astype(np.float32)
    q4 = (rgb >> 6).astype(np.int32)
    hist = np.bincount(((q4[..., 0] << 4) | (q4[..., 1] << 2) | q4[..., 2]).ravel(), minlength=64)
    near = np.abs(rgb.reshape(-1, 3).astype(np.int16) - mean.astype(np.int16)).max(axis=1) <= 12
    return Look(lab, (hist / max(1, hist.sum())).astype(np.float32), float(near.mean()))


def mean_look(looks: list[Look]) -> Look:
    colour = np.median(np.stack([x.colour for x in looks]), axis=0)
    hist = np.mean(np.stack([x.hist for x in looks]), axis=0)
    return Look(colour.astype(np.float32), hist.astype(np.float32), float(np.mean([x.flat for x in looks])))


def distance(a: Look, b: Look) -> float:
    """0 = same look, about 1 = unrelated: the larger of the histogram distance (0.5 * L1)
    and the dominant-colour distance (Lab, 50 units = 1)."""
    return max(0.5 * float(np.abs(a.hist - b.hist).sum()), float(np.linalg.norm(a.colour - b.colour)) / 50.0)


def thumbnail(frame: np.ndarray, width: int = 96) -> np.ndarray:
    h, w = frame.shape[:2]
    return cv2.resize(frame, (width, max(8, round(h * width / w))), interpolation=cv2.INTER_AREA)


def halves(thumb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Left and right halves, without the columns next to the seam."""
    w = thumb.shape[1]
    m = max(1, w // 64)
    return thumb[:, : w // 2 - m], thumb[:, w // 2 + m:]


def looks_split(width: int, height: int, lefts: list[Look], rights: list[Look]) -> bool:
    """Side by side: a wide frame whose halves look different most of the time."""
    if width < 2.4 * height or not lefts:
        return False
    apart = [distance(a, b) > CUT_DISTANCE for a, b in zip(lefts, rights)]
    return sum(apart) >= 0.8 * len(apart)


def _runs(values: list[int], min_len: int) -> list[tuple[int, int, int]]:
    """(start, end, value) runs; runs shorter than min_len join the previous run."""
    runs: list[list[int]] = []
    for i, v in enumerate(values):
        if runs and runs[-1][2] == v:
            runs[-1][1] = i + 1
        else:
            runs.append([i, i + 1, v])
    merged: list[list[int]] = []
    for r in runs:
        if merged and (r[1] - r[0] < min_len or merged[-1][2] == r[2]):
            merged[-1][1] = r[1]
        else:
            merged.append(r)
    return [(a, b, v) for a, b, v in merged]


def _bounds(times: list[float], i: int, j: int, duration: float) -> tuple[float, float]:
    return (0.0 if i == 0 else times[i]), (duration if j >= len(times) else times[j])


def track_split(times: list[float], lefts: list[Look], rights: list[Look],
                duration: float) -> tuple[list[SourceSegment], list[Look]]:
    """Follow the two streams of a split screen: stream 0 starts on the left, stream 1 on
    the right; each frame takes the assignment (kept or swapped) that best fits the two
    streams' running looks, so a swap keeps the ids."""
    models = [lefts[0], rights[0]]
    swapped: list[int] = []
    for a, b in zip(lefts, rights):
        keep = distance(a, models[0]) + distance(b, models[1])
        swap = distance(a, models[1]) + distance(b, models[0])
        s = int(swap < keep)
        swapped.append(s)
        first, second = (b, a) if s else (a, b)
        models = [_blend(models[0], first), _blend(models[1], second)]
    segments: list[SourceSegment] = []
    for i, j, s in _runs(swapped, 2):
        start, end = _bounds(times, i, j, duration)
        segments += [SourceSegment(start, end, s, "left"), SourceSegment(start, end, 1 - s, "right")]
    return segments, models


def _blend(model: Look, new: Look, keep: float = 0.8) -> Look:
    return Look(keep * model.colour + (1 - keep) * new.colour, keep * model.hist + (1 - keep) * new.hist,
                keep * model.flat + (1 - keep) * new.flat)


def cut_sequence(times: list[float], fulls: list[Look],
                 duration: float) -> tuple[list[SourceSegment], list[Look]]:
    """Hard cuts (the whole frame changes look at once), then segments clustered into
    streams by look: a stream that comes back (interleaving, a repeated video) keeps its id."""
    starts = [0] + [i for i in range(1, len(fulls)) if distance(fulls[i - 1], fulls[i]) > CUT_DISTANCE]
    spans = [(a, b) for a, b in zip(starts, starts[1:] + [len(fulls)])]
    spans = [s for s in spans if s[1] - s[0] >= 2 or len(spans) == 1] or spans  # drop 1-frame blends
    models: list[Look] = []
    counts: list[int] = []
    segments: list[SourceSegment] = []
    seg_looks: list[Look] = []
    for k, (i, j) in enumerate(spans):
        seg = mean_look(fulls[i:j])
        dists = [distance(seg, m) for m in models]
        best = int(np.argmin(dists)) if dists else -1
        if best < 0 or dists[best] > SAME_STREAM_DISTANCE:
            models.append(seg)
            counts.append(0)
            best = len(models) - 1
        counts[best] += 1
        start = 0.0 if k == 0 else times[i]
        end = duration if k == len(spans) - 1 else times[spans[k + 1][0]]
        segments.append(SourceSegment(start, end, best, "full"))
        seg_looks.append(seg)
    return segments, seg_looks


def captioned(thumb: np.ndarray) -> bool:
    """A burned-in caption band: the bottom eighth is mostly dark across the width (composed
    stimuli narrate each source with captions; our room-to-room footage has none)."""
    h = thumb.shape[0]
    band = thumb[h - max(2, h // 8):]
    return float((band.max(axis=2) < 80).mean()) >= 0.5


def composed_sequence(segments: list[SourceSegment], tolerance: float = 0.6) -> bool:
    """Evidence that cuts come from composition, not from a camera or a story moving on:
    a stream comes back after another one, or every segment length is a whole multiple of
    the shortest (builders cut at equal lengths: 2 s clips, 3 s segments, 30 s videos)."""
    if len(segments) < 2:
        return False
    seen: list[int] = []
    for s in segments:
        if s.stream in seen and seen[-1] != s.stream:
            return True
        seen.append(s.stream)
    lengths = [s.end - s.start for s in segments]
    unit = min(lengths)
    if unit < 1.0:
        return False
    return all(abs(x / unit - round(x / unit)) * unit <= tolerance for x in lengths)
