"""Spans of the answer kinds spaCy has no entity label for: a colour, how often something
happens, a code, what something was like, the title of a work. Each finder takes a parsed
sentence and returns the spans of its kind in it, so the reader scores them as it scores
spaCy's entities."""
from __future__ import annotations

import re

from memory.language import number_of, quotations, states_a_time

COLOURS = frozenset({"black", "white", "grey", "gray", "silver", "red", "orange", "yellow", "gold", "green", "blue",
                     "navy", "purple", "violet", "pink", "brown", "beige", "cream", "teal", "turquoise", "maroon", "tan"})
# How often something happens, as English says it ("a few times a week", "once or twice a
# year", "every other Sunday", "daily", a timetable's "EVERY 15 MIN"): spaCy tags these as a
# bare DATE at best.
_PERIOD = r"(?:min(?:ute)?|hour|hr|day|night|morning|evening|week|weekend|month|year|(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
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


# an hour, a share or a price is no code; a four-digit code is often a "DATE" (a year) to spaCy
_NOT_CODES = {"TIME", "PERCENT", "MONEY", "QUANTITY"}


def codes(sent) -> list:
    """The words of the sentence that can be a code: a number ("press one", "extension
    204") or a word with digits in it ("AB12CD"); not the hour of a time ("FRIDAY 3 PM"
    holds no code), a share or a price."""
    return [w for w in words(sent) if (any(t.like_num for t in w) or any(c.isdigit() for c in w.text))
            and not any(t.ent_type_ in _NOT_CODES for t in w) and not _of_a_clock(w)]


def _of_a_clock(span) -> bool:
    """An hour said with its half of the day ("3 PM", "9 a.m."), whatever the model tagged it."""
    after = span.doc[span.end].lower_ if span.end < len(span.doc) else ""
    return after.replace(".", "") in ("am", "pm")


# Where an adjective says what something is like rather than which one it is: the complement of
# "be", "feel", "seem" ("it was amazing", "I feel nervous"), or the sentence itself ("Awesome!").
_PREDICATING = {"acomp", "attr", "oprd", "ROOT", "ccomp", "xcomp", "conj"}
_MODAL = {"able", "unable", "likely", "unlikely", "sure", "about", "due", "supposed"}  # "able to jog" says what one can do


def described(span):
    """The word a description is said of: the subject of its verb ("the atmosphere was
    electric"), or the noun it qualifies ("an electric atmosphere"); None when neither."""
    head = span.root
    if head.dep_ == "amod":
        return head.head
    subject = next((c for c in head.head.children if c.dep_ in ("nsubj", "nsubjpass")), None) \
        if head.dep_ in ("acomp", "attr", "oprd", "xcomp") or head.head.dep_ == "attr" else None
    return subject


def qualities(sent) -> list:
    """What the sentence says something was like: each predicate adjective with the adjectives
    joined to it ("electric and intense", "peaceful and awesome"), without the words that only
    grade it ("really", "so"); a noun it describes stands with it when it is the complement
    ("a huge success")."""
    doc, out, taken = sent.doc, [], set()
    for t in sent:
        if t.pos_ != "ADJ" or t.i in taken or t.dep_ not in _PREDICATING or (t.dep_ == "conj" and t.head.pos_ == "ADJ") \
                or (t.lemma_.lower() in _MODAL and any(c.dep_ == "xcomp" for c in t.children)):
            continue
        joined = [t, *(c for c in t.conjuncts if c.pos_ == "ADJ" and c.i > t.i)]
        taken.update(c.i for c in joined)
        out.append(doc[t.i:joined[-1].i + 1])
    for chunk in sent.noun_chunks:  # "it was a blast", "it's been a huge success"
        if chunk.root.dep_ == "attr" and chunk.root.head.lemma_ == "be" and any(c.pos_ == "ADJ" for c in chunk):
            first = next(c for c in chunk if c.pos_ == "ADJ")
            out.append(doc[first.i:chunk.end])
    return out


TITLE_WORDS = 8  # the most words a title may have: a longer quotation is a line quoted, not a name


