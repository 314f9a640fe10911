"""Reflective questions over conversations: a person's patterns, beliefs, boundaries, how a
view changed, what they would do next. None of these is a fact one turn states, so the
tool gathers the scattered turns that bear on the question rather than the one that
answers it (REMIND's first level, RefMem-Bench arXiv:2606.01223, without its training):

1. rank the conversation's segments by the cosine of their event cue (written at ingest,
   memory.dialogue_builder) to the question, all-MiniLM-L6-v2 as the paper uses, and keep
   the top fifth; a pattern found across sessions at ingest (what a person keeps saying or
   keeps turning away from, memory.dialogue_patterns) that ranks with those cues brings the
   turns it rests on too;
2. rank the turns of those segments by their cosine to the question, the target person's
   own turns and the turns they answer lifted (the paper's speaker salience, which reaches
   the trigger of an implicit reply);
3. return the best turns, in time order, as evidence; options are judged against them.
"""
from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Sequence

from agent.state import Evidence
from agent.tools.base import ToolContext, ToolResult
from agent.tools.talk import focus_sentence, only_asks, speaker_of, spoken_by
from memory.language import content_words
from memory.records import PATTERN, SEGMENT, UTTERANCE, MemoryRecord, order_by_time

SEGMENT_SHARE = 0.2  # the paper's top 20 % of segments ...
MIN_SEGMENTS = 3  # ... but never fewer than this: a short chat's fifth is one stretch of it
MAX_LINES = 10
MAX_PATTERNS = 2  # patterns that may add their turns, beside the segments
SPEAKER_LIFT = 0.15  # added to the cosine of the person's turns and of the turns they reply to


def _key(record: MemoryRecord) -> tuple[str, object]:
    return record.video_id, record.attrs.get("session")


def _lines_in(units: Sequence[MemoryRecord], turns: Sequence[MemoryRecord]) -> list[MemoryRecord]:
    """The turns inside the chosen segments or named by the chosen patterns, in time order."""
    spans, named = defaultdict(list), set()
    for u in units:
        if u.kind == PATTERN:
            named.update((u.video_id, n) for n in u.attrs["turns"])
        else:
            spans[_key(u)].append((u.wall_start, u.wall_end))
    return [t for t in turns if (t.video_id, t.attrs.get("turn")) in named
            or any(a <= t.wall_start < b for a, b in spans.get(_key(t), ()))]


def _lifted(turns: Sequence[MemoryRecord], person: str | None) -> set[int]:
    """The person's turns and the turn before each (what they were answering)."""
    if not person:
        return set()
    keep: set[int] = set()
    for n, t in enumerate(turns):
        if spoken_by(t, person):
            keep.add(t.id)
            if n and _key(turns[n - 1]) == _key(t):
                keep.add(turns[n - 1].id)
    return keep


def anchored(query: str, person: str | None, focus: Sequence[str] = ()) -> str:
    """What segments and turns are ranked by: the question without the person it is about
    (every segment of their chats names them; the speaker lift stands for them) and with its
    behavioural focus, the plan's topic words, said once more."""
    text = re.sub(rf"\b{re.escape(person)}(?:'s|s')?\b", " ", query, flags=re.I) if person else query
    return " ".join([*text.split(), *focus]) or query


def reflect(ctx: ToolContext, query: str, person: str | None = None, focus: Sequence[str] = ()) -> ToolResult:
    """The turns that bear on a question about a person, from the top fifth of segments."""
    query = anchored(query, person, focus)
    lo, hi = ctx.window()
    segments = ctx.records((SEGMENT,), after=lo, before=hi)
    turns = ctx.records((UTTERANCE,), after=lo, before=hi)
    if not turns:
        return ToolResult("reflect", "", [], False, None, "no conversation in memory")
    want = max(MIN_SEGMENTS, math.ceil(SEGMENT_SHARE * len(segments)))
    if len(segments) > want:
        store = ctx.operators.store("event")
        ranked = store.search_dense(query, ctx.filter((SEGMENT,), lo, hi), want)
        bar = min((s for _, s in ranked), default=float("inf"))  # no segment found: no pattern either
        patterns = [r for r, s in store.search_dense(query, ctx.filter((PATTERN,), lo, hi), MAX_PATTERNS) if s >= bar]
        pool = _lines_in([r for r, _ in ranked] + patterns, turns) or turns
    else:  # a short chat, or conversation heard in video (no segments): every turn is a candidate
        pool = list(turns)
    vectors = ctx.operators.embed([query] + [t.text for t in pool])
    lifted = _lifted(turns, person)
    scores = {t.id: float(vectors[n + 1] @ vectors[0]) + (SPEAKER_LIFT if t.id in lifted else 0.0)
              for n, t in enumerate(pool)}
    distinct = {t.text: t for t in sorted(pool, key=lambda t: scores[t.id])}  # a line said again is one line
    best = sorted(distinct.values(), key=lambda t: -scores[t.id])[:MAX_LINES]
    support = [Evidence(t, round(scores[t.id], 4), "reflect") for t in order_by_time(best)]
    topic = content_words(query)
    # a question the person put ("what got you into running?") tells nothing of their own
    top = next((t for t in best if not only_asks(t, topic, query)), None)
    chosen = f"the top {want} of {len(segments)} segments" if len(segments) > want else "every turn"
    if top is None:
        return ToolResult("reflect", "", support, False, None, f"{len(best)} turns from {chosen}, each a question")
    if person and not spoken_by(top, person):
        # even lifted, the person's own turns are not what bears on it: memory holds it of someone else
        return ToolResult("reflect", "", support, False, None,
                          f"{len(best)} turns from {chosen}, the best by {speaker_of(top)}, not {person}")
    return ToolResult("reflect", _told(top, topic, query), support, True, None, f"{len(best)} turns from {chosen}")


def _told(turn: MemoryRecord, topic: Sequence[str], query: str) -> str:
    """The best turn as the answer: its sentence about the question when it has one, with
    who said it ("Caroline: The rainbow flag mural is important to me ..."), not the
    greeting and the picture shared around it."""
    said = turn.attrs.get("said") or turn.text
    told = focus_sentence(said, topic, query)
    return turn.text if told == said else f"{speaker_of(turn)}: {told}"
