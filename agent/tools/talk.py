"""Tools over what was said and read: who said what (corrections included), who the wearer
talked to, open requests and commitments, and text read on signs, notes and screens."""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from agent.attribution import about as by_or_about
from agent.attribution import spoken_of
from agent.plan import WEARER
from agent.reasoning import evidence_text
from agent.state import Evidence
from agent.tools.base import ToolContext, ToolResult, in_hours, moment_phrase
from agent.verbs import ASKING, SPEAKING
from memory.conversation import CORRECTION_CUE
from memory.language import normalise, ordinal_of, s_forms, s_stem
from memory.records import ENTITY_SIGHTING, RECORDING, TEXT_SIGHTING, UTTERANCE, MemoryRecord, order_by_time

_OWED = {"commitment": ("commitment", "intention"), "obligation": ("commitment", "intention", "request")}
TALKING_WITH = 30.0  # seconds from someone's turn within which the wearer's line was said to them
READ_COSINE = 0.3  # a text block this close in meaning to the question is about it


def speaker_of(record: MemoryRecord) -> str:
    return record.attrs.get("speaker_name") or record.attrs.get("speaker") or "someone"


def spoken_by(record: MemoryRecord, name: str) -> bool:
    """A turn memory attributes to this named voice."""
    return (record.attrs.get("speaker_name") or "").lower() == name.lower()


def _is_wearer(record: MemoryRecord) -> bool:
    """The wearer's own voice: diarisation labels the glasses' owner, or the turn says so."""
    return bool(record.attrs.get("is_wearer")) or spoken_by(record, WEARER)


def _near_turns(turns: Sequence[MemoryRecord]) -> Callable[[MemoryRecord], bool]:
    """Whether a line was said within TALKING_WITH of one of these turns (ordered by time), in
    the same recording: a bisect, so a year of someone's turns costs no more than a day's."""
    times, reach = [t.wall_start for t in turns], timedelta(seconds=TALKING_WITH)

    def near(record: MemoryRecord) -> bool:
        lo, hi = bisect_left(times, record.wall_start - reach), bisect_right(times, record.wall_start + reach)
        return any(t.video_id == record.video_id for t in turns[lo:hi])
    return near


def _overlap(terms: Sequence[str], text: str) -> float:
    """The share of the terms' words the text holds, compared as `s_stem`s."""
    if not terms:
        return 0.0
    have, words = {s_stem(w) for w in normalise(text).split()}, [w for t in terms for w in normalise(t).split()]
    return sum(s_stem(w) in have for w in words) / max(len(words), 1)


def _unsaid_ordinals(topic: Sequence[str], support: Sequence[Evidence]) -> list[str]:
    """The ordinals of the topic no cited line says: "Nate's third screenplay" is one of
    several, and a line on "my screenplay" does not say which; the topic is not met."""
    said_words = {w for e in support for w in normalise(e.record.text).split()}
    return [w for t in topic for w in normalise(t).split() if ordinal_of(w) and w not in said_words]


