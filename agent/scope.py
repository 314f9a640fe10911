"""Which recording a question means. People name a recording by what it was ("who was on the
call?", "what did that talk say about luck?", "the film this morning"), and then ask within it:
the people on the call, not every voice of the day. A noun that names a sort of recording
(memory.recordings.RECORDING_WORDS) is resolved to the latest recording of that sort in the
question's window, before the question; the question is then asked within that recording.
When the day holds no such recording yet, nothing is in scope: "who was on the call?" before
any call is not answered with someone from a talk.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from agent.plan import QueryPlan
from agent.question_nlp import SpacyPipeline, without_address
from agent.tools.base import ToolContext
from memory.recordings import GENERIC_WORDS, RECORDING_WORDS, SORTS, recording_words
from memory.records import RECORDING, MemoryRecord

AROUND = timedelta(hours=6)  # "after the call": the hours after it, as an anchor's "after" is read
_POINTING = {"the", "that", "this", "those", "these", "my", "our", "his", "her", "their", "your"}


@dataclass(frozen=True)
class Scope:
    word: str  # the words that named the recording ("call", "phone call")
    recording: MemoryRecord | None  # None: no recording of that sort in the window


def recording_word(nlp: SpacyPipeline, question: str) -> str | None:
    """The noun (with its compound: "phone call") naming a recording, when the question points
    at one ("the call", "that talk", "this morning's lecture"). Not a verb ("who did I talk
    to"), an indefinite noun ("did I watch a film?"), a noun another word narrows to an event
    ("the budget meeting": what was talked about, not a recording of it), nor one inside a
    clause the question reports ("I learned Peter leads the meeting")."""
    doc = without_address(nlp, question)
    for tok in doc:
        if tok.pos_ != "NOUN":
            continue
        compound = " ".join(c.lemma_.lower() for c in tok.children if c.dep_ == "compound")
        word = next((w for w in (f"{compound} {tok.lemma_.lower()}".strip(), tok.lemma_.lower())
                     if w in RECORDING_WORDS), None)
        pointed = any(c.lower_ in _POINTING or c.dep_ == "poss" for c in tok.children)
        narrowed = any(c.dep_ in ("compound", "amod", "nmod") and c.lemma_.lower() not in (word or "").split()
                       for c in tok.children)
        if word and pointed and not narrowed and _in_main_clause(tok):
            return word
    return None


_SUBORDINATE = {"ccomp", "advcl", "relcl", "csubj", "parataxis", "acl"}  # clauses a question reports or nests


def _in_main_clause(tok) -> bool:
    """No clause but the question's own stands between the noun and the root (a verb the
    parser hangs off the root as its complement, "what month was the lecture filmed?", is the
    question's own)."""
    head = tok.head
    while head.i != head.head.i:
        if head.pos_ in ("VERB", "AUX") and head.dep_ in _SUBORDINATE:
            return False
        head = head.head
    return True


def resolve(ctx: ToolContext, word: str) -> Scope | None:
    """The latest recording in the window that `word` may name; a generic word ("the video")
    only when one recording in the window is of that medium (else the question is not scoped)."""
    after, before = ctx.window()
    named = [r for r in ctx.records((RECORDING,), after=after, before=before)
             if word in recording_words(r.attrs.get("sort", ""), r.attrs.get("medium", ""))]
    if word in GENERIC_WORDS:
        return Scope(word, named[0]) if len(named) == 1 else None
    if not named:
        return Scope(word, None)
    # "the talk": a recording that is a talk first, before one that may also be called so (a voice note)
    fit = min(_rank(word, r) for r in named)
    return Scope(word, [r for r in named if _rank(word, r) == fit][-1])


def _rank(word: str, recording: MemoryRecord) -> int:
    words = SORTS.get(recording.attrs.get("sort", ""), ())
    return words.index(word) if word in words else len(words)


def scoped(plan: QueryPlan, scope: Scope) -> QueryPlan:
    """The plan asked within the recording, or before / after it when the recording is the
    question's anchor ("after the call"); an empty window when there is none. The noun that
    named it is no longer a thing to look for."""
    rec, time = scope.recording, plan.time
    parts = set(scope.word.split())
    anchored = time.anchor is not None and bool(parts & set(time.anchor.lower().split()))
    if rec is None:
        start = end = datetime.min
    elif anchored and time.relation == "after":
        start, end = rec.wall_end, rec.wall_end + AROUND
    elif anchored and time.relation == "before":
        start, end = rec.wall_start - AROUND, rec.wall_start
    else:
        start, end = rec.wall_start, rec.wall_end + timedelta(seconds=1)
    if anchored:
        time = replace(time, anchor=None, relation=None)
    keep = [o for o in plan.objects if not set(o.lower().split()) & parts]
    within = rec.video_id if rec is not None and not anchored else None
    return replace(plan, time=replace(time, start=start, end=end, day_offset=None, hours=None, recording=within),
                   objects=keep, premises=[p for p in plan.premises if not set(p.lower().split()) & parts],
                   topic=[t for t in plan.topic if t.lower() not in parts])
