"""Stimulus builders, generic over any source video files (PyAV decode -> numpy -> H.264).

Split screen (DA), concatenation (MI and its repetition variants), interleaving (IE) and
N-Back sequences. No transition markers and no audio: the seams must be found from the
pixels, as in the paper. Each builder returns a Manifest saying which source occupies which
screen region over which time; it is ground truth for questions and metrics only, and is
written beside the video (memlens never reads it).
"""
from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import av
import cv2
import numpy as np

from eval.m3eval.stories import FPS, HEIGHT, WIDTH, Writer


@dataclass(frozen=True)
class Span:
    start: float  # seconds on the stimulus
    end: float
    source: str  # source id (the file stem unless labels are given)
    region: str = "full"  # full | left | right
    source_start: float = 0.0  # seconds on the source
    index: int = 0  # segment / clip / occurrence number (0-based)


@dataclass
class Manifest:
    builder: str  # split_screen | concatenate | interleave | nback
    path: str
    duration: float
    width: int
    height: int
    sources: dict[str, str]  # source id -> path
    spans: list[Span]
    meta: dict = field(default_factory=dict)

    def at(self, t: float, region: str = "full") -> str | None:
        """The source shown at stimulus time t in `region`."""
        return next((s.source for s in self.spans if s.region == region and s.start <= t < s.end), None)

    def order(self) -> list[str]:
        """Sources by first appearance (the ordinal naming of MI / IE questions)."""
        seen: list[str] = []
        for s in sorted(self.spans, key=lambda s: (s.start, s.region != "left")):
            if s.source not in seen:
                seen.append(s.source)
        return seen

    def write(self, path: Path | None = None) -> Path:
        path = Path(path or Path(self.path).with_suffix(".manifest.json"))
        path.write_text(json.dumps(asdict(self)))
        return path

    @staticmethod
    def read(path: Path) -> Manifest:
        d = json.loads(Path(path).read_text())
        return Manifest(**{**d, "spans": [Span(**s) for s in d["spans"]]})


def duration(path: str | Path) -> float:
    """Seconds of video in a file: the container's figure, else decoded frame times."""
    with av.open(str(path)) as c:
        s = c.streams.video[0]
        if s.frames and s.average_rate:
            return float(s.frames / s.average_rate)
        if c.duration:
            return c.duration / av.time_base
        last = 0.0
        for f in c.decode(s):
            last = float(f.time or 0.0)
        return last + 1.0 / float(s.average_rate or FPS)


def frames(path: str | Path, fps: int = FPS, size: tuple[int, int] = (WIDTH, HEIGHT)) -> Iterator[np.ndarray]:
    """RGB frames resampled to `fps` (the latest source frame at each output time) and
    resized to `size`; the last frame repeats forever so callers take what they need."""
    last = None
    k = 0
    with av.open(str(path)) as c:
        for f in c.decode(c.streams.video[0]):
            img = f.to_ndarray(format="rgb24")
            if (img.shape[1], img.shape[0]) != size:
                img = cv2.resize(img, size, interpolation=cv2.INTER_AREA)
            t = float(f.time or 0.0)
            if last is None:
                last = img
            while k / fps < t - 1e-6:
                yield last
                k += 1
            last = img
    if last is None:
        raise ValueError(f"{path}: no video frames")
    while True:
        yield last


def _ids(paths: Sequence[str | Path], labels: Sequence[str] | None) -> list[str]:
    return list(labels) if labels else [Path(p).stem for p in paths]


def _done(out: Path) -> Manifest | None:
    """The cached manifest when both the video and its manifest are finished."""
    m = Path(out).with_suffix(".manifest.json")
    return Manifest.read(m) if Path(out).exists() and m.exists() else None