def said(ctx: ToolContext, topic: Sequence[str], speaker: str | None = None, act: str | None = None,
         query: str = "", verb: str | None = None, about: str | None = None) -> ToolResult:
    """What someone said about a topic; the latest best match, and a correction by the same
    speaker shortly after overrides it ("at 3. Actually, no, 5"). `verb`: the question's; with
    no topic, its forms are the topic ("what did she realise?": the line that says "realized"),
    unless it only says that someone spoke ("what did she say?"). `about`: the one person a
    question names without making them the speaker ("what is Gina's attitude to it?"): their
    own words or a line that names them answer, not another's line on the topic."""
    mentioned = about if about and about != WEARER and not speaker else None
    speaker = speaker or mentioned
    if not topic and verb and verb not in SPEAKING:
        topic = list(ctx.operators.kinds.verb_forms(verb))
    attrs = (("speaker_name", speaker),) if speaker and speaker != WEARER else ()
    text = query or " ".join(topic)
    everyone = ctx.search(text, kinds=(UTTERANCE,), k=12)
    hits = ctx.search(text, kinds=(UTTERANCE,), k=12, attrs=attrs) if attrs else everyone
    if attrs and not hits:  # the named person may not have been recognised by voice
        hits = everyone
    if speaker and speaker != WEARER:
        named = [e for e in hits if spoken_by(e.record, speaker)]
        talks = {e.record.video_id for e in named}
        # Diarisation can split one voice: unnamed turns in a recording where the person spoke may be theirs.
        unnamed = [e for e in hits if e.record.video_id in talks and not e.record.attrs.get("speaker_name")]
        naming = [e for e in everyone if mentioned and e not in named and by_or_about(e.record, [mentioned.lower()])]
        hits = named + unnamed + naming if named or naming else hits
    acts = {"commitment": ("commitment", "intention")}.get(act or "", (act,) if act else ())
    if not hits:
        return ToolResult("said", "", [], False, note="no utterance retrieved")
    # A question put to them that matches is as good as their own words: its reply answers.
    replies = {} if act in ("question", "request") else {
        e.record.id: Evidence(reply, e.score, "said") for e in everyone if (reply := _answer_to(ctx, e.record, speaker))}
    candidates = [e for e in hits if e.record.id not in replies] + [e for e in everyone if e.record.id in replies]
    asking = set() if act in ("question", "request") or verb in ASKING else \
        {e.record.id for e in candidates if e.record.id not in replies and only_asks(e.record, topic, query)}
    top = max(candidates, key=lambda e: (any(a in e.record.attrs.get("acts", []) for a in acts),
                                         e.record.id not in asking, _overlap(topic, e.record.text),
                                         e.record.wall_start, e.score))
    asked = None  # the question put to them, when their reply is the answer; it carries the topic
    if top.record.id in replies:
        asked, top = top, replies[top.record.id]
    record = top.record
    words, who = record.attrs.get("said", record.text), speaker_of(record)
    claim = f"{who}: {words}"
    fix = CORRECTION_CUE.search(words)
    support, when = [top, *([asked] if asked else [])], moment_phrase(record.wall_start, ctx.at)
    if fix is not None and len(words) - fix.end() > 3:  # "at 2. Actually, no, it moved to 5": what it became
        claim = f"{who}: {words[fix.end():]}"
        first = words[:fix.start()].strip()
        answer = f'{who} corrected it: "{words[fix.start():].strip()}" ({when}' + \
            (f'; first said "{focus_sentence(first, topic, query)}")' if first else ")")
    else:
        answer = f'{who} said: "{focus_sentence(words, topic, query)}" ({when})'
    for later in ctx.operators.follow_up_turns(record, ctx.at):
        if CORRECTION_CUE.search(later.attrs.get("said", "")):
            support.append(Evidence(later, top.score, "said"))
            answer = f'{who} corrected it: "{later.attrs["said"]}" (at {later.wall_start:%H:%M}; first said "{words}")'
            claim = f'{who}: {later.attrs["said"]}'
            break
    if unsaid := _unsaid_ordinals(topic, support):  # not the one asked about: no answer, not a loose one
        return ToolResult("said", "", [], False, note=f"no line{f' by {speaker}' if speaker else ''} says {unsaid[0]!r}")
    on_topic = _overlap(topic, " ".join(e.record.text for e in support))
    matched_act = any(a in record.attrs.get("acts", []) for a in acts)
    # A named speaker who never said it: what someone else said is not an answer.
    by_them = not speaker or speaker == WEARER or by_or_about(record, [speaker.lower()])  # their line, or one about them
    # the people the lines speak of; a name only called out to is the listener ("Thanks, John.")
    names = [n for e in support for text in [e.record.attrs.get("said", e.record.text)]
             for n in ctx.people_in(text) if spoken_of(text, n)]
    asked_only = record.id in asking
    if topic and not on_topic and not matched_act:  # their line on nothing asked is no partial answer either
        answer = claim = ""
    return ToolResult("said", answer, support, (on_topic > 0 or matched_act) and by_them and not asked_only, claim,
                      f"speaker-attributed transcript (topic {on_topic:.2f}{'' if by_them else f', not by {speaker}'}"
                      f"{', only a question they asked' if asked_only else ''})",
                      names=list(dict.fromkeys(names)))


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'A-Z])")


