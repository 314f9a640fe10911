"""Structured skills: questions that code over stored timestamps answers better than text
similarity — orderings, counts, habits, trajectories, which-day links, where an activity
happened, and premise checks.

Each skill reads memory only through retrieval (cut strictly at the question time) and
returns a `SkillResult`: an answer, the records it rests on, how sufficient they are,
and, for multiple choice, a raw preference per option that the reasoner turns into
probabilities. A skill that does not apply returns None and the general path runs.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from agent.reasoning import coverage
from agent.state import Evidence, QuestionAnalysis
from agent.timescope import DAY_PARTS, TimeScope, day_window, in_hours, parse_scope
from agent.understand import content_words
from memory.records import ENTITY_SIGHTING, PLACE_VISIT, TEXT_SIGHTING, UTTERANCE, MemoryRecord, RecordFilter
from memory.scene import normalise
from retrieval.operators import MemoryOperators, order_by_time
from retrieval.search import HybridRetriever, SearchQuery

FINE_KINDS = (UTTERANCE, TEXT_SIGHTING, ENTITY_SIGHTING, PLACE_VISIT)
_NUMBER = re.compile(r"^\s*(\d+)\s*$")
_STEP_SPLIT = re.compile(r"\s*(?:;\s*then|,\s*then|->|→)\s*", re.I)
_NOT_NAMES = frozenset(("I", "Where", "What", "When", "Who", "Which", "How", "In", "On", "Did", "Do", "Last",
                        "Hey", "Aria", "Given", "My", "The", "After", "Before", "Is", "Was", "Tv", "TV"))
_CALENDAR = re.compile(r"^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|"
                       r"June|July|August|September|October|November|December)$")


@dataclass
class SkillResult:
    answer: str
    support: list[Evidence]
    sufficiency: float
    note: str
    raw: list[float] | None = None  # per option preference in [0, 1]; None: score by the claim
    claim: str | None = None


@dataclass
class SkillContext:
    retriever: HybridRetriever
    operators: MemoryOperators
    places: Sequence[str]
    namespace: str
    at: datetime | None
    scope: TimeScope = field(default_factory=TimeScope)

    def window(self) -> tuple[datetime | None, datetime | None]:
        """The scope as (after, before) on the wall clock; before never passes t_q."""
        at = self.at
        if self.scope.day_offset is None or at is None:
            return None, at
        lo, hi = day_window(at + timedelta(days=self.scope.day_offset), self.scope.hours)
        return lo, min(hi, at)

    def records(self, kinds: tuple[str, ...], store: str = "event", after: datetime | None = None,
                before: datetime | None = None) -> list[MemoryRecord]:
        cut = min(before, self.at) if before and self.at else (before or self.at)
        return order_by_time(self.operators.memory.store(store).query(RecordFilter(
            namespace=self.namespace, kinds=kinds, before=cut, not_before=after)))

    def visits(self, after: datetime | None = None, before: datetime | None = None) -> list[MemoryRecord]:
        return self.records((PLACE_VISIT,), after=after, before=before)

    def places_in(self, text: str) -> list[str]:
        words = f" {normalise(text)} "
        found = [p for p in sorted(self.places, key=len, reverse=True) if f" {p} " in words]
        return [p for p in found if not any(p != q and p in q for q in found)]

    def locate(self, phrase: str, exclude: set[int]) -> MemoryRecord | None:
        """The remembered moment a phrase describes: a visit when it names a place the
        wearer went to ("the cafe"), else the best fine record by hybrid search."""
        places = self.places_in(phrase)
        if places and len(normalise(phrase).split()) <= 3:
            visits = [v for v in self.visits(*self.window()) if v.attrs.get("place") == places[0] and v.id not in exclude]
            return visits[0] if visits else None
        hits = self.retriever.search(SearchQuery(text=phrase, namespace=self.namespace, kinds=FINE_KINDS,
                                                 before=self.at, k=6))
        terms = set(normalise(phrase).split())
        hits.sort(key=lambda h: (-len(terms & set(normalise(h.record.text).split())), -h.score))
        return next((h.record for h in hits if h.record.id not in exclude), None)


def _ev(records: Sequence[MemoryRecord], why: str) -> list[Evidence]:
    return [Evidence(r, 1.0, why) for r in records]


def _mode(values: Sequence[str]) -> tuple[str | None, float]:
    """The most frequent value and its share (ties resolved to the earliest seen)."""
    if not values:
        return None, 0.0
    counts = Counter(values)
    top = max(counts, key=lambda v: (counts[v], -values.index(v)))
    return top, counts[top] / len(values)


def _options_naming(options: Sequence[str], value: str, places: Callable[[str], list[str]]) -> list[float]:
    return [1.0 if value in places(o) or normalise(value) == normalise(o) else 0.0 for o in options]


# ---- premise --------------------------------------------------------------------------
def premise_failure(question: str, ctx: SkillContext) -> str | None:
    """A named person or place the wearer has never met, visited or read about makes the
    question's premise false: better to say so than to answer about someone else."""
    seen_before = RecordFilter(namespace=ctx.namespace, before=ctx.at)
    for name in re.findall(r"(?<![.?!]\s)(?<!^)\b([A-Z][a-z]{2,})\b", question):
        if name in _NOT_NAMES or _CALENDAR.match(name) or name.lower() in ctx.places:
            continue
        if not any(ctx.operators.memory.store(store).search_lexical(name, seen_before, 1) for store in ("event", "entity")):
            return f"nothing in memory mentions {name}"
    named = ctx.places_in(question)
    visited = {v.attrs.get("place") for v in ctx.visits()} if named else set()  # read visits only when needed
    return next((f"never been to the {place}" for place in named if place not in visited), None)


