"""Source identity for composed video: which source stream is where, and when, and what
text each stream showed.

Two passes over the file: small thumbnails at `sources_fps` decide the layout (split screen
or a sequence of cuts) and follow streams by appearance; then frames at `sources_read_fps`
are read with OCR per region, skipping a region whose white (text-like) pixels did not
change since its last read, and each line is tagged with the stream shown there.
"""
from __future__ import annotations

import logging
from contextlib import closing
from pathlib import Path
from typing import Any

import numpy as np

from perception.config import PerceptionConfig
from perception.decode import VideoInfo, iter_frames
from perception.errors import BackendUnavailable
from perception.ocr import RapidOcrReader, TextReader, make_text_reader

from .layout import (
    FLAT_FRACTION,
    captioned,
    composed_sequence,
    cut_sequence,
    halves,
    look,
    looks_split,
    thumbnail,
    track_split,
)
from .reading import read_texts
from .sources import SourceMap, SourceSegment

MODEL_ID = "source-tracker-v1"
log = logging.getLogger(__name__)
# rapidocr's default upscales small frames to 736 px before detection (about 1 s a frame
# on CPU); composed frames carry large overlay text, so detection at native size is enough.
FAST_RAPIDOCR = {"Global.use_cls": False, "Det.limit_type": "max", "Det.limit_side_len": 960}
_READERS: dict[tuple[str, float], TextReader | None] = {}


def observe_sources(path: Path, info: VideoInfo, config: PerceptionConfig,
                    reader: TextReader | None = None) -> SourceMap | None:
    """The video's source map, or None when the stage is off or (sources="auto") the video
    is not composed. `reader` overrides the OCR backend built from `config`."""
    mode = config.sources
    if mode == "off":
        return None
    if mode == "auto" and (info.duration > config.sources_auto_max_seconds or not _flat(path, info)):
        return None
    times, thumbs = _thumbnails(path, config.sources_fps, wide=info.width >= 2.4 * info.height)
    if not times:
        return None
    lefts, rights = zip(*[(look(a), look(b)) for a, b in map(halves, thumbs)])
    if looks_split(info.width, info.height, list(lefts), list(rights)):
        segments, models = track_split(times, list(lefts), list(rights), info.duration)
        layout, seg_looks = "split", [models[s.stream] for s in segments]
    else:
        segments, seg_looks = cut_sequence(times, [look(t) for t in thumbs], info.duration)
        composed = composed_sequence(segments) and np.mean([captioned(t) for t in thumbs]) >= 0.8
        if len(segments) > 1 and (mode == "on" or composed):
            layout = "sequence"
        elif mode == "on":
            layout, segments = "single", [SourceSegment(0.0, info.duration, 0, "full")]
            seg_looks = seg_looks[:1]
        else:
            return None
    if reader is None:
        reader = _reader(config)
    try:
        texts = read_texts(path, config.sources_read_fps, segments, seg_looks, reader) if reader else []
    except BackendUnavailable as exc:  # the map without text still tells streams apart
        log.warning("sources: no OCR (%s)", exc)
        texts = []
    return SourceMap(layout, segments, MODEL_ID, texts, info.duration)


def _reader(config: PerceptionConfig) -> TextReader | None:
    key = (config.ocr_backend.lower(), config.ocr_min_confidence)
    if key not in _READERS:
        _READERS[key] = (RapidOcrReader(config.ocr_min_confidence, FAST_RAPIDOCR) if key[0] == "rapidocr"
                         else make_text_reader(config))
    return _READERS[key]


def _flat(path: Path, info: VideoInfo, probes: int = 5) -> bool:
    """Cheap gate for "auto": composed stimuli are flat-colour pictures; camera footage is
    not. Seeks to a few moments instead of decoding the whole file."""
    flat = 0
    for s in np.linspace(0.05, 0.9, probes) * info.duration:
        with closing(iter_frames(path, 1.0, start=float(s), end=float(s) + 1.5)) as frames:
            frame = next(frames, None)
        if frame is not None:
            small = thumbnail(frame[1], 192 if info.width >= 2.4 * info.height else 96)
            flat += all(look(h).flat >= FLAT_FRACTION for h in halves(small))
    return flat >= probes - 1


def _thumbnails(path: Path, fps: float, wide: bool) -> tuple[list[float], list[np.ndarray]]:
    times, thumbs = [], []
    for t, frame in iter_frames(path, fps):
        times.append(t)
        thumbs.append(thumbnail(frame, 192 if wide else 96))
    return times, thumbs


def describe(source_map: SourceMap) -> dict[str, Any]:
    """A short summary for logs and reports."""
    return {"layout": source_map.layout, "streams": source_map.streams, "segments": len(source_map.segments),
            "texts": len(source_map.texts)}