def titles(sent) -> list:
    """The names of works a sentence gives: a capitalised quotation of a few words ("I loved
    "Becoming Nicole" by Amy Ellis Nutt"), or what spaCy tags a work of art."""
    out = []
    for span in quotations(sent.doc):
        words = [t for t in span if not t.is_punct]
        if sent.start <= span.start and span.end <= sent.end and words and words[0].text[:1].isupper() \
                and len(words) <= TITLE_WORDS:
            out.append(span)
    return out + [e for e in sent.ents if e.label_ == "WORK_OF_ART"
                  and not any(t.start < e.end and e.start < t.end for t in out)]


_CLOCK_PREPS = {"at", "by", "before", "after", "until", "till", "around", "from"}
_RESCHEDULING = {"move", "change", "push", "shift", "bring", "postpone", "reschedule", "delay"}  # "moved to 5": an hour
_READING = re.compile(r"(?:[01]?\d|2[0-3])[:.][0-5]\d")  # a clock's hours and minutes: "4:30", "16.45"


def said_times(sent) -> list:
    """A clock time said as a bare hour after a time preposition ("I'll call him before 9",
    "back by six"), or read off a clock ("it moved to 4.30"), which spaCy calls a number: the
    preposition with it, for "before 9" is not "9". A number that counts something ("after 2
    weeks") is no hour."""
    def counts(t) -> bool:  # "2 weeks", "9 cats"; not "9 tomorrow"
        after = t.doc[t.i + 1] if t.i + 1 < len(t.doc) else None
        return after is not None and after.pos_ in ("NOUN", "PROPN") and after.ent_type_ not in ("DATE", "TIME")

    def hour(t) -> bool:  # "9", or a reading of the clock ("4:30", "4.30"), after a time preposition
        if t.dep_ != "pobj" or t.head.i != t.i - 1 or t.ent_type_ != "CARDINAL" or counts(t):
            return False
        if _READING.fullmatch(t.text):  # "it moved to 4.30"
            return t.head.lower_ in _CLOCK_PREPS | {"to"}
        moved = t.head.lower_ == "to" and t.head.head.lemma_ in _RESCHEDULING  # "it moved to 5"
        return (t.head.lower_ in _CLOCK_PREPS or moved) and 0 < (number_of(t.lower_) or 0) <= 24

    return [sent.doc[t.head.i if t.head.lower_ != "to" else t.i:t.i + 1] for t in sent if hour(t)]  # not "to 4.30"


_PARTS_OF_DAY = {"morning", "afternoon", "evening", "night", "tonight", "noon", "midnight", "lunchtime", "lunch"}


def clock_times(sent, parts: bool = False) -> list:
    """The clock times a sentence says ("4:30 PM", "at 5", "before nine"), and with `parts`
    the parts of a day ("in the evening", "tonight", which the model does not always call
    a time): what "when ...?" asks of a plan."""
    times = [e for e in sent.ents if e.label_ == "TIME" and (parts or states_a_time(e.text))]
    if parts:
        times += [c for c in (*sent.noun_chunks, *(sent.doc[t.i:t.i + 1] for t in sent if t.lower_ == "tonight"))
                  if c.root.lower_ in _PARTS_OF_DAY and not any(e.start <= c.root.i < e.end for e in times)]
    return times + said_times(sent)


def with_its_number(chunk):
    """A noun chunk with the number it names its thing by right after it ("extension 8500",
    "bus 12", "room 4B"), which the parser hangs off the noun outside the chunk."""
    doc = chunk.doc
    after = doc[chunk.end] if chunk.end < len(doc) else None
    if after is not None and after.head.i == chunk.root.i and after.dep_ in ("appos", "nummod", "npadvmod") \
            and (after.like_num or any(c.isdigit() for c in after.text)):
        return doc[chunk.start:chunk.end + 1]
    return chunk


def by_number(sent, noun: str | None) -> list:
    """The number or code a noun names a thing by ("BAY 47", "gate 12", "room 4B"): what
    "which bay is my car in?" asks, not "parking bay"."""
    return [sent.doc[t.i:t.i + 1] for t in sent if noun and t.i > sent.start and sent.doc[t.i - 1].lemma_.lower() == noun
            and (t.like_num or any(c.isdigit() for c in t.text))]
