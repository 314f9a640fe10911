"""Tools over the wearer's timeline: where they were, when something happened, how long a
stay lasted, in which order things happened, what happened around an anchor, and habits."""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from datetime import date, datetime, timedelta

from agent.attribution import about
from agent.question_time import DAY_PARTS
from agent.reasoning import evidence_text
from agent.tools.base import ToolContext, ToolResult, evidence, in_hours, moment_phrase
from agent.tools.talk import read, said
from agent.wanted import KIND_NOUNS
from memory.conversation import CORRECTION_CUE, opens_a_correction
from memory.language import date_phrase, normalise, parse_date, states_a_time, verb_forms
from memory.records import (
    ENTITY_SIGHTING,
    RECORDING,
    TEXT_SIGHTING,
    UTTERANCE,
    WEARER,
    MemoryRecord,
    order_by_time,
    time_order,
)


def _day_label(day: date) -> str:
    return f"{day:%A} ({day:%B} {day.day})"


def where_was_i(ctx: ToolContext) -> ToolResult:
    """The place the wearer was in during the plan's window (the first stay in it)."""
    after, _ = ctx.window()
    visits = _stays(ctx)
    if not visits:
        return ToolResult("where_was_i", "", [], False, note="no place remembered in that window")
    # Right before an event is the last stay before it; right after, the first stay somewhere else.
    if ctx.time.relation == "after" and after is not None and not ctx.time.hours:
        here = ctx.latest_visit(before=after + timedelta(seconds=1))
        left = here.attrs.get("place") if here else None
        visits = [v for v in visits if v.wall_start >= after and v.attrs.get("place") != left] or visits
    chosen = visits[-1] if ctx.time.relation == "before" else visits[0]
    return ToolResult("where_was_i", f"In the {chosen.attrs['place']} ({chosen.wall_start:%H:%M})",
                      evidence([chosen], "where_was_i"), True, chosen.attrs["place"], "place visited in the window")


LATEST_SEEN = 200  # sightings and signs read when only the latest moment is asked, not every day's


def moments(ctx: ToolContext, terms: Sequence[str], places: Sequence[str] = (),
            every_day: bool = True) -> list[MemoryRecord]:
    """Fine records mentioning any of the terms, inside the window, hours and places asked, in
    time order. Without `every_day` (a clock time is asked: the latest moment, or a date a line
    tells) every line said but only the newest LATEST_SEEN of the signs and sightings: a
    word seen all day ("office") is read a few thousand times otherwise."""
    after, before = ctx.window()
    wanted = {normalise(t) for t in terms if t} - {""}
    if not wanted:
        return []
    found = []
    hours = ctx.time.hours  # the store filters hours (to the minute, as in_hours) and places
    forms = wanted | {form for w in wanted if " " not in w for form in verb_forms(w)}
    seen = None if every_day else LATEST_SEEN
    records = ctx.records((UTTERANCE,), "event", after, before, forms, hours, places) \
        + ctx.records((TEXT_SIGHTING,), "event", after, before, forms, hours, places, limit=seen) \
        + ctx.records((ENTITY_SIGHTING,), "entity", after, before, forms, hours, places, limit=seen)
    for r in order_by_time(records):
        words = set(normalise(r.text).split()) | set(normalise(r.attrs.get("entity", "")).split())
        if any(all(_inflected(x, words) for x in w.split()) for w in wanted):
            found.append(r)
    return found


