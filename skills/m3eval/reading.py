"""OCR reads per region of a composed video, tagged with the stream shown there.

Captions change every few seconds while signs stay for a whole source, so a region is read
whole once per segment and afterwards only its text bands (rows of white, text-like pixels)
that changed since the last read are cropped and read: each new caption costs one small
read instead of a full-frame detection.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from perception.decode import iter_frames
from perception.ocr import TextReader

from .layout import Look, distance, look, thumbnail
from .sources import SourceSegment, SourceText

WHITE = 215  # text-like pixels: all channels at least this bright
CHANGED = 0.03  # share of a band's white pixels that must differ for a re-read


def text_mask(image: np.ndarray) -> np.ndarray:
    return image.min(axis=2) >= WHITE


def text_bands(mask: np.ndarray, gap: int = 6, min_rows: int = 6, pad: int = 6) -> list[tuple[int, int]]:
    """Row ranges holding white pixels (text lines), padded for the detector."""
    rows = np.flatnonzero(mask.sum(axis=1) >= 2)
    bands: list[list[int]] = []
    for r in rows:
        if bands and r - bands[-1][1] <= gap:
            bands[-1][1] = int(r)
        else:
            bands.append([int(r), int(r)])
    h = mask.shape[0]
    return [(max(0, a - pad), min(h, b + 1 + pad)) for a, b in bands if b - a + 1 >= min_rows]


def band_changed(mask: np.ndarray, last: np.ndarray, band: tuple[int, int]) -> bool:
    a, b = mask[band[0]:band[1]], last[band[0]:band[1]]
    union = int((a | b).sum())
    return union > 0 and int((a ^ b).sum()) > CHANGED * union


def regions(frame: np.ndarray, split: bool) -> list[tuple[str, np.ndarray]]:
    if split:
        w = frame.shape[1]
        return [("left", frame[:, : w // 2]), ("right", frame[:, w // 2:])]
    return [("full", frame)]


def segment_for(region: str, t: float, image: np.ndarray, segments: list[SourceSegment],
                seg_looks: list[Look]) -> int | None:
    """The segment shown in `region` at `t`; near a cut or swap, the one whose look fits
    the read frame (cut times are only known to a sampling step)."""
    near = [i for i, s in enumerate(segments) if s.region == region and s.start - 0.5 <= t < s.end + 0.5]
    if len(near) <= 1:
        return near[0] if near else None
    seen = look(thumbnail(image, 96))
    return min(near, key=lambda i: distance(seen, seg_looks[i]))


def read_texts(path: Path, fps: float, segments: list[SourceSegment], seg_looks: list[Look],
               reader: TextReader) -> list[SourceText]:
    texts: list[SourceText] = []
    last: dict[str, tuple[np.ndarray, int]] = {}
    split = any(s.region != "full" for s in segments)
    for t, frame in iter_frames(path, fps, start=0.5 / fps):
        for region, image in regions(frame, split):
            k = segment_for(region, t, image, segments, seg_looks)
            if k is None:
                continue
            mask = text_mask(image)
            prev = last.get(region)
            last[region] = (mask, k)
            if prev is None or prev[1] != k:
                crops = [(0, image.shape[0])]
            else:
                crops = [b for b in text_bands(mask) if band_changed(mask, prev[0], b)]
            for y0, y1 in crops:
                for line in reader.read(np.ascontiguousarray(image[y0:y1]), t):
                    y = (y0 + (line.box[1] + line.box[3]) / 2) / max(1, image.shape[0])
                    texts.append(SourceText(round(t, 3), segments[k].stream, region, line.text,
                                            round(line.confidence, 4), round(y, 3), k))
    return texts
