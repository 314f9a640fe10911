"""Content words of a text: lower-cased tokens minus English stop words (spaCy's list,
which needs no model). The one word normaliser the agent's overlap measures share."""
from __future__ import annotations

import re

from spacy.lang.en.stop_words import STOP_WORDS

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'-]*")


def content_words(text: str) -> list[str]:
    words = [w.lower().strip("'") for w in _WORD.findall(text)]
    return [w for w in dict.fromkeys(words) if w not in STOP_WORDS and (len(w) > 1 or w.isdigit())]
