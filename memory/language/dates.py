"""Date expressions: resolving one against a moment ("yesterday", said on 8 May 2023, is
7 May), finding those a parsed sentence names, and printing a resolved date as precisely
as the words named it."""
from __future__ import annotations

import re
from datetime import datetime, timedelta

# The words a date dateparser can resolve is said with (a digit, a month, a weekday, a unit or
# a word of relative time): a text with none of them names no such date, and is not parsed.
_DATE_CUE = re.compile(
    r"\d|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)"
    r"[a-z]*\b|\b(?:today|tonight|yesterday|tomorrow|ago|last|next|weekend|week|weeks|fortnight|month|months|year|"
    r"years|decade|decades|century|day|days|morning|afternoon|evening|night|noon|midnight|spring|summer|autumn|"
    r"fall|winter|season)\b", re.IGNORECASE)


def may_name_a_date(text: str) -> bool:
    """Whether a text may name a date at all: a test cheap enough to run on every line before
    one is parsed for its dates (a week of memory holds a thousand turns on one topic)."""
    return _DATE_CUE.search(text) is not None


def _date_data(text: str, at: datetime, prefer: str):
    """dateparser's reading of a date expression against `at`: the date and its period (day,
    week, month, year); the one place its settings are said."""
    from dateparser.date import DateDataParser

    return DateDataParser(languages=["en"], settings={
        "RELATIVE_BASE": at, "PREFER_DATES_FROM": prefer, "RETURN_AS_TIMEZONE_AWARE": False}).get_date_data(text)


_WEEKEND = re.compile(r"(?:this\s+)?(last|past|this|next)\s+weekend", re.IGNORECASE)  # "this past weekend" too
_WEEKDAY_NAMES = {name[:3]: name for name in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")}
# a weekday's name, whole or cut short ("Fri", "Tues", "Thurs")
_WEEKDAY = r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|urday|rsday)?"
_WEEKDAY_WORD = re.compile(rf"\b{_WEEKDAY}\b", re.IGNORECASE)
SATURDAY = 5
# "Friday this week", "Monday next week": a weekday of a week said by its side of this one
_WEEKDAY_OF_WEEK = re.compile(r"(\w+day)\s+(last|this|next)\s+week", re.IGNORECASE)
_DAY_NUMBER = {name: n for n, name in enumerate(_WEEKDAY_NAMES.values())}


def parse_date(text: str, at: datetime, prefer: str = "past") -> datetime | None:
    """A date or time expression resolved against `at` (dateparser), a bare weekday or month
    toward `prefer` ("past" or "future"); None when it names none. A weekend said with
    last / this / next is its Saturday, and "Friday this week" that week's Friday (dateparser
    reads neither)."""
    text = _WEEKDAY_WORD.sub(lambda m: _WEEKDAY_NAMES[m.group(0).lower()[:3]], text)  # "last Sat": dateparser reads no "Sat"
    if weekend := _WEEKEND.fullmatch(text.strip()):
        day = datetime.combine(at.date(), datetime.min.time())
        this = day + timedelta(days=SATURDAY - day.weekday())  # Saturday of this week (yesterday, on a Sunday)
        side = weekend.group(1).lower()
        return this if side == "this" else this + timedelta(days=7) if side == "next" else this - timedelta(days=7)
    if (of_week := _WEEKDAY_OF_WEEK.fullmatch(text.strip())) and of_week.group(1).lower() in _DAY_NUMBER:
        day = datetime.combine(at.date(), datetime.min.time())
        this = day + timedelta(days=_DAY_NUMBER[of_week.group(1).lower()] - day.weekday())  # Monday first
        return this + timedelta(days={"last": -7, "this": 0, "next": 7}[of_week.group(2).lower()])
    return _date_data(text, at, prefer).date_obj


def date_span(text: str, at: datetime, prefer: str = "past") -> tuple[datetime, datetime] | None:
    """The whole week, month or year a date expression names, as [start, end), resolved
    against `at` ("January 2022", "last month", "in 2019", "two weeks ago": the calendar week,
    Monday first); None when it names a day or a time, or nothing."""
    found = _date_data(text, at, prefer)
    when, period = found.date_obj, found.period
    if when is None or period not in ("week", "month", "year"):
        return None
    day = datetime.combine(when.date(), datetime.min.time())
    if period == "week":
        start = day - timedelta(days=day.weekday())
        return start, start + timedelta(days=7)
    if period == "month":
        start = day.replace(day=1)
        return start, (start + timedelta(days=32)).replace(day=1)
    start = day.replace(month=1, day=1)
    return start, start.replace(year=start.year + 1)


# The units a length of time is counted in ("4 years", "two decades", "a fortnight").
TIME_UNITS = frozenset({"second", "minute", "hour", "day", "week", "fortnight", "month", "year", "decade", "century"})
_FUTURE_AUX = {"will", "'ll", "shall", "wo"}  # "wo" is spaCy's "won't"
_PRESENT_BE = {"is", "are", "am", "'m", "'re", "'s"}
_ASKING_MODALS = {"could", "can", "would", "will"}  # "could you ...": a request


