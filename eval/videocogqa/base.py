"""What every VideoCogQA-style scene provides, and the shared drawing and encoding.

A scene is seeded simulation + drawing + question templates: `simulate(level, rng)` returns
an Episode (a timestamped event log, a frame painter, optional audio), and
`questions(episode, rng)` fills the paper's Table 31 templates from the log alone.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Protocol

import av
import cv2
import numpy as np

from eval.videocogqa import style

LEVELS = ("Easy", "Medium", "Hard")
AUDIO_RATE = 16000


@dataclass(frozen=True, order=True)
class Thing:
    """An object identity from the paper's vocabulary: size x colour x shape."""

    size: str
    colour: str
    shape: str

    @property
    def name(self) -> str:
        return f"{self.size} {self.colour} {self.shape}"

    @property
    def short(self) -> str:  # the paper's "Green circle" form, when size is not in play
        return f"{self.colour} {self.shape}"

    @staticmethod
    def random(rng: random.Random, sizes=style.SIZES, colours=tuple(style.COLOURS), shapes=style.SHAPES) -> Thing:
        return Thing(rng.choice(sizes), rng.choice(colours), rng.choice(shapes))


@dataclass
class Episode:
    """One simulated video: its log is the only ground truth questions may use."""

    scene: str  # "S1"
    level: str  # Easy | Medium | Hard
    params: dict[str, Any]  # the Table 9 parameters used
    events: list[dict[str, Any]]  # {"t": seconds, "kind": ..., ...}, time-ordered
    paint: Callable[[float], np.ndarray]  # RGB frame (HEIGHT x WIDTH x 3, uint8) at time t
    audio: np.ndarray | None = None  # mono float32 at AUDIO_RATE
    duration: float = style.DURATION
    facts: dict[str, Any] = field(default_factory=dict)  # derived ground truth (e.g. the maze)


@dataclass(frozen=True)
class Draft:
    """A filled template: 3-5 options, exactly one correct."""

    template: str  # the Table 31 template it fills
    question: str
    options: tuple[str, ...]
    answer: int

    def __post_init__(self) -> None:
        if not 3 <= len(self.options) <= 5:
            raise ValueError(f"{self.question!r}: {len(self.options)} options (3-5 required)")
        if len({o.strip().lower() for o in self.options}) != len(self.options):
            raise ValueError(f"{self.question!r}: duplicate options {self.options}")
        if not 0 <= self.answer < len(self.options):
            raise ValueError(f"{self.question!r}: answer index {self.answer} out of range")


class Scene(Protocol):
    code: str  # "S1"
    title: str  # "Chameleon Grid"
    ability: str  # OP | AP | TR | SR | GP | FP
    levels: tuple[str, ...]  # S9 has Easy only

    def simulate(self, level: str, rng: random.Random) -> Episode: ...

    def questions(self, episode: Episode, rng: random.Random) -> list[Draft]: ...


def shuffled(correct: Any, distractors: list[Any], rng: random.Random, template: str, question: str,
             fmt: Callable[[Any], str] = str) -> Draft:
    """A Draft with the correct option and the distractors shuffled (duplicates removed)."""
    texts = [fmt(correct)]
    for d in distractors:
        if fmt(d).strip().lower() not in {t.strip().lower() for t in texts}:
            texts.append(fmt(d))
    order = list(range(len(texts)))
    rng.shuffle(order)
    return Draft(template, question, tuple(texts[i] for i in order), order.index(0))


def first_drafts(builders: list[Callable[[Any, random.Random], Draft | None]], log: Any, rng: random.Random,
                 limit: int = 5, tries: int = 8) -> list[Draft]:
    """Up to `limit` questions, one per template in a shuffled template order. A builder
    returns None for an instance it cannot ask without ties, so each gets a few draws."""
    order = list(builders)
    rng.shuffle(order)
    drafts: list[Draft] = []
    for build in order:
        draft = next((d for d in (build(log, rng) for _ in range(tries)) if d is not None), None)
        if draft is not None:
            drafts.append(draft)
            if len(drafts) == limit:
                break
    return drafts


def near_numbers(value: int, rng: random.Random, k: int = 3, low: int = 0) -> list[int]:
    """k distinct plausible wrong counts near `value` (never equal to it, never below `low`)."""
    pool = [v for v in range(max(low, value - 4), value + 5) if v != value]
    rng.shuffle(pool)
    return sorted(pool[:k], key=lambda v: abs(v - value))


# ---- drawing ----------------------------------------------------------------------------
def blank() -> np.ndarray:
    img = np.empty((style.HEIGHT, style.WIDTH, 3), dtype=np.uint8)
    img[:] = style.BACKGROUND
    return img


