"""What a detected thing looks like: a basic colour name and a small colour descriptor.

The name answers "what colour was the flask?"; the descriptor tells two look-alike things
of one class apart and recognises the same thing later (tracks are linked by it). Both
read the inner part of the box, where the thing is rather than its background.
"""
from __future__ import annotations

import numpy as np

# Hue (degrees) upper bounds of the basic chromatic colour names (Berlin & Kay's basic terms).
_HUES = ((15, "red"), (40, "orange"), (70, "yellow"), (160, "green"), (255, "blue"), (290, "purple"),
         (340, "pink"), (360, "red"))
_HUE_BOUNDS = np.array([bound for bound, _ in _HUES], dtype=np.float64)
_HUE_NAMES = np.array([name for _, name in _HUES])
HUE_BINS, SAT_BINS, VAL_BINS = 8, 2, 2


def _inner_hsv(crop: np.ndarray, keep: float = 0.6) -> np.ndarray:
    """HSV (H in degrees, S and V in 0..1) of the central `keep` fraction of the crop, as pixels x 3."""
    from PIL import Image

    h, w = crop.shape[:2]
    dy, dx = int(h * (1 - keep) / 2), int(w * (1 - keep) / 2)
    inner = crop[dy:h - dy or h, dx:w - dx or w]
    if inner.size == 0:
        inner = crop
    small = Image.fromarray(np.ascontiguousarray(inner)).resize((24, 24)).convert("HSV")
    hsv = np.asarray(small, dtype=np.float64).reshape(-1, 3) / 255.0
    hsv[:, 0] *= 360.0
    return hsv


def _pixel_names(hsv: np.ndarray) -> np.ndarray:
    """The basic colour name of each HSV pixel (dark is black, unsaturated grey or white,
    dark orange or red brown, else by hue)."""
    hue, sat, val = hsv[:, 0], hsv[:, 1], hsv[:, 2]
    by_hue = _HUE_NAMES[np.minimum(np.searchsorted(_HUE_BOUNDS, hue, side="right"), len(_HUE_BOUNDS) - 1)]
    brown = np.isin(by_hue, ("orange", "red")) & (val < 0.55)
    return np.select([val < 0.22, (sat < 0.22) & (val > 0.75), sat < 0.22, brown],
                     ["black", "white", "grey", "brown"], by_hue)


def _most_common_name(hsv: np.ndarray) -> str:
    names, counts = np.unique(_pixel_names(hsv), return_counts=True)
    return str(names[int(np.argmax(counts))])


def _histogram(hsv: np.ndarray) -> tuple[float, ...]:
    hist, _ = np.histogramdd(hsv, bins=(HUE_BINS, SAT_BINS, VAL_BINS), range=((0, 360), (0, 1), (0, 1)))
    flat = hist.ravel() / max(hist.sum(), 1.0)
    return tuple(round(float(v), 4) for v in flat)


def look_of(crop: np.ndarray) -> tuple[str | None, tuple[float, ...]]:
    """A thing's look: the basic colour most of its pixels have, and an L1-normalised hue x
    saturation x value histogram (32 bins) of them; (None, ()) for an empty crop. One
    function, so a crop's pixels are converted once for both."""
    if crop.size == 0:
        return None, ()
    hsv = _inner_hsv(crop)
    return _most_common_name(hsv), _histogram(hsv)


# Where a person's clothes are in the box of a whole figure: below the head (the top fifth)
# and above the legs, in the middle half of its width (beside the body is background more
# often than shirt). A box the frame cuts off below is a person from the chest up, whose
# box is mostly clothes already (a speaker's close-up: jacket and face).
TORSO_ROWS = (0.2, 0.5)
TORSO_COLUMNS = (0.25, 0.75)


def torso_of(crop: np.ndarray, cut_off_below: bool = False) -> np.ndarray:
    """The part of a person's box that their top covers, so "what colour was his shirt?"
    reads the shirt, not the door behind him; the whole crop when the frame cuts the
    person off below or the box is too small to cut."""
    if cut_off_below:
        return crop
    h, w = crop.shape[:2]
    part = crop[int(h * TORSO_ROWS[0]):int(h * TORSO_ROWS[1]), int(w * TORSO_COLUMNS[0]):int(w * TORSO_COLUMNS[1])]
    return part if min(part.shape[:2], default=0) >= 4 else crop


def appearance_similarity(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """Histogram intersection in 0..1 (1 = the same colours in the same amounts)."""
    if not a or not b or len(a) != len(b):
        return 0.0
    return float(np.minimum(np.asarray(a), np.asarray(b)).sum())