# ---- skills -----------------------------------------------------------------------------
def order_skill(question: str, options: Sequence[str], ctx: SkillContext) -> SkillResult | None:
    """Orderings: locate each step of each option in memory and score the option by how
    many of its pairs are in stored-time order, times how complete it is."""
    steps_per_option = [[s.strip(" .") for s in _STEP_SPLIT.split(o) if s.strip(" .")] for o in options]
    if not options or max(len(s) for s in steps_per_option) < 2:
        return None
    located: dict[str, MemoryRecord | None] = {}
    used: set[int] = set()
    for step in dict.fromkeys(s for steps in steps_per_option for s in steps):
        located[step] = ctx.locate(step, used)
        if located[step] is not None and located[step].id is not None and not ctx.places_in(step):
            used.add(located[step].id)
    longest = max(len(s) for s in steps_per_option)
    raw = []
    for steps in steps_per_option:
        times = [located[s].wall_start for s in steps if located.get(s) is not None]
        if len(steps) < 2 or len(times) < len(steps):
            raw.append(0.1 * len(times) / longest)
            continue
        pairs = [(a, b) for i, a in enumerate(times) for b in times[i + 1:]]
        raw.append(sum(a <= b for a, b in pairs) / len(pairs) * len(steps) / longest)
    found = [r for r in located.values() if r is not None]
    best = max(range(len(options)), key=lambda i: raw[i])
    sufficiency = 1.0 if found and len(found) == len(located) else 0.4 * len(found) / max(len(located), 1)
    return SkillResult(options[best], _ev(order_by_time(found), "order"), sufficiency,
                       f"located {len(found)}/{len(located)} steps by stored time", raw)


def count_skill(question: str, options: Sequence[str], ctx: SkillContext) -> SkillResult | None:
    """"How many different X have I seen" counts distinct instances (entity keys naming
    the category); "how many times have I been to P" counts distinct visits."""
    q = question.lower()
    if (m := re.search(r"how many (?:different |distinct )?(\w+?)s? (?:have|had|did) i (?:seen|see|saw)", q)):
        category = m.group(1)
        sightings = ctx.records((ENTITY_SIGHTING,), store="entity")
        firsts: dict[str, MemoryRecord] = {}
        for r in sightings:
            key = r.attrs.get("entity", "")
            if category in key.split() or f"{category}s" in key.split():
                firsts.setdefault(key, r)
        n, support = len(firsts), list(firsts.values())
        what = f"{n} different {category}{'s' if n != 1 else ''}: {', '.join(firsts)}"
    elif (m := re.search(r"how many times (?:have|had|did) i (?:been|go|went|visit(?:ed)?) (?:to )?(?:the )?([a-z ]+?)(?: so far)?\?", q)):
        place = next(iter(ctx.places_in(m.group(1))), None)
        if place is None:
            return None
        visits = [v for v in ctx.visits() if v.attrs.get("place") == place]
        distinct: list[MemoryRecord] = []
        for v in visits:  # one stay split by a glance elsewhere is still one visit
            if not distinct or v.video_id != distinct[-1].video_id and (v.wall_start - distinct[-1].wall_end) > timedelta(minutes=10):
                distinct.append(v)
        n, support, what = len(distinct), distinct, f"{len(distinct)} time{'s' if len(distinct) != 1 else ''} at the {place}"
    else:
        return None
    raw = [1.0 if (mm := _NUMBER.match(o)) and int(mm.group(1)) == n else 0.0 for o in options]
    return SkillResult(what, _ev(support, "count"), 1.0 if n else 0.3, "counted distinct instances", raw if options else None)


