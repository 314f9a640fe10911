"""Spans of the answer kinds spaCy has no entity label for: a colour, how often something
happens, a code. Each finder takes a parsed sentence and returns the spans of its kind in
it, so the reader scores them as it scores spaCy's entities."""
from __future__ import annotations

import re

COLOURS = frozenset({"black", "white", "grey", "gray", "silver", "red", "orange", "yellow", "gold", "green", "blue",
                     "navy", "purple", "violet", "pink", "brown", "beige", "cream", "teal", "turquoise", "maroon", "tan"})
# How often something happens, as English says it ("a few times a week", "once or twice a
# year", "every other Sunday", "daily"): spaCy tags these as a bare DATE at best.
_PERIOD = r"(?:day|night|morning|evening|week|weekend|month|year|(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
FREQUENCY = re.compile(
    rf"\b(?:(?:at least|at most|about|around|roughly|maybe|like)\s+)?"
    rf"(?:(?:once|twice|(?:a\s+)?(?:few|couple(?:\s+of)?|several|many|\w+)\s+times?)"
    rf"(?:\s+or\s+(?:once|twice|\w+\s+times?))?\s+(?:a|an|per|each|every)\s+{_PERIOD}"
    rf"|every\s+(?:other\s+|single\s+|\w+\s+)?{_PERIOD}s?"
    rf"|(?:daily|nightly|weekly|fortnightly|monthly|yearly|annually)|on\s+(?:the\s+)?weekends|most\s+days)\b",
    re.IGNORECASE)


def colours(sent) -> list:
    """Each colour word of the sentence, one token each ("the blue van": "blue")."""
    return [sent.doc[t.i:t.i + 1] for t in sent if t.lower_ in COLOURS]


def frequencies(sent) -> list:
    """Each way of saying how often the sentence holds ("twice a month", "every Sunday")."""
    doc, start = sent.doc, sent.start_char
    found = (doc.char_span(start + m.start(), start + m.end(), alignment_mode="expand")
             for m in FREQUENCY.finditer(sent.text))
    return [span for span in found if span is not None]


def words(sent) -> list:
    """The sentence's words as written, each a span of the tokens spaCy cut it into
    ("Ab12cd" is one word, two tokens); punctuation ends a word."""
    out, start = [], None
    for t in sent:
        if t.is_punct:
            start = None
            continue
        if start is None:
            start = t.i
        if t.whitespace_ or t.i + 1 >= sent.end or sent.doc[t.i + 1].is_punct:
            out.append(sent.doc[start:t.i + 1])
            start = None
    return out


def codes(sent) -> list:
    """The words of the sentence that can be a code: a number ("press one", "extension
    204") or a word with digits in it ("AB12CD")."""
    return [w for w in words(sent) if any(t.like_num for t in w) or any(c.isdigit() for c in w.text)]
