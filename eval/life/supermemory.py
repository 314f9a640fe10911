"""SuperMemory-VQA-style questions (seed 001) from a rendered life.

Six categories, each item with three custom options (correct / vague / incorrect) plus
the appended "This question cannot be answered"; unanswerable items (a person never met,
a thing never seen, a false premise, or an event that has not happened yet at t_q) have
three incorrect options and the not-answerable option as gold.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta

from eval.life.log import At, LifeLog, distinct_others, make_item
from eval.life.world import (
    DOCUMENTS,
    GROCERIES,
    HOME_PLACES,
    LEADERS,
    MOVIES,
    NEVER_MET,
    OUTSIDE_PLACES,
    PASSWORDS,
    TASKS,
    TIME_TEXT,
)
from eval.schema import Item

SUITE = "supermemory"
CATEGORIES = ("object_location_memory", "conversational_memory", "visual_recall",
              "in_context_retrieval", "timeline_reconstruction", "intent_recall")
# Person 1's category counts in the paper's Table 3 (205/182/175/166/141/148 of 1,017)
SHARES = {"object_location_memory": 205, "conversational_memory": 182, "visual_recall": 175,
          "in_context_retrieval": 166, "timeline_reconstruction": 141, "intent_recall": 148}
UNANSWERABLE_SHARE = 0.2
TRACKED = ("keys", "umbrella", "laptop", "phone", "pan")
PLACES = HOME_PLACES + OUTSIDE_PLACES


def _vague_place(place: str) -> str:
    return "Somewhere at home" if place in HOME_PLACES else "Somewhere outside the home"


class SuperMemoryQuestions:
    def __init__(self, log: LifeLog, seed: int):
        self.log, self.seed = log, seed

    def _times(self, person: str, after: At, same_day: bool = True, days: int = 0) -> list[datetime]:
        """Question times after a fact ends: the same day, or up to `days` days later."""
        end = after.end
        return [t for t in self.log.question_times(person)
                if t > end and (t.date() == end.date() if same_day else (t.date() - end.date()).days <= days)]

    def _rng(self, *key) -> random.Random:
        return random.Random(f"{self.seed}:{':'.join(map(str, key))}")

    def _item(self, task: str, question: str, options, asked: datetime, person: str, evidence, key, **meta) -> Item:
        return make_item(SUITE, task, question, options, asked, person, evidence, self._rng(*key),
                         abstain_option=True, **meta)

    def candidates(self) -> dict[tuple[str, bool], list[Item]]:
        """Every item the log supports, by (category, answerable)."""
        out: dict[tuple[str, bool], list[Item]] = {}
        makers: list[Callable[[str], Iterator[Item]]] = [
            self.object_location, self.conversational, self.visual, self.in_context, self.timeline, self.intent,
            self.unanswerable,
        ]
        for person in self.log.people:
            for make in makers:
                for item in make(person):
                    out.setdefault((item.task, item.answerable), []).append(item)
        return out

    # ---- object & location ------------------------------------------------------------
    def object_location(self, person: str) -> Iterator[Item]:
        for thing in TRACKED:
            for asked in self.log.question_times(person):
                seen = list(self.log.facts(person, "seen", asked, subject=thing))
                if not seen:
                    continue
                last = seen[-1]
                place = last.fact.place
                earlier = [s.fact.place for s in seen if s.fact.place != place]
                wrong = earlier[-1] if earlier else distinct_others(self._rng(thing, asked), PLACES, [place], 1)[0]
                q = f"I can't find my {thing}. Where did I last see it?" if thing != "pan" else \
                    "Where did I last see the pan?"
                yield self._item("object_location_memory", q, [
                    (f"In the {place}", "correct"), (_vague_place(place), "vague"), (f"In the {wrong}", "incorrect"),
                ], asked, person, [last], ("olm", person, thing, asked))

    # ---- conversations ------------------------------------------------------------------
    def conversational(self, person: str) -> Iterator[Item]:
        log = self.log
        for at in log.facts(person, "said", act="request"):
            who = at.fact.subject
            if at.fact.get("doc"):
                doc = at.fact.get("doc")
                for asked in self._times(person, at):
                    other = [a.fact.get("doc") for a in log.facts(person, "said", asked, act="request") if a.fact.get("doc") not in ("", doc)]
                    wrong = other[-1] if other else distinct_others(self._rng("conv", at.start), DOCUMENTS, [doc], 1)[0]
                    yield self._item("conversational_memory", f"What did {who} ask me to send today?", [
                        (f"The {doc}", "correct"), ("A document", "vague"), (f"The {wrong}", "incorrect"),
                    ], asked, person, [at], ("conv-doc", at.start, asked))
        for asked in log.question_times(person):  # the latest thing the housemate asked for
            at = next((a for a in reversed(list(log.facts(person, "said", asked, act="request"))) if a.fact.get("item")), None)
            if at is None:
                continue
            item = at.fact.get("item")
            wrong = distinct_others(self._rng("conv-buy", at.start), GROCERIES, [item], 1)[0]
            yield self._item("conversational_memory", f"What did {at.fact.subject} last ask me to buy?", [
                (item.capitalize(), "correct"), ("Some groceries", "vague"), (wrong.capitalize(), "incorrect"),
            ], asked, person, [at], ("conv-buy", at.start, asked))
        for at in log.facts(person, "said", act="correction"):
            who, topic = at.fact.subject, at.fact.get("topic")
            first, final = at.fact.get("first"), at.fact.get("final")
            if topic.startswith("meet at"):
                q = f"What time did {who} finally say we should {topic}?"
            else:
                q = f"What time did {who} finally say the {topic} review is?"
            for asked in self._times(person, at):
                yield self._item("conversational_memory", q, [
                    (final, "correct"), ("Sometime after lunch", "vague"), (first, "incorrect"),
                ], asked, person, [at], ("conv-corr", at.start, asked), first_said=first)
        for at in log.facts(person, "said", act="deferred_answer"):
            who, topic, leader = at.fact.subject, at.fact.get("topic"), at.fact.get("leader")
            ask = list(log.facts(person, "said", at.start, act="deferred_question", topic=topic))
            wrong = distinct_others(self._rng("lead", at.start), LEADERS, [leader], 1)[0]
            for asked in self._times(person, at, same_day=False, days=1):
                yield self._item("conversational_memory", f"Who did {who} eventually say is leading the {topic} meeting?", [
                    (leader, "correct"), ("Someone from the team", "vague"), (wrong, "incorrect"),
                ], asked, person, ask[-1:] + [at], ("conv-lead", at.start, asked))

    # ---- visual scene recall ----------------------------------------------------------
    def visual(self, person: str) -> Iterator[Item]:
        log = self.log
        for at, asked in ((a, t) for a in log.facts(person, "text") for t in self._times(person, a)):
            lines = at.fact.value.split(" / ")
            rng = self._rng("vis", at.start, asked)
            head = lines[0]
            if head == "WIFI PASSWORD":
                wrong = distinct_others(rng, PASSWORDS, [lines[1]], 1)[0]
                yield self._item("visual_recall", "What is the wifi password on the kitchen note?", [
                    (lines[1], "correct"), ("A word followed by a number", "vague"), (wrong, "incorrect"),
                ], asked, person, [at], ("wifi", at.start, asked))
            elif head == "DENTIST":
                day = lines[1].capitalize()
                wrong = distinct_others(rng, ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday"), [day], 1)[0]
                yield self._item("visual_recall", "Which day is the dentist appointment on the note?", [
                    (day, "correct"), ("Later this week", "vague"), (wrong, "incorrect"),
                ], asked, person, [at], ("dentist", at.start, asked))
            elif head.endswith("MEETING"):
                topic = head.split()[0].lower()
                wrong = distinct_others(rng, TIME_TEXT.values(), [lines[1]], 1)[0]
                yield self._item("visual_recall", f"What time was the {topic} meeting on the office screen today?", [
                    (lines[1], "correct"), ("Sometime after lunch", "vague"), (wrong, "incorrect"),
                ], asked, person, [at], ("screen", at.start, asked))
            elif head.endswith("RECEIPT"):
                total = lines[1].split()[-1]
                dollars, cents = total[1:].split(".")
                wrong = f"${int(dollars) + rng.choice((-4, -3, 3, 5))}.{cents}"
                where = "cafe" if head.startswith("CAFE") else "grocery store"
                yield self._item("visual_recall", f"What was the total on my {where} receipt today?", [
                    (total, "correct"), (f"About {10 * round(int(dollars) / 10)} dollars", "vague"), (wrong, "incorrect"),
                ], asked, person, [at], ("receipt", at.start, asked))
            elif head == "MOVIE NIGHT":
                wrong = distinct_others(rng, MOVIES, [lines[1]], 1)[0]
                yield self._item("visual_recall", "Which movie was on the TV screen tonight?", [
                    (lines[1].title(), "correct"), ("An old classic film", "vague"), (wrong.title(), "incorrect"),
                ], asked, person, [at], ("movie", at.start, asked))
            elif head == "LOCKER":
                number = lines[1] if len(lines) > 1 else ""
                if number:
                    yield self._item("visual_recall", "What was my locker number at the gym today?", [
                        (number, "correct"), ("A two-digit number", "vague"), (str(int(number) + rng.choice((-7, 5, 11))), "incorrect"),
                    ], asked, person, [at], ("locker", at.start, asked))

    # ---- in-context (multi-hop) -------------------------------------------------------
    def in_context(self, person: str) -> Iterator[Item]:
        log = self.log
        lunches = list(log.facts(person, "meal", subject="lunch"))
        breakfasts = list(log.facts(person, "meal", subject="breakfast"))
        for at in log.facts(person, "said", act="request"):
            if not at.fact.get("doc"):
                continue
            lunch = next((m for m in lunches if m.day == at.day), None)
            if lunch is None:
                continue
            for asked in self._times(person, lunch, same_day=False, days=2):
                same = [a for a in log.facts(person, "said", asked, act="request", doc=at.fact.get("doc"))
                        if a.fact.subject == at.fact.subject]
                if len(same) > 1:
                    break  # the anchor must name one day
                others = [m.fact.place for m in lunches if m.fact.place != lunch.fact.place and m.end < asked]
                wrong = others[0] if others else distinct_others(self._rng("ic", at.start), ("cafe", "park", "library"), [lunch.fact.place], 1)[0]
                yield self._item("in_context_retrieval",
                                 f"Where did I have lunch on the day {at.fact.subject} asked me for the {at.fact.get('doc')}?", [
                                     (f"At the {lunch.fact.place}", "correct"), ("Somewhere outside the home", "vague"),
                                     (f"At the {wrong}", "incorrect")], asked, person, [at, lunch], ("ic-lunch", at.start, asked))
        for visit in log.facts(person, "visit", subject="gym"):
            breakfast = next((m for m in breakfasts if m.day == visit.day), None)
            if breakfast is None:
                continue
            food = breakfast.fact.value
            wrong = distinct_others(self._rng("ic-gym", visit.start), ("oatmeal", "toast", "eggs"), [food], 1)[0]
            gym_days = {v.day for v in log.facts(person, "visit", subject="gym")}
            for asked in self._times(person, visit, same_day=False, days=2):
                if len({d for d in gym_days if self.log.day_of(person, asked) and d <= self.log.day_of(person, asked)}) > 1:
                    break  # "the day I went to the gym" must name one day
                yield self._item("in_context_retrieval", "What did I eat for breakfast on the day I went to the gym?", [
                    (food.capitalize(), "correct"), ("Something quick in the morning", "vague"), (wrong.capitalize(), "incorrect"),
                ], asked, person, [visit, breakfast], ("ic-gym", visit.start, asked))

    # ---- timeline -------------------------------------------------------------------
    def timeline(self, person: str) -> Iterator[Item]:
        days = sorted({e.day for e in self.log.of(person)})
        for day in days:
            visits = [v for v in self.log.facts(person, "visit") if v.day == day]
            first: dict[str, At] = {}
            for v in visits:
                first.setdefault(v.fact.subject, v)
            if len(first) < 3:
                continue
            rng = self._rng("tl", person, day)
            triples = {tuple(sorted(rng.sample(sorted(first), 3), key=lambda p: first[p].start)) for _ in range(12)}
            for chosen in sorted(triples):
                yield from self._timeline_item(person, day, list(chosen), first, rng)

    def _timeline_item(self, person: str, day: int, chosen: list[str], first: dict[str, At],
                       rng: random.Random) -> Iterator[Item]:
        """Three places of one day, asked in alphabetical order; answered by first visits."""
        wrong = chosen[:]
        while wrong == chosen:
            rng.shuffle(wrong)
        names = ", ".join(f"the {p}" for p in sorted(chosen))
        names = names.replace(", the " + sorted(chosen)[-1], " and the " + sorted(chosen)[-1])
        for asked in self._times(person, first[chosen[-1]]):
            yield self._item("timeline_reconstruction", f"In what order did I go to {names} today?", [
                (", then ".join(f"the {p}" for p in chosen), "correct"),
                (f"The {chosen[0]} first, then the other two", "vague"),
                (", then ".join(f"the {p}" for p in wrong), "incorrect"),
            ], asked, person, [first[p] for p in chosen], ("tl", person, day, tuple(chosen), asked))

    # ---- intent -----------------------------------------------------------------------
    def intent(self, person: str) -> Iterator[Item]:
        for at in self.log.facts(person, "said", act="intention"):
            task = at.fact.get("task")
            wrong = distinct_others(self._rng("int", at.start), TASKS, [task], 1)[0]
            for asked in self._times(person, at, same_day=False, days=1):
                if asked.date() == at.start.date() or asked.hour >= 12:
                    continue  # the next morning
                yield self._item("intent_recall", "Last night, what did I say I need to do today?", [
                    (task.capitalize(), "correct"), ("Run an errand", "vague"), (wrong.capitalize(), "incorrect"),
                ], asked, person, [at], ("int", at.start, asked))
        for at in self.log.facts(person, "said", act="commitment"):
            if not at.fact.get("item"):
                continue
            item = at.fact.get("item")
            wrong = distinct_others(self._rng("int-c", at.start), GROCERIES, [item], 1)[0]
            mate = next(a.fact.subject for a in self.log.facts(person, "said", act="request", item=item) if a.day == at.day)
            for asked in self._times(person, at, same_day=False, days=1):
                if asked.date() != at.start.date() and asked.hour >= 17:
                    break  # by the next evening "after work" has come and gone
                yield self._item("intent_recall", f"What did I tell {mate} I would buy after work?", [
                    (item.capitalize(), "correct"), ("Something from the store", "vague"), (wrong.capitalize(), "incorrect"),
                ], asked, person, [at], ("int-c", at.start, asked))

    # ---- unanswerable -------------------------------------------------------------------
    def unanswerable(self, person: str) -> Iterator[Item]:
        """Never met, never seen, false premise, and not yet happened at t_q."""
        times = self.log.question_times(person)
        rng = self._rng("un", person)
        for k, asked in enumerate(times):
            name = NEVER_MET[k % len(NEVER_MET)]
            options = [(g.capitalize(), "incorrect") for g in distinct_others(rng, GROCERIES, [], 3)]
            yield self._item("conversational_memory", f"What did {name} ask me to buy?", options, asked, person, [],
                             ("un-name", person, asked))
            never = ("passport", "sunglasses", "wallet", "scissors")[k % 4]
            places = [(f"In the {p}", "incorrect") for p in distinct_others(rng, PLACES, [], 3)]
            yield self._item("object_location_memory", f"Where did I leave my {never}?", places, asked, person, [],
                             ("un-thing", person, asked))
            totals = [(f"${rng.randint(5, 40)}.{rng.choice((15, 35, 55, 95))}", "incorrect") for _ in range(3)]
            if len({t for t, _ in totals}) == 3:
                yield self._item("visual_recall", "What was the total on the pharmacy receipt?", totals, asked, person, [],
                                 ("un-pharmacy", person, asked))
            yield self._item("intent_recall", f"What did {name} remind me to do?",
                             [(t.capitalize(), "incorrect") for t in distinct_others(rng, TASKS, [], 3)], asked, person, [],
                             ("un-remind", person, asked))
        for at in self.log.facts(person, "said", act="request"):
            if not at.fact.get("doc"):
                continue
            asked = at.episode.wall_start - timedelta(minutes=30)  # that morning, before work
            docs = [(f"The {d}", "incorrect") for d in distinct_others(self._rng("un-doc", at.start), DOCUMENTS, [], 3)]
            yield self._item("conversational_memory", f"What did {at.fact.subject} ask me to send today?", docs, asked,
                             person, [], ("un-early", at.start))
        for day in sorted({e.day for e in self.log.of(person)}):
            episode = next(e for e in self.log.of(person) if e.day == day)
            asked = datetime.combine(episode.wall_start.date(), datetime.min.time()) + timedelta(hours=22, minutes=30)
            who = NEVER_MET[day % len(NEVER_MET)]
            places = [(f"At the {p}", "incorrect") for p in distinct_others(self._rng("un-ic", person, day), ("cafe", "park", "library", "gym"), [], 3)]
            yield self._item("in_context_retrieval", f"Where did I have lunch on the day {who} visited?", places, asked,
                             person, [], ("un-ic", person, day))
            perm = distinct_others(self._rng("un-tl", person, day), ("cinema", "pharmacy", "bank", "museum"), [], 3)
            yield self._item("timeline_reconstruction", f"In what order did I go to the {perm[0]}, the {perm[1]} and the {perm[2]} today?",
                             [(", then ".join(f"the {p}" for p in perm[i:] + perm[:i]), "incorrect") for i in range(3)],
                             asked, person, [], ("un-tl", person, day))
