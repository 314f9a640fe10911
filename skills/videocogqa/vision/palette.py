"""The flat colours synthetic scenes are drawn with, seen from the viewer's side, and a
per-pixel classifier onto them.

H.264 blends colours at every edge; labelling each pixel with its *nearest* flat colour
cuts a blend at its midpoint, so shape areas stay unbiased. A 32x32x32 lookup table makes
that one array index per pixel instead of a distance per pixel and colour.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

RGB = tuple[int, int, int]

BACKGROUND, LINE = 0, 1  # class ids; shape colours follow from 2 on


@dataclass(frozen=True)
class Palette:
    """What a synthetic picture is made of (defaults: memlens's VideoCogQA conventions)."""

    background: RGB = (18, 18, 24)
    line: RGB = (128, 128, 128)  # grid lines, maze walls, board lines, wireframes
    text: RGB = (235, 235, 235)  # HUD text; merged into a shape colour when that is this close
    colours: tuple[tuple[str, RGB], ...] = (
        ("red", (220, 40, 40)), ("green", (40, 190, 60)), ("blue", (50, 90, 230)),
        ("yellow", (235, 210, 40)), ("white", (240, 240, 240)), ("purple", (160, 60, 200)),
    )
    near: float = 48.0  # RGB distance within which a pixel counts as "on" a flat colour

    @property
    def class_names(self) -> tuple[str, ...]:
        return _classes(self)[0]

    @property
    def class_rgbs(self) -> tuple[RGB, ...]:
        return _classes(self)[1]

    @property
    def class_lumas(self) -> tuple[float, ...]:
        """BT.601 luma of each class colour (what cv2's RGB2GRAY gives)."""
        return _classes(self)[2]

    @property
    def shape_classes(self) -> range:
        """Class ids whose pixels can form shapes (not background, line or text)."""
        return range(2, 2 + len(self.colours))



DEFAULT_PALETTE = Palette()


@lru_cache(maxsize=8)
def _classes(p: Palette) -> tuple[tuple[str, ...], tuple[RGB, ...], tuple[float, ...]]:
    """Class names, colours and lumas. A separate text class right next to white would
    split white shapes between two classes at random; text that close is simply white."""
    text = () if any(_dist(p.text, rgb) <= p.near for _, rgb in p.colours) else (("text", p.text),)
    pairs = (("background", p.background), ("line", p.line), *p.colours, *text)
    lumas = tuple(0.299 * r + 0.587 * g + 0.114 * b for _, (r, g, b) in pairs)
    return tuple(n for n, _ in pairs), tuple(rgb for _, rgb in pairs), lumas


def _dist(a: RGB, b: RGB) -> float:
    return float(np.linalg.norm(np.subtract(a, b, dtype=float)))


@lru_cache(maxsize=8)
def _tables(palette: Palette) -> tuple[np.ndarray, np.ndarray]:
    """(nearest class, within `near`) for every 5-bit-per-channel RGB bin."""
    q = (np.arange(32, dtype=np.float32) * 8 + 3.5)
    grid = np.stack(np.meshgrid(q, q, q, indexing="ij"), axis=-1).reshape(-1, 3)
    refs = np.asarray(palette.class_rgbs, dtype=np.float32)
    d = np.linalg.norm(grid[:, None, :] - refs[None, :, :], axis=-1)
    return d.argmin(axis=1).astype(np.uint8), d.min(axis=1) <= palette.near


def _bins(rgb: np.ndarray) -> np.ndarray:
    q = rgb >> 3
    return (q[..., 0].astype(np.uint16) << 10) | (q[..., 1].astype(np.uint16) << 5) | q[..., 2]


def classify(rgb: np.ndarray, palette: Palette = DEFAULT_PALETTE) -> np.ndarray:
    """uint8 class map (index into palette.class_names) of an RGB uint8 image."""
    return _tables(palette)[0][_bins(rgb)]


def flat_share(rgb: np.ndarray, palette: Palette = DEFAULT_PALETTE, step: int = 2) -> tuple[float, float]:
    """(share of pixels near a flat colour, share near a flat colour other than the
    background), on every `step`-th pixel: the two numbers the synthetic-video gate needs."""
    sub = rgb[::step, ::step]
    bins = _bins(sub)
    classes, near = _tables(palette)
    on_flat = near[bins]
    return float(on_flat.mean()), float((on_flat & (classes[bins] != BACKGROUND)).mean())


def looks_synthetic(rgb: np.ndarray, palette: Palette = DEFAULT_PALETTE, min_flat: float = 0.75,
                    min_drawn: float = 5e-4) -> bool | None:
    """True for a picture made of the palette's flat colours, False for anything else, None
    for a blank frame (all background: a fade or an empty scene says nothing either way).
    A few small shapes on a wide background (S3's three movers cover ~0.3 % of the frame)
    are a drawing, not a blank: `min_drawn` is the share of non-background flat pixels that
    counts as drawn. `min_flat` leaves room for noise, blur and heavy compression (a noisy,
    blurred render keeps ~88 % flat pixels; natural pictures have 8-25 %)."""
    flat, drawn = flat_share(rgb, palette)
    if flat < min_flat:
        return False
    return None if drawn < min_drawn else True
