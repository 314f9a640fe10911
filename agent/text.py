"""Content words of a text: lower-cased tokens minus English stop words (spaCy's list,
which needs no model). Number words stay: "four thirty" is an answer, not filler. The one
word normaliser the agent's overlap measures share."""
from __future__ import annotations

import re

from spacy.lang.en.stop_words import STOP_WORDS

_NUMBER_WORDS = frozenset("""zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen
fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty hundred first last""".split())
STOP = frozenset(STOP_WORDS) - _NUMBER_WORDS
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'-]*")


def content_words(text: str) -> list[str]:
    words = [w.lower().strip("'") for w in _WORD.findall(text)]
    return [w for w in dict.fromkeys(words) if w not in STOP and (len(w) > 1 or w.isdigit())]