def colour_of(name: str) -> tuple[int, int, int]:
    return style.COLOURS.get(name) or style.ROLE_COLOURS[name]


def draw_shape(img: np.ndarray, shape: str, colour: str, cx: float, cy: float, extent: float,
               angle: float = 0.0) -> None:
    """A filled shape whose bounding square (before rotation) has side `extent`."""
    rgb = colour_of(colour)
    r = extent / 2
    if shape == "circle":
        cv2.circle(img, (round(cx), round(cy)), max(1, round(r)), rgb, -1, cv2.LINE_AA)
        return
    if shape == "square":
        pts = [(-r, -r), (r, -r), (r, r), (-r, r)]
    elif shape == "triangle":
        pts = [(0, -r), (r, r), (-r, r)]
    else:
        raise ValueError(f"unknown shape {shape!r}")
    a = np.deg2rad(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    poly = (np.array(pts) @ rot.T + [cx, cy]).round().astype(np.int32)
    cv2.fillPoly(img, [poly], rgb, cv2.LINE_AA)


def draw_thing(img: np.ndarray, thing: Thing, cx: float, cy: float, unit: float | None = None,
               angle: float = 0.0, scale: float = 1.0) -> None:
    extent = style.SIZE_FRACTION[thing.size] * style.size_unit(unit) * scale
    draw_shape(img, thing.shape, thing.colour, cx, cy, extent, angle)


def draw_text(img: np.ndarray, text: str, x: int, y: int, scale: float = 0.7) -> None:
    """Text inside the HUD band (y is the baseline)."""
    cv2.putText(img, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, style.TEXT, 2, cv2.LINE_AA)


def draw_grid(img: np.ndarray, x0: float, y0: float, cols: int, rows: int, cell: float) -> None:
    for c in range(cols + 1):
        x = round(x0 + c * cell)
        cv2.line(img, (x, round(y0)), (x, round(y0 + rows * cell)), style.LINE, 2)
    for r in range(rows + 1):
        y = round(y0 + r * cell)
        cv2.line(img, (round(x0), y), (round(x0 + cols * cell), y), style.LINE, 2)


def grid_geometry(cols: int, rows: int, margin: int = 8) -> tuple[float, float, float]:
    """(x0, y0, cell) of the largest square-celled grid that fits below the HUD band."""
    top = style.HUD_HEIGHT + margin
    cell = min((style.WIDTH - 2 * margin) / cols, (style.HEIGHT - top - margin) / rows)
    return (style.WIDTH - cols * cell) / 2, top, cell


# ---- encoding ---------------------------------------------------------------------------
def frame_times(duration: float = style.DURATION, fps: int = style.FPS) -> Iterator[float]:
    for i in range(int(round(duration * fps))):
        yield i / fps


def encode(episode: Episode, path: Path, fps: int = style.FPS, crf: int = 18) -> Path:
    """H.264 (+ AAC when the episode has audio) MP4; written to a temp name, then renamed,
    so a killed render never leaves a half file that a later run would trust."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".part.mp4")
    with av.open(str(tmp), "w", format="mp4") as container:
        vs = container.add_stream("libx264" if "libx264" in av.codecs_available else "mpeg4", rate=fps)
        vs.width, vs.height, vs.pix_fmt = style.WIDTH, style.HEIGHT, "yuv420p"
        vs.codec_context.time_base = Fraction(1, fps)
        if vs.codec_context.name == "libx264":
            vs.options = {"crf": str(crf), "preset": "veryfast"}
            vs.codec_context.thread_type = "FRAME"
        aus = None
        if episode.audio is not None:
            aus = container.add_stream("aac", rate=AUDIO_RATE, layout="mono")
            aus.bit_rate = 64_000
        audio_done, chunk = 0, 1024
        audio = episode.audio if episode.audio is not None else np.zeros(0, np.float32)
        times = list(frame_times(episode.duration, fps))
        for i, t in enumerate(times):
            frame = av.VideoFrame.from_ndarray(episode.paint(t), format="rgb24")
            frame.pts = i
            container.mux(vs.encode(frame))
            until = len(audio) if i == len(times) - 1 else min(len(audio), int((i + 1) / fps * AUDIO_RATE))
            while aus is not None and audio_done < until:
                samples = audio[audio_done:audio_done + chunk].astype(np.float32)
                aframe = av.AudioFrame.from_ndarray(samples[None, :], format="fltp", layout="mono")
                aframe.sample_rate, aframe.pts = AUDIO_RATE, audio_done
                container.mux(aus.encode(aframe))
                audio_done += len(samples)
        container.mux(vs.encode(None))
        if aus is not None:
            container.mux(aus.encode(None))
    tmp.replace(path)
    return path
