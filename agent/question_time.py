"""When a question is about: dates (memory.language.dates), days relative to the question
("yesterday evening"), the hours a meal or part of the day names, and the relation to an event that
anchors the time ("after lunch", "once I'd finished lunch", "the day Bob asked for the
slides", "while we were in the kitchen"). Grammar decides which time belongs to the
question and which is part of what was said ("what did I promise to do after work?").
"""
from __future__ import annotations

from datetime import datetime, timedelta

from agent.plan import TimeSlot
from agent.verbs import SAYING_OR_INTENDING
from memory.language import TIME_UNITS, date_span, parse_date

# Hours of the day that day parts and meals name (general English, not a world's vocabulary).
DAY_PARTS: dict[str, tuple[float, float]] = {
    "breakfast": (5.0, 10.5), "brunch": (9.5, 13.0), "lunch": (11.0, 14.5), "lunchtime": (11.0, 14.5),
    "dinner": (17.5, 21.5), "supper": (17.5, 21.5), "morning": (5.0, 12.0), "noon": (11.5, 13.0),
    "afternoon": (12.0, 18.0), "evening": (18.0, 24.0), "night": (18.0, 24.0), "tonight": (18.0, 24.0),
    "bedtime": (20.0, 24.0),
}
_TODAY = {"today": 0, "tonight": 0, "yesterday": -1, "this": 0, "last": -1}
# Subordinators that relate the question's time to an event ("after I got home", "once I'd eaten").
_MARKS = {"after": "after", "since": "after", "once": "after", "before": "before", "until": "before",
          "till": "before", "when": "during", "while": "during", "whilst": "during"}
# Units a length of time is counted in ("for 4 years", "over two weeks", "for three nights").
_UNITS = TIME_UNITS | {"night", "weekend"}
# Verbs that end a stay or an activity: "when I leave the office" places the question after it.
_ENDING = {"leave", "finish", "exit", "quit", "end", "wrap", "done", "complete"}


def _reported(tok) -> bool:
    """Whether a token sits in the complement of a verb of saying or intending
    ("what did I promise [to do after work]") rather than in the question's own clause.
    A verb addressed to the assistant frames the question instead ("could you tell me
    [where I go after lunch]", "remind me [what I did after work]")."""
    while tok.dep_ != "ROOT" and tok.head is not tok:
        if tok.dep_ in ("xcomp", "ccomp") and tok.head.lemma_ in SAYING_OR_INTENDING and not _addressed_to_assistant(tok.head):
            return True
        if tok.dep_ == "xcomp" and tok.head.lemma_ == "go" and tok.head.tag_ == "VBG":
            return True  # "what was I going to [pick up after work]": a plan
        tok = tok.head
    return False


def _addressed_to_assistant(verb) -> bool:
    subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    return (not subjects and verb.dep_ == "ROOT") or any(s.lower_ == "you" for s in subjects)


