"""General tools over memory and the calls a plan makes of them.

Each tool is a typed function of (ToolContext, slots...) -> ToolResult with its own unit
tests; none reads the question's wording. `calls_for` turns a QueryPlan into tool calls
(the graph runs them as parallel branches); a refinement changes the plan (the runner-up
intent, no time window, a broad coarse-to-fine search) instead of re-running the same calls.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from agent.plan import IN_ANOTHER_HAND, IN_MY_HAND, WEARER, QueryPlan
from agent.question_nlp import HOLDING_VERBS
from agent.state import Evidence
from agent.tools.base import ToolContext, ToolResult
from agent.tools.premise import premise_check
from agent.tools.reflect import reflect
from agent.tools.talk import people, read, said, speech_acts
from agent.tools.things import count, in_hand, locate, present, seen, state, trajectory
from agent.tools.timeline import activity, duration, habit, order, when, where_was_i
from agent.verbs import CALLING, COMMITTING, SEEING
from agent.wanted import LIGHT_VERBS
from memory.language import normalise, s_stem

# Steps of an ordering option: "the cafe, then the park -> the office".
STEP_SPLIT = re.compile(r"\s*(?:;\s*then|,\s*then|->|→|;)\s*", re.I)


def search(ctx: ToolContext, query: str, broad: bool = False) -> ToolResult:
    """Open hybrid retrieval over every store; `broad` adds day -> hour -> clip roll-ups."""
    from retrieval.search import SearchQuery

    hits = ctx.search(query, kinds=None, k=8)
    if broad:
        lo, hi = ctx.window()
        hits += [Evidence(h.record, h.score, "coarse_to_fine") for h in ctx.retriever.coarse_to_fine(SearchQuery(
            text=query, namespace=ctx.namespace, stores=("event",), before=hi, after=lo, k=8))]
    return ToolResult("search", "", hits, bool(hits), None, f"{len(hits)} records")


TOOLS = {
    "locate": locate, "seen": seen, "present": present, "trajectory": trajectory, "state": state, "count": count,
    "where_was_i": where_was_i, "in_hand": in_hand,
    "when": when, "duration": duration, "order": order, "activity": activity, "habit": habit, "said": said,
    "people": people, "speech_acts": speech_acts, "read": read, "premise_check": premise_check, "search": search,
    "reflect": reflect,
}


@dataclass(frozen=True)
class ToolCall:
    tool: str
    args: dict = field(default_factory=dict)
    primary: bool = True  # the call whose result answers; others give context

    def run(self, ctx: ToolContext) -> ToolResult:
        return TOOLS[self.tool](ctx, **self.args)


def bare(phrase: str) -> str:
    """A step without its preposition and article: "in the living room" -> "living room"."""
    return re.sub(r"^(?:(?:in|at|on|to|into) )?(?:(?:the|a|an|my) )?", "", normalise(phrase))


def option_steps(option: str) -> list[str]:
    return [s.strip(" .") for s in STEP_SPLIT.split(option) if s.strip(" .")]


def _intent_calls(plan: QueryPlan, intent: str, options: list[str]) -> list[ToolCall]:
    thing = plan.objects[0] if plan.objects else None
    terms = plan.topic + plan.objects
    query = plan.text or " ".join(terms)
    hands = {IN_MY_HAND, IN_ANOTHER_HAND} & set(plan.constraints)
    if hands and (not thing or plan.answer_type == "text"):
        # "what was I holding (over the table)?": the boxes say what was in a hand, whatever the intent
        # "the cup in my hand" names the held thing; "holding over the table" names what was around it
        named = "around" if plan.verb in HOLDING_VERBS else "thing"
        return [ToolCall("in_hand", {"by_wearer": IN_MY_HAND in hands, named: thing})]
    if intent == "locate":  # where a thing or another person was seen; else where the wearer was
        subject = thing or (plan.people[0] if plan.people else None)
        if subject or plan.answer_type not in ("time", "date"):
            return [ToolCall("locate", {"thing": subject})] if subject else [ToolCall("where_was_i")]
        intent = "when"  # "when am I bringing it back?": a place is no answer to when
    # "is my bottle in the bakery?" asks whether it is there, not what state it is in ("was it full
    # or empty in the laundry room?" offers states to choose from)
    there = plan.answer_type == "yes_no" and intent == "state" and bool(plan.places) and not plan.choice
    if intent in ("trajectory", "state") and (thing or plan.people) and not there:
        return [ToolCall(intent, {"thing": thing or plan.people[0]})]  # "what was Tina wearing?": her
    if plan.answer_type == "yes_no" and (intent in ("verify", "people") or there) and (thing or plan.people):
        return [ToolCall("present", {"thing": thing or plan.people[0],  # "was there a van", "did I see Ben"
                                     "place": plan.places[0] if plan.places else None, "now": plan.now})]
    if plan.answer_type == "yes_no" and intent == "verify" and plan.verb in SEEING and plan.topic:
        return [ToolCall("present", {"doing": plan.topic[0]})]  # "did I see anyone cycling?": a bicycle
    if intent == "count" and (thing or plan.places):
        # "how many library visits / times at the gym": a named place counts visits
        visits = plan.places and (not thing or s_stem(thing.split()[-1]) in ("visit", "time", "trip"))
        return [ToolCall("count", {"what": plan.places[0] if visits else thing})]
    if plan.answer_type == "date" and intent in ("activity", "search", "verify") or \
            plan.answer_type == "time" and intent in ("activity", "search", "verify", "read", "speech"):
        intent = "when"  # the answer type decides what the tool must return: a moment (said, read or seen)
    if intent == "when":
        # with nothing else asked, "when did I watch the lecture?" asks the named recording's own time
        # ("when was the lecture filmed?" asks what it says of itself)
        bare_moment = plan.places or (plan.time.recording is not None and plan.speaker == WEARER)
        # no thing named of what is to come ("when am I bringing it up to him?"): a line must name the act
        acted = [plan.verb] if plan.to_come and plan.verb and plan.verb not in LIGHT_VERBS else [query]
        return [ToolCall("when", {"terms": terms or ([] if bare_moment else acted), "places": plan.places,
                                  "answer_type": plan.answer_type, "people": plan.people,
                                  "to_come": plan.to_come})]
    if intent == "duration" and plan.places:
        return [ToolCall("duration", {"place": plan.places[0]})]
    if intent == "order":
        steps = [s for o in options for s in option_steps(o)] or list(dict.fromkeys(plan.places + plan.listed)) \
            or plan.objects
        return [ToolCall("order", {"steps": steps})] if len(steps) >= 2 else []
    if intent == "activity":
        if plan.answer_type == "place":
            return [ToolCall("where_was_i")]
        return [ToolCall("activity"), ToolCall("seen")]
    if intent == "habit":
        t = plan.time
        if t.relation == "after":  # "after lunch", "after the office in the afternoon"
            after, within = (t.anchor, t.part) if t.anchor else (t.part, None)
        else:
            after, within = (plan.places[0] if plan.places else None), None
        return [ToolCall("habit", {"thing": thing or t.part if after is None else None, "after_part": after,
                                   "within": within})]
    if intent == "speech":
        return [ToolCall("said", {"topic": terms, "speaker": plan.speaker, "query": query, "verb": plan.verb,
                                  "about": plan.people[0] if len(plan.people) == 1 else None})]
    if intent == "people":
        return [ToolCall("people", {"by_phone": plan.verb in CALLING})]
    if intent in ("requests", "commitments"):
        act = plan.act or ("request" if intent == "requests" else "commitment")
        if act == "commitment" and plan.verb not in COMMITTING:
            act = "obligation"  # "what do I need to bring?": what I said I'd do, and what I was asked to
        return [ToolCall("speech_acts", {"act": act,
                                         "speaker": plan.speaker, "topic": terms,
                                         "listener": plan.listener or (plan.people[0] if len(plan.people) == 1 else None),
                                         "places": plan.places})]
    if intent == "reflect":
        person = plan.speaker if plan.speaker not in (None, WEARER) else (plan.people[0] if plan.people else None)
        return [ToolCall("reflect", {"query": query, "person": person, "focus": plan.topic})]
    if intent == "read":
        if plan.speaker not in (None, WEARER):  # "what did Tom say about X?" read: a sign naming Tom is not his words
            query = re.sub(rf"\b{re.escape(plan.speaker)}(?:'s)?\b", "", query, flags=re.IGNORECASE)
        return [ToolCall("read", {"topic": terms, "query": query, "places": plan.places, "answer_type": plan.answer_type})]
    return []


def calls_for(plan: QueryPlan, options: list[str], refinement: int) -> list[ToolCall]:
    """The tool calls a plan needs: its intent's tools, a premise check, and an open search
    for context. Refinement 1 tries the runner-up intent; refinement 2 searches broadly."""
    query = plan.text or " ".join(plan.topic + plan.objects)
    calls: list[ToolCall] = []
    if refinement == 0:
        calls = _intent_calls(plan, plan.intent, options)
        people = [p for p in plan.premises if p in plan.people]
        places = [p for p in plan.premises if p in plan.places]
        things = [p for p in plan.premises if p not in people and p not in places]  # things and their modifiers
        # "what did Peter say": Peter must be a voice memory knows, not just a name it heard
        speakers = [plan.speaker] if plan.intent in ("speech", "requests") and plan.speaker not in (None, WEARER) else []
        if people or places or things or speakers:
            calls.append(ToolCall("premise_check", {"people": people, "places": places, "things": things,
                                                    "speakers": speakers, "phrases": plan.objects}, False))
        calls.append(ToolCall("search", {"query": query}, primary=not calls))
    elif refinement == 1 and plan.alternatives:
        calls = _intent_calls(plan, plan.alternatives[0], options)
    if not calls or refinement >= 2:
        calls.append(ToolCall("search", {"query": query, "broad": True}))
    return calls
