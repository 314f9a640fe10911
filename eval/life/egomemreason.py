"""EgoMemReason-style questions (seed 004) from a rendered life.

Three memory types, two tasks each: entity (cumulative state tracking, temporal counting),
event (ordering, linking), behavior (spatial preference, activity pattern). Every item has
a query time t_q, evidence from at least two days before it, and five options whose
distractors come from the same world and differ only in the asked dimension.
"""
from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator
from datetime import datetime, timedelta

from eval.life.log import At, LifeLog, distinct_others, make_item, weekday_label
from eval.life.world import HOME_PLACES, MUGS, OUTSIDE_PLACES
from eval.schema import Item

SUITE = "egomemreason"
TASKS = {"Tracking": "entity", "Counting": "entity", "Ordering": "event", "Linking": "event",
         "Spatial": "behavior", "Activity": "behavior"}
# Task labels are the paper's Table 1 column names. The paper's split (derived from Table 1): 100 each for the entity and event tasks, 50 each for behavior.
SHARES = {"Tracking": 100, "Counting": 100, "Ordering": 100, "Linking": 100, "Spatial": 50, "Activity": 50}
N_OPTIONS = 5
PLACES = HOME_PLACES + OUTSIDE_PLACES


def _collapse(seq: list[str]) -> list[str]:
    return [p for k, p in enumerate(seq) if k == 0 or seq[k - 1] != p]


def _spans_days(evidence: list[At]) -> bool:
    return len({a.day for a in evidence}) >= 2