def habit_skill(question: str, options: Sequence[str], ctx: SkillContext) -> SkillResult | None:
    """Habits across days: where a meal usually happens, where a thing is usually used,
    and where the wearer usually goes next after a meal or a place."""
    q = question.lower()
    if not re.search(r"\b(usually|typically|normally|most likely|tend to)\b", q) or "where" not in q:
        return None
    after = re.search(r"\bafter (?:the )?(\w+(?: \w+)?)", q)
    if after:
        what = after.group(1)
        part = next((p for p in DAY_PARTS if p in q.split() and p != what), None)
        visits = ctx.visits()
        nexts: list[MemoryRecord] = []
        for i, v in enumerate(visits):
            hit = in_hours(v.wall_start, DAY_PARTS[what]) if what in DAY_PARTS else v.attrs.get("place") in ctx.places_in(what)
            if not hit or (part and not in_hours(v.wall_start, DAY_PARTS[part])):
                continue
            later = next((w for w in visits[i + 1:] if w.attrs.get("place") != v.attrs.get("place")), None)
            if later is not None and later.wall_start.date() == v.wall_start.date() and not (
                    what in DAY_PARTS and in_hours(later.wall_start, DAY_PARTS[what]) and later.video_id == v.video_id):
                if not nexts or nexts[-1].id != later.id:
                    nexts.append(later)
        values = [r.attrs["place"] for r in nexts]
        support, why = nexts, f"where the wearer went after {what}"
    else:
        thing = re.search(r"\b(?:use|keep|put|leave|have|eat|see)\s+(?:my |the )?(\w+(?: \w+)?)\??$", q)
        if not thing:
            return None
        target = thing.group(1)
        if target in DAY_PARTS:
            by_day: dict[str, MemoryRecord] = {}
            for v in ctx.visits():
                if in_hours(v.wall_start, DAY_PARTS[target]):
                    by_day.setdefault(v.wall_start.date().isoformat(), v)  # the first place of that meal each day
            support = list(by_day.values())
        else:
            match = ctx.operators.resolve_entity(target, ctx.namespace, ctx.at)
            if match is None:
                return None
            support = [r for r in ctx.operators.trajectory(ctx.namespace, match.entity, ctx.at) if r.attrs.get("place")]
        values = [r.attrs["place"] for r in support]
        why = f"where {target} usually happens"
    top, share = _mode(values)
    if top is None:
        return SkillResult("", [], 0.0, f"no pattern for {why}")
    days = len({r.wall_start.date() for r in support})
    raw = _options_naming(options, top, ctx.places_in) if options else None
    return SkillResult(f"Usually the {top} ({share:.0%} of {len(values)} times over {days} day(s))",
                       _ev(support, "habit"), min(1.0, 0.4 + 0.3 * days), why, raw)


def trajectory_skill(question: str, options: Sequence[str], ctx: SkillContext) -> SkillResult | None:
    """Where a thing has been, earliest to latest: its sightings' places, repeats merged."""
    asked = re.search(r"\bwhere ha(?:s|ve) (?:my |the )?(.+?) been\b", question, re.I)
    if asked is None:
        return None
    target = asked.group(1)
    match = ctx.operators.resolve_entity(target, ctx.namespace, ctx.at)
    if match is None:
        return None
    trail = [r for r in ctx.operators.trajectory(ctx.namespace, match.entity, ctx.at) if r.attrs.get("place")]
    places = [p for i, p in enumerate(r.attrs["place"] for r in trail) if i == 0 or trail[i - 1].attrs["place"] != p]
    raw = []
    for option in options:
        steps = [ctx.places_in(s)[:1] for s in _STEP_SPLIT.split(option)]
        seq = [s[0] for s in steps if s]
        tail = places[-len(seq):] if seq else []
        raw.append(1.0 if seq and seq == tail else sum(a == b for a, b in zip(seq, tail)) / max(len(seq), 1) * 0.8)
    return SkillResult(" -> ".join(places[-4:]), _ev(trail[-6:], "trajectory"), 1.0 if places else 0.0,
                       "sighting places in stored-time order", raw if options else None)


