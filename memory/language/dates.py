"""Date expressions: resolving one against a moment ("yesterday", said on 8 May 2023, is
7 May), finding those a parsed sentence names, and printing a resolved date as precisely
as the words named it."""
from __future__ import annotations

from datetime import datetime


def parse_date(text: str, at: datetime) -> datetime | None:
    """A date or time expression resolved against `at`, preferring the past (dateparser);
    None when it names none."""
    import dateparser

    return dateparser.parse(text, languages=["en"], settings={
        "RELATIVE_BASE": at, "PREFER_DATES_FROM": "past", "RETURN_AS_TIMEZONE_AWARE": False})


_DURATION_PREPS = ("for", "over", "during", "within", "in")  # "for 4 years", "in a second": a length, not a date


def stated_dates(doc, said_at: datetime) -> list[tuple[str, datetime]]:
    """Dates a remembered sentence (a spaCy doc) names, resolved against when it was said:
    "I went to the support group yesterday", said on 8 May, names 7 May. Lengths of time
    ("for 4 years") are not dates."""
    found = []
    for ent in doc.ents:
        if ent.label_ != "DATE" or (ent.start > 0 and doc[ent.start - 1].lower_ in _DURATION_PREPS):
            continue
        text, parsed = _resolved(ent, said_at)
        if parsed is not None:
            found.append((text, parsed))
    return found


def _resolved(ent, said_at: datetime) -> tuple[str, datetime | None]:
    """A DATE entity resolved, else its part before a punctuation mark: spaCy's DATE spans
    may run on past the date ("last week - so")."""
    cut = next((t.i for t in ent if t.is_punct and t.i > ent.start), None)
    for span in (ent, ent.doc[ent.start:cut] if cut is not None else None):
        if span is not None and (parsed := parse_date(span.text, said_at)) is not None:
            return span.text, parsed
    return ent.text, None


def date_phrase(expression: str, when: datetime, said_at: datetime | None = None) -> str:
    """A resolved date as precise as the words that named it: "last year" -> "2022",
    "next month" -> "June 2023", "last week" -> "the week of 1 May 2023", else the day.
    Given when it was said, a week next to it is told from that day ("last weekend", said on
    9 June, is "the weekend before 9 June 2023"): which days "last week" meant is not known."""
    words = expression.lower().split()
    if "year" in words or "years" in words:
        return f"{when:%Y}"
    if "month" in words or "months" in words:
        return f"{when:%B %Y}"
    week = next((w for w in ("weekend", "week") if w in words or f"{w}s" in words), None)
    if week is not None:
        side = "before" if "last" in words or "past" in words else "after" if "next" in words else None
        if said_at is not None and side is not None:
            return f"the {week} {side} {said_at.day} {said_at:%B %Y}"
        return f"the week of {when.day} {when:%B %Y}"
    return f"{when.day} {when:%B %Y}"
