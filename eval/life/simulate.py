"""A seeded simulation of several days of one wearer's life, as recorded episodes.

Smart glasses record moments, not whole days: each day is a routine of episodes
(breakfast, work, lunch, a walk, afternoon work, an errand, dinner, the evening), each a
short video on the wearer's clock. Habits come from weighted choices (oatmeal most
mornings, the park after lunch), things move and change state between and within
episodes, and people make requests, commitments, deferred answers and corrections.

Every episode carries the exact facts it shows and says (`Fact`), which the question
generators read; memlens only ever sees the rendered pixels and audio.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from eval.life.world import (
    BOOKS,
    DOCUMENTS,
    FOODS,
    GROCERIES,
    LEADERS,
    MEET_PLACES,
    MEETING_TOPICS,
    MOVIES,
    MUGS,
    PASSWORDS,
    PLACE_COLOURS,
    TASKS,
    TIME_TEXT,
    TIMES,
    WEARER,
    WEEKDAY_NAMES,
    World,
    weighted,
)
from eval.synthetic.script import (
    Person,
    Placement,
    Room,
    SceneObject,
    Script,
    Shot,
    TextArtifact,
    Utterance,
    estimate_speech_seconds,
)

EPISODE_KINDS = ("breakfast", "work", "lunch", "walk", "afternoon", "errand", "dinner", "evening")
TURN_GAP = 1.4  # seconds of silence between lines: memlens splits turns at >= 1 s pauses
SHOT_MIN = 5.0  # a shot lasts long enough for several keyframes


@dataclass(frozen=True)
class Fact:
    """One ground-truth fact of an episode, with its span in seconds on the episode video.

    kind: visit (subject = place) | seen (subject = thing, value = state) | text (subject =
    note/screen/sign, value = lines joined by " / ") | said (subject = speaker, value = the
    line; `line` indexes the script's utterances) | meal (subject = meal, value = food) |
    bought (subject = item). `info` holds the act and its slots (e.g. act=request, doc=...).
    """

    kind: str
    subject: str
    value: str = ""
    place: str = ""
    start: float = 0.0
    end: float = 0.0
    line: int | None = None
    info: tuple[tuple[str, str], ...] = ()

    def get(self, key: str, default: str = "") -> str:
        return dict(self.info).get(key, default)


@dataclass(frozen=True)
class Episode:
    video_id: str
    person: str
    day: int  # 1-based
    kind: str
    wall_start: datetime  # naive wearer's clock at second 0 of the video
    script: Script
    facts: tuple[Fact, ...]

    @property
    def wall_end(self) -> datetime:
        return self.wall_start + timedelta(seconds=self.script.duration)

    def wall(self, seconds: float) -> datetime:
        return self.wall_start + timedelta(seconds=seconds)

    @property
    def places(self) -> list[str]:
        return [f.subject for f in self.facts if f.kind == "visit"]

    def timed(self, rendered: Script) -> Episode:
        """The episode with utterance spans taken from the rendered (exact) script."""
        facts = tuple(
            replace(f, start=rendered.utterances[f.line].start, end=rendered.utterances[f.line].end)
            if f.kind == "said" and f.line is not None else f
            for f in self.facts
        )
        return replace(self, script=rendered, facts=facts)


class _Take:
    """Lays out one episode: shots in order, lines spoken one after another."""

    def __init__(self, world: World):
        self.world = world
        self.shots: list[dict] = []
        self.lines: list[Utterance] = []
        self.facts: list[Fact] = []
        self.cursor = 0.0

    def shot(self, place: str, things: list[tuple[str, str]] = (), text: TextArtifact | None = None,
             person: str | None = None) -> None:
        if self.shots:
            self.cursor = max(self.cursor, self.shots[-1]["start"] + SHOT_MIN)
        self.shots.append({"start": round(self.cursor, 3), "place": place, "things": list(things),
                           "text": text, "person": person})
        self.cursor += 0.8

    def say(self, speaker: str, text: str, **info: str) -> None:
        start = round(self.cursor, 3)
        self.lines.append(Utterance(start, speaker, self.world.voice_of(speaker), text))
        self.facts.append(Fact("said", speaker, text, self.shots[-1]["place"], start,
                               start + estimate_speech_seconds(text, 150, 6), len(self.lines) - 1,
                               tuple(sorted(info.items()))))
        self.cursor = start + estimate_speech_seconds(text, 150, 6) + TURN_GAP

    def fact(self, kind: str, subject: str, value: str = "", **info: str) -> None:
        """A fact about the current shot (its span is filled in when the take closes)."""
        self.facts.append(Fact(kind, subject, value, self.shots[-1]["place"], -1.0, -1.0, None,
                               tuple(sorted(info.items()))))

    def close(self, world: World, title: str, wall_start: datetime, seed: int,
              min_seconds: float = 0.0) -> tuple[Script, tuple[Fact, ...]]:
        duration = round(max(self.cursor + 1.0, self.shots[-1]["start"] + SHOT_MIN, min_seconds), 1)
        ends = [s["start"] for s in self.shots[1:]] + [duration]
        shots, facts = [], []
        for s, end in zip(self.shots, ends):
            row = [Placement(name, 0.13 + 0.29 * k, 0.74, state) for k, (name, state) in enumerate(s["things"])]
            shots.append(Shot(s["start"], end, s["place"], tuple(row), s["text"], s["person"]))
            facts.append(Fact("visit", s["place"], place=s["place"], start=s["start"], end=end))
            facts += [Fact("seen", name, state, s["place"], s["start"], end) for name, state in s["things"]]
            if s["text"] is not None:
                facts.append(Fact("text", s["text"].kind, " / ".join(s["text"].lines), s["place"], s["start"], end))
        for f in self.facts:  # shot-level facts take the span of the shot they were made in
            if f.kind != "said":
                shot = next(sh for sh in reversed(shots) if sh.room == f.place)
                f = replace(f, start=shot.start, end=shot.end)
            facts.append(f)
        names = {n for s in self.shots for n, _ in s["things"]}
        people = {WEARER, *(u.speaker for u in self.lines), *(s["person"] for s in self.shots if s["person"])}
        script = Script(
            title=title, duration=duration, fps=5, size=(960, 540),
            start_datetime=wall_start.strftime("%Y-%m-%dT%H:%M:%SZ"),
            rooms=tuple(Room(p, PLACE_COLOURS[p]) for p in dict.fromkeys(s["place"] for s in self.shots)),
            objects=tuple(SceneObject(t.name, t.rgb, t.shape) for t in world.things if t.name in names),
            people=tuple(Person(p, world.voice_of(p)) for p in sorted(people)),
            shots=tuple(shots), utterances=tuple(self.lines), seed=seed,
        )
        return script, tuple(facts)


@dataclass
class _Household:
    """What persists between episodes: where things are, what is pending."""

    keys_at: str = "hallway"
    pending_leader: tuple[str, str] | None = None  # (topic, leader) Bob promised to tell later


class LifeSimulator:
    def __init__(self, world: World, days: int, kinds: tuple[str, ...] = EPISODE_KINDS,
                 min_episode_seconds: float = 0.0):
        """`min_episode_seconds` pads each recording (the last shot runs on), which sets the
        minutes of video per day without changing what happens."""
        unknown = set(kinds) - set(EPISODE_KINDS)
        if unknown or days < 1:
            raise ValueError(f"days must be >= 1 and kinds within {EPISODE_KINDS}; got {days}, {sorted(unknown)}")
        self.world, self.days, self.kinds = world, days, kinds
        self.min_episode_seconds = min_episode_seconds
        self.rng = random.Random(f"{world.seed}:{world.person}")
        self.home = _Household()

    def run(self) -> list[Episode]:
        episodes: list[Episode] = []
        for day in range(1, self.days + 1):
            date = datetime.fromisoformat(self.world.start_date) + timedelta(days=day - 1)
            for kind in self.kinds:
                episodes.append(self._episode(kind, day, date, len(episodes)))
        return episodes

    # ---- one episode ------------------------------------------------------------------
    _START = {"breakfast": (7, 5), "work": (9, 0), "lunch": (12, 5), "walk": (12, 50),
              "afternoon": (14, 30), "errand": (17, 30), "dinner": (19, 10), "evening": (21, 0)}

    def _episode(self, kind: str, day: int, date: datetime, index: int) -> Episode:
        hour, minute = self._START[kind]
        wall = date.replace(hour=hour, minute=minute) + timedelta(minutes=self.rng.randint(0, 14),
                                                                  seconds=self.rng.randint(0, 59))
        take = _Take(self.world)
        getattr(self, f"_{kind}")(take, day, date)
        video_id = f"{self.world.person}-d{day}-{index % len(self.kinds) + 1:02d}-{kind}"
        script, facts = take.close(self.world, f"{self.world.person} day {day} {kind}", wall,
                                   seed=self.world.seed * 1000 + index, min_seconds=self.min_episode_seconds)
        return Episode(video_id, self.world.person, day, kind, wall, script, facts)

    def _mug(self, day: int) -> str:
        """Mugs join the household over the days: day d knows d + 1 of them."""
        return self.rng.choice(MUGS[: min(len(MUGS), day + 1)]).name

    def _breakfast(self, t: _Take, day: int, date: datetime) -> None:
        food = weighted(self.rng, FOODS["breakfast"])
        place = weighted(self.rng, (("kitchen", 3), ("dining room", 1)))
        things = [(food, ""), (self._mug(day), "")]
        if food == "eggs":
            things.append(("pan", "dirty"))
        note = None
        if place == "kitchen":
            note = [TextArtifact("note", ("WIFI PASSWORD", PASSWORDS[(day - 1) % len(PASSWORDS)]), 0.42, 0.42),
                    TextArtifact("note", ("DENTIST", WEEKDAY_NAMES[(date.weekday() + 3) % 7].upper(), "9:30 AM"), 0.42, 0.42),
                    TextArtifact("note", ("CALL MOM", "SUNDAY"), 0.42, 0.42)][(day - 1) % 3]
        t.shot(place, things, note)
        t.fact("meal", "breakfast", food)
        t.say(WEARER, f"Good morning. {food.capitalize()} for breakfast today.")

    def _work(self, t: _Take, day: int, date: datetime) -> None:
        colleague = self.world.colleague
        topic = self.rng.choice(MEETING_TOPICS)
        when = self.rng.choice(TIMES)
        doc = self.rng.choice(DOCUMENTS)
        deadline = WEEKDAY_NAMES[(date.weekday() + self.rng.randint(1, 3)) % 7]
        self.home.keys_at = "office"
        things = [("laptop", ""), ("keys", "")]
        if day == 2:
            things.append(("umbrella", ""))  # brought in the rain and left at the office
        t.shot("office", things, TextArtifact("screen", (f"{topic} MEETING", TIME_TEXT[when]), 0.42, 0.42), colleague)
        t.fact("meeting", topic.lower(), TIME_TEXT[when])
        t.say(colleague, f"Hi, it's {colleague}. Could you send me the {doc} by {deadline}?",
              act="request", doc=doc, deadline=deadline)
        t.say(WEARER, f"Sure, I will send the {doc} tomorrow morning.", act="commitment", doc=doc)
        if self.rng.random() < 0.6:
            leader = self.rng.choice(LEADERS)
            t.say(WEARER, f"Who is leading the {topic.lower()} meeting?", act="deferred_question", topic=topic.lower())
            t.say(colleague, "I am not sure. I will tell you later.", act="deferral", topic=topic.lower())
            self.home.pending_leader = (topic.lower(), leader)

    def _lunch(self, t: _Take, day: int, date: datetime) -> None:
        food = weighted(self.rng, FOODS["lunch"])
        place = weighted(self.rng, (("cafe", 5), ("park", 2)))
        things = [(food, ""), ("bottle", "full")]
        receipt = None
        if place == "cafe":
            total = f"${self.rng.randint(6, 14)}.{self.rng.choice((25, 50, 75, 90))}"
            receipt = TextArtifact("note", ("CAFE RECEIPT", f"TOTAL {total}"), 0.42, 0.42)
        t.shot(place, things, receipt)
        t.fact("meal", "lunch", food)
        t.say(WEARER, f"The {food} here is really good.")

    def _walk(self, t: _Take, day: int, date: datetime) -> None:
        place = weighted(self.rng, (("park", 3), ("library", 1)))
        if place == "library":
            book = self.rng.choice(BOOKS[: min(len(BOOKS), day + 1)]).name
            t.shot("library", [(book, ""), ("bottle", "empty")], TextArtifact("sign", ("QUIET PLEASE",), 0.42, 0.42))
            t.say(WEARER, "Let me read for a few minutes.")
        else:
            t.shot("park", [("bottle", "empty")])
            t.say(WEARER, "A short walk after lunch.")

    def _afternoon(self, t: _Take, day: int, date: datetime) -> None:
        colleague = self.world.colleague
        t.shot("office", [("laptop", ""), (self._mug(day), "")], person=colleague)
        if self.home.pending_leader is not None:
            topic, leader = self.home.pending_leader
            t.say(colleague, f"It's {colleague} again. {leader} is leading the {topic} meeting.",
                  act="deferred_answer", topic=topic, leader=leader)
            t.say(WEARER, f"Thanks, {leader} it is.")
            self.home.pending_leader = None
        else:
            topic = self.rng.choice(MEETING_TOPICS).lower()
            first, final = self.rng.sample(TIMES, 2)
            t.say(colleague, f"Hi, it's {colleague}. The {topic} review is at {first}. Actually, no, it moved to {final}.",
                  act="correction", topic=topic, first=TIME_TEXT[first], final=TIME_TEXT[final])
            t.say(WEARER, f"{final.capitalize()}, got it.")

    def _errand(self, t: _Take, day: int, date: datetime) -> None:
        if self.rng.random() < 0.6:
            items = self.rng.sample(GROCERIES, 2)
            total = f"${self.rng.randint(15, 45)}.{self.rng.choice((10, 40, 60, 85))}"
            t.shot("grocery store", [(i, "") for i in items],
                   TextArtifact("note", ("GROCERY RECEIPT", f"TOTAL {total}"), 0.42, 0.42))
            for item in items:
                t.fact("bought", item)
            t.say(WEARER, f"I need {items[0]} and {items[1]}.")
        else:
            t.shot("gym", [("bottle", "full")], TextArtifact("sign", ("LOCKER", str(self.rng.randint(10, 60))), 0.42, 0.42))
            t.say(WEARER, "Time for a workout.")

    def _dinner(self, t: _Take, day: int, date: datetime) -> None:
        mate = self.world.housemate
        place = weighted(self.rng, (("dining room", 3), ("kitchen", 2)))
        t.shot(place, [("pan", "dirty"), (self._mug(day), "")], person=mate)
        if self.rng.random() < 0.5:
            meet, (first, final) = self.rng.choice(MEET_PLACES), self.rng.sample(TIMES, 2)
            t.say(mate, f"Hey, it's {mate}. Let's meet at the {meet} at {first} tomorrow. Actually, no, make it {final}.",
                  act="correction", topic=f"meet at the {meet}", first=TIME_TEXT[first], final=TIME_TEXT[final])
            t.say(WEARER, f"{final.capitalize()} works for me.")
        else:
            item = self.rng.choice(GROCERIES)
            t.say(mate, f"Hey, it's {mate}. Could you buy {item} tomorrow?", act="request", item=item)
            t.say(WEARER, f"Sure, I will buy {item} after work.", act="commitment", item=item)
        t.shot("kitchen", [("pan", "clean")])
        t.say(WEARER, "Now the pan is clean.")

    def _evening(self, t: _Take, day: int, date: datetime) -> None:
        self.home.keys_at = weighted(self.rng, (("hallway", 3), ("living room", 2), ("bedroom", 1)))
        t.shot("hallway", [("keys", "")] if self.home.keys_at == "hallway" else [],
               TextArtifact("sign", ("APARTMENT 4B",), 0.42, 0.42))
        t.say(WEARER, "Home at last.")
        room = "living room" if self.home.keys_at != "bedroom" and self.rng.random() < 0.75 else "bedroom"
        if self.home.keys_at not in ("hallway", room):
            self.home.keys_at = room
        things = [("phone", "")] + ([("keys", "")] if self.home.keys_at == room else [])
        if self.rng.random() < 0.4:
            things.append(("laptop", ""))
        tv = TextArtifact("screen", ("MOVIE NIGHT", self.rng.choice(MOVIES)), 0.42, 0.42) if room == "living room" else None
        t.shot(room, things, tv)
        task = self.rng.choice(TASKS)
        t.say(WEARER, f"Tomorrow I need to {task}.", act="intention", task=task)
