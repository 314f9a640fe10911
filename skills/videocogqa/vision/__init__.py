"""Symbolic vision: shapes, colours, sizes, positions, static structure, the on-screen
clock and tones, from pixels (OpenCV) rather than CLIP, which is weak at exact size and
count (seed 003). Runs on synthetic and game-like video only.

One decoding pass at `symbolic_fps` does everything visual: shapes per frame, ~15 frames
kept for the static median (layout), one HUD crop per second for OCR.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from perception.config import PerceptionConfig
from perception.decode import VideoInfo, iter_frames, read_audio
from perception.ocr import TextReader
from skills.videocogqa.symbols import SymbolFrame, SymbolTrack

from .detect import detect_shapes
from .layout import find_layout, median_frame
from .palette import DEFAULT_PALETTE, Palette, classify, looks_synthetic
from .texts import read_band, read_static
from .tones import find_tones

MODEL_ID = "opencv-symbolic-v2"  # v2: the auto gate passes sparse and degraded drawings (v1 declines are stale)
AUDIO_RATE = 16000
MEDIAN_FRAMES = 15
__all__ = ["MODEL_ID", "DEFAULT_PALETTE", "Palette", "looks_synthetic", "observe_symbols"]


def observe_symbols(path: Path, info: VideoInfo, config: PerceptionConfig,
                    reader: TextReader | None, palette: Palette = DEFAULT_PALETTE) -> SymbolTrack | None:
    """The video's symbolic track, or None when the stage is off or (symbolic="auto") the
    video does not look synthetic."""
    mode = config.symbolic.lower()
    if mode == "off":
        return None
    if mode not in ("on", "auto"):
        raise ValueError(f"unknown symbolic mode {config.symbolic!r}: use auto, on or off")
    fps, hud = config.symbolic_fps, config.symbolic_hud_height
    expected = max(1, round(info.duration * fps))
    keep_every = max(1, expected // MEDIAN_FRAMES)
    text_step = 1.0 / config.symbolic_text_fps if config.symbolic_text_fps > 0 else float("inf")
    frames: list[SymbolFrame] = []
    kept: list[np.ndarray] = []
    bands: list[tuple[float, np.ndarray]] = []
    votes = [0, 0]  # synthetic-looking / not, over the kept frames (auto mode)
    next_text = 0.0
    per_second = max(1, round(fps))
    for i, (t, rgb) in enumerate(iter_frames(path, fps)):
        if i % keep_every == 0:
            kept.append(rgb)
        # auto: vote on every kept frame, and once a second over the first ten seconds so
        # that a long natural video (kept frames minutes apart) is declined within seconds
        vote = i % keep_every == 0 or (i < 10 * per_second and i % per_second == 0)
        if mode == "auto" and vote and not _still_synthetic(rgb, palette, votes):
            return None
        frames.append(SymbolFrame(round(t, 3), detect_shapes(rgb, classify(rgb, palette), hud, palette)))
        if reader is not None and hud > 0 and t + 1e-6 >= next_text:
            bands.append((round(t, 3), np.ascontiguousarray(rgb[:hud])))
            next_text += text_step * max(1, int((t - next_text) / text_step) + 1)
    if not kept or (mode == "auto" and votes[0] <= votes[1]):
        return None
    labels = read_static(reader, median_frame(kept), kept) if reader is not None else ()
    layout = find_layout(kept, hud, palette, labels)
    texts = read_band(reader, bands) if reader is not None else []
    tones = find_tones(read_audio(path, AUDIO_RATE), AUDIO_RATE) if info.has_audio else []
    return SymbolTrack(fps=fps, layout=layout, frames=frames, texts=texts, tones=tones, model_id=MODEL_ID)


def _still_synthetic(rgb: np.ndarray, palette: Palette, votes: list[int]) -> bool:
    """Count one sampled frame's vote; False as soon as natural-looking frames are the
    majority of three or more (the first frame alone decides when it is clearly natural),
    so a natural video costs a few frames, not a full pass."""
    verdict = looks_synthetic(rgb, palette)
    if verdict is not None:
        votes[0 if verdict else 1] += 1
    decided = votes[0] + votes[1]
    if votes[1] and votes[0] == 0:
        return False
    return not (decided >= 3 and votes[1] > votes[0])