def when(ctx: ToolContext, terms: Sequence[str], places: Sequence[str] = (), answer_type: str = "time",
         people: Sequence[str] = (), to_come: bool = False) -> ToolResult:
    """When something happens or happened. A time someone said or wrote about it ("the
    review moved to 5", a screen reading "PLANNING 4:30 PM") answers a clock-time question;
    otherwise the moments that meet every constraint: their day when the day is asked, else
    the latest moment's clock time. `people`: whom it happened to ("when did Ann go to the
    park?"), whose lines date it before others'. `to_come`: asked of what is still to come,
    only a time told answers (the moment it was spoken of is not when it will be)."""
    # "what year did he start surfing?": the year is what is asked, not what the moment must name
    terms = [t for t in terms if normalise(t) not in _DATE_UNITS] or list(terms)
    if answer_type == "time" and terms:  # with no terms a search for what was said or read ranks at random
        stated = [r for r in (said(ctx, terms), read(ctx, terms, " ".join(terms), places)) if r.found and states_a_time(r.value)]
        if stated:
            latest = max(stated, key=lambda r: r.support[-1].record.wall_start)
            # the line or the sign itself, for the reader to read the time out of
            return replace(latest, note=f"time stated ({latest.tool})")
    if not terms and not places and ctx.time.recording is not None:  # "when did I watch the lecture?": its own time
        after, before = ctx.window()
        named = [r for r in ctx.records((RECORDING,), after=after, before=before) if r.video_id == ctx.time.recording]
        if named:
            rec = named[-1]
            answer = _day_label(rec.wall_start.date()) if answer_type == "date" else moment_phrase(rec.wall_start, ctx.at)
            return ToolResult("when", answer, evidence([rec], "when"), True,
                              rec.wall_start.date() if answer_type == "date" else rec.wall_start, "the recording named")
    if not terms and places:  # "what time did I get to the gym": an arrival
        stays = order_by_time([v for place in places for v in _stays(ctx, place)])
        if stays:
            arrival = stays[0] if ctx.time.day_offset is not None else stays[-1]
            day = arrival.wall_start.date()
            answer = _day_label(day) if answer_type == "date" else moment_phrase(arrival.wall_start, ctx.at)
            return ToolResult("when", answer, evidence([arrival], "when"), True,
                              day if answer_type == "date" else arrival.wall_start, "arrival")
        terms, places = list(places), ()  # never there: perhaps someone spoke or wrote of going
    found = moments(ctx, terms, places, every_day=answer_type == "date")
    if not found:
        return ToolResult("when", "", [], False, note="no moment matches")
    if (told := _told_date(ctx, found, terms, people)) is not None:
        return told
    if to_come:
        return ToolResult("when", "", [], False, note="no time told of what is to come")
    days = Counter(r.wall_start.date() for r in found)
    if answer_type == "date":
        day = max(days, key=lambda d: (days[d], d))
        support = [r for r in found if r.wall_start.date() == day]
        return ToolResult("when", _day_label(day), evidence(support[:4], "when"), True, day,
                          f"{len(days)} day(s) match")
    last = found[-1]
    return ToolResult("when", moment_phrase(last.wall_start, ctx.at), evidence([last], "when"), True,
                      last.wall_start, "latest matching moment")


def _told_date(ctx: ToolContext, found: Sequence[MemoryRecord], terms: Sequence[str],
               people: Sequence[str] = ()) -> ToolResult | None:
    """When a matching utterance dates what it tells ("I went to the support group
    yesterday"), that date, resolved against when it was said, answers "when did ...": the
    moment of saying it does not. The utterance naming most of the terms wins, then one by
    or about the people asked of (a friend's "the park last week" is not theirs), then the
    earliest: utterances are parsed in that order, and parsing stops at the first with a
    date (a month of memory holds a thousand turns mentioning "glasses"). What was read
    dates it too ("BOOK CLUB / THURSDAY 7 PM"), after what was said; a correction the
    speaker makes in the line, or opens their very next turn with ("on Friday." / "Sorry, I
    mean Saturday"), gives the date it became."""
    wanted = {normalise(t) for t in terms if t}
    names = [p.lower() for p in people if p != WEARER]

    def named(record: MemoryRecord) -> int:
        words = set(normalise(record.text).split())
        return sum(all(_inflected(x, words) for x in w.split()) for w in wanted)

    told = sorted((r for r in found if r.kind in (UTTERANCE, TEXT_SIGHTING)),
                  key=lambda r: (-named(r), r.kind != UTTERANCE, not about(r, names), r.wall_start))
    for record in told:
        dates = _dates_told(ctx, record)
        if not dates:
            continue
        support = [record]
        later = ctx.operators.next_turn(record, ctx.at) if record.kind == UTTERANCE else None
        if later is not None and later.attrs.get("speaker") == record.attrs.get("speaker") and \
                opens_a_correction(later.attrs.get("said", "")) and (fixed := _dates_told(ctx, later)):
            # "Sorry, I mean Saturday" looks the way the line it corrects looked
            ahead = dates[0][1] > dates[0][2]
            dates, support = [_toward(d, ahead) for d in fixed], [record, later]
        expression, when, said_at = dates[0]
        return ToolResult("when", date_phrase(expression, when, said_at), evidence(support, "when"), True, when.date(),
                          f"date told ('{expression}' said {said_at:%Y-%m-%d})")
    return None


