"""Operators over a perceived symbolic timeline (seed 003's scenes): identities tracked
across frames, appearance intervals, grid cells, refreshes, counts, simultaneity, direction
changes and path length. Everything here reads what perception saw, never a generator log.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from skills.videocogqa.symbols import SymbolFrame, SymbolShape, SymbolTrack

SIZE_CLASSES = (("small", 0.32), ("medium", 0.52), ("large", 0.84))  # extent / unit, as drawn
_CLOCK = re.compile(r"(\d{1,2})\s*[:.]\s*(\d{2})(?:\s*[:.]\s*(\d))?")


@dataclass
class Track:
    """One object followed across frames (same colour and shape, nearest position)."""

    colour: str
    shape: str
    points: list[tuple[float, SymbolShape]] = field(default_factory=list)

    @property
    def start(self) -> float:
        return self.points[0][0]

    @property
    def end(self) -> float:
        return self.points[-1][0]

    @property
    def duration(self) -> float:
        return self.end - self.start

    def positions(self) -> list[tuple[float, float, float]]:
        return [(t, s.cx, s.cy) for t, s in self.points]


@dataclass(frozen=True)
class Snapshot:
    """A stretch of frames showing the same arrangement (one grid refresh)."""

    start: float
    end: float
    shapes: tuple[SymbolShape, ...]


Predicate = Callable[[SymbolShape], bool]


class SymbolicTimeline:
    def __init__(self, track: SymbolTrack, until: float | None = None):
        """`until` (source seconds) cuts the timeline at the question time."""
        self.track = track
        self.layout = track.layout
        self.fps = track.fps or 10.0
        self.frames: list[SymbolFrame] = [f for f in track.frames if until is None or f.t < until]
        self.texts = [x for x in track.texts if until is None or x.t < until]
        self.tones = [x for x in track.tones if until is None or x.start < until]
        self._tracks: list[Track] | None = None

    # ---- attributes ---------------------------------------------------------------------
    @property
    def cell(self) -> float | None:
        """The grid's cell side in pixels, when the picture has a grid."""
        xs, ys = self.layout.grid_xs, self.layout.grid_ys
        gaps = [b - a for a, b in zip(xs, xs[1:])] + [b - a for a, b in zip(ys, ys[1:])]
        return sorted(gaps)[len(gaps) // 2] if gaps else None

    @property
    def unit(self) -> float:
        return self.cell or self.layout.height / 8

    def size_of(self, s: SymbolShape, unit: float | None = None) -> str:
        ratio = s.extent / (unit or self.unit)
        return min(SIZE_CLASSES, key=lambda c: abs(ratio - c[1]))[0]

    def name_of(self, s: SymbolShape, with_size: bool = True) -> str:
        return f"{self.size_of(s)} {s.colour} {s.shape}" if with_size else f"{s.colour} {s.shape}"

    def cell_of(self, x: float, y: float) -> tuple[int, int] | None:
        """(row, column), 0-based, of the grid cell holding (x, y); None off the grid."""
        xs, ys = self.layout.grid_xs, self.layout.grid_ys
        if len(xs) < 2 or len(ys) < 2 or not (xs[0] <= x <= xs[-1] and ys[0] <= y <= ys[-1]):
            return None
        col = max(i for i, gx in enumerate(xs[:-1]) if gx <= x)
        row = max(i for i, gy in enumerate(ys[:-1]) if gy <= y)
        return row, col

    @property
    def grid_shape(self) -> tuple[int, int]:
        return max(len(self.layout.grid_ys) - 1, 0), max(len(self.layout.grid_xs) - 1, 0)

    # ---- identities and intervals ---------------------------------------------------------
    def tracks(self, max_jump: float | None = None, max_gap: int = 2) -> list[Track]:
        """Objects linked frame to frame by colour, shape and nearest position; a track ends
        after `max_gap` frames unseen. Sorted by first appearance."""
        if self._tracks is not None and max_jump is None and max_gap == 2:
            return self._tracks
        jump = max_jump if max_jump is not None else 0.15 * self.layout.width
        step = 1.0 / self.fps
        done: list[Track] = []
        live: list[Track] = []
        for frame in self.frames:
            still = []
            for tr in live:
                if frame.t - tr.end > (max_gap + 0.5) * step:
                    done.append(tr)
                else:
                    still.append(tr)
            live = still
            taken: set[int] = set()
            pairs = sorted(
                ((((s.cx - tr.points[-1][1].cx) ** 2 + (s.cy - tr.points[-1][1].cy) ** 2) ** 0.5, i, j)
                 for i, s in enumerate(frame.shapes) for j, tr in enumerate(live)
                 if s.colour == tr.colour and s.shape == tr.shape),
                key=lambda p: p[0])
            used_tracks: set[int] = set()
            for dist, i, j in pairs:
                if dist <= jump and i not in taken and j not in used_tracks and live[j].end < frame.t:
                    live[j].points.append((frame.t, frame.shapes[i]))
                    taken.add(i)
                    used_tracks.add(j)
            for i, s in enumerate(frame.shapes):
                if i not in taken:
                    live.append(Track(s.colour, s.shape, [(frame.t, s)]))
        tracks = sorted(done + live, key=lambda tr: (tr.start, tr.points[0][1].cy, tr.points[0][1].cx))
        if max_jump is None and max_gap == 2:
            self._tracks = tracks
        return tracks

    def size_of_track(self, tr: Track) -> str:
        return Counter(self.size_of(s) for _, s in tr.points).most_common(1)[0][0]

    def occurrences(self, where: Predicate | None = None, min_frames: int = 2) -> list[Track]:
        """Appearance intervals of objects matching `where`, in order of appearance; flickers
        shorter than `min_frames` are noise."""
        return [tr for tr in self.tracks() if len(tr.points) >= min_frames
                and (where is None or where(tr.points[len(tr.points) // 2][1]))]

    def after(self, t: float) -> list[SymbolFrame]:
        return [f for f in self.frames if f.t >= t]

    def max_simultaneous(self, where: Predicate | None = None, min_frames: int = 2) -> int:
        """Most matching objects seen in one frame, held at least `min_frames` frames."""
        counts = [sum(1 for s in f.shapes if where is None or where(s)) for f in self.frames]
        best = 0
        for i in range(len(counts)):
            window = counts[i:i + min_frames]
            if len(window) == min_frames:
                best = max(best, min(window))
        return best

    # ---- arrangements -----------------------------------------------------------------------
    def snapshots(self, min_frames: int = 3) -> list[Snapshot]:
        """Stable arrangements (same shapes in the same cells), in order: a grid's refreshes.
        Runs shorter than `min_frames` (a transition) are dropped; equal neighbours merge."""
        def key(f: SymbolFrame) -> tuple:
            return tuple(sorted((self.cell_of(s.cx, s.cy) or (round(s.cx / 8), round(s.cy / 8)), s.colour, s.shape,
                                 self.size_of(s)) for s in f.shapes))
        runs: list[tuple[tuple, list[SymbolFrame]]] = []
        for f in self.frames:
            k = key(f)
            if runs and runs[-1][0] == k:
                runs[-1][1].append(f)
            else:
                runs.append((k, [f]))
        out: list[tuple[tuple, list[SymbolFrame]]] = []
        for k, fs in runs:
            if len(fs) < min_frames or not k:
                continue
            if out and out[-1][0] == k:
                out[-1][1].extend(fs)
            else:
                out.append((k, fs))
        return [Snapshot(fs[0].t, fs[-1].t, fs[len(fs) // 2].shapes) for _, fs in out]

    # ---- motion -----------------------------------------------------------------------------
    @staticmethod
    def direction_changes(tr: Track, axis: str = "xy", min_move: float = 1.0) -> int:
        """Sign reversals of velocity along `axis` ("x", "y" or "xy" for either)."""
        changes = 0
        for a in axis.replace("xy", "xy"):
            coord = [s.cx if a == "x" else s.cy for _, s in tr.points]
            sign = 0
            for p, q in zip(coord, coord[1:]):
                d = q - p
                if abs(d) < min_move:
                    continue
                new = 1 if d > 0 else -1
                if sign and new != sign:
                    changes += 1
                sign = new
        return changes

    @staticmethod
    def path_length(tr: Track) -> float:
        pts = [(s.cx, s.cy) for _, s in tr.points]
        return sum(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 for (x0, y0), (x1, y1) in zip(pts, pts[1:]))

    @staticmethod
    def speed(tr: Track) -> float:
        """Mean pixels per second along the path."""
        return SymbolicTimeline.path_length(tr) / tr.duration if tr.duration > 0 else 0.0

    def cell_path(self, tr: Track) -> list[tuple[int, int]]:
        """The grid cells a track passes through, consecutive repeats removed."""
        cells: list[tuple[int, int]] = []
        for _, s in tr.points:
            c = self.cell_of(s.cx, s.cy)
            if c is not None and (not cells or cells[-1] != c):
                cells.append(c)
        return cells

    # ---- the clock --------------------------------------------------------------------------
    def clock_readings(self) -> list[tuple[float, float]]:
        """(video second, seconds shown by the on-screen clock) for every readable clock."""
        out = []
        for x in self.texts:
            m = _CLOCK.search(x.text)
            if m:
                shown = int(m.group(1)) * 60 + int(m.group(2)) + (int(m.group(3)) / 10 if m.group(3) else 0.0)
                out.append((x.t, shown))
        return out

    def clock_offset(self) -> float:
        """Median (clock - video time): converts between "at 00:12 on the clock" and frames."""
        diffs = sorted(shown - t for t, shown in self.clock_readings())
        return diffs[len(diffs) // 2] if diffs else 0.0


def select(shapes: Iterable[SymbolShape], where: Predicate) -> list[SymbolShape]:
    return [s for s in shapes if where(s)]