def split_screen(left: str | Path, right: str | Path, out: str | Path, swaps: int = 0,
                 labels: Sequence[str] | None = None, fps: int = FPS) -> Manifest:
    """Both sources side by side (each WIDTH x HEIGHT), synchronous, trimmed to the shorter.
    With swaps > 0 they trade places at `swaps` uniformly spaced times k * D / (swaps + 1)."""
    if cached := _done(Path(out)):
        return cached
    a, b = _ids([left, right], labels)
    dur = min(duration(left), duration(right))
    n = int(round(dur * fps))
    dur = n / fps
    cuts = [round(k * dur / (swaps + 1), 4) for k in range(1, swaps + 1)]
    fa, fb = frames(left, fps), frames(right, fps)
    with Writer(Path(out), 2 * WIDTH, HEIGHT, fps) as w:
        for i in range(n):
            x, y = next(fa), next(fb)
            swapped = sum(i / fps >= c - 1e-9 for c in cuts) % 2 == 1
            w.write(np.hstack([y, x] if swapped else [x, y]))
    bounds = [0.0, *cuts, dur]
    spans = []
    for k in range(len(bounds) - 1):
        first, second = (b, a) if k % 2 else (a, b)
        spans += [Span(bounds[k], bounds[k + 1], first, "left", bounds[k], k),
                  Span(bounds[k], bounds[k + 1], second, "right", bounds[k], k)]
    m = Manifest("split_screen", str(out), dur, 2 * WIDTH, HEIGHT, {a: str(left), b: str(right)}, spans,
                 {"swaps": swaps, "swap_times": cuts})
    m.write()
    return m


def concatenate(videos: Sequence[str | Path], out: str | Path, labels: Sequence[str] | None = None,
                fps: int = FPS) -> Manifest:
    """Sources one after another, whole ([V1, V2] retroactive, [V2, V1] proactive, [V1, V1, V2] ...)."""
    if cached := _done(Path(out)):
        return cached
    ids = _ids(videos, labels)
    spans, t = [], 0.0
    with Writer(Path(out), WIDTH, HEIGHT, fps) as w:
        for k, (v, sid) in enumerate(zip(videos, ids)):
            n = int(round(duration(v) * fps))
            src = frames(v, fps)
            for _ in range(n):
                w.write(next(src))
            spans.append(Span(round(t, 4), round(t + n / fps, 4), sid, "full", 0.0, k))
            t += n / fps
    m = Manifest("concatenate", str(out), round(t, 4), WIDTH, HEIGHT, dict(zip(ids, map(str, videos))), spans,
                 {"order": ids})
    m.write()
    return m


def interleave(a: str | Path, b: str | Path, out: str | Path, segments: int = 10,
               labels: Sequence[str] | None = None, fps: int = FPS) -> Manifest:
    """A1 B1 A2 B2 ... : each source (trimmed to the shorter) cut into `segments` equal parts."""
    if cached := _done(Path(out)):
        return cached
    ia, ib = _ids([a, b], labels)
    per = int(round(min(duration(a), duration(b)) * fps)) // segments
    fa, fb = frames(a, fps), frames(b, fps)
    spans, t = [], 0.0
    with Writer(Path(out), WIDTH, HEIGHT, fps) as w:
        for k in range(segments):
            for sid, src in ((ia, fa), (ib, fb)):
                for _ in range(per):
                    w.write(next(src))
                spans.append(Span(round(t, 4), round(t + per / fps, 4), sid, "full", round(k * per / fps, 4), k))
                t += per / fps
    m = Manifest("interleave", str(out), round(t, 4), WIDTH, HEIGHT, {ia: str(a), ib: str(b)}, spans,
                 {"segments": segments, "segment_seconds": per / fps})
    m.write()
    return m


def nback(clips: Sequence[str | Path], out: str | Path, clip_seconds: float = 2.0,
          labels: Sequence[str] | None = None, fps: int = FPS) -> Manifest:
    """K clips of `clip_seconds` each (the first seconds of each source), in sequence."""
    if cached := _done(Path(out)):
        return cached
    ids = _ids(clips, labels)
    n = int(round(clip_seconds * fps))
    spans = []
    with Writer(Path(out), WIDTH, HEIGHT, fps) as w:
        for k, (c, sid) in enumerate(zip(clips, ids)):
            src = frames(c, fps)
            for _ in range(n):
                w.write(next(src))
            spans.append(Span(round(k * n / fps, 4), round((k + 1) * n / fps, 4), sid, "full", 0.0, k))
    m = Manifest("nback", str(out), round(len(clips) * n / fps, 4), WIDTH, HEIGHT,
                 {i: str(c) for i, c in zip(ids, clips)}, spans, {"K": len(clips), "clip_seconds": clip_seconds})
    m.write()
    return m