def looks_ahead(sent) -> bool:
    """Whether a sentence (spaCy span) speaks of what is to come: "will", "is going to", a
    present progressive of a plan ("the plumber is coming on Thursday"), a request ("could
    you send it by Friday?"), an order ("send it by Friday") or an obligation ("I need to call
    on Monday"). Its bare weekday is the next one, not the last."""
    for tok in sent:
        if tok.tag_ == "MD" and tok.lower_ in _FUTURE_AUX:
            return True
        if tok.tag_ == "MD" and tok.lower_ in _ASKING_MODALS and any(
                c.dep_ == "nsubj" and c.lower_ == "you" for c in tok.head.children):
            return True  # "could you ...", "can you ...": something asked to be done
        if tok.tag_ == "VBG" and any(c.dep_ == "aux" and c.lower_ in _PRESENT_BE for c in tok.children):
            return True  # "is coming", "are going to", "I'm flying"
        if tok.lemma_ in ("need", "have") and tok.tag_ in ("VBP", "VBZ") and any(
                c.dep_ == "xcomp" and c.tag_ == "VB" for c in tok.children):
            return True  # "I need to call", "she has to leave": still to do
        if tok.dep_ == "ROOT" and tok.tag_ == "VB" and not any(c.dep_ in ("nsubj", "aux", "auxpass") for c in tok.children):
            return True  # an order: "send me the slides by Friday"
    return False


_DURATION_PREPS = ("for", "over", "during", "within", "in")  # "for 4 years", "in a second": a length, not a date


# a weekday or weekend said with last / next / this, which spaCy's model may tag a person ("last Fri"),
# or a weekday's whole name alone, which it misses on a sign or a note ("BOOK CLUB / THURSDAY 7 PM")
_RELATIVE_DAY = re.compile(rf"\b(?:last|next|this|past)\s+(?:weekend|{_WEEKDAY})\b", re.IGNORECASE)
_WHOLE_WEEKDAY = re.compile(rf"\b(?:{'|'.join(_WEEKDAY_NAMES.values())})\b", re.IGNORECASE)


def date_mentions(span) -> list:
    """The dates a parsed text (a spaCy doc or span) names: its DATE entities, and a weekday
    the model calls something else: said with last / next / this ("last Fri", "last Tues"
    tagged as people), or named whole ("THURSDAY 7 PM" on a whiteboard)."""
    doc, offset = getattr(span, "doc", span), getattr(span, "start_char", 0)
    found = [e for e in span.ents if e.label_ == "DATE"]
    for m in (*_RELATIVE_DAY.finditer(span.text), *_WHOLE_WEEKDAY.finditer(span.text)):
        said = doc.char_span(offset + m.start(), offset + m.end(), alignment_mode="expand")
        if said is not None and not any(e.start < said.end and said.start < e.end for e in found):
            found.append(said)
    return sorted(found, key=lambda e: e.start)


def stated_dates(doc, said_at: datetime) -> list[tuple[str, datetime]]:
    """Dates a remembered sentence (a spaCy doc) names, resolved against when it was said:
    "I went to the support group yesterday", said on 8 May, names 7 May. Lengths of time
    ("for 4 years") are not dates."""
    found = []
    for ent in date_mentions(doc):
        if ent.start > 0 and doc[ent.start - 1].lower_ in _DURATION_PREPS:
            continue
        text, parsed = _resolved(ent, said_at, "future" if looks_ahead(ent.sent) else "past")
        if parsed is not None:
            found.append((text, parsed))
    return found


def _resolved(ent, said_at: datetime, prefer: str = "past") -> tuple[str, datetime | None]:
    """A DATE entity resolved, else its part before a punctuation mark: spaCy's DATE spans
    may run on past the date ("last week - so")."""
    cut = next((t.i for t in ent if t.is_punct and t.i > ent.start), None)
    for span in (ent, ent.doc[ent.start:cut] if cut is not None else None):
        if span is not None and (parsed := parse_date(span.text, said_at, prefer)) is not None:
            return span.text, parsed
    return ent.text, None


def date_phrase(expression: str, when: datetime, said_at: datetime | None = None) -> str:
    """A resolved date as precise as the words that named it: "last year" -> "2022",
    "next month" -> "June 2023", "last week" -> "the week of 1 May 2023", else the day.
    Given when it was said, a week or a weekday next to it is told from that day ("last
    weekend", said on 9 June, is "the weekend before 9 June 2023"; "last Friday", "the Friday
    before 9 June 2023"): which days "last week" or which Friday "last Friday" meant is not known."""
    words = expression.lower().split()
    if "year" in words or "years" in words:
        return f"{when:%Y}"
    if "month" in words or "months" in words:
        return f"{when:%B %Y}"
    week = next((w for w in ("weekend", "week") if w in words or f"{w}s" in words), None)
    named_day = any(re.fullmatch(_WEEKDAY, w.strip(",.")) for w in words)  # "on Thursday": "Thursday 12 March 2026"
    if week is not None and not (named_day and week == "week"):  # "Friday this week" names the day
        side = "before" if "last" in words or "past" in words else "after" if "next" in words else None
        if said_at is not None and side is not None:
            return f"the {week} {side} {said_at.day} {said_at:%B %Y}"
        return f"the {week} of {when.day} {when:%B %Y}"
    side = "before" if "last" in words else "after" if "next" in words else None
    if named_day and side is not None and said_at is not None:
        # "last Friday", said on a Sunday, may be two days before or nine: told from the day it was said
        return f"the {when:%A} {side} {said_at.day} {said_at:%B %Y}"
    return f"{when:%A} {when.day} {when:%B %Y}" if named_day else f"{when.day} {when:%B %Y}"
