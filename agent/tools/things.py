"""Tools about things the camera saw: where a thing is, where it has been, what state it
was in, how many distinct things or visits there were."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import timedelta

from agent.plan import WEARER
from agent.question_nlp import PLACE_KINDS
from agent.state import Evidence
from agent.tools.base import ToolContext, ToolResult, evidence
from memory.language import normalise, plural, singular, singular_words
from memory.records import ENTITY_SIGHTING, UTTERANCE, MemoryRecord, order_by_time

APART = timedelta(minutes=10)  # stays at one place this far apart are two times there
GLANCE = timedelta(seconds=20)  # a stay elsewhere shorter than this does not part two stays at a place


def locate(ctx: ToolContext, thing: str) -> ToolResult:
    """Where a thing was last seen (the latest sighting with a recognised place), before t_q."""
    match = ctx.operators.resolve_entity(thing, ctx.namespace, ctx.window()[1])
    if match is None:
        return ToolResult("locate", "", [], False, note=f"'{thing}' was never seen")
    before = ctx.window()[1]
    trail = ctx.operators.recent(ctx.namespace, match.entity, before)
    last = ctx.operators.last_seen_with_place(ctx.namespace, match.entity, before)
    if last is None:
        latest = trail[-1]
        return ToolResult("locate", f"{latest.attrs.get('label', thing)}, at {latest.wall_start:%H:%M} "
                          "(the place was not recognised)", evidence([latest], "locate"), True, None,
                          "seen, place unknown")
    place = last.attrs["place"]
    earlier = [r for r in trail if r.id != last.id][-2:]
    support = [Evidence(r, match.score, "locate") for r in earlier + [last]]
    return ToolResult("locate", f"In the {place}, at {last.wall_start:%H:%M}", support, True, place,
                      f"last sighting of {match.entity}")


def trajectory(ctx: ToolContext, thing: str) -> ToolResult:
    """The places a thing was seen in, earliest to latest, repeats merged."""
    match = ctx.operators.resolve_entity(thing, ctx.namespace, ctx.window()[1])
    if match is None:
        return ToolResult("trajectory", "", [], False, note=f"'{thing}' was never seen")
    after, before = ctx.window()
    trail = [r for r in ctx.operators.trajectory(ctx.namespace, match.entity, before, after) if r.attrs.get("place")]
    places = [p for i, p in enumerate(r.attrs["place"] for r in trail) if i == 0 or trail[i - 1].attrs["place"] != p]
    return ToolResult("trajectory", " -> ".join(places[-6:]), evidence(trail[-6:], "trajectory"), bool(places),
                      places, "sighting places in stored-time order")


def state(ctx: ToolContext, thing: str) -> ToolResult:
    """The condition a thing was in (and where) the last time it was seen."""
    match = ctx.operators.resolve_entity(thing, ctx.namespace, ctx.window()[1])
    last = ctx.operators.last_seen(ctx.namespace, match.entity, ctx.window()[1]) if match else None
    if last is None:
        return ToolResult("state", "", [], False, note=f"'{thing}' was never seen")
    condition, place = last.attrs.get("state") or "", last.attrs.get("place") or ""
    looks = " and ".join(x for x in (condition, last.attrs.get("colour") or "") if x)
    where = f"in the {place}" if place else "place not recognised"
    answer = f"{looks or 'no visible condition'} ({_named(last)}, {where}, {last.wall_start:%a %H:%M})"
    return ToolResult("state", answer, evidence([last], "state"), bool(looks), f"{looks} {place}".strip(),
                      "last sighting with its condition and colour")


def _same_thing(category: str, key: str) -> bool:
    """Whether a remembered name is of the asked kind: its head noun, in the singular."""
    return bool(category.split()) and singular(normalise(category).split()[-1]) in singular_words(key)


def _named(r: MemoryRecord) -> str:
    """A remembered thing as a person would name it: its colour when the detector saw one."""
    return r.attrs.get("name") or r.attrs.get("entity", r.text)


def present(ctx: ToolContext, thing: str | None = None, doing: str | None = None, place: str | None = None,
            now: bool = False) -> ToolResult:
    """Whether a thing was seen at all in the window ("was there a dog?"), with its sightings;
    or, for an activity (`doing`: "did I see anyone cycling?"), a thing used to do it
    (memory.kinds.things_used_to: a bicycle). Not seen is not found: perception misses
    things, so absence is left to the abstain test. With a `place`: whether it was seen
    there ("was there a mug in the kitchen?"), or, asked `now` ("is my mug in the kitchen?"),
    whether it was there when last seen."""
    after, before = ctx.window()
    if thing is None:
        used = ctx.operators.kinds.things_used_to(doing or "")
        thing = next((t for t in used if ctx.operators.resolve_entity(t, ctx.namespace, before)), None)
        if thing is None:
            return ToolResult("present", "", [], False, note=f"nothing used to {doing} was seen")
    match = ctx.operators.resolve_entity(thing, ctx.namespace, before)
    trail = ctx.operators.trajectory(ctx.namespace, match.entity, before, after) if match else []
    if not trail:
        return ToolResult("present", "", [], False, note=f"'{thing}' was never seen")
    first, last = trail[0], trail[-1]
    when = f"{first.wall_start:%a %H:%M}" + (f" to {last.wall_end:%a %H:%M}" if len(trail) > 1 else "")
    last_place = last.attrs.get("place")
    if place:
        there = [r for r in trail if r.attrs.get("place") == place]
        if now and last_place != place or not there:
            where = f"last seen in the {last_place}" if last_place else "seen"
            return ToolResult("present", f"No: {_named(last)} was {where} ({last.wall_start:%a %H:%M})",
                              evidence([last], "present"), True, False, f"not {'last ' if now else ''}seen there")
        seen = there[-1]
        answer = f"Yes: {_named(seen)}, {'last ' if now else ''}seen in the {place} ({seen.wall_start:%a %H:%M})"
        return ToolResult("present", answer, evidence(there[-3:], "present"), True, True, "sightings there")
    answer = f"Yes: {_named(first)}, seen {when}" + (f" ({len(trail)} sightings)" if len(trail) > 1 else "")
    if last_place:  # "have you seen my bottle?" is asked by someone looking for it
        answer += f", last in the {last_place}"
    return ToolResult("present", answer, evidence(trail[:3] + trail[3:][-2:], "present"), True, True,
                      f"sightings of {match.entity}")


def _went_away(ctx: ToolContext, before: MemoryRecord, after: MemoryRecord, place: str) -> bool:
    """Whether two stays at a place are two times there: far apart, or, in one recording, with
    a stay elsewhere between them longer than a glance (read from that recording's stays)."""
    if after.wall_start - before.wall_end > APART:
        return True
    if after.video_id != before.video_id:
        return False  # the recording stopped and started again there
    return any(o.attrs.get("place") != place and o.wall_end - o.wall_start >= GLANCE
               and before.wall_end <= o.wall_start and o.wall_end <= after.wall_start
               for o in ctx.visits_in_recording(before.video_id))


def count(ctx: ToolContext, what: str) -> ToolResult:
    """How many: distinct visits when `what` names a place the wearer went to, else distinct
    remembered instances whose name contains the thing asked about."""
    after, before = ctx.window()
    places = ctx.places_in(what)
    if places:
        place = places[0]
        visits = ctx.visits(after, before, place=place)
        distinct: list[MemoryRecord] = []
        for v in visits:  # a time there is one stay, or stays with no time spent elsewhere between
            if not distinct or _went_away(ctx, distinct[-1], v, place):
                distinct.append(v)
        n = len(distinct)
        return ToolResult("count", f"{n} time{'s' if n != 1 else ''} at the {place}", evidence(distinct, "count"),
                          True, n, "distinct visits")
    if singular(what.split()[-1]) in PLACE_KINDS:  # "how many different rooms was I in": places visited
        stays = ctx.visits(after, before)
        firsts_at: dict[str, MemoryRecord] = {}
        for v in stays:
            if v.attrs.get("place"):
                firsts_at.setdefault(v.attrs["place"], v)
        n = len(firsts_at)
        return ToolResult("count", f"{n} different place{'s' if n != 1 else ''}: {', '.join(firsts_at)}",
                          evidence(list(firsts_at.values()), "count"), n > 0, n, "distinct places visited")
    firsts: dict[str, MemoryRecord] = {}
    store, seen = ctx.operators.store("entity"), ctx.filter((ENTITY_SIGHTING,), after, before)
    kinds = [key for (key,) in store.distinct(("entity",), seen) if _same_thing(what, key)]
    # a detected thing counts once per instance, however often seen
    instances = [r for key in kinds for r in store.first_of(("entity", "instance"), replace(seen, attrs=(("entity", key),)))]
    for r in order_by_time(instances):
        firsts.setdefault(r.attrs.get("instance") or r.attrs["entity"], r)
    n = len(firsts)
    noun = singular(what.split()[-1]) if what else "thing"
    if noun in PEOPLE_NOUNS:  # a call is heard, not seen: its people are its voices
        voices = _voices(ctx, after, before)
        if len(voices) > n:
            names = [v.attrs.get("speaker_name") or v.text.split(":", 1)[0] for v in voices]
            return ToolResult("count", f"{len(voices)} {plural(noun, len(voices))} talking: {', '.join(names)}",
                              evidence(voices, "count"), True, len(voices), "distinct voices")
    looks = Counter(_named(r) for r in firsts.values())
    listing = ": " + ", ".join(f"{name} x{k}" if k > 1 else name for name, k in looks.most_common()) if firsts else ""
    return ToolResult("count", f"{n} different {plural(noun, n)}{listing}",
                      evidence(list(firsts.values()), "count"), n > 0, n, "distinct instances")


PEOPLE_NOUNS = {"person", "people", "speaker", "voice", "caller", "participant", "man", "woman", "guy", "folk"}


def _voices(ctx: ToolContext, after, before) -> list[MemoryRecord]:
    """The first turn of each distinct voice in the window."""
    turns = ctx.operators.store("event").first_of(("speaker",), ctx.filter((UTTERANCE,), after, before))
    return order_by_time([t for t in turns if t.attrs.get("speaker")])


def in_hand(ctx: ToolContext, by_wearer: bool, thing: str | None = None, around: str | None = None) -> ToolResult:
    """What was held in the window (memory.holding): by the wearer, or by someone else
    ("what did she pick up?"); latest first. `thing` names the held thing ("the cup in my
    hand"): held things of that name, else the latest held (the detector may have named it
    otherwise). `around` names a thing seen while holding ("holding over the table"): what was
    held in the recordings it was seen in, and nothing when it was never seen with one."""
    after, before = ctx.window()
    in_window = ctx.filter((ENTITY_SIGHTING,), after, before, hours=ctx.hours_of_day())
    sightings = ctx.operators.store("entity").query(in_window)
    held = [r for r in sightings if r.attrs.get("held_by") and (r.attrs["held_by"] == WEARER) == by_wearer]
    if thing:
        held = [r for r in held if _same_thing(thing, r.attrs.get("entity", ""))] or held
    if around:
        context = {r.video_id for r in sightings if _same_thing(around, r.attrs.get("entity", ""))}
        held = [r for r in held if r.video_id in context]
    if not held:
        return ToolResult("in_hand", "", [], False, note="nothing seen held in that window")
    latest = order_by_time(held)[::-1][:1 if thing else 3]  # "the cup in my hand": one thing is asked
    said = "; ".join(f"{_named(r)}{' (picked up)' if r.attrs.get('picked_up') else ''}, at {r.wall_start:%H:%M}"
                     + ("" if by_wearer else f", held by the {r.attrs['held_by']}") for r in latest)
    return ToolResult("in_hand", said, evidence(latest, "in_hand"), True, [_named(r) for r in latest],
                      "things seen in a hand")


def seen(ctx: ToolContext) -> ToolResult:
    """The things seen in the window ("what did I have for breakfast on the day ..."), first
    sighting first."""
    after, before = ctx.window()
    firsts: dict[str, MemoryRecord] = {}
    in_window = ctx.filter((ENTITY_SIGHTING,), after, before, hours=ctx.hours_of_day())
    for r in ctx.operators.store("entity").first_of(("entity",), in_window):
        firsts.setdefault(r.attrs["entity"], r)
    if not firsts:
        return ToolResult("seen", "", [], False, note="nothing seen in that window")
    return ToolResult("seen", f"You saw {', '.join(firsts)}", evidence(list(firsts.values())[:6], "seen"), True,
                      list(firsts), "things seen in the window")
