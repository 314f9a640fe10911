"""S3 Straight Paths (AP): objects move in straight lines and bounce off the walls.

Table 9: N objects 3 / 6 / 9 and A speed types 3 / 5 / 8 (Easy / Medium / Hard).
Choices the paper leaves open (documented here):
- the walls are the frame edges and the bottom of the HUD band (a thin grey line marks it);
- every object moves diagonally (heading 25-65 degrees off an axis, so both components are
  plainly visible) at one of A speeds spaced geometrically between 30 and 190 px/s, a step of
  at least x1.30, so any two different speed types differ by 30 % or more;
- every object has its own colour + shape (N <= 9 = 3 x 3), so identity survives a crossing;
  objects may pass over one another (straight paths cannot all avoid each other for 30 s),
  but of many seeded layouts the one with the fewest overlapping frames is kept, and
  same-colour objects never overlap (that would merge them into one blob);
- a wall bounce flips one velocity component and is "a change of direction"; bounces of one
  object are at least 0.3 s apart (no corner hits) and the first comes after 1 s, so the
  initial direction is seen before any wall; none comes in the last 0.6 s (too late to see).
Templates (Table 31, all five): fastest of four (three at Easy), slower of two (with "Both are
equal" when they share a speed type), direction changes after wall hits, how many objects
initially move up / down / left / right, and left-or-right / up-or-down before the first wall.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

import cv2
import numpy as np

from eval.videocogqa import style
from eval.videocogqa.base import Draft, Episode, Thing, blank, draw_thing, frame_times, near_numbers, shuffled

PARAMS = {"Easy": {"N": 3, "A": 3}, "Medium": {"N": 6, "A": 5}, "Hard": {"N": 9, "A": 8}}
SLOW, FAST = 30.0, 190.0  # px/s
TOP = style.HUD_HEIGHT
EQUAL = "Both are equal"
NEITHER = {"x": "It does not move horizontally", "y": "It does not move vertically"}


def speed_types(a: int) -> list[float]:
    return [SLOW * (FAST / SLOW) ** (k / (a - 1)) for k in range(a)]


def _tri(u: np.ndarray, length: float) -> np.ndarray:
    """Reflecting coordinate in [0, length] for the unfolded coordinate u."""
    m = np.mod(u, 2 * length)
    return np.where(m <= length, m, 2 * length - m)


@dataclass
class Mover:
    thing: Thing
    speed_type: int
    speed: float
    x0: float
    y0: float
    vx: float
    vy: float

    @property
    def half(self) -> float:
        return style.SIZE_FRACTION[self.thing.size] * style.size_unit() / 2

    def bounds(self) -> tuple[tuple[float, float], tuple[float, float]]:
        h = self.half
        return (h, style.WIDTH - h), (TOP + h, style.HEIGHT - h)

    def at(self, t: np.ndarray | float) -> tuple[np.ndarray, np.ndarray]:
        (xl, xh), (yl, yh) = self.bounds()
        t = np.asarray(t, dtype=float)
        return xl + _tri(self.x0 - xl + self.vx * t, xh - xl), yl + _tri(self.y0 - yl + self.vy * t, yh - yl)

    def bounces(self, duration: float) -> list[tuple[float, str]]:
        """(time, wall) of every wall hit, from the unfolded coordinates."""
        out = []
        for (lo, hi), p0, v, walls in ((self.bounds()[0], self.x0, self.vx, ("left", "right")),
                                       (self.bounds()[1], self.y0, self.vy, ("top", "bottom"))):
            length, u0 = hi - lo, p0 - lo
            k = 1 if v > 0 else 0
            while True:
                t = ((k * length) - u0) / v
                if t > duration:
                    break
                if t > 0:
                    out.append((t, walls[1] if k % 2 else walls[0]))
                k += 1 if v > 0 else -1
        return sorted(out)


class StraightPaths:
    code, title, ability = "S3", "Straight Paths", "AP"
    levels = ("Easy", "Medium", "Hard")

    # ---- simulation ---------------------------------------------------------------------
    def _mover(self, thing: Thing, k: int, speed: float, rng: random.Random) -> Mover:
        while True:
            heading = np.deg2rad(rng.uniform(25, 65) + 90 * rng.randrange(4))
            h = style.SIZE_FRACTION[thing.size] * style.size_unit() / 2
            m = Mover(thing, k, speed, rng.uniform(h + 2, style.WIDTH - h - 2), rng.uniform(TOP + h + 2, style.HEIGHT - h - 2),
                      speed * float(np.cos(heading)), speed * float(np.sin(heading)))
            times = [t for t, _ in m.bounces(style.DURATION)]
            ends_clear = not times or (times[0] >= 1.0 and times[-1] <= style.DURATION - 0.6)
            if ends_clear and all(b - a >= 0.3 for a, b in zip(times, times[1:])):
                return m

    def _layout(self, level: str, rng: random.Random) -> list[Mover]:
        p = PARAMS[level]
        speeds = speed_types(p["A"])
        combos = rng.sample([(c, s) for c in style.COLOURS for s in style.SHAPES], p["N"])
        kinds = list(range(p["A"]))
        rng.shuffle(kinds)
        kinds = (kinds + [rng.randrange(p["A"]) for _ in range(p["N"])])[:p["N"]]
        things = [Thing(rng.choice(style.SIZES), c, s) for c, s in combos]
        return [self._mover(th, k, speeds[k], rng) for th, k in zip(things, kinds)]

    @staticmethod
    def _overlaps(movers: list[Mover]) -> tuple[int, bool]:
        """(frames with any two objects overlapping, whether two same-colour objects overlap)."""
        t = np.arange(0, style.DURATION, 0.05)
        pos = [m.at(t) for m in movers]
        bad = np.zeros(len(t), bool)
        same = False
        for i in range(len(movers)):
            for j in range(i + 1, len(movers)):
                reach = 1.45 * (movers[i].half + movers[j].half) + 3
                hit = np.hypot(pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]) < reach
                bad |= hit
                same |= bool(hit.any()) and movers[i].thing.colour == movers[j].thing.colour
        return int(bad.sum()), same

    def simulate(self, level: str, rng: random.Random) -> Episode:
        best, best_cost = None, None
        for _ in range(150):
            movers = self._layout(level, rng)
            n_bad, same = self._overlaps(movers)
            cost = n_bad + (10_000 if same else 0)
            if best_cost is None or cost < best_cost:
                best, best_cost = movers, cost
            if cost == 0:
                break
        movers = best
        events = [{"t": 0.0, "kind": "start", "object": m.thing.name, "speed": round(m.speed, 1),
                   "speed_type": m.speed_type, "dx": 1 if m.vx > 0 else -1, "dy": 1 if m.vy > 0 else -1,
                   "x": round(m.x0, 1), "y": round(m.y0, 1)} for m in movers]
        for m in movers:
            events += [{"t": round(t, 3), "kind": "bounce", "object": m.thing.name, "wall": w}
                       for t, w in m.bounces(style.DURATION)]
        events.sort(key=lambda e: e["t"])
        frames = list(frame_times())
        tracks = {m.thing.name: m.at(np.array(frames)) for m in movers}

        def paint(t: float) -> np.ndarray:
            img = blank()
            cv2.line(img, (0, TOP - 1), (style.WIDTH - 1, TOP - 1), style.LINE, 1)
            i = min(int(round(t * style.FPS)), len(frames) - 1)
            for m in movers:
                xs, ys = tracks[m.thing.name]
                draw_thing(img, m.thing, float(xs[i]), float(ys[i]))
            return img

        return Episode("S3", level, dict(PARAMS[level]), events, paint,
                       facts={"speeds": [round(s, 1) for s in speed_types(PARAMS[level]["A"])],
                              "overlap_frames": best_cost % 10_000})

    # ---- questions ----------------------------------------------------------------------
    def questions(self, episode: Episode, rng: random.Random) -> list[Draft]:
        drafts = self.all_questions(episode, rng)
        per: dict[str, list[Draft]] = {}
        for d in drafts:
            per.setdefault(d.template, []).append(d)
        return [rng.choice(ds) for ds in per.values()]  # one per template, five in all

    def all_questions(self, episode: Episode, rng: random.Random) -> list[Draft]:
        """One draft per template (the direction-count template twice: vertical, horizontal)."""
        starts = {e["object"]: e for e in episode.events if e["kind"] == "start"}
        bounces: dict[str, list[dict]] = {n: [] for n in starts}
        for e in episode.events:
            if e["kind"] == "bounce":
                bounces[e["object"]].append(e)
        names = sorted(starts)
        out: list[Draft] = []

        # fastest of four (all of them at Easy): a unique top speed type
        k = min(4, len(names))
        for _ in range(50):
            group = rng.sample(names, k)
            types = sorted((starts[n]["speed_type"] for n in group), reverse=True)
            if types[0] > types[1]:
                best = max(group, key=lambda n: starts[n]["speed_type"])
                listed = ", ".join(group[:-1]) + f", or {group[-1]}" if k > 2 else " or ".join(group)
                out.append(shuffled(best, [n for n in group if n != best], rng, "fastest object",
                                    f"Which object moves the fastest: the {listed}?"))
                break

        # slower of two, or equal
        a, b = rng.sample(names, 2)
        ka, kb = starts[a]["speed_type"], starts[b]["speed_type"]
        slower = EQUAL if ka == kb else (a if ka < kb else b)
        out.append(shuffled(slower, [x for x in (a, b, EQUAL) if x != slower], rng, "slower object",
                            f"Which object moves more slowly: the {a} or the {b}?"))

        # direction changes after hitting a wall (prefer objects a viewer can count)
        countable = [n for n in names if len(bounces[n]) <= 12] or names
        obj = rng.choice(countable)
        n_b = len(bounces[obj])
        out.append(shuffled(n_b, near_numbers(n_b, rng), rng, "direction changes after wall",
                            f"How many times does the {obj} change direction after hitting a wall?"))

        # how many objects initially move up / down / left / right
        for axis in ("y", "x"):
            sign = rng.choice((-1, 1))
            word = {("y", -1): "upward", ("y", 1): "downward", ("x", -1): "left", ("x", 1): "right"}[(axis, sign)]
            count = sum(1 for n in names if starts[n]["d" + axis] == sign)
            wrong = [v for v in near_numbers(count, rng, k=6) if v <= len(names)][:3]
            out.append(shuffled(count, wrong, rng, "initial direction count",
                                f"How many objects initially move {word} when the movement begins?"))

        # left or right / up or down before the first wall
        obj = rng.choice(names)
        axis = rng.choice(("x", "y"))
        d = starts[obj]["d" + axis]
        words = ("Left", "Right") if axis == "x" else ("Up", "Down")
        right = words[0] if d < 0 else words[1]
        pair = "left or right" if axis == "x" else "up or down"
        out.append(shuffled(right, [w for w in words if w != right] + [NEITHER[axis]], rng, "direction before wall",
                            f"Is the {obj} moving {pair} before it first hits a wall?"))
        return out


SCENE = StraightPaths()
