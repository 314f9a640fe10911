"""S2 Action Arena (AP): objects each performing an action, some switching action mid-video.

Table 9: N objects 3 / 6 / 9 and A action types 3 / 6 / 8 (Easy / Medium / Hard).
The paper names four actions (horizontal movement, jumping, scaling, rotation); we add four
more so that A = 8 exists, each visually distinct and recoverable from centroid, area,
bounding box and visibility over a 2 s window:
  horizontal movement  x swings +-45 px (period 2 s), y fixed
  jumping              hops 40 px up from a ground line (0.8 s hop, 0.4 s rest), x fixed
  scaling              size breathes between x0.65 and x1.35 (period 2 s), position fixed
  rotation             turns 120 degrees/s in place (never a circle: its turning is invisible)
  blinking             shown 0.4 s, hidden 0.4 s, in place
  circling             runs a 28 px radius circle (period 2 s)
  diagonal movement    swings +-28 px along a diagonal (period 2 s)
  shaking              jitters +-7 px horizontally (period 0.4 s)
Choices the paper leaves open: the A action types of a video are a random subset of the eight,
each used by at least one object; every object keeps to its own cell of an invisible 3 x 3
arrangement (so objects never overlap) and has its own colour + shape, its name adding size;
1 / 2 / 3 objects (Easy / Medium / Hard) switch to another action once, between 10 s and 20 s,
so "performs X" means "at some point in the video"; "currently" becomes "at the end".
Templates (Table 31, all nine): "appear more than {n} times" is read as "performed by more
than {n} objects"; Yes/No items carry a third option ("Cannot be determined") because items
need 3-5 options; "which has more" offers "Both are equal".
"""
from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from eval.videocogqa import style
from eval.videocogqa.base import Draft, Episode, Thing, blank, draw_thing, near_numbers, shuffled

PARAMS = {"Easy": {"N": 3, "A": 3}, "Medium": {"N": 6, "A": 6}, "Hard": {"N": 9, "A": 8}}
SWITCHERS = {"Easy": 1, "Medium": 2, "Hard": 3}
ACTIONS = ("horizontal movement", "jumping", "scaling", "rotation", "blinking", "circling", "diagonal movement",
           "shaking")
SLOT_W, SLOT_H = style.WIDTH / 3, (style.HEIGHT - style.HUD_HEIGHT) / 3
UNSURE = "Cannot be determined"
EQUAL = "Both are equal"


def _tri(u: float) -> float:
    """Triangle wave in [-1, 1] with period 1."""
    m = u % 1.0
    return 4 * m - 1 if m < 0.5 else 3 - 4 * m


def pose(action: str, t: float, phase: float, sign: int) -> tuple[float, float, float, float, bool]:
    """(dx, dy, angle, scale, visible) of an object performing `action` at time t."""
    u = t + phase
    if action == "horizontal movement":
        return 45 * _tri(u / 2), 0.0, 0.0, 1.0, True
    if action == "jumping":
        m = (u % 1.2) / 0.8
        return 0.0, 20 - (160 * m * (1 - m) if m < 1 else 0.0), 0.0, 1.0, True
    if action == "scaling":
        return 0.0, 0.0, 0.0, 1 + 0.35 * math.sin(2 * math.pi * u / 2), True
    if action == "rotation":
        return 0.0, 0.0, sign * 120 * u, 1.0, True
    if action == "blinking":
        return 0.0, 0.0, 0.0, 1.0, (u % 0.8) < 0.4
    if action == "circling":
        a = sign * 2 * math.pi * u / 2
        return 28 * math.cos(a), 28 * math.sin(a), 0.0, 1.0, True
    if action == "diagonal movement":
        s = _tri(u / 2)
        return 28 * s, sign * 28 * s, 0.0, 1.0, True
    if action == "shaking":
        return 7 * math.sin(2 * math.pi * u / 0.4 + math.pi / 4), 0.0, 0.0, 1.0, True
    raise ValueError(action)


@dataclass
class Actor:
    thing: Thing
    home: tuple[float, float]
    phases: list[tuple[float, str]]  # (start second, action), in order
    phase: float = 0.0
    sign: int = 1
    switch: float | None = field(default=None)

    def action_at(self, t: float) -> str:
        return [a for t0, a in self.phases if t0 <= t][-1]


