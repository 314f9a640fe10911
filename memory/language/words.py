"""Words of a text in the forms texts are compared in.

- `normalise` / `words`: the one word form: lower case, runs of [a-z0-9], everything else
  (punctuation, apostrophes, accented letters) a separator. Memory keys names by it
  ("Coffee-Mug!" -> "coffee mug"), so it must not change under stored data.
- `content_words`: the words that carry a text's meaning, for overlap measures: filler
  (`STOP`) and single letters out, apostrophes and hyphens inside a word kept ("don't",
  "e-mail"), each word once, in order.
- Three reductions of a word, one per purpose:
  `singular` (inflect) names a thing as memory keys it ("knives" -> "knife"): right
  wherever a noun is shown or looked up, and worth its cost there;
  `term` (`stem` after `CLOCK_WORDS`) compares two texts' words loosely, both sides reduced
  alike ("walked" / "walking", "four thirty" / "4:30"), for evidence coverage;
  `s_stem` drops trailing s's ("books" -> "book"): a reduction a word index can be asked
  to undo (`s_forms`), for matching a topic against turns found through that index.
"""
from __future__ import annotations

import re
from functools import lru_cache

from memory.language.clock import CLOCK_WORDS
from memory.language.numbers import NUMBER_WORDS
from memory.language.spacy_import import import_spacy

import_spacy()
from spacy.lang.en.stop_words import STOP_WORDS  # noqa: E402  (after spaCy, imported without torch)

# Filler words (spaCy's English list, which needs no model), less those that carry a number
# or an order ("four thirty" is an answer and "the last train" a question, not filler), and
# the rarer verbs and states the list holds that say what was done ("who did I call?", "where
# did she move from?", "was the bottle full?"). "Put" and "keep" stay filler: they are said
# everywhere, and "where did I put my keys?" is about the keys.
STOP = frozenset(STOP_WORDS) - set(NUMBER_WORDS) - {"hundred", "first", "last"} - {
    "call", "move", "give", "show", "empty", "full"}

# The words an English question asks with ("who", "what time", "how long").
QUESTION_WORDS = frozenset({"what", "which", "who", "whom", "whose", "where", "when", "why", "how"})

# Words as chat and speech clip them ("my fave", "the fam", "her bday"): a question asks
# with the whole word, the line says the clipped one (general informal English). "Favourite"
# too: WordNet files it under another first sense than "favorite", so no noun sense joins them.
CLIPPED = {"fave": "favorite", "faves": "favorite", "fav": "favorite", "favs": "favorite", "favourite": "favorite",
           "fam": "family", "biz": "business", "bday": "birthday", "convo": "conversation", "vid": "video",
           "vids": "video", "info": "information", "bro": "brother", "sis": "sister", "gf": "girlfriend",
           "bf": "boyfriend", "hubby": "husband", "mins": "minute", "hrs": "hour", "uni": "university"}


def unclipped(word: str) -> str:
    """A clipped word whole ("fave" -> "favorite"); any other word as it is, lower-cased."""
    word = word.lower()
    return CLIPPED.get(word, word)


_WORD = re.compile(r"[a-z0-9]+")
_CONTENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9'-]*")
_SUFFIXES = ("ing", "ed", "es", "s")
_DEGREES = ("iest", "ier")  # "luckiest", "luckier": the adjective "lucky" compared


def words(text: str) -> list[str]:
    """The normalised words of a text: "Don't stop!" -> ["don", "t", "stop"]."""
    return _WORD.findall(text.lower())


def normalise(text: str) -> str:
    """The words of a text, space-separated: "  The Coffee-Mug! " -> "the coffee mug"."""
    return " ".join(words(text))


def content_words(text: str) -> list[str]:
    """Lower-cased words minus filler, each once in order; number words stay."""
    found = [w.lower().strip("'") for w in _CONTENT.findall(text)]
    return [w for w in dict.fromkeys(found) if w not in STOP and (len(w) > 1 or w.isdigit())]


@lru_cache(maxsize=1)
def _inflect():
    import inflect

    return inflect.engine()


def load_inflections() -> None:
    """Load the inflection engine now, from one thread. Importing inflect parses source (typeguard
    instruments its methods), and Python 3.11's parser is not safe to enter from two threads at
    once ("SystemError: AST constructor recursion depth mismatch", CPython gh-106905): loaded
    first inside the agent's concurrent tools, it can meet another parse and fail a question."""
    _inflect()


@lru_cache(maxsize=4096)
def singular(word: str) -> str:
    """A noun's singular ("people" -> "person", "knives" -> "knife", "glass" stays), so a
    question's plural finds the thing memory names in the singular."""
    return _inflect().singular_noun(word) or word


def plural(noun: str, n: int) -> str:
    """The noun as a count of `n` needs it ("1 person", "3 people")."""
    return noun if n == 1 else _inflect().plural_noun(noun) or noun


def singular_words(text: str) -> set[str]:
    """The normalised words of a name, each in the singular."""
    return {singular(w) for w in words(text)}


def stem(word: str) -> str:
    """A word without one inflectional ending ("walking", "walked" -> "walk"; "boxes" ->
    "box"), when at least four letters remain, and a comparative or superlative in -ier,
    -iest as its adjective ("luckier" -> "lucky"); crude, so only for comparing words that
    were both reduced by it."""
    word = word.lower()
    for suffix in _SUFFIXES:
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            word = word[: -len(suffix)]
            break
    for degree in _DEGREES:
        if len(word) > len(degree) + 2 and word.endswith(degree):
            return word[: -len(degree)] + "y"
    return word


def verb_forms(verb: str) -> tuple[str, ...]:
    """A regular verb's forms ("realize" -> realizes, realized, realizing): the words a line
    says what a question's verb ("what did she realize?") asks with. Irregular pasts come
    from WordNet (memory.kinds)."""
    verb = verb.lower()
    stem_y = verb[:-1] if len(verb) > 2 and verb.endswith("y") and verb[-2] not in "aeiou" else None
    third = stem_y + "ies" if stem_y else verb + ("es" if verb.endswith(("s", "x", "z", "ch", "sh")) else "s")
    past = stem_y + "ied" if stem_y else verb + ("d" if verb.endswith("e") else "ed")
    going = verb[:-2] + "ying" if verb.endswith("ie") else \
        verb[:-1] + "ing" if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")) else verb + "ing"
    return tuple(dict.fromkeys((verb, third, past, going)))


def term(word: str) -> str:
    """A word as evidence coverage compares it: a number or clock word as its digits
    ("four" -> "4", "half" -> "30"), else its `stem`."""
    word = unclipped(word)
    return CLOCK_WORDS.get(word) or stem(word)


def terms(text: str) -> set[str]:
    """The `term`s of a text's words."""
    return {term(w) for w in words(text)}


def split_glued(token: str) -> list[str]:
    """A token OCR ran together split into dictionary words ("NEWYORK" -> ["NEW", "YORK"]),
    by wordninja, imported on first use (it reads its word list then: 0.15 s)."""
    import wordninja

    return wordninja.split(token)


def s_stem(word: str) -> str:
    """A word without its trailing s's ("books" -> "book", "glass" -> "gla")."""
    return word.rstrip("s")


def s_forms(base: str) -> tuple[str, ...]:
    """The words (with up to two trailing s's) that `s_stem` reduces to `base`: what a word
    index is asked for to find every text a topic word matches."""
    return tuple(base + tail for tail in ("", "s", "ss"))
