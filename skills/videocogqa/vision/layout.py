"""The static structure of a synthetic picture: grid lines, maze walls, board lines and
wireframe edges, found in frames spread over the video by a per-pixel majority vote
(things that move or change lose the vote; lines that never move win it).
"""
from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from skills.videocogqa.symbols import Layout, Segment, TextRead

from .palette import DEFAULT_PALETTE, LINE, Palette, classify

MIN_LINE = 12  # pixels: shorter straight runs are shape edges or noise, not structure
CLUSTER = 4  # pixels: line positions closer than this are one line (a 2-px line blurs to 3-4)
BRIDGE = 9  # pixels: a gap this short along a line is noise or blur, not an opening (cells are wider)


def median_frame(frames: Sequence[np.ndarray]) -> np.ndarray:
    """Per-pixel median of RGB frames (uint8)."""
    return np.median(np.stack(frames), axis=0).astype(np.uint8)


def static_lines(frames: Sequence[np.ndarray], hud_height: int, palette: Palette = DEFAULT_PALETTE) -> np.ndarray:
    """uint8 mask of pixels that are line grey in most frames. A vote rather than the grey of
    a median frame: the per-channel median of red, green and blue things is greyish too.
    A bright shape's blurred rim is line grey as well (white-to-background blends pass 128);
    structure never touches shapes, so grey next to a shape does not vote."""
    votes = np.zeros(frames[0].shape[:2], np.uint16)
    near_shape = np.ones((5, 5), np.uint8)
    for rgb in frames:
        classes = classify(rgb, palette)
        line = classes == LINE
        line[cv2.dilate((classes >= min(palette.shape_classes)).view(np.uint8), near_shape) > 0] = False
        votes += line
    mask = (votes * 2 > len(frames)).view(np.uint8)
    mask[:hud_height] = 0
    return mask


def find_layout(frames: Sequence[np.ndarray], hud_height: int, palette: Palette = DEFAULT_PALETTE,
                labels: tuple[TextRead, ...] = ()) -> Layout:
    """Segments and full-extent grid lines of the structure that stays put over `frames`."""
    height, width = frames[0].shape[:2]
    mask = static_lines(frames, hud_height, palette)
    horizontal = _axis_lines(mask, (1, MIN_LINE), (1, BRIDGE))
    vertical = _axis_lines(mask, (MIN_LINE, 1), (BRIDGE, 1))
    hs = _axis_segments(horizontal, horizontal=True)
    vs = _axis_segments(vertical, horizontal=False)
    rest = cv2.bitwise_and(mask, cv2.bitwise_not(cv2.dilate(cv2.bitwise_or(horizontal, vertical), np.ones((3, 3)))))
    diagonal = _hough_segments(rest)
    grid_xs, grid_ys = _grid(hs, vs)
    return Layout(width, height, tuple(hs + vs + diagonal), grid_xs, grid_ys, labels, hud_height)


def _axis_lines(mask: np.ndarray, keep: tuple[int, int], bridge: tuple[int, int]) -> np.ndarray:
    """The axis-aligned runs of `mask` at least `keep` long, after bridging short gaps along
    the axis (noise and blur break a thin line where the vote narrowly lost)."""
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones(bridge, np.uint8))
    return cv2.morphologyEx(closed, cv2.MORPH_OPEN, np.ones(keep, np.uint8))


def _axis_segments(mask: np.ndarray, horizontal: bool) -> list[Segment]:
    """One segment per connected run of an axis-aligned line mask, at the run's centre line."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = []
    for i in range(1, n):
        x, y, w, h, _ = (int(v) for v in stats[i])
        if horizontal and w >= MIN_LINE:
            yc = y + (h - 1) / 2
            out.append(Segment(float(x), yc, float(x + w - 1), yc))
        elif not horizontal and h >= MIN_LINE:
            xc = x + (w - 1) / 2
            out.append(Segment(xc, float(y), xc, float(y + h - 1)))
    return out


def _hough_segments(mask: np.ndarray) -> list[Segment]:
    """Oblique segments (wireframe edges), with Hough's overlapping duplicates merged."""
    if cv2.countNonZero(mask) < MIN_LINE:
        return []
    found = cv2.HoughLinesP(mask, 1, np.pi / 180, threshold=MIN_LINE, minLineLength=MIN_LINE, maxLineGap=3)
    merged: list[list[float]] = []
    for x0, y0, x1, y1 in ([] if found is None else found.reshape(-1, 4).astype(float)):
        for m in merged:
            if _collinear(m, (x0, y0, x1, y1)):
                pts = np.array([m[:2], m[2:], (x0, y0), (x1, y1)])
                d = np.subtract(m[2:], m[:2])
                proj = pts @ (d / max(1e-9, np.hypot(*d)))
                m[:] = [*pts[proj.argmin()], *pts[proj.argmax()]]
                break
        else:
            merged.append([x0, y0, x1, y1])
    return [Segment(*(float(v) for v in m)) for m in merged]


def _collinear(a: Sequence[float], b: Sequence[float], max_angle: float = 4.0, max_gap: float = 3.0) -> bool:
    da, db = np.subtract(a[2:], a[:2]), np.subtract(b[2:], b[:2])
    la, lb = np.hypot(*da), np.hypot(*db)
    if la < 1e-9 or lb < 1e-9:
        return False
    cos = abs(float(da @ db)) / (la * lb)
    if cos < np.cos(np.deg2rad(max_angle)):
        return False
    normal = np.array([-da[1], da[0]]) / la
    if max(abs(float((np.subtract(p, a[:2])) @ normal)) for p in (b[:2], b[2:])) > max_gap:
        return False
    ta = sorted(float(np.subtract(p, a[:2]) @ (da / la)) for p in (b[:2], b[2:]))
    return ta[1] >= -max_gap and ta[0] <= la + max_gap  # the two overlap or touch along the line


def _grid(hs: list[Segment], vs: list[Segment], tol: float = 3.0) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """x of vertical lines spanning the structure's full height and y of horizontal lines
    spanning its full width; a grid needs at least two of each (a board, a lattice)."""
    if not hs or not vs:
        return (), ()
    top = min(min(s.y0, s.y1) for s in vs)
    bottom = max(max(s.y0, s.y1) for s in vs)
    left = min(min(s.x0, s.x1) for s in hs)
    right = max(max(s.x0, s.x1) for s in hs)
    xs = _cluster([s.x0 for s in vs if min(s.y0, s.y1) <= top + tol and max(s.y0, s.y1) >= bottom - tol])
    ys = _cluster([s.y0 for s in hs if min(s.x0, s.x1) <= left + tol and max(s.x0, s.x1) >= right - tol])
    if len(xs) < 2 or len(ys) < 2:
        return (), ()
    return tuple(xs), tuple(ys)


def _cluster(values: list[float]) -> list[float]:
    """Sorted positions with those within CLUSTER px of the previous merged (mean)."""
    groups: list[list[float]] = []
    for v in sorted(values):
        if groups and v - groups[-1][-1] <= CLUSTER:
            groups[-1].append(v)
        else:
            groups.append([v])
    return [round(float(np.mean(g)), 2) for g in groups]
