"""Clock times in text. Two shapes: a time of day as people say or write it ("at 5",
"4:30 PM", "four thirty pm", "noon"), which `states_a_time` recognises, and a digital
reading "d:dd" (a wall clock's "4:30", a stopwatch's "00:12"), which `digital_times`,
`seconds_of` and `mm_ss` read and print. `CLOCK_WORDS` lets "four thirty" and "4:30" be
compared word by word (memory.language.words.term)."""
from __future__ import annotations

import re

from memory.language.numbers import NUMBER_WORDS

# A time said in words has the digits a clock shows it with: "four thirty" is 4 30, and
# "half" and "quarter" past or to an hour are 30 and 15 minutes.
CLOCK_WORDS: dict[str, str] = {w: str(n) for w, n in NUMBER_WORDS.items()} | {"half": "30", "quarter": "15"}

CLOCK_DIGITS = r"\d{1,2}:\d{2}"  # a digital reading, for patterns that embed it
DIGITAL = re.compile(r"\b(\d{1,2}):(\d{2})\b")

_HOURS = "|".join(w for w, n in NUMBER_WORDS.items() if 1 <= n <= 12)
_TIME_OF_DAY = re.compile(
    rf"\b\d{{1,2}}(?::\d{{2}})?\s*(?:a\.?m\b|p\.?m\b)|\b\d{{1,2}}:\d{{2}}\b|(?<![$€£\d.])\b\d{{1,2}}\.[0-5]\d\b(?!\.\d)"
    rf"|\b(?:{_HOURS})(?:\s+(?:thirty|fifteen|forty[- ]five))?\s*(?:o'clock|a\.?m\b|p\.?m\b)"
    rf"|\b(?:at|by|to|until|till)\s+(?:\d{{1,2}}|{_HOURS})\b|\bnoon\b|\bmidnight\b",
    re.IGNORECASE)


def states_a_time(text: str) -> bool:
    """Whether a line says a clock time ("at 5", "4:30 PM", "four thirty pm", "noon");
    not a price ("$4.30") or a version ("1.25.3")."""
    return bool(_TIME_OF_DAY.search(text or ""))


def digital_times(text: str) -> list[str]:
    """The "d:dd" readings in a text, as a two-digit clock shows them: "4:30" -> "04:30"."""
    return [f"{int(a):02d}:{b}" for a, b in DIGITAL.findall(text)]


def seconds_of(reading: str) -> int:
    """A minutes:seconds reading in seconds: "01:05" -> 65."""
    minutes, seconds = reading.split(":")
    return int(minutes) * 60 + int(seconds)


def mm_ss(seconds: float) -> str:
    """Seconds as a minutes:seconds reading, to the nearest second: 65.4 -> "01:05"."""
    s = int(round(seconds))
    return f"{s // 60:02d}:{s % 60:02d}"
