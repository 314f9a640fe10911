"""Content words of a text: lower-cased tokens minus English stop words (spaCy's list,
which needs no model). Number words stay: "four thirty" is an answer, not filler. The one
word normaliser the agent's overlap measures share."""
from __future__ import annotations

import re

from memory.language import STOP

ORDINAL_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
_ORDINAL_DIGITS = re.compile(r"(\d{1,2})(?:st|nd|rd|th)")


def ordinal_of(word: str) -> int | None:
    """1 for "first" or "1st", 2 for "second" or "2nd" ...; None for any other word."""
    word = word.lower()
    if word in ORDINAL_WORDS:
        return ORDINAL_WORDS.index(word) + 1
    match = _ORDINAL_DIGITS.fullmatch(word)
    return int(match.group(1)) if match else None
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'-]*")


def content_words(text: str) -> list[str]:
    words = [w.lower().strip("'") for w in _WORD.findall(text)]
    return [w for w in dict.fromkeys(words) if w not in STOP and (len(w) > 1 or w.isdigit())]