def focus_sentence(words: str, topic: Sequence[str], query: str = "") -> str:
    """The sentence of a long turn that is about the topic (then the rest of the question),
    else the whole turn: a person asking what someone said wants that part, not the
    greeting around it."""
    sentences = _SENTENCE_END.split(words.strip())
    if len(sentences) < 2:
        return words
    asked = normalise(query).split()
    best = max(sentences, key=lambda sentence: (_overlap(topic, sentence), _overlap(asked, sentence)))
    return best if _overlap(topic, best) > 0 else words


# "could you tell me more about ...?": a request to be told, which is a question put
_TELL_ME = re.compile(r"\b(?:could|can|would|will)\s+you\s+(?:please\s+)?(?:tell|share|explain|describe|say|show)\b",
                      re.IGNORECASE)


def only_asks(record: MemoryRecord, topic: Sequence[str], query: str) -> bool:
    """Whether a line's part about the topic is a question its speaker put ("what challenges
    did you meet?"): it tells nothing of the speaker's own. A request ("could you send the
    budget?") tells what they want, unless what it asks is to be told ("could you tell me
    more about the run?")."""
    line = focus_sentence(record.attrs.get("said", record.text), topic, query)
    return line.rstrip().endswith("?") and (
        "request" not in record.attrs.get("acts", []) or _TELL_ME.search(line) is not None)


def _answer_to(ctx: ToolContext, turn: MemoryRecord, speaker: str | None) -> MemoryRecord | None:
    """When the best match is a question someone put to the person asked about ("What
    motivated you to become a counselor?"), the reply that came next holds what they said.
    Not for a request ("could you buy eggs?" is itself what was asked), nor when the named
    person asked it ("what did Bob ask me?"), nor for the wearer's own words."""
    acts = turn.attrs.get("acts", [])
    if "question" not in acts or "request" in acts or speaker == WEARER or (speaker and spoken_by(turn, speaker)):
        return None
    reply = ctx.operators.reply_to(turn, ctx.at)
    if reply is None or _is_wearer(reply) or (speaker and not spoken_by(reply, speaker)):
        return None
    return reply


PHONE_SORTS = ("call", "voice", "conversation")  # memory.recordings' sorts a phone call may be recorded as
OPENING_TURNS = 2  # the turns a recording opens with, read for whom a call reached
UNNAMED_CITED = 6  # the most opening turns cited when no voice is named


def _openings(turns: Sequence[MemoryRecord]) -> list[MemoryRecord]:
    """Each recording's first turns, recordings in the order they began."""
    by_recording: dict[str, list[MemoryRecord]] = {}
    for turn in order_by_time(turns):
        by_recording.setdefault(turn.video_id, []).append(turn)
    return [turn for first in by_recording.values() for turn in first[:OPENING_TURNS]]


def people(ctx: ToolContext, by_phone: bool = False) -> ToolResult:
    """Who the wearer talked with or saw in the window: named voices and named faces, in
    order of first appearance. `by_phone` ("who did I ring?"): only voices of recordings a
    call may be (sound with voices, a conversation), not a talk's speaker or a film's."""
    after, before = ctx.window()
    firsts = _first_named(ctx, after, before)
    calls = {r.video_id for r in ctx.records((RECORDING,), after=after, before=before)
             if r.attrs.get("sort") in PHONE_SORTS} if by_phone else None
    if calls is not None:
        firsts = {name: r for name, r in firsts.items() if r.kind == UTTERANCE and r.video_id in calls}
    if not firsts:
        turns = [r for r in ctx.records((UTTERANCE,), "event", after, before)
                 if not _is_wearer(r) and in_hours(r.wall_start, ctx.time.hours)
                 and (calls is None or r.video_id in calls)]
        voices = {r.attrs.get("speaker") for r in turns if r.attrs.get("speaker")}
        note = f"{len(voices)} unnamed voice(s)" if voices else "nobody talked in that window"
        # each recording's opening turns: a call opens with whom it reached ("thank you for calling Acme")
        opening = _openings(turns)
        return ToolResult("people", "", [Evidence(r, 0.5, "people") for r in opening[:UNNAMED_CITED]], False, note=note)
    names = list(firsts)
    return ToolResult("people", ", ".join(names), [Evidence(r, 1.0, "people") for r in firsts.values()], True, names,
                      "named voices in the window")


