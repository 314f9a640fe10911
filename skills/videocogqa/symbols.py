"""Typed symbolic observations: what the symbolic vision stage saw in synthetic or game-like
video (shapes with colour, size and position per frame, static structure, clock and note
readings). These are the contract between `skills.videocogqa.vision` and memory / retrieval.

Sizes are kept raw (pixels): whether a shape is "small" depends on the scene's unit (a
grid cell, or a fraction of the frame), which retrieval decides, not perception.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

# Share of a shape's bounding square its area fills; sqrt(area / fill) is its extent
# (the side of the square it was drawn in), which rotation does not change.
SHAPE_FILL = {"circle": 0.7854, "square": 1.0, "triangle": 0.5, "ring": 0.45, "cross": 0.36}


@dataclass(frozen=True)
class SymbolShape:
    """One filled shape in one frame."""

    shape: str  # circle | square | triangle | ring | cross | other
    colour: str  # a palette name: red, green, blue, yellow, white, purple, ...
    cx: float  # centroid, pixels
    cy: float
    w: float  # axis-aligned bounding box, pixels
    h: float
    area: float  # pixels
    angle: float = 0.0  # orientation in degrees (minimum-area rectangle), for rotation

    @property
    def extent(self) -> float:
        return (self.area / SHAPE_FILL.get(self.shape, 1.0)) ** 0.5


@dataclass(frozen=True)
class SymbolFrame:
    t: float  # seconds on the source video
    shapes: tuple[SymbolShape, ...]


@dataclass(frozen=True)
class Segment:
    """A static line segment (grid line, maze wall, board line, wireframe edge)."""

    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True)
class TextRead:
    """Text read on screen at time t (a clock, a label, a note track)."""

    t: float
    text: str
    box: tuple[float, float, float, float]
    confidence: float = 1.0


@dataclass(frozen=True)
class Tone:
    """A sustained pitch in the audio track (S10's notes)."""

    start: float
    end: float
    frequency: float
    note: int | None = None  # 1-7 on the C-major scale when the pitch is one of its notes


@dataclass(frozen=True)
class Layout:
    """The static structure of the picture (what stays when moving things are removed)."""

    width: int
    height: int
    segments: tuple[Segment, ...] = ()
    grid_xs: tuple[float, ...] = ()  # x of full-height grid lines, sorted
    grid_ys: tuple[float, ...] = ()  # y of full-width grid lines, sorted
    labels: tuple[TextRead, ...] = ()  # static text (vertex names, captions)
    hud_height: int = 0  # top band that holds text, never shapes


@dataclass
class SymbolTrack:
    """Everything the symbolic stage saw in one video."""

    fps: float
    layout: Layout
    frames: list[SymbolFrame] = field(default_factory=list)
    texts: list[TextRead] = field(default_factory=list)  # time-stamped reads (the clock)
    tones: list[Tone] = field(default_factory=list)
    model_id: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_dict(d: dict[str, Any]) -> SymbolTrack:
        lay = d["layout"]
        layout = Layout(
            lay["width"], lay["height"], tuple(Segment(**s) for s in lay.get("segments", ())),
            tuple(lay.get("grid_xs", ())), tuple(lay.get("grid_ys", ())),
            tuple(_text(t) for t in lay.get("labels", ())), lay.get("hud_height", 0),
        )
        return SymbolTrack(
            fps=d["fps"], layout=layout,
            frames=[SymbolFrame(f["t"], tuple(SymbolShape(**s) for s in f["shapes"])) for f in d.get("frames", ())],
            texts=[_text(t) for t in d.get("texts", ())],
            tones=[Tone(**t) for t in d.get("tones", ())],
            model_id=d.get("model_id", ""),
        )


def _text(d: dict[str, Any]) -> TextRead:
    return TextRead(d["t"], d["text"], tuple(d["box"]), d.get("confidence", 1.0))