class EgoMemReasonQuestions:
    def __init__(self, log: LifeLog, seed: int):
        self.log, self.seed = log, seed

    def _rng(self, *key) -> random.Random:
        return random.Random(f"{self.seed}:{':'.join(map(str, key))}")

    def _item(self, task: str, question: str, correct: str, wrong: list[str], asked: datetime, person: str,
              evidence: list[At], key) -> Item:
        options = [(correct, "correct")] + [(w, "distractor") for w in wrong[: N_OPTIONS - 1]]
        return make_item(SUITE, task, question, options, asked, person, evidence, self._rng(*key),
                         memory_type=TASKS[task])

    def candidates(self) -> dict[str, list[Item]]:
        out: dict[str, list[Item]] = {t: [] for t in TASKS}
        for person in self.log.people:
            for make in (self.tracking, self.counting, self.ordering, self.linking, self.spatial, self.activity):
                for item in make(person):
                    out[item.task].append(item)
        return out

    def _late_times(self, person: str) -> list[datetime]:
        """Question times from day 2 on, so evidence can span two days."""
        first = min(e.wall_start for e in self.log.of(person)).date()
        return [t for t in self.log.question_times(person) if t.date() > first]

    # ---- entity -------------------------------------------------------------------------
    def tracking(self, person: str) -> Iterator[Item]:
        """Where a thing has been, in order (its location history up to t_q), and the pan's
        last condition and place."""
        for thing in ("keys", "laptop", "umbrella", "bottle"):
            for asked in self._late_times(person):
                seen = list(self.log.facts(person, "seen", asked, subject=thing))
                places = _collapse([s.fact.place for s in seen])[-4:]
                if len(places) < 3:
                    continue
                tail = [s for s in seen if s.fact.place in places][-8:]
                if not _spans_days(tail):
                    continue
                correct = " -> ".join(places)
                rng = self._rng("track", person, thing, asked)
                wrong: list[str] = []
                for perm in itertools.permutations(places):
                    p = list(perm)
                    if p != places and _collapse(p) == p and " -> ".join(p) not in wrong:
                        wrong.append(" -> ".join(p))
                rng.shuffle(wrong)
                for i in range(len(places)):  # one stop replaced by a place it never went
                    alt = distinct_others(rng, PLACES, places, 1)[0]
                    wrong.append(" -> ".join(places[:i] + [alt] + places[i + 1:]))
                wrong = list(dict.fromkeys(w for w in wrong if w != correct))[: N_OPTIONS - 1]
                if len(wrong) < N_OPTIONS - 1:
                    continue
                verb = "have" if thing.endswith("s") else "has"
                yield self._item("Tracking", f"Where {verb} my {thing} been over the last days, from earliest to latest?",
                                 correct, wrong, asked, person, tail, ("track", person, thing, asked))
        for asked in self._late_times(person):
            seen = list(self.log.facts(person, "seen", asked, subject="pan"))
            if len(seen) < 2 or not _spans_days(seen):
                continue
            last = seen[-1]
            state, place = last.fact.value, last.fact.place
            other_state = "clean" if state == "dirty" else "dirty"
            rooms = [p for p in ("kitchen", "dining room") if p != place] or ["kitchen"]
            correct = f"{state.capitalize()}, in the {place}"
            wrong = [f"{other_state.capitalize()}, in the {place}", f"{state.capitalize()}, in the {rooms[0]}",
                     f"{other_state.capitalize()}, in the {rooms[0]}", f"{state.capitalize()}, in the living room"]
            evidence = seen[-3:]
            earlier = [s for s in seen if s.day != seen[-1].day]
            if not _spans_days(evidence) and earlier:
                evidence = [earlier[-1]] + evidence  # the condition it was in on an earlier day
            yield self._item("Tracking", "What condition was the pan in, and where, the last time I saw it?",
                             correct, [w for w in wrong if w != correct], asked, person, evidence, ("pan", person, asked))

    def counting(self, person: str) -> Iterator[Item]:
        """Distinct instances of a category seen so far, and distinct visits to a place."""
        for category, instances in (("mug", MUGS),):
            names = {t.name for t in instances}
            for asked in self._late_times(person):
                seen = [s for s in self.log.facts(person, "seen", asked) if s.fact.subject in names]
                first: dict[str, At] = {}
                for s in seen:
                    first.setdefault(s.fact.subject, s)
                n, evidence = len(first), list(dict.fromkeys(list(first.values()) + seen[-1:]))
                if n < 2 or not _spans_days(evidence):
                    continue
                yield self._count_item(f"How many different {category}s have I seen so far?", n, asked, person,
                                       evidence, ("count", person, category, asked))
        for place in ("cafe", "gym", "park", "grocery store", "library"):
            for asked in self._late_times(person):
                visits = list(self.log.facts(person, "visit", asked, subject=place))
                episodes = {v.episode.video_id: v for v in visits}
                n = len(episodes)
                if n < 2 or not _spans_days(list(episodes.values())):
                    continue
                yield self._count_item(f"How many times have I been to the {place} so far?", n, asked, person,
                                       list(episodes.values()), ("visits", person, place, asked))

    def _count_item(self, question: str, n: int, asked: datetime, person: str, evidence: list[At], key) -> Item:
        rng = self._rng(*key)
        low = max(0, n - rng.randint(0, N_OPTIONS - 1))
        numbers = [str(v) for v in range(low, low + N_OPTIONS)]
        return self._item("Counting", question, str(n), [v for v in numbers if v != str(n)], asked, person, evidence, key)

    # ---- event --------------------------------------------------------------------------
    def _events(self, person: str) -> list[tuple[str, At]]:
        """Distinct, describable events: (description, where it happened)."""
        out: list[tuple[str, At]] = []
        for at in self.log.facts(person, "said"):
            act = at.fact.get("act")
            if act == "request" and at.fact.get("doc"):
                out.append((f"{at.fact.subject} asked me for the {at.fact.get('doc')}", at))
            elif act == "request":
                out.append((f"{at.fact.subject} asked me to buy {at.fact.get('item')}", at))
            elif act == "intention":
                out.append((f"I said I need to {at.fact.get('task')}", at))
            elif act == "deferred_answer":
                out.append((f"I learned {at.fact.get('leader')} leads the {at.fact.get('topic')} meeting", at))
        for at in self.log.facts(person, "text"):
            head, *rest = at.fact.value.split(" / ")
            if head == "MOVIE NIGHT":
                out.append((f"I watched {rest[0].title()}", at))
            elif head == "WIFI PASSWORD":
                out.append(("I read the wifi password note", at))
            elif head == "DENTIST":
                out.append(("I read the dentist note", at))
        for at in self.log.facts(person, "bought"):
            out.append((f"I bought {at.fact.subject}", at))
        counts = Counter(d for d, _ in out)
        return [(d, a) for d, a in out if counts[d] == 1]  # ambiguous descriptions are not asked

    def ordering(self, person: str) -> Iterator[Item]:
        events = self._events(person)
        last = max(e.wall_end for e in self.log.of(person)) + timedelta(minutes=30)
        rng = self._rng("order", person)
        seen_sets: set[tuple[str, ...]] = set()
        for _ in range(400):
            trio = rng.sample(events, 3)
            if len({a.day for _, a in trio}) < 2:
                continue
            trio.sort(key=lambda e: e[1].start)
            key = tuple(d for d, _ in trio)
            if key in seen_sets:
                continue
            seen_sets.add(key)
            asked = min(last, max(a.end for _, a in trio) + timedelta(hours=rng.randint(1, 20)))
            correct = "; then ".join(key)
            perms = ["; then ".join(p) for p in itertools.permutations(key) if p != key]
            rng.shuffle(perms)
            labels = ", ".join(f"({chr(97 + i)}) {d}" for i, d in enumerate(sorted(key)))
            yield self._item("Ordering", f"In what order did these happen: {labels}?", correct, perms, asked,
                             person, [a for _, a in trio], ("order", person, key))

    def linking(self, person: str) -> Iterator[Item]:
        """Find the one past event meeting several constraints (meal, food, place)."""
        log = self.log
        days = sorted({e.wall_start.date() for e in log.of(person)})
        day_labels = [weekday_label(datetime.combine(d, datetime.min.time())) for d in days]
        week = [weekday_label(datetime.combine(days[0] + timedelta(days=k), datetime.min.time())) for k in range(-3, 7)]
        for asked in self._late_times(person):
            meals = list(log.facts(person, "meal", asked))
            combos = Counter((m.fact.subject, m.fact.value, m.fact.place) for m in meals)
            for m in meals:
                key = (m.fact.subject, m.fact.value, m.fact.place)
                if combos[key] != 1 or not any(o.day != m.day and o.fact.subject == m.fact.subject for o in meals):
                    continue
                correct = weekday_label(m.start)
                wrong = [d for d in day_labels if d != correct] + [w for w in week if w not in day_labels]
                yield self._item("Linking", f"On which day did I have {m.fact.value} for {m.fact.subject} in the {m.fact.place}?",
                                 correct, wrong, asked, person, [o for o in meals if o.fact.subject == m.fact.subject],
                                 ("link", person, key, asked))
            for tv in log.facts(person, "text", asked):
                head, *rest = tv.fact.value.split(" / ")
                if head != "MOVIE NIGHT":
                    continue
                same_film = {t.day for t in log.facts(person, "text", asked) if t.fact.value == tv.fact.value}
                if len(same_film) > 1:
                    continue  # "the day I watched X" must name one day
                breakfast = next((b for b in meals if b.day == tv.day and b.fact.subject == "breakfast"), None)
                if breakfast is None or not any(b.day != tv.day for b in meals):
                    continue
                food = breakfast.fact.value
                wrong = [f for f in ("oatmeal", "toast", "eggs", "sandwich", "salad", "soup") if f != food]
                yield self._item("Linking", f"What did I have for breakfast on the day I watched {rest[0].title()}?",
                                 food, wrong[:4], asked, person, [tv, breakfast], ("link-tv", person, tv.start, asked))

    # ---- behavior -------------------------------------------------------------------------
    def _mode_item(self, task: str, question: str, values: list[tuple[str, At]], asked: datetime, person: str,
                   pool: tuple[str, ...], key) -> Item | None:
        """The habitual answer: a strict majority-of-votes winner over at least two days."""
        counts = Counter(v for v, _ in values)
        if len(values) < 2 or not _spans_days([a for _, a in values]):
            return None
        (top, n), *rest = counts.most_common() + [("", 0)]
        if rest and rest[0][1] == n:
            return None
        wrong = distinct_others(self._rng(*key), pool, [top], N_OPTIONS - 1)
        return self._item(task, question, f"The {top}", [f"The {w}" for w in wrong], asked, person,
                          [a for _, a in values], key)

    def spatial(self, person: str) -> Iterator[Item]:
        log = self.log
        asks = [("meal", meal, f"Where do I usually have {meal}?") for meal in ("breakfast", "lunch")]
        asks += [("seen", thing, f"Where do I usually use my {thing}?") for thing in ("laptop", "phone")]
        for asked in self._late_times(person):
            for kind, subject, question in asks:
                values = [(f.fact.place, f) for f in log.facts(person, kind, asked, subject=subject)]
                item = self._mode_item("Spatial", question, values, asked, person, PLACES,
                                       ("sp-meal" if kind == "meal" else "sp-thing", person, subject, asked))
                if item:
                    yield item

    def activity(self, person: str) -> Iterator[Item]:
        log = self.log
        for asked in self._late_times(person):
            eps = [e for e in log.of(person) if e.wall_end < asked]
            for after, question in (("lunch", "Where am I most likely to go after lunch?"),
                                    ("afternoon", "Where am I most likely to go after the office in the afternoon?")):
                next_places = [(At(nxt, visit).fact.subject, At(nxt, visit))
                               for prev, nxt in zip(eps, eps[1:]) if prev.kind == after and nxt.day == prev.day
                               for visit in [f for f in nxt.facts if f.kind == "visit"][:1]]
                item = self._mode_item("Activity", question, next_places, asked, person, PLACES,
                                       ("act", after, person, asked))
                if item:
                    yield item

