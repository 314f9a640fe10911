"""Premise check: every person, place and thing a question presupposes must be in memory
before t_q. Better to say "you never met Carol" than to answer about someone else.

A thing is checked only when it could have been seen (memory.kinds): "the talk" or "the
meeting" names an event the answering tools find or do not, and a word inside a compound
WordNet lists as one noun ("phone" in "phone call") presupposes nothing of its own."""
from __future__ import annotations

from collections.abc import Sequence

from agent.tools.base import ToolContext, ToolResult
from memory.language import normalise, plural, singular
from memory.records import RecordFilter


def premise_check(ctx: ToolContext, people: Sequence[str], places: Sequence[str], things: Sequence[str],
                  speakers: Sequence[str] = (), phrases: Sequence[str] = ()) -> ToolResult:
    """`phrases`: the question's object phrases, which the `things` may be words of."""
    seen_before = RecordFilter(namespace=ctx.namespace, before=ctx.at)

    def mentioned(phrase: str) -> bool:
        # a plural names what its singular does ("Tim's collections": he spoke of his collection),
        # and a singular what its plural does ("what kind of pot did they make?": "we made our own pots")
        forms = dict.fromkeys([phrase, *((singular(phrase), plural(phrase, 2)) if " " not in phrase else ())])
        return any(ctx.operators.store(store).search_lexical(form, seen_before, 1)
                   for form in forms for store in ("event", "entity"))

    speakers_known = ctx.operators.speakers(ctx.namespace, ctx.at)
    for person in people:
        if person.lower() not in speakers_known and not mentioned(person):
            return ToolResult("premise", "", [], False, person, f"nothing in memory mentions {person}")
    for voice in speakers:
        if voice.lower() not in speakers_known:
            return ToolResult("premise", "", [], False, voice, f"no voice in memory is {voice}'s")
    known = set(ctx.known_places())
    for place in places:
        if normalise(place) not in known and not ctx.places_in(place) and not mentioned(place):
            return ToolResult("premise", "", [], False, place, f"never been to the {place}")
    kinds = ctx.operators.kinds
    for thing in things:
        if kinds.visible(thing) is False or any(thing in p.split()[:-1] and kinds.compound(p) for p in phrases):
            continue
        if ctx.operators.resolve_entity(thing, ctx.namespace, ctx.at) is None and not mentioned(thing):
            return ToolResult("premise", "", [], False, thing, f"'{thing}' is not in memory")
    return ToolResult("premise", "", [], True, None, "every presupposed person, place and thing is in memory")