class ActionArena:
    code, title, ability = "S2", "Action Arena", "AP"
    levels = ("Easy", "Medium", "Hard")

    def simulate(self, level: str, rng: random.Random) -> Episode:
        p = PARAMS[level]
        types = rng.sample(ACTIONS, p["A"])
        combos = rng.sample([(c, s) for c in style.COLOURS for s in style.SHAPES], p["N"])
        while True:  # every chosen type used; nothing turns a circle
            first = (types + [rng.choice(types) for _ in range(p["N"])])[:p["N"]]
            rng.shuffle(first)
            if all(not (a == "rotation" and s == "circle") for a, (_, s) in zip(first, combos)):
                break
        slots = rng.sample(range(9), p["N"])
        actors = []
        for (colour, shape), action, slot in zip(combos, first, slots):
            home = ((slot % 3 + 0.5) * SLOT_W, style.HUD_HEIGHT + (slot // 3 + 0.5) * SLOT_H)
            actors.append(Actor(Thing(rng.choice(style.SIZES), colour, shape), home, [(0.0, action)],
                                round(rng.uniform(0, 2), 2), rng.choice((-1, 1))))
        for actor in rng.sample(actors, SWITCHERS[level]):
            allowed = [a for a in types if a != actor.phases[0][1] and not (a == "rotation" and actor.thing.shape == "circle")]
            t_switch = round(rng.uniform(10, 20), 1)
            actor.phases.append((t_switch, rng.choice(allowed)))
        events = []
        for a in actors:
            for t0, action in a.phases:
                events.append({"t": t0, "kind": "action", "object": a.thing.name, "action": action,
                               "colour": a.thing.colour, "shape": a.thing.shape, "size": a.thing.size})
        events.sort(key=lambda e: (e["t"], e["object"]))

        def paint(t: float) -> np.ndarray:
            img = blank()
            for a in actors:
                dx, dy, angle, scale, visible = pose(a.action_at(t), t, a.phase, a.sign)
                if visible:
                    draw_thing(img, a.thing, a.home[0] + dx, a.home[1] + dy, angle=angle, scale=scale)
            return img

        return Episode("S2", level, {**p, "types": list(types)}, events, paint,
                       facts={"switchers": SWITCHERS[level]})

    # ---- questions ----------------------------------------------------------------------
    def questions(self, episode: Episode, rng: random.Random) -> list[Draft]:
        drafts = self.all_questions(episode, rng)
        return rng.sample(drafts, min(5, len(drafts)))

    def all_questions(self, episode: Episode, rng: random.Random) -> list[Draft]:
        """One draft per template that can be made unambiguous for this video."""
        acts: dict[str, list[str]] = {}
        attrs: dict[str, dict] = {}
        for e in episode.events:
            if e["kind"] == "action":
                acts.setdefault(e["object"], []).append(e["action"])
                attrs[e["object"]] = e
        names = sorted(acts)
        final = {n: a[-1] for n, a in acts.items()}
        doers = {x: sorted(n for n in names if x in acts[n]) for x in ACTIONS}
        count = Counter({x: len(doers[x]) for x in ACTIONS})
        types = [x for x in ACTIONS if count[x]]
        others = [x for x in ACTIONS if x not in types]
        out: list[Draft] = []

        x = rng.choice(types)
        c = count[x]
        out.append(shuffled(c, [v for v in near_numbers(c, rng, k=6) if v <= len(names)][:3], rng,
                            "objects performing action", f"How many objects are performing the {x} action during the video?"))

        obj = rng.choice(names)
        d = len(set(acts[obj]))
        out.append(shuffled(d, near_numbers(d, rng, low=1), rng, "distinct actions of object",
                            f"How many distinct actions are performed by the {obj}?"))

        x, y = rng.sample(types + others[:1], 2)
        more = EQUAL if count[x] == count[y] else (x if count[x] > count[y] else y)
        out.append(shuffled(more, [v for v in (x, y, EQUAL) if v != more], rng, "action with more objects",
                            f"Which action has more objects performing it: {x} or {y}?"))

        top = count.most_common(2)
        if top[0][1] > top[1][1]:
            wrong = rng.sample([v for v in types if v != top[0][0]] + others, 3)
            out.append(shuffled(top[0][0], wrong, rng, "most frequent action",
                                "Which action is most frequently performed across all objects?"))

        x = rng.choice(sorted({final[n] for n in names}))
        right = sorted(n for n in names if final[n] == x)
        wrong = _set_distractors(right, names, rng)
        if wrong:
            out.append(shuffled(", ".join(right), [", ".join(w) for w in wrong], rng, "objects performing action now",
                                f"Which objects are performing the {x} action at the end of the video?"))

        n = rng.choice((1, 2)) if max(count.values()) > 2 else 1
        right = [v for v in ACTIONS if count[v] > n]
        wrong = _set_distractors(right, [v for v in ACTIONS if v in types], rng, allow_empty=True)
        if wrong:
            fmt = lambda vs: ", ".join(vs) if vs else "None"  # noqa: E731
            out.append(shuffled(fmt(right), [fmt(w) for w in wrong], rng, "actions above n",
                                f"Which actions are performed by more than {n} object{'s' if n > 1 else ''}?"))

        steady = [n for n in names if len(acts[n]) == 1]
        if steady:
            obj = rng.choice(steady)
            wrong = rng.sample([v for v in ACTIONS if v != acts[obj][0]], 3)
            out.append(shuffled(acts[obj][0], wrong, rng, "action of object", f"What action is the {obj} performing?"))

        for key, template in (("shape", "any shape performing"), ("colour", "any colour performing")):
            value = rng.choice(sorted({attrs[n][key] for n in names} | set(
                style.SHAPES if key == "shape" else style.COLOURS)))
            x = rng.choice(types)
            yes = any(attrs[n][key] == value and x in acts[n] for n in names)
            q = (f"Are there any {value} objects performing the {x} action?" if key == "shape"
                 else f"Is there any {value} object performing the {x} action?")
            out.append(shuffled("Yes" if yes else "No", ["No" if yes else "Yes", UNSURE], rng, template, q))
        return out


def _set_distractors(right: list[str], pool: list[str], rng: random.Random, allow_empty: bool = False,
                     k: int = 3) -> list[list[str]]:
    """Up to k other subsets of `pool` near `right` (one item added, dropped or swapped)."""
    order = {v: i for i, v in enumerate(pool)}
    cands: set[tuple[str, ...]] = set()
    for v in pool:
        if v in right:
            if len(right) > 1 or allow_empty:
                cands.add(tuple(w for w in right if w != v))
            for u in pool:
                if u not in right:
                    cands.add(tuple(sorted([w for w in right if w != v] + [u], key=order.get)))
        else:
            cands.add(tuple(sorted(right + [v], key=order.get)))
    cands.discard(tuple(right))
    picked = rng.sample(sorted(cands), min(k, len(cands)))
    return [list(c) for c in picked]


SCENE = ActionArena()
