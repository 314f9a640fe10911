"""S7 Sky Battle (GP): an arcade shooter seen from above.

Table 9: N enemies 3 / 5 / 10 and A enemy speed types 2 / 5 / 8 (Easy / Medium / Hard).
Choices the paper leaves open (documented here):
- the player's plane is a white triangle near the bottom; it follows one scripted pattern for
  the whole video: "stays still", "left and right" (90 px/s, turning at random moments 2-5 s
  apart or at the field's edge), "up and down" (40 px/s between y 250 and 316) or "circles"
  (35 px radius, 5 s a turn);
- it fires small yellow square bullets straight up every 0.4 s in bursts (1.5-4 s of fire,
  1-3 s of pause); a bullet touching an enemy destroys both; bullets fade at y = 130, so an enemy is
  never shot the moment it appears;
- enemies are medium coloured shapes that appear at the top at distinct moments (>= 0.4 s
  apart), at x positions chosen so no two ever overlap, and descend at one of A speeds
  spaced geometrically between 30 and 120 px/s; an enemy that reaches the bottom edge leaves;
- an enemy that touches the plane destroys it (the plane vanishes and stops firing; the enemy
  flies on). About 40 % of videos are set up for that (one enemy aims at the plane while the
  guns pause); layouts where an enemy grazes the plane without a clear hit are re-drawn.
Templates (Table 31, all seven): enemies destroyed; time of the first kill as seconds from the
start ("7 seconds", distractors >= 2 s away; no clock is drawn); the plane's movement pattern;
maximum enemies visible at once (asked only when that maximum lasts >= 0.3 s); how many enemies
appear; how many times the plane changes direction (not for "circles", where turning is
continuous); does the plane survive (Yes / No / "Cannot be determined", items need 3 options).
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np

from eval.videocogqa import style
from eval.videocogqa.base import Draft, Episode, Thing, blank, draw_shape, draw_thing, near_numbers, shuffled

PARAMS = {"Easy": {"N": 3, "A": 2}, "Medium": {"N": 5, "A": 5}, "Hard": {"N": 10, "A": 8}}
PATTERNS = ("stays still", "left and right", "up and down", "circles")
DT = 0.025  # simulation step; 4 steps a frame
PLANE_Y, PLANE_HALF = 316.0, 15.0
BULLET, BULLET_SPEED, FIRE_EVERY = 6.0, 300.0, 0.4
RANGE_TOP = 130.0  # bullets fade here, so no enemy is shot the moment it appears
ENEMY = Thing("medium", "red", "circle")  # only the size is shared by every enemy
HALF = style.SIZE_FRACTION[ENEMY.size] * style.size_unit() / 2
SPAWN_Y = style.HUD_HEIGHT + HALF + 4
UNSURE = "Cannot be determined"


def enemy_speeds(a: int) -> list[float]:
    return [30 * 4 ** (k / (a - 1)) for k in range(a)]


@dataclass
class Enemy:
    id: int
    thing: Thing
    x: float
    spawn: float
    speed: float
    end: float | None = None
    y: float = SPAWN_Y

    @property
    def exit(self) -> float:  # when it would leave the field if never hit
        return self.spawn + (style.HEIGHT - HALF - SPAWN_Y) / self.speed


def plane_path(pattern: str, rng: random.Random) -> tuple[np.ndarray, list[tuple[float, str]]]:
    """Plane centre per simulation step (steps x 2) and its turns (time, new direction)."""
    n = int(round(style.DURATION / DT)) + 1
    pos = np.zeros((n, 2))
    turns: list[tuple[float, str]] = []
    if pattern == "circles":
        cx, r, sign, a0 = rng.uniform(100, 380), 35.0, rng.choice((-1, 1)), rng.uniform(0, 2 * math.pi)
        for i in range(n):
            a = a0 + sign * 2 * math.pi * i * DT / 5
            pos[i] = cx + r * math.cos(a), 281 + r * math.sin(a)
        return pos, turns
    if pattern == "stays still":
        pos[:] = rng.uniform(120, 360), PLANE_Y
        return pos, turns
    axis = 0 if pattern == "left and right" else 1
    lo, hi, speed = ((40.0, 440.0, 90.0) if axis == 0 else (250.0, PLANE_Y, 40.0))
    p = rng.uniform(lo + 30, hi - 30) if axis == 0 else rng.uniform(lo + 10, hi - 10)
    other = PLANE_Y if axis == 0 else rng.uniform(60, 420)
    d, next_turn, last_turn = rng.choice((-1, 1)), rng.uniform(2.0, 5.0), 0.0
    words = ("left", "right") if axis == 0 else ("up", "down")
    for i in range(n):
        t = i * DT
        nxt = p + d * speed * DT
        if (t >= next_turn or not lo <= nxt <= hi) and t - last_turn >= 1.0:
            d, last_turn, next_turn = -d, t, t + rng.uniform(2.0, 5.0)
            turns.append((round(t, 3), words[0] if d < 0 else words[1]))
            nxt = p + d * speed * DT
        p = min(hi, max(lo, nxt))
        pos[i] = (p, other) if axis == 0 else (other, p)
    return pos, turns


class SkyBattle:
    code, title, ability = "S7", "Sky Battle", "GP"
    levels = ("Easy", "Medium", "Hard")

    # ---- simulation ---------------------------------------------------------------------
    def _enemies(self, level: str, rng: random.Random, plane: np.ndarray,
                 doomed: bool) -> tuple[list[Enemy], Enemy | None]:
        p = PARAMS[level]
        speeds = enemy_speeds(p["A"])
        while True:
            spawns = sorted(round(rng.uniform(0.5, 22.0), 1) for _ in range(p["N"]))
            if all(b - a >= 0.4 for a, b in zip(spawns, spawns[1:])):
                break
        kinds = list(range(p["A"]))
        rng.shuffle(kinds)
        kinds = (kinds + [rng.randrange(p["A"]) for _ in spawns])[:p["N"]]
        out: list[Enemy] = []
        hero = rng.choice([i for i, s in enumerate(spawns) if 6 <= s <= 18] or [len(spawns) // 2]) if doomed else -1
        for i, (spawn, k) in enumerate(zip(spawns, kinds)):
            thing = Thing(ENEMY.size, rng.choice(list(style.COLOURS)), rng.choice(style.SHAPES))
            for _ in range(100):
                if i == hero:  # aim where the plane will be when the enemy reaches its height
                    arrive = spawn + (PLANE_Y - PLANE_HALF - HALF - SPAWN_Y) / speeds[k]
                    x = float(plane[min(int(arrive / DT), len(plane) - 1), 0]) + rng.uniform(-4, 4)
                elif rng.random() < 0.7:  # most come down into the plane's line of fire
                    mid = spawn + (200 - SPAWN_Y) / speeds[k]
                    x = float(plane[min(int(mid / DT), len(plane) - 1), 0]) + rng.uniform(-8, 8)
                else:
                    x = rng.uniform(HALF + 4, style.WIDTH - HALF - 4)
                e = Enemy(i + 1, thing, x, spawn, speeds[k])
                if all(not _clash(e, o) for o in out):
                    break
            out.append(e)
        return out, (out[hero] if doomed else None)

    def _run(self, enemies: list[Enemy], plane: np.ndarray, fire: list[tuple[float, float]]):
        """Step the battle; returns (events, frames, plane death time or None, graze)."""
        events: list[dict] = []
        frames: list[tuple[tuple[float, float] | None, list[tuple[Thing, float, float]], list[tuple[float, float]]]] = []
        bullets: list[list[float]] = []
        dead_at, next_fire = None, 0.0
        closest: dict[int, float] = {}
        for i in range(int(round(style.DURATION / DT))):
            t = round(i * DT, 3)
            px, py = plane[i]
            for e in enemies:
                if e.end is None and e.spawn <= t:
                    if abs(e.spawn - t) < DT / 2:
                        events.append({"t": t, "kind": "spawn", "enemy": e.id, "name": e.thing.name, "x": round(e.x, 1),
                                       "speed": round(e.speed, 1)})
                    e.y = SPAWN_Y + e.speed * (t - e.spawn)
                    if e.y >= style.HEIGHT - HALF:
                        e.end = t
                        events.append({"t": t, "kind": "escape", "enemy": e.id})
            firing = dead_at is None and any(a <= t < b for a, b in fire)
            if firing and t >= next_fire:
                bullets.append([px, py - PLANE_HALF - BULLET])
                next_fire = t + FIRE_EVERY
            for b in bullets:
                b[1] -= BULLET_SPEED * DT
            bullets = [b for b in bullets if b[1] > RANGE_TOP]
            live = [e for e in enemies if e.end is None and e.spawn <= t]
            for e in live:
                hit = next((b for b in bullets if abs(b[0] - e.x) < HALF + BULLET / 2
                            and abs(b[1] - e.y) < HALF + BULLET / 2), None)
                if hit is not None:
                    bullets.remove(hit)
                    e.end = t
                    events.append({"t": t, "kind": "kill", "enemy": e.id, "x": round(e.x, 1),
                                   "y": round(e.y, 1)})
                elif dead_at is None:
                    gap = max(abs(e.x - px), abs(e.y - py)) - HALF - PLANE_HALF
                    closest[e.id] = min(closest.get(e.id, 99.0), gap)
                    if gap < -3:
                        dead_at = t
                        events.append({"t": t, "kind": "plane_destroyed", "by": e.id})
            if i % round(1 / (style.FPS * DT)) == 0:
                shown = [(e.thing, e.x, e.y) for e in enemies if e.end is None and e.spawn <= t]
                frames.append((None if dead_at is not None else (px, py), shown, [tuple(b) for b in bullets]))
        graze = any(-3 <= g < 6 for g in closest.values())  # touching, but not a clear hit
        return events, frames, dead_at, graze

    def simulate(self, level: str, rng: random.Random) -> Episode:
        pattern = rng.choice(PATTERNS)
        doomed = rng.random() < 0.4
        for _ in range(200):
            plane, turns = plane_path(pattern, rng)
            enemies, hero = self._enemies(level, rng, plane, doomed)
            fire, t = [], 0.5
            while t < style.DURATION:
                on = rng.uniform(1.5, 4.0)
                fire.append((t, t + on))
                t += on + rng.uniform(1.0, 3.0)
            if hero is not None:  # the guns pause while the aimed enemy comes down
                quiet = (hero.spawn - 1.2, hero.exit)
                fire = [(a, min(b, quiet[0])) for a, b in fire if a < quiet[0]] + \
                       [(max(a, quiet[1]), b) for a, b in fire if b > quiet[1]]
            events, frames, dead_at, graze = self._run(enemies, plane, fire)
            clash = any(_clash(a, b) for i, a in enumerate(enemies) for b in enemies[i + 1:])
            clean = not graze and not clash
            if clean and (dead_at is not None) == doomed:
                break
        turns = [(t, d) for t, d in turns if dead_at is None or t < dead_at]
        events = [{"t": 0.0, "kind": "plane", "pattern": pattern}] + events + \
                 [{"t": t, "kind": "turn", "direction": d} for t, d in turns]
        events.sort(key=lambda e: e["t"])

        def paint(t: float) -> np.ndarray:
            img = blank()
            plane_xy, shown, bullets = frames[min(int(round(t * style.FPS)), len(frames) - 1)]
            for thing, x, y in shown:
                draw_thing(img, thing, x, y)
            if plane_xy is not None:
                draw_shape(img, "triangle", "white", plane_xy[0], plane_xy[1], 2 * PLANE_HALF)
            for bx, by in bullets:
                draw_shape(img, "square", "yellow", bx, by, BULLET)
            return img

        return Episode("S7", level, dict(PARAMS[level]), events, paint,
                       facts={"pattern": pattern, "survived": dead_at is None, "clean": clean,
                              "speeds": [round(s, 1) for s in enemy_speeds(PARAMS[level]["A"])]})

    # ---- questions ----------------------------------------------------------------------
    def questions(self, episode: Episode, rng: random.Random) -> list[Draft]:
        drafts = self.all_questions(episode, rng)
        return rng.sample(drafts, min(5, len(drafts)))

    def all_questions(self, episode: Episode, rng: random.Random) -> list[Draft]:
        ev = episode.events
        pattern = next(e["pattern"] for e in ev if e["kind"] == "plane")
        spawns = [e for e in ev if e["kind"] == "spawn"]
        kills = [e for e in ev if e["kind"] == "kill"]
        n = len(spawns)
        out: list[Draft] = []
        k = len(kills)
        out.append(shuffled(k, [v for v in near_numbers(k, rng, k=6) if v <= n][:3], rng, "enemies destroyed",
                            "How many enemies are destroyed by the player's plane?"))
        if kills:
            sec = round(kills[0]["t"])
            wrong = [v for v in (sec - 4, sec - 2, sec + 2, sec + 4) if 0 <= v <= int(style.DURATION)]
            out.append(shuffled(sec, rng.sample(wrong, min(3, len(wrong))), rng, "first kill time",
                                "How many seconds after the start of the video is the first enemy destroyed?",
                                fmt=lambda s: f"{s} seconds"))
        out.append(shuffled(pattern, [p for p in PATTERNS if p != pattern], rng, "plane movement pattern",
                            "What is the movement pattern of the player's plane?"))
        most = max_visible(ev)
        if most is not None:
            out.append(shuffled(most, near_numbers(most, rng, low=1), rng, "max enemies visible",
                                "What is the maximum number of enemies visible on screen at the same time?"))
        out.append(shuffled(n, near_numbers(n, rng, low=1), rng, "enemies appearing",
                            "How many enemies appear during the video?"))
        if pattern != "circles":
            turns = sum(1 for e in ev if e["kind"] == "turn")
            out.append(shuffled(turns, near_numbers(turns, rng), rng, "plane direction changes",
                                "How many times does the player's plane change direction?"))
        alive = not any(e["kind"] == "plane_destroyed" for e in ev)
        out.append(shuffled("Yes" if alive else "No", ["No" if alive else "Yes", UNSURE], rng, "plane survives",
                            "Does the player's plane survive until the end of the video?"))
        return out


def max_visible(events: list[dict]) -> int | None:
    """Most enemies on screen at one frame, if that many stay for >= 3 frames (0.3 s)."""
    spans = {e["enemy"]: [e["t"], style.DURATION + 1] for e in events if e["kind"] == "spawn"}
    for e in events:
        if e["kind"] in ("kill", "escape"):
            spans[e["enemy"]][1] = e["t"]
    counts = [sum(1 for a, b in spans.values() if a <= f / style.FPS + 1e-6 < b)
              for f in range(int(style.DURATION * style.FPS))]
    top = max(counts)
    run = best = 0
    for c in counts:
        run = run + 1 if c == top else 0
        best = max(best, run)
    return top if best >= 3 else None


def _clash(a: Enemy, b: Enemy) -> bool:
    """Whether two enemies' straight paths (ignoring kills) ever come within a gap of 6 px."""
    if abs(a.x - b.x) >= 2 * HALF + 6:
        return False
    t0, t1 = max(a.spawn, b.spawn), min(a.exit, b.exit)
    for t in np.arange(t0, t1, 0.05):
        if abs((a.speed * (t - a.spawn)) - (b.speed * (t - b.spawn))) < 2 * HALF + 6:
            return True
    return False


SCENE = SkyBattle()