def _first_named(ctx: ToolContext, after: datetime | None, before: datetime | None) -> dict[str, MemoryRecord]:
    """Each named voice's (not the wearer's) and named face's first record in the window
    and hours of the day, in order of appearance."""
    operators, hours = ctx.operators, ctx.time.hours
    turns = operators.store("event").first_of(("speaker_name", "is_wearer"), ctx.filter((UTTERANCE,), after, before, hours=hours))
    faces = operators.store("entity").first_of(("name", "person_id"), replace(
        ctx.filter((ENTITY_SIGHTING,), after, before, hours=hours), attrs=(("source", "face"),)))
    firsts: dict[str, MemoryRecord] = {}
    named = [r for r in turns if not _is_wearer(r)] + [r for r in faces if r.attrs.get("person_id") is not None]
    for r in order_by_time(named):
        firsts.setdefault(r.attrs["speaker_name"] if r.kind == UTTERANCE else r.attrs["name"], r)
    return firsts


LISTED = 5  # the most acts a list answer names (the latest)
LISTED_TEXTS = 8  # the most texts "what did I read this morning?" names (the first read)


def speech_acts(ctx: ToolContext, act: str, speaker: str | None = None, topic: Sequence[str] = (),
                listener: str | None = None, places: Sequence[str] = ()) -> ToolResult:
    """Requests made to the wearer, or the wearer's own commitments and intentions, or, for
    an obligation ("what do I need to bring?"), both, in the window; with a topic, the
    matching one, else all of them (latest first). A commitment made to someone ("what did I
    tell Bob I'd send") is one said where that person spoke."""
    acts = _OWED.get(act, (act,))
    after, before = ctx.window()
    events, spoken = ctx.operators.store("event"), ctx.filter((UTTERANCE,), after, before)
    turns = ctx.newest(events, replace(spoken, attrs_in=(("acts", acts),)))
    if act == "obligation":  # what others asked of the wearer, not what the wearer asked of them
        turns = [r for r in turns if not (_is_wearer(r) and "request" in r.attrs.get("acts", ()))]
    if listener and listener != WEARER:
        names = tuple(n for (n,) in events.distinct(("speaker_name",), spoken) if n.lower() == listener.lower())
        theirs = ctx.newest(events, replace(spoken, attrs_in=(("speaker_name", names),))) if names else []
        heard = {r.video_id for r in theirs}
        # said while talking with them (within TALKING_WITH of a turn of theirs), else where they speak
        near = list(filter(_near_turns(theirs), turns))
        turns = near or [r for r in turns if r.video_id in heard] or turns
        if speaker == WEARER:  # "what did I ask Nina to do?": said to her, so not by her
            turns = [r for r in turns if not spoken_by(r, listener)]
    named = speaker and speaker != WEARER
    by_speaker = [r for r in turns if spoken_by(r, speaker)] if named else turns
    if not by_speaker and topic:  # the act was not recognised in the transcript ("let's meet at 5"): match the topic
        stems = {s_stem(w) for t in topic for w in normalise(t).split()} - {""}
        # the index finds the turns holding a topic word as `_overlap` reads it ("book", "books")
        everyone = ctx.records((UTTERANCE,), "event", after, before,
                               mentions=[form for stem in stems for form in s_forms(stem)])
        by_speaker = [r for r in everyone if (not named or spoken_by(r, speaker)) and _overlap(topic, r.text) > 0]
    turns = by_speaker or turns  # a voice memory never named: anyone's
    if ctx.time.ahead:  # "what does Alice want me to get tomorrow?": the acts whose told day is that one
        lo, hi = ctx.time.ahead
        turns = [r for r in turns if any(lo <= when < hi for _, when in ctx.dates_in(r.attrs.get("said") or r.text, r.wall_start))] \
            or turns
    if topic:
        # of those holding as much of the topic, one said in the place the question names first
        scored = sorted(turns, key=lambda r: (_overlap(topic, r.text), r.attrs.get("place") in places, r.wall_start),
                        reverse=True)
        # no line holds the topic's words ("did I agree to do anything?"): every one, not the newest alone
        turns = [r for r in scored if _overlap(topic, r.text) > 0][:3] or list(reversed(turns))[:LISTED]
    else:
        turns = list(reversed(turns))[:LISTED]
    if not turns:
        return ToolResult("speech_acts", "", [], False, note=f"no {act} remembered")
    lines = [f'{speaker_of(r)}: "{r.attrs.get("said", r.text)}" ({r.wall_start:%a %H:%M})' for r in turns]
    return ToolResult("speech_acts", "; ".join(lines), [Evidence(r, 1.0, "speech_acts") for r in turns], True,
                      "; ".join(f"{speaker_of(r)}: {r.attrs.get('said', r.text)}" for r in turns), f"{len(turns)} {act}(s)",
                      by_act=True)