def _dates_told(ctx: ToolContext, record: MemoryRecord) -> list[tuple[str, datetime, datetime]]:
    """The dates a line or a text block tells, with when they were told; after a correction
    cue in it, only the dates the correction gives."""
    text = record.attrs.get("said") or evidence_text(record)
    fix = CORRECTION_CUE.search(text)
    dates = ctx.dates_in(text, record.wall_start)
    if fix is not None:
        dates = [d for d in dates if text.lower().find(d[0].lower(), fix.end()) >= 0] or dates
    told = [(expression, when, record.wall_start) for expression, when in dates]
    # a sign, a note or a whiteboard announces: its bare "THURSDAY" is the coming one
    return [_toward(d, True) for d in told] if record.kind == TEXT_SIGHTING else told


def _toward(told: tuple[str, datetime, datetime], ahead: bool) -> tuple[str, datetime, datetime]:
    """A told date re-read toward the future or the past (a bare weekday or month)."""
    expression, when, said_at = told
    again = parse_date(expression, said_at, "future" if ahead else "past")
    return expression, again or when, said_at


_DATE_UNITS = KIND_NOUNS["date"] | KIND_NOUNS["time"]  # "what year": the kind of answer, not a word it is in


def _inflected(term: str, words: set[str]) -> bool:
    """A term said in any of its regular forms ("surf" in "I started surfing")."""
    return not words.isdisjoint(verb_forms(term))


def duration(ctx: ToolContext, place: str) -> ToolResult:
    """How long the wearer stayed in a place within the window (stays added up). With no
    time named, the last day there: "how long was I in the supermarket" asks about the
    last visit, not the sum of every visit memory holds (and a year of them is not read)."""
    after, before = ctx.window()
    if after is None and before is not None:
        last = ctx.latest_visit(before, place)
        if last:
            after = datetime.combine(last.wall_start.date(), datetime.min.time())
    stays = ctx.visits(after, before, place=place)
    if not stays:
        return ToolResult("duration", "", [], False, note=f"no stay in the {place}")
    seconds = sum((ctx.left_at(v) - v.wall_start).total_seconds() for v in stays)
    minutes = round(seconds / 60)
    text = f"{seconds:.0f} seconds" if seconds < 120 else f"{minutes} min" if minutes < 90 else f"{minutes / 60:.1f} h"
    return ToolResult("duration", f"About {text} in the {place} ({stays[0].wall_start:%H:%M}-{stays[-1].wall_end:%H:%M})",
                      evidence(stays, "duration"), True, seconds, f"{len(stays)} stay(s)")


def order(ctx: ToolContext, steps: Sequence[str]) -> ToolResult:
    """Locate each step in memory and list them by stored time."""
    located: dict[str, MemoryRecord | None] = {}
    used: set[int] = set()
    for step in dict.fromkeys(steps):
        located[step] = ctx.locate(step, used)
        if located[step] is not None and located[step].id is not None and not ctx.places_in(step):
            used.add(located[step].id)
    found = {s: r for s, r in located.items() if r is not None}
    ordered = sorted(found, key=lambda s: time_order(found[s]))
    return ToolResult("order", " -> ".join(ordered), evidence(order_by_time(found.values()), "order"),
                      len(found) >= 2, {s: found[s].wall_start for s in ordered},
                      f"located {len(found)}/{len(located)} steps")


def _stays(ctx: ToolContext, place: str | None = None) -> list[MemoryRecord]:
    """The stays (at `place` when given) the plan's time slot selects: those in its window
    and hours, or, for "after lunch" / "before dinner", those after the stay in that meal's
    hours somewhere else, or before it, on the latest such day in the window."""
    if not (ctx.time.hours and ctx.time.relation in ("after", "before")):
        return [v for v in ctx.visits(*ctx.window(), place=place) if in_hours(v.wall_start, ctx.time.hours)]
    visits = ctx.visits(*ctx.window())
    in_part = [v for v in visits if in_hours(v.wall_start, ctx.time.hours)]
    if not in_part:
        return []
    day = in_part[-1].wall_start.date()
    anchor = next(v for v in in_part if v.wall_start.date() == day)
    same_day = [v for v in visits if v.wall_start.date() == day and place in (None, v.attrs.get("place"))]
    if ctx.time.relation == "after":
        return [v for v in same_day if v.wall_start > anchor.wall_start and v.attrs.get("place") != anchor.attrs.get("place")]
    return [v for v in same_day if v.wall_end <= anchor.wall_start]


