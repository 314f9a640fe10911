"""Numbers said in words or digits: the one table of English number words, ordinals
("third", "3rd"), and the readers of a number in a token or a text."""
from __future__ import annotations

import re

# English number words: the one table every reader of numbers shares.
NUMBER_WORDS: dict[str, int] = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60}
ORDINAL_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")

_ORDINAL_DIGITS = re.compile(r"(\d{1,2})(?:st|nd|rd|th)")
_DIGITS = re.compile(r"\b(\d+)\b")
_NUMBER_WORD = re.compile(r"\b(" + "|".join(NUMBER_WORDS) + r")\b", re.IGNORECASE)


def ordinal_of(word: str) -> int | None:
    """1 for "first" or "1st", 2 for "second" or "2nd" ...; None for any other word."""
    word = word.lower()
    if word in ORDINAL_WORDS:
        return ORDINAL_WORDS.index(word) + 1
    match = _ORDINAL_DIGITS.fullmatch(word)
    return int(match.group(1)) if match else None


def number_of(token: str) -> int | None:
    """The cardinal one lower-case token says: "7" -> 7, "seven" -> 7; else None."""
    if token.isdigit():
        return int(token)
    return NUMBER_WORDS.get(token)


def first_number(text: str) -> int | None:
    """The first number a text says, digits before words ("3 people", "Three"): a count
    read off an option. Words are read in the order said; "twenty-one" reads as 20."""
    digits = _DIGITS.search(text)
    if digits:
        return int(digits.group(1))
    word = _NUMBER_WORD.search(text)
    return NUMBER_WORDS[word.group(1).lower()] if word else None