def time_slot(doc, at: datetime | None) -> tuple[TimeSlot, set[int], set[int]]:
    """Times named in the question, the token indexes they cover, and those of the event
    that anchors the time. "after" / "before" place the question only when they modify its
    main verb: in "what did I promise to do after work?" the time is part of what was promised."""
    used: set[int] = set()
    day_offset, part, hours, relation, anchor = None, None, None, None, None
    anchored: list = []  # the tokens of the event the time is anchored on
    clock_start = clock_end = None
    for ent in doc.ents:
        if ent.label_ not in ("DATE", "TIME"):
            continue
        words = [t.lower_ for t in ent]
        used.update(range(ent.start, ent.end))
        if words in (["one", "day"], ["some", "day"], ["that", "day"]) or _lasting(ent):
            continue  # indefinite ("I watched it one day"), anaphoric, or a length: no date of its own
        for w in words:
            if w in DAY_PARTS:
                part, hours = w, DAY_PARTS[w]
        if "yesterday" in words or ("last" in words and "night" in words):
            day_offset = -1
        # a day inside what was asked or planned ("expecting me to bring on Friday") is the coming one
        prefer = "future" if _reported(ent.root) else "past"
        if at is not None and not part and ent.label_ == "DATE" and (span := date_span(ent.text, at, prefer)) is not None:
            clock_start, clock_end = span  # "in January 2022", "this week", "last month": all of it, not one day
        elif any(w in ("today", "tonight", "this") for w in words):
            day_offset = 0 if day_offset is None else day_offset
        elif at is not None and not part:
            parsed = parse_date(ent.text, at, prefer)
            if parsed is not None:
                if any(c.isdigit() for c in ent.text) and ent.label_ == "TIME":
                    clock_start, clock_end = parsed - timedelta(minutes=30), parsed + timedelta(minutes=30)
                else:
                    day_offset = (parsed.date() - at.date()).days
        prep = doc[ent.start - 1] if ent.start > 0 else None
        if prep is not None and prep.lower_ in _TODAY and day_offset is None:  # "this morning's", "last evening"
            day_offset = _TODAY[prep.lower_]
            used.add(prep.i)
        if prep is not None and prep.lower_ in ("after", "before", "since", "until"):
            relation = "after" if prep.lower_ in ("after", "since") else "before"
            used.add(prep.i)
    for tok in doc:  # day parts and meals that NER leaves untagged ("after lunch", "for breakfast")
        bedtime = tok.lower_ == "bed" and tok.dep_ == "pobj" and tok.head.lower_ in ("before", "after", "at", "until")
        named_part = tok.lower_ if tok.lower_ in DAY_PARTS else tok.lemma_.lower()  # "in the afternoons"
        if tok.i in used or (named_part not in DAY_PARTS and not bedtime) or tok.pos_ not in ("NOUN", "PROPN", "ADV"):
            continue
        used.add(tok.i)
        part = "bedtime" if bedtime else named_part
        hours = DAY_PARTS[part]
        prep = tok.head if tok.dep_ == "pobj" else tok.head.head if tok.head.dep_ == "pcomp" else None  # "after (eating) lunch"
        prefix = doc[tok.i - 2].lower_ if tok.i >= 2 and doc[tok.i - 1].text == "-" else ""  # "post-lunch"
        if prep is not None and prep.lower_ in ("after", "before", "since", "until"):
            used.add(prep.i)
            if _reported(prep.head):  # part of what was said or planned, not when the question is about
                part, hours = None, None
                continue
            relation = "after" if prep.lower_ in ("after", "since") else "before"
        elif prefix in ("post", "pre"):
            relation = "after" if prefix == "post" else "before"
            used.update((tok.i - 2, tok.i - 1))
        elif (mark := _mark_before(tok)) is not None and tok.dep_ in ("nsubj", "nsubjpass"):
            relation = _MARKS[mark.lower_] if _MARKS[mark.lower_] != "during" else None  # "once lunch is done"
            used.update(t.i for t in (mark, tok.head))
        for left in tok.lefts:
            if left.lower_ in _TODAY:
                day_offset = _TODAY[left.lower_] if day_offset is None else day_offset
                used.add(left.i)
        if tok.lower_ == "tonight":
            day_offset = 0
    for tok in doc:
        if tok.lower_ in ("today", "now") and tok.i >= 1 and doc[tok.i - 1].lower_ in ("until", "till", "to", "through"):
            day_offset = None if tok.lower_ == "today" else day_offset  # "until today", "up to now": all so far
            relation = None if relation == "before" and anchor is None and hours is None else relation
            used.update((tok.i - 1, tok.i))
            continue
        if tok.lower_ in ("today", "yesterday") and tok.i not in used:
            day_offset = _TODAY[tok.lower_]
            used.add(tok.i)
        if tok.lower_ == "tomorrow" and tok.i not in used:  # NER leaves it untagged after "for"
            day_offset = 1 if day_offset is None else day_offset
            used.add(tok.i)
    # "I watched Rocky one day; what did I eat that day?": a statement before the question anchors "that day"
    that_day = next((t for t in doc if (t.lemma_ == "day" and any(c.lower_ == "that" for c in t.children))
                     or (t.lower_ == "then" and t.dep_ == "advmod")), None)  # "... where was lunch then?"
    split = next((t.i for t in doc[:that_day.i] if t.text in (";", ".", "-", "--", "—")), None) if that_day else None
    if split is not None and anchor is None:
        told = [t for t in doc[:split] if not t.is_punct and t.i not in used]
        anchor, relation = phrase(anchored := told), "day_of"
        used.update(range(split + 1))
        used.update(t.i for t in that_day.subtree)
    # "on the day (that) Bob asked for the slides" / "after I got home": an event anchors the time
    for tok in doc if anchor is None else ():
        clause = _clause_after_day(tok)
        if clause:
            anchor = phrase(anchored := clause)
            relation = "day_of"
            used.update(t.i for t in [*tok.subtree, *clause])
            if tok.head.pos_ == "ADP":
                used.add(tok.head.i)
            break
        before_clause = doc[tok.left_edge.i - 1] if tok.left_edge.i > 0 else None  # "go [once] I'd finished"
        marks = [c for c in tok.children if c.dep_ in ("mark", "advmod") and c.lower_ in _MARKS] + (
            [before_clause] if before_clause is not None and before_clause.lower_ in _MARKS else [])
        if tok.dep_ == "advcl" and not _reported(tok.head) and marks:
            relation = _MARKS[marks[0].lower_]
            if relation == "during" and tok.lemma_ in _ENDING:
                relation = "after"  # "when I leave the office": what follows the leaving
            clause = [t for t in tok.subtree if t.i != marks[0].i]
            named = [t for t in clause if t.lower_ in DAY_PARTS]
            setting = [t for t in named if t.dep_ == "pobj" and t.head.lower_ in ("in", "during", "on")]
            if setting:  # "after I'm done at the office in the afternoon": the hours, and the event
                part, hours = setting[0].lower_, DAY_PARTS[setting[0].lower_]
                anchor = phrase(anchored := [t for t in clause if t.i not in {x.i for x in setting[0].head.subtree}])
            elif named and relation != "during":  # "once I'd finished lunch": the meal's hours, no event to find
                part, hours = named[0].lower_, DAY_PARTS[named[0].lower_]
            elif tok.lemma_ in ("see", "spot", "notice", "find") and any(
                    c.dep_ == "dobj" and c.lower_ in ("it", "them", "him", "her") for c in tok.children):
                relation = None  # "the last time I saw it": the thing's own last sighting, not a window
            else:
                anchor = phrase(anchored := clause)
            used.update([*(t.i for t in tok.subtree), marks[0].i])
            break
        if (tok.lower_ in ("after", "before", "since", "until") and tok.dep_ == "prep" and tok.i not in used
                and not _reported(tok.head) and any(c.dep_ == "pobj" for c in tok.children)):
            obj = next(c for c in tok.children if c.dep_ == "pobj")
            if obj.i not in used:
                relation = "after" if tok.lower_ in ("after", "since") else "before"
                anchor = phrase(anchored := list(obj.subtree))
                used.update(t.i for t in tok.subtree)
                break
    if relation in ("after", "before") and anchor is None and hours is None and clock_start is None:
        relation = None  # "what was Bob after?": no time to be after
    ahead = None
    if day_offset is not None and day_offset > 0:  # "a to-do for tomorrow": memory holds the past, so a future day is content
        if at is not None:
            day = datetime.combine(at.date() + timedelta(days=day_offset), datetime.min.time(), at.tzinfo)
            ahead = (day, day + timedelta(days=1))
        day_offset = None
    if clock_start is not None and at is not None and clock_start >= at:
        ahead = (clock_start, clock_end)  # "next month", and a month after the question: content too
        clock_start = clock_end = None
    slot = TimeSlot(day_offset=day_offset, hours=hours, part=part, relation=relation, anchor=anchor,
                    start=clock_start, end=clock_end, ahead=ahead)
    return slot, used, ({t.i for t in anchored} if anchor else set())


