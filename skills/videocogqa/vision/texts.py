"""On-screen text of synthetic scenes: the HUD band (clock, note track) read once per
second, and the static labels of the median frame.

OCR cost is per call and per pixel after the detector's resize: PP-OCR (rapidocr) scales
an image's *shorter* side up to 736 px, so a 480x36 band becomes a 9800x736 image (two
seconds a read here). Bands are therefore cropped to the columns that ever hold text and
tiled into near-square mosaics: one call reads a few dozen seconds of clock.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from perception.ocr import TextReader
from skills.videocogqa.symbols import TextRead

GAP_X, GAP_Y = 32, 12  # background between tiles, so the detector never joins two of them
PER_MOSAIC = 64  # tiles per OCR call
INK = 150  # luma above this is text (white text on a near-black band)


@dataclass(frozen=True)
class _Tile:
    index: int  # into the bands list
    x: int  # tile origin in the mosaic
    y: int


def read_band(reader: TextReader, bands: Sequence[tuple[float, np.ndarray]]) -> list[TextRead]:
    """Text lines on HUD-band crops taken at times t (boxes in frame pixels: the band's
    origin is the frame's). Identical consecutive bands are read once."""
    if not bands:
        return []
    x0, x1 = _ink_columns([b for _, b in bands])
    if x1 <= x0:
        return []
    unique: list[int] = []
    source: list[int] = []  # band i reads as band source[i]
    for i, (_, band) in enumerate(bands):
        if unique and _same(bands[unique[-1]][1][:, x0:x1], band[:, x0:x1]):
            source.append(unique[-1])
        else:
            unique.append(i)
            source.append(i)
    reads: dict[int, list[TextRead]] = {}
    for start in range(0, len(unique), PER_MOSAIC):
        chunk = unique[start:start + PER_MOSAIC]
        mosaic, tiles = _mosaic([bands[i][1][:, x0:x1] for i in chunk], chunk)
        h, w = bands[0][1].shape[0], x1 - x0
        for line in reader.read(mosaic, 0.0):
            tile = _tile_of(line.box, tiles, w, h)
            if tile is None:
                continue
            bx0, by0, bx1, by1 = line.box
            box = (max(0.0, bx0 - tile.x) + x0, max(0.0, by0 - tile.y), min(float(w), bx1 - tile.x) + x0,
                   min(float(h), by1 - tile.y))
            reads.setdefault(tile.index, []).append(TextRead(bands[tile.index][0], line.text, box,
                                                             float(line.confidence)))
    out = []
    for i, (t, _) in enumerate(bands):
        for r in sorted(reads.get(source[i], []), key=lambda r: r.box[0]):
            out.append(TextRead(t, r.text, r.box, r.confidence))
    return out


def read_static(reader: TextReader, static: np.ndarray, frames: Sequence[np.ndarray],
                changed: float = 0.01, share: float = 0.8) -> tuple[TextRead, ...]:
    """Labels on the median frame that are really static: in at least `share` of the frames
    under `changed` of the text box's pixels differ from the median by a stroke's contrast
    (a ticking clock's median shows one of its readings; one changed digit is ~10%)."""
    if not frames or int(static.max(initial=0)) < INK:
        return ()
    out = []
    for line in reader.read(static, 0.0):
        x0, y0, x1, y1 = (int(round(v)) for v in line.box)
        if x1 <= x0 or y1 <= y0:
            continue
        ref = static[y0:y1, x0:x1].astype(np.int16)
        steady = sum(float((np.abs(f[y0:y1, x0:x1] - ref).max(axis=2) > 64).mean()) <= changed for f in frames)
        if steady >= share * len(frames):
            out.append(TextRead(0.0, line.text, tuple(float(v) for v in line.box), float(line.confidence)))
    return tuple(out)


def _ink_columns(bands: Sequence[np.ndarray], margin: int = 6) -> tuple[int, int]:
    """[x0, x1) of the columns where any band has text-bright pixels, plus a margin."""
    cols = np.zeros(bands[0].shape[1], dtype=bool)
    for band in bands:
        cols |= (band.max(axis=2) > INK).any(axis=0)
    hits = np.flatnonzero(cols)
    if not len(hits):
        return 0, 0
    return max(0, int(hits[0]) - margin), min(len(cols), int(hits[-1]) + 1 + margin)


def _mosaic(crops: Sequence[np.ndarray], indices: Sequence[int]) -> tuple[np.ndarray, list[_Tile]]:
    """Tiles in a near-square grid on the crops' own background colour."""
    h, w = crops[0].shape[:2]
    tw, th = w + GAP_X, h + GAP_Y
    cols = max(1, min(len(crops), round(math.sqrt(len(crops) * th / tw))))
    rows = math.ceil(len(crops) / cols)
    background = np.median(crops[0].reshape(-1, 3), axis=0).astype(np.uint8)
    mosaic = np.empty((rows * th + GAP_Y, cols * tw + GAP_X, 3), np.uint8)
    mosaic[:] = background
    tiles = []
    for k, (crop, index) in enumerate(zip(crops, indices)):
        r, c = divmod(k, cols)
        x, y = GAP_X + c * tw, GAP_Y + r * th
        mosaic[y:y + h, x:x + w] = crop
        tiles.append(_Tile(index, x, y))
    return mosaic, tiles


def _tile_of(box: tuple[float, float, float, float], tiles: list[_Tile], w: int, h: int) -> _Tile | None:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    for tile in tiles:
        if tile.x - GAP_X / 2 <= cx < tile.x + w + GAP_X / 2 and tile.y - GAP_Y / 2 <= cy < tile.y + h + GAP_Y / 2:
            return tile
    return None


def _same(a: np.ndarray, b: np.ndarray, tol: int = 12) -> bool:
    """Identical up to codec noise: no pixel moved by more than `tol` levels."""
    return a.shape == b.shape and int(np.abs(a.astype(np.int16) - b).max(initial=0)) <= tol