def _everything_read(ctx: ToolContext) -> ToolResult:
    """Each text read in the question's window once, in the order it was first read: the
    first LISTED_TEXTS and how many more; with no window ("what did I read?"), the latest."""
    lo, hi = ctx.window()
    first: dict[str, MemoryRecord] = {}
    for r in ctx.records((TEXT_SIGHTING,), after=lo, before=hi):
        first.setdefault(normalise(evidence_text(r)), r)
    if not first:
        return ToolResult("read", "", [], False, note="no text read in the window")
    blocks = sorted(first.values(), key=lambda r: r.wall_start)
    shown = blocks[:LISTED_TEXTS] if lo is not None else blocks[-LISTED_TEXTS:]
    left = len(blocks) - len(shown)
    more = f"; and {left} {'more' if lo is not None else 'earlier'}" if left else ""
    answer = "; ".join(f'"{evidence_text(r)}" ({r.wall_start:%a %H:%M})' for r in shown) + more
    return ToolResult("read", answer, [Evidence(r, 1.0, "read") for r in shown], True,
                      "; ".join(evidence_text(r) for r in shown), f"{len(blocks)} text(s) read in the window")


_AMOUNT = re.compile(r"[$€£]\s?\d|\d[.,]\d{2}\b")
_DIGITS = re.compile(r"\d")


def read(ctx: ToolContext, topic: Sequence[str], query: str, places: Sequence[str] = (),
         answer_type: str = "text") -> ToolResult:
    """Text read on signs, notes, screens and receipts: the text block that best matches; a
    question about money or a number wants a block that shows one. Asked about nothing in
    particular ("what did I read this morning?"), every text read in the window, in order."""
    if not topic and not places and answer_type == "text":
        return _everything_read(ctx)
    hits = ctx.search(query, kinds=(TEXT_SIGHTING,), k=10)
    if places:
        hits = [e for e in hits if e.record.attrs.get("place") in places] or hits
    shape = {"money": _AMOUNT, "number": _DIGITS}.get(answer_type)
    if shape is not None:
        hits = [e for e in hits if shape.search(evidence_text(e.record))] or hits
    if not hits:
        return ToolResult("read", "", [], False, note="no text read")
    lo, hi = ctx.time.start, ctx.time.end
    if lo is not None and hi is not None and ctx.time.recording is None:
        # an anchored moment: what was in view then, not the best match overall (a whole
        # recording the question names is no moment: the best match in it)
        middle = lo + (hi - lo) / 2
        top = max(hits, key=lambda e: (_overlap(topic, evidence_text(e.record)), -abs((e.record.wall_start - middle).total_seconds()),
                                       len(e.record.attrs.get("block") or ()), e.score))
    else:
        top = max(hits, key=lambda e: (_overlap(topic, evidence_text(e.record)), e.score))
    block = evidence_text(top.record)
    where = f" in the {top.record.attrs['place']}" if top.record.attrs.get("place") else ""
    # Text rarely repeats the question's words ("the code on the note" reads "WIFI PASSWORD BLUEFOX42"):
    # a close meaning counts as well as a shared word.
    # and text read at the very moment the question names ("when I was checking my email") is about it.
    related = _overlap(topic, block) > 0 or top.score >= READ_COSINE or ctx.time.start is not None
    return ToolResult("read", f'"{block}" (read{where} at {top.record.wall_start:%H:%M})', [top], related, block,
                      f"best text block (cosine {top.score:.2f})", names=ctx.people_in(block.title()))