def activity(ctx: ToolContext) -> ToolResult:
    """What happened in the window: the places the wearer went. "after lunch" is what came
    after the stay in the lunch hours; "before dinner" what came before it."""
    visits = _stays(ctx)
    if not visits:
        return ToolResult("activity", "", [], False, note="nothing remembered in that window")
    places = [p for i, p in enumerate(v.attrs.get("place") for v in visits) if p and (i == 0 or visits[i - 1].attrs.get("place") != p)]
    first = visits[0]
    return ToolResult("activity", f"You went to the {', then the '.join(places[:4])} (from {first.wall_start:%H:%M})",
                      evidence(visits[:6], "activity"), bool(places), places, "visits in the window")


def _occasions(ctx: ToolContext, visits: list[MemoryRecord], what: str,
               within: tuple[float, float] | None) -> list[MemoryRecord]:
    """The stays a habit starts from: a meal or part of the day is the first stay in its
    hours each day; a place is every stay there."""
    if what in DAY_PARTS:
        first: dict[date, MemoryRecord] = {}
        for v in visits:
            if in_hours(v.wall_start, DAY_PARTS[what]):
                first.setdefault(v.wall_start.date(), v)
        return list(first.values())
    places = ctx.places_in(what)
    return [v for v in visits if v.attrs.get("place") in places and in_hours(v.wall_start, within)]


def _next_stay(visits: list[MemoryRecord], stay: MemoryRecord, same_place_counts: bool) -> MemoryRecord | None:
    """The stay that followed, the same day: somewhere else, or, after a meal, another outing
    to the same place (lunch in the park, then a walk in the park)."""
    for w in visits:
        if w.wall_start <= stay.wall_start or w.wall_start.date() != stay.wall_start.date():
            continue
        if w.attrs.get("place") != stay.attrs.get("place") or (same_place_counts and w.video_id != stay.video_id):
            return w
    return None


HABIT_MIN_OCCASIONS = 2


def habit(ctx: ToolContext, thing: str | None, after_part: str | None, within: str | None = None) -> ToolResult:
    """What usually happens: where the wearer goes after a meal / part of the day / place
    (`within` a part of the day: "after the office in the afternoon"), where a meal usually
    happens, or where a thing is usually seen."""
    visits = ctx.visits()
    if after_part is not None:
        nexts = [n for v in _occasions(ctx, visits, after_part, DAY_PARTS.get(within or ""))
                 if (n := _next_stay(visits, v, same_place_counts=after_part in DAY_PARTS)) is not None]
        support, why = list({n.id: n for n in nexts}.values()), f"where the wearer went after {after_part}"
    elif thing in DAY_PARTS:
        support, why = _occasions(ctx, visits, thing, None), f"where {thing} usually happens"
    elif thing:
        match = ctx.operators.resolve_entity(thing, ctx.namespace, ctx.at)
        support = [r for r in ctx.operators.trajectory(ctx.namespace, match.entity, ctx.at)
                   if r.attrs.get("place")] if match else []
        why = f"where {thing} is usually seen"
    else:
        return ToolResult("habit", "", [], False, note="no habit asked about")
    values = [r.attrs["place"] for r in support]
    if not values:
        return ToolResult("habit", "", [], False, note=f"no pattern for {why}")
    counts = Counter(values)
    top = max(counts, key=lambda v: (counts[v], -values.index(v)))
    days = len({r.wall_start.date() for r in support})
    # one occasion is not a habit: "usually" needs the place to have come up more than once
    return ToolResult("habit", f"Usually the {top} ({counts[top]} of {len(values)} times over {days} day(s))",
                      evidence(support, "habit"), counts[top] >= HABIT_MIN_OCCASIONS, top, why)
