"""The language toolkit every layer shares: word forms (`words`), numbers (`numbers`),
clock times (`clock`), date expressions (`dates`) and spaCy's English pipeline (`nlp`)."""
from memory.language.clock import (
    CLOCK_DIGITS,
    CLOCK_WORDS,
    DIGITAL,
    digital_times,
    mm_ss,
    seconds_of,
    states_a_time,
)
from memory.language.dates import (
    TIME_UNITS,
    date_mentions,
    date_phrase,
    date_span,
    looks_ahead,
    may_name_a_date,
    parse_date,
    stated_dates,
)
from memory.language.nlp import ENGLISH_MODEL, english, person_names, quotations, quoted
from memory.language.numbers import NUMBER_WORDS, ORDINAL_WORDS, first_number, number_of, ordinal_of
from memory.language.words import (
    QUESTION_WORDS,
    STOP,
    content_words,
    load_inflections,
    normalise,
    plural,
    s_forms,
    s_stem,
    singular,
    singular_words,
    split_glued,
    stem,
    term,
    terms,
    unclipped,
    verb_forms,
    words,
)

__all__ = [
    "CLOCK_DIGITS", "CLOCK_WORDS", "DIGITAL", "ENGLISH_MODEL", "NUMBER_WORDS", "ORDINAL_WORDS", "QUESTION_WORDS", "STOP", "TIME_UNITS", "content_words", "date_mentions", "date_phrase", "date_span",
    "digital_times", "english", "first_number", "load_inflections", "looks_ahead", "may_name_a_date", "mm_ss", "normalise", "number_of", "ordinal_of", "parse_date",
    "person_names", "plural", "quotations", "quoted", "s_forms", "s_stem", "seconds_of", "singular", "singular_words", "split_glued",
    "states_a_time",
    "stated_dates", "stem", "verb_forms", "term", "terms", "unclipped", "words",
]