def last_state_skill(question: str, options: Sequence[str], ctx: SkillContext) -> SkillResult | None:
    """"What condition was the pan in, and where, the last time I saw it?"."""
    m = re.search(r"\b(?:condition|state) (?:was|is) (?:my |the )?(\w+(?: \w+)?) in\b", question, re.I)
    if not m or not re.search(r"\blast (?:time )?i (?:saw|see|seen)\b", question, re.I):
        return None
    match = ctx.operators.resolve_entity(m.group(1), ctx.namespace, ctx.at)
    last = ctx.operators.last_seen(ctx.namespace, match.entity, ctx.at) if match else None
    if last is None:
        return SkillResult("", [], 0.0, f"'{m.group(1)}' was never seen")
    state, place = last.attrs.get("state") or "", last.attrs.get("place") or ""
    claim = f"{state} {place}".strip()
    raw = [coverage(content_words(o), [claim]) for o in options] if options else None
    return SkillResult(f"{state or 'no visible condition'}, in the {place or 'an unrecognised place'} "
                       f"({last.wall_start:%a %H:%M})", _ev([last], "last_state"), 1.0 if state else 0.5,
                       "last sighting with its condition", raw, claim)


def which_day_skill(question: str, options: Sequence[str], ctx: SkillContext,
                    analysis: QuestionAnalysis) -> SkillResult | None:
    """"On which day did I have soup for lunch in the cafe?": every constraint (words,
    part of day, place) must hold for one remembered moment; its date picks the option."""
    if not re.search(r"\bwhich day (?:did|was|were|have) i\b", question, re.I):
        return None
    part = next((p for p in DAY_PARTS if re.search(rf"\b{p}\b", question, re.I)), None)
    places = ctx.places_in(question)
    words = [t for t in analysis.key_terms if t not in DAY_PARTS and t not in " ".join(places).split() and t != "day"]
    candidates = []
    for r in ctx.records((UTTERANCE, TEXT_SIGHTING), "event") + ctx.records((ENTITY_SIGHTING,), "entity"):
        text = normalise(r.text)
        if not any(w in text.split() for w in words):
            continue
        if part and not in_hours(r.wall_start, DAY_PARTS[part]):
            continue
        if places and r.attrs.get("place") not in places:
            continue
        candidates.append(r)
    if not candidates:
        return SkillResult("", [], 0.0, "no moment meets every constraint")
    days = Counter(r.wall_start.date() for r in candidates)
    day = max(days, key=lambda d: days[d])
    label = f"{day.strftime('%A')} ({day.strftime('%B')} {day.day})"
    raw = [1.0 if day.strftime("%A").lower() in o.lower() and (str(day.day) in o or day.strftime("%B") not in o)
           else 0.0 for o in options]
    support = [r for r in candidates if r.wall_start.date() == day]
    return SkillResult(label, _ev(support, "which_day"), 1.0 if len(days) == 1 else 0.7,
                       "constraints matched on one day", raw if options else None)


def where_was_i_skill(question: str, options: Sequence[str], ctx: SkillContext) -> SkillResult | None:
    """"Where did I have lunch (on the day ...)?": where the wearer was in that window."""
    if not re.match(r"\s*where (?:did|was) i\b", question, re.I) or ctx.scope.hours is None:
        return None
    after, before = ctx.window()
    if after is None:
        return None
    visits = ctx.visits(after, before)
    visits = [v for v in visits if in_hours(v.wall_start, ctx.scope.hours)]
    if not visits:
        return SkillResult("", [], 0.0, "no place remembered in that window")
    place = visits[0].attrs["place"]
    raw = _options_naming(options, place, ctx.places_in) if options else None
    return SkillResult(f"In the {place} ({visits[0].wall_start:%H:%M})", _ev(visits[:1], "where"), 1.0,
                       f"place visited during {ctx.scope.part}", raw)


def resolve_anchor(scope: TimeScope, ctx: SkillContext) -> tuple[TimeScope, MemoryRecord | None]:
    """"on the day Bob asked me for the slides" -> that day, relative to the question."""
    if scope.anchor is None or ctx.at is None:
        return scope, None
    record = ctx.locate(scope.anchor, set())
    if record is None:
        return scope, None
    offset = (record.wall_start.date() - ctx.at.date()).days
    return TimeScope(offset, scope.part, scope.anchor, scope.body), record


def run_skills(question: str, options: Sequence[str], analysis: QuestionAnalysis,
               ctx: SkillContext) -> SkillResult | None:
    body = ctx.scope.body or question
    for skill in (lambda: order_skill(body, options, ctx) if re.search(r"\border\b", body, re.I) else None,
                  lambda: count_skill(body, options, ctx),
                  lambda: trajectory_skill(body, options, ctx),
                  lambda: last_state_skill(body, options, ctx),
                  lambda: habit_skill(body, options, ctx),
                  lambda: which_day_skill(body, options, ctx, analysis),
                  lambda: where_was_i_skill(body, options, ctx)):
        result = skill()
        if result is not None:
            return result
    return None


__all__ = ["SkillContext", "SkillResult", "parse_scope", "premise_failure", "resolve_anchor", "run_skills"]
