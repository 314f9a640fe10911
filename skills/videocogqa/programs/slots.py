"""Typed slot values read off a question for the VideoCogQA skill: numbers, ordinals, clock
times, scene numbers, and the scene's own words.

The colours, shapes and sizes are the ones the system can perceive (the perception palette,
the shape classes, the size classes) plus any the timeline itself holds; actions are the
labels the action scene's solver produces. Nothing here knows a template's wording: a
template names the typed slots it needs ("{colour}", "{scene_2}") and `fill` takes the
k-th value of each type in the order the question says them.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from memory.language import (
    CLOCK_DIGITS,
    DIGITAL,
    NUMBER_WORDS,
    ORDINAL_WORDS,
    digital_times,
    number_of,
    ordinal_of,
    s_stem,
)

SCENE_WORDS = {"scene", "scenes", "grid", "grids", "refresh", "refreshes"}
_SKIP = {"and", "or", "&", "the", "between", ","}  # between the numbers of one scene reference
_TOKEN = re.compile(rf"{CLOCK_DIGITS}|\d+(?:st|nd|rd|th)?|[a-z]+|[,;?!]")  # punctuation ends a phrase


@dataclass(frozen=True)
class Vocabulary:
    colours: frozenset[str]
    shapes: frozenset[str]
    sizes: frozenset[str]
    actions: tuple[str, ...]


def vocabulary(timeline=None, actions: Iterable[str] = ()) -> Vocabulary:
    """What the system can name: perception's palette and shape classes, retrieval's size
    classes, and every colour and shape the timeline holds."""
    from skills.videocogqa.symbols import SHAPE_FILL
    from skills.videocogqa.timeline import SIZE_CLASSES
    from skills.videocogqa.vision.palette import DEFAULT_PALETTE

    colours = {name for name, _ in DEFAULT_PALETTE.colours}
    shapes = set(SHAPE_FILL)
    for frame in getattr(timeline, "frames", ()):
        for s in frame.shapes:
            colours.add(s.colour)
            shapes.add(s.shape)
    shapes.discard("other")
    return Vocabulary(frozenset(colours), frozenset(shapes), frozenset(n for n, _ in SIZE_CLASSES), tuple(actions))


def tokens(question: str) -> list[str]:
    """A question's lower-case tokens. Not memory.language's `words`: a clock reading
    ("00:12", the toolkit's CLOCK_DIGITS) and an ordinal in digits ("3rd") stay whole, the
    punctuation that ends a phrase is a token, and "colour" is spelt as the palette spells it."""
    return _TOKEN.findall(question.lower().replace("colour", "color"))


def _singular(tok: str, words: frozenset[str]) -> str | None:
    if tok in words:
        return tok
    if tok.endswith("s") and tok[:-1] in words:
        return tok[:-1]
    return None


def scenes(toks: list[str]) -> list[str]:
    """Scene numbers: "scene 4", "scenes 2 and 5", "the third grid", "the second and fifth grids";
    not "the first column"."""
    out: list[int] = []
    for k, tok in enumerate(toks):
        n = number_of(tok) if tok.isdigit() else None
        if n is not None:  # a digit after a scene word, through "and" and other numbers
            j = k - 1
            while j >= 0 and (toks[j] in _SKIP or toks[j].isdigit()):
                j -= 1
            defines = k + 1 < len(toks) and toks[k + 1] in ("is", "being", "means")  # "scene 1 is the first grid"
            if j >= 0 and toks[j] in SCENE_WORDS and not defines:
                out.append(n)
            continue
        n = ordinal_of(tok)
        if n is not None and not (k >= 2 and toks[k - 2] == "is"):  # an ordinal before a scene word, through
            # "and" and other ordinals; not one that defines ("scene 1 is the first grid")
            j = k + 1
            while j < len(toks) and (toks[j] in _SKIP or ordinal_of(toks[j]) is not None):
                j += 1
            if j < len(toks) and toks[j] in SCENE_WORDS:
                out.append(n)
    return [str(n) for n in dict.fromkeys(out)]


def numbers(toks: list[str]) -> list[str]:
    """Cardinal numbers, digits first ("one" is too often a pronoun to come first)."""
    digits = [t for t in toks if t.isdigit()]
    words = [str(NUMBER_WORDS[t]) for t in toks if t in NUMBER_WORDS and t != "one"]
    return digits + words


def notes(toks: list[str]) -> list[str]:
    """The number said with "note" ("note 3", 'the note "3"'), else any number."""
    near = [str(n) for k, t in enumerate(toks[:-1]) if t == "note" and (n := number_of(toks[k + 1])) is not None]
    return near or numbers(toks)


def line_index(toks: list[str]) -> list[str]:
    """The index of a row / column: "row 2", "column three", "the second row"."""
    out = []
    for k, t in enumerate(toks):
        if t in ("row", "column"):
            n = number_of(toks[k + 1]) if k + 1 < len(toks) else None
            n = n if n is not None else (ordinal_of(toks[k - 1]) if k else None)
            if n is not None:
                out.append(str(n))
    return out


def ordinals(toks: list[str]) -> list[str]:
    return [ORDINAL_WORDS[n - 1] for t in toks if (n := ordinal_of(t)) is not None and n <= len(ORDINAL_WORDS)]


def things(question: str, v: Vocabulary, with_size: bool = True) -> list[str]:
    """Object names as the scene says them: "small red triangle", "blue square"."""
    toks = tokens(question)
    out = []
    for k, tok in enumerate(toks[:-1]):
        shape = _singular(toks[k + 1], v.shapes)
        if tok in v.colours and shape:
            size = toks[k - 1] if with_size and k and toks[k - 1] in v.sizes else None
            out.append(" ".join(w for w in (size, tok, shape) if w))
    return out


def actions(toks: list[str], v: Vocabulary) -> list[str]:
    """The actions named, by the stem of each action label ("rotating" -> rotation)."""
    out = []
    for tok in toks:
        if _singular(tok, v.shapes):  # "circles" is a shape, not circling
            continue
        for label in v.actions:
            stem = re.sub(r"(?:ing|ion|e)$", "", label.split()[0])
            if len(stem) >= 4 and tok.startswith(stem):
                out.append(label)
                break
    return list(dict.fromkeys(out))


DIRECTIONS = {"up": "up", "upward": "upward", "upwards": "upward", "down": "down", "downward": "downward",
              "downwards": "downward", "left": "left", "leftward": "leftward", "right": "right",
              "rightward": "rightward"}
SIDES = {"left": "to the left", "right": "to the right", "above": "above", "over": "above", "up": "above",
         "below": "below", "under": "below", "underneath": "below", "beneath": "below", "down": "below"}
VERTICAL = {"up", "down", "upward", "downward", "upwards", "downwards", "vertical", "vertically"}
HORIZONTAL = {"left", "right", "leftward", "rightward", "sideways", "horizontal", "horizontally"}


def axis(toks: list[str], vertical: str, horizontal: str) -> list[str]:
    v, h = sum(t in VERTICAL for t in toks), sum(t in HORIZONTAL for t in toks)
    return [vertical] if v > h else [horizontal] if h > v else []


def attributes(toks: list[str]) -> list[str]:
    """color / shape / size; the one right after which / what first."""
    found = [s_stem(t) for t in toks if s_stem(t) in ("color", "shape", "size")]
    asked = [s_stem(toks[k + 1]) for k, t in enumerate(toks[:-1])
             if t in ("which", "what") and s_stem(toks[k + 1]) in ("color", "shape", "size")]
    return list(dict.fromkeys(asked + found))


def shared(toks: list[str]) -> list[str]:
    """The attribute objects are said to have in common: "the same size", "one colour", "same-shape"."""
    return [s_stem(toks[k + 1]) for k, t in enumerate(toks[:-1])
            if (t in ("same", "one", "single", "identical", "matching", "uniform")
                or (t == "a" and k and toks[k - 1].startswith("shar")))
            and s_stem(toks[k + 1]) in ("color", "shape", "size")][:1]


def extractors(question: str, v: Vocabulary) -> dict[str, Callable[[], list[str]]]:
    """Slot type -> the values of that type in the question, in the order said (lazily)."""
    toks = tokens(question)
    return {
        "colour": lambda: [t for t in toks if t in v.colours],
        "shape": lambda: list(dict.fromkeys(s for t in toks if (s := _singular(t, v.shapes)))),
        "size": lambda: list(dict.fromkeys(t for t in toks if t in v.sizes)),
        "obj": lambda: list(dict.fromkeys(things(question, v))),
        "objs": lambda: [", ".join(dict.fromkeys(things(question, v)))] if len(things(question, v)) > 1 else [],
        "scene": lambda: scenes(toks),
        "number": lambda: numbers(toks),
        "note": lambda: notes(toks),
        "time": lambda: digital_times(question),
        "attr": lambda: attributes(toks),
        "same": lambda: shared(toks),
        "line": lambda: [s_stem(t) for t in toks if s_stem(t) in ("row", "column")][:1],
        "index": lambda: line_index(toks),
        "value": lambda: [s for t in toks if (s := t if t in v.colours else _singular(t, v.shapes))],
        "occ": lambda: ordinals(toks),
        "side": lambda: [SIDES[t] for t in toks if t in SIDES][-1:],
        "dir": lambda: [DIRECTIONS[t] for t in toks if t in DIRECTIONS][-1:],
        "pair": lambda: axis(toks, "up or down", "left or right"),
        "axis": lambda: axis(toks, "up or down", "left or right"),
        "action": lambda: actions(toks, v),
    }


_SLOT = re.compile(r"{(\w+?)(?:_(\d))?}")


def slot_types(asked: str) -> list[tuple[str, int]]:
    """("colour", 0), ("scene", 1) ... for "{colour}", "{scene_2}" in a template's asked form."""
    return [(m.group(1), int(m.group(2) or 1) - 1) for m in _SLOT.finditer(asked)]


def fill(asked: str, question: str, v: Vocabulary) -> str | None:
    """The template's asked form with every slot filled from the question, or None when the
    question lacks a value a slot needs."""
    found = extractors(question, v)
    cache: dict[str, list[str]] = {}
    values = {}
    for kind, k in slot_types(asked):
        if kind not in found:
            raise ValueError(f"unknown slot type {kind!r} in {asked!r}")
        got = cache.setdefault(kind, found[kind]())
        if len(got) <= k:
            return None
        values[(kind, k)] = got[k]
    return _SLOT.sub(lambda m: values[(m.group(1), int(m.group(2) or 1) - 1)], asked)



# What a slot's value reads as when the question is compared by meaning: the values say
# which object or time is meant, not what is asked, so they are masked on both sides.
MASKS = {"colour": "coloured", "shape": "shape", "size": "sized", "obj": "object", "objs": "object, object, or object",
         "scene": "n", "number": "n", "note": "n", "time": "a time", "attr": "attribute", "same": "attribute", "line": "row", "index": "n",
         "value": "kind of", "occ": "nth", "side": "beside", "dir": "one way", "pair": "one way or the other",
         "axis": "one way or the other", "action": "action"}


def example(asked: str) -> str:
    """A template's asked form as it reads once masked."""
    asked = re.sub(r"(?:{size} )?{colour} {shape}", "{obj}", asked)  # a named object, as `masked` reads it
    return " ".join(_SLOT.sub(lambda m: MASKS[m.group(1)], asked).lower().split())


def masked(text: str, v: Vocabulary) -> str:
    """The text with objects, colours, shapes, sizes, actions, numbers and times masked."""
    out = DIGITAL.sub(" a time ", text.lower().replace("colour", "color"))
    for name in sorted(set(things(out, v)), key=len, reverse=True):
        out = re.sub(rf"\b{name}s?\b", "object", out)
    for label in v.actions:
        out = re.sub(rf"\b{re.escape(label)}\b", "action", out)
    toks = []
    for tok in re.findall(r"[a-z]+|\d+|[^\sa-z\d]", out):
        if tok in v.colours:
            tok = MASKS["colour"]
        elif tok in v.sizes:
            tok = MASKS["size"]
        elif _singular(tok, v.shapes):
            tok = MASKS["shape"]
        elif tok.isdigit():
            tok = "n"
        toks.append(tok)
    return re.sub(r" (?=[^\w\s])", "", " ".join(toks))


# Kinds of value a question can carry, and the slot types that use each: a template that
# leaves a kind the question names unused (a clock time, an object) is probably not the one.
KINDS = {"time": ("time",), "object": ("obj", "objs", "colour", "shape", "value"), "action": ("action",),
         "number": ("scene", "number", "note", "index", "occ"), "direction": ("dir", "pair", "axis", "side")}


def kinds_said(question: str, v: Vocabulary) -> set[str]:
    found = extractors(question, v)
    toks = tokens(question)
    digits = [t for k, t in enumerate(toks) if t.isdigit() and not (k + 1 < len(toks) and toks[k + 1] in ("is", "being"))]
    said = {"time"} if found["time"]() else set()
    said |= {"object"} if found["obj"]() else set()
    said |= {"action"} if found["action"]() else set()
    said |= {"number"} if digits else set()
    said |= {"direction"} if found["axis"]() else set()
    return said


def kinds_used(asked: str) -> set[str]:
    types = {kind for kind, _ in slot_types(asked)}
    return {k for k, members in KINDS.items() if types & set(members)}