def _lasting(ent) -> bool:
    """A length of time, not a date: "for 4 years", "over two weeks" (but "over the past week"
    is when)."""
    return ent.start > 0 and ent.doc[ent.start - 1].lower_ in ("for", "over", "within") and \
        not any(t.lower_ in ("last", "past", "this", "next", "ago") for t in ent) and \
        any(t.lemma_.lower() in _UNITS for t in ent)  # "for tomorrow", "for Monday" name a day


def _mark_before(tok):
    """A temporal conjunction right before a meal that is its clause's subject ("once
    [my] lunch is over"), the parser may hang it anywhere."""
    i = tok.i - 1
    while i >= 0 and tok.doc[i].dep_ in ("det", "poss"):
        i -= 1
    return tok.doc[i] if i >= 0 and tok.doc[i].lower_ in _MARKS else None


def _clause_after_day(tok) -> list:
    """The event clause that names a day ("the day (that) Tom asked me for the contract"):
    the parser's relative clause, or, where the small model attaches the clause as the
    sentence's root instead, a subject and its verb right after "the day"."""
    if tok.lemma_ != "day":
        return []
    relative = next((c for c in tok.children if c.dep_ in ("relcl", "acl")), None)
    if relative is not None:
        return list(relative.subtree)
    if not any(c.lower_ == "the" for c in tok.children):
        return []
    doc = tok.doc
    start = tok.i + 1 + (tok.i + 1 < len(doc) and doc[tok.i + 1].lower_ in ("that", "when"))
    if start >= len(doc) or doc[start].dep_ not in ("nsubj", "nsubjpass") or doc[start].head.i <= start:
        return []
    verb = doc[start].head
    return [t for t in verb.subtree if t.i >= start and not t.is_punct]


def phrase(tokens) -> str:
    return " ".join(t.text for t in tokens if t.pos_ not in ("PUNCT",)).strip()
