"""Filled shapes in one frame: per palette colour, connected regions classified by how they
fill their hull and their minimum-area rectangle.

Why these numbers: a triangle fills half of its minimum-area rectangle (square and circle
0.79-1.0); area / R^2, R the farthest outline point from the centroid, is 2 for a square
and pi for a circle whatever the rotation; a cross ("X") fills little of its convex hull;
a ring has a hole. Polygon vertex counts and rectangle fill are unreliable on 12-pixel
rotated squares blurred by H.264 (measured: fill 0.79-0.97, area/R^2 1.83-2.37 against
2.49-3.04 for circles and fill <= 0.66 for triangles).
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from skills.videocogqa.symbols import SymbolShape

from .palette import DEFAULT_PALETTE, Palette

_OPEN = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
_GROW = np.ones((3, 3), np.uint8)


@dataclass(frozen=True)
class ShapeRules:
    """Thresholds between the fill ratios of the shapes (ideal values in comments)."""

    min_area: int = 10  # pixels; smaller specks are edge blends
    triangle_fill: float = 0.72  # of the min-area rectangle: triangle 0.5 | square 1.0, circle 0.785
    square_radial: float = 2.43  # area / R^2: square 2.0 | circle 3.14
    cross_solidity: float = 0.62  # solid shapes ~1.0 | an X of 1/8-thick strokes ~0.4
    max_aspect: float = 1.6  # elongated regions (bullets, bars) are "other"
    min_hole: float = 0.08  # a hole this share of the outer area makes a ring


DEFAULT_RULES = ShapeRules()


def detect_shapes(rgb: np.ndarray, classes: np.ndarray, top: int = 0, palette: Palette = DEFAULT_PALETTE,
                  rules: ShapeRules = DEFAULT_RULES) -> tuple[SymbolShape, ...]:
    """Shapes in an RGB frame and its class map (palette.classify) below row `top` (the HUD
    band), sorted top-to-bottom then left-to-right so frames list a scene the same way.

    Colour comes from the class map, the outline from luma: H.264 keeps luma at full
    resolution but halves chroma, so a 12-pixel green circle is round in luma and lopsided
    in colour. Each colour's regions grow by one pixel into pixels brighter than the
    midpoint between the background's luma and the colour's."""
    region = classes[top:]
    luma = cv2.cvtColor(np.ascontiguousarray(rgb[top:]), cv2.COLOR_RGB2GRAY)
    counts = np.bincount(region.ravel(), minlength=len(palette.class_names))
    names, lumas = palette.class_names, palette.class_lumas
    found: list[SymbolShape] = []
    for k in palette.shape_classes:
        if counts[k] < rules.min_area:
            continue
        seed = cv2.morphologyEx(cv2.compare(region, k, cv2.CMP_EQ), cv2.MORPH_OPEN, _OPEN)
        bright = cv2.threshold(luma, (lumas[0] + lumas[k]) / 2, 255, cv2.THRESH_BINARY)[1]
        mask = cv2.bitwise_or(seed, cv2.bitwise_and(cv2.dilate(seed, _GROW), bright))
        found += _shapes_of(mask, names[k], top, rules)
    return tuple(sorted(found, key=lambda s: (round(s.cy / 4), s.cx)))


def _shapes_of(mask: np.ndarray, colour: str, top: int, rules: ShapeRules) -> list[SymbolShape]:
    """Regions from contours alone (connected-component labelling costs ~15x more here)."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    out = []
    for i, contour in enumerate(contours):
        if hierarchy[0, i, 3] != -1:
            continue  # a hole; its outer region counts it below
        m = cv2.moments(contour)
        area = _pixels(m["m00"], cv2.arcLength(contour, True))
        hole, child = 0.0, hierarchy[0, i, 2]
        while child != -1:  # a hole's contour runs on the region's pixels around it
            h = contours[child]
            hole += max(0.0, cv2.contourArea(h) - cv2.arcLength(h, True) / 2 + 1)
            child = hierarchy[0, child, 0]
        if area - hole < rules.min_area:
            continue
        if m["m00"] > 0:
            cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
        else:  # a one-pixel-wide sliver
            cx, cy = (float(v) for v in contour[:, 0, :].mean(axis=0))
        shape, angle = _classify(contour, area - hole, (cx, cy), hole, rules)
        x, y, w, h = cv2.boundingRect(contour)
        out.append(SymbolShape(shape, colour, round(cx, 2), round(cy + top, 2), float(w), float(h),
                               round(area - hole, 1), round(angle, 1)))
    return out


def _pixels(polygon_area: float, perimeter: float) -> float:
    """Pixel count of a region from its pixel-centre contour (which cuts half a pixel off
    every border pixel): exact for axis-aligned rectangles, close for the rest."""
    return polygon_area + perimeter / 2 + 1


def _classify(contour: np.ndarray, area: int, centroid: tuple[float, float], hole_area: float,
              rules: ShapeRules) -> tuple[str, float]:
    (_, _), (rw, rh), angle = cv2.minAreaRect(contour)
    rect = (rw + 1) * (rh + 1)
    angle = float(angle % 90.0)
    if hole_area >= rules.min_hole * area:
        return "ring", angle
    hull = cv2.convexHull(contour)
    solidity = area / _pixels(cv2.contourArea(hull), cv2.arcLength(hull, True))
    aspect = max(rw, rh) / max(1.0, min(rw, rh))
    if solidity < rules.cross_solidity:
        return ("cross" if aspect < rules.max_aspect else "other"), angle
    if aspect > rules.max_aspect:
        return "other", angle
    if area / rect < rules.triangle_fill:
        return "triangle", angle
    radius = float(np.sqrt(((contour[:, 0, :] - centroid) ** 2).sum(axis=1)).max()) + 0.5
    return ("square" if area / radius ** 2 < rules.square_radial else "circle"), angle
