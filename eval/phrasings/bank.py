"""The machinery of the phrasing banks: a template, its phrasings with their fixed split,
matching a generated question back to its template and slots, and attaching the
phrasings to an item.

A template's `text` is a `str.format` pattern that renders the generator's question
exactly; matching turns it into a regular expression (slots become named groups), so a
generated question is recognised without the generators having to carry template ids, and
a generator whose wording drifts from the bank is caught by the tests (no template matches).
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from string import Formatter

from eval.schema import Item

DEV, HELDOUT = "dev", "heldout"
TEMPLATE = "template"
PHRASING_SETS = (TEMPLATE, DEV, HELDOUT)
META_KEY = "phrasings"

# What a slot may hold: names are one capitalised word (so "What did Bob last ask ..." can
# never read as a person called "Bob last"); everything else is lowercase words, or free text.
SLOT_PATTERNS = {
    "who": r"[A-Z][a-z]+", "thing": r"[a-z]+(?: [a-z]+)?", "place": r"[a-z]+(?: [a-z]+)?",
    "topic": r"[a-z]+", "where": r"[a-z]+(?: [a-z]+)?", "doc": r"[a-z]+", "category": r"[a-z]+",
    "meal": r"[a-z]+", "food": r"[a-z]+", "movie": r"[A-Z][A-Za-z' ]*",
    "a": r"[^()]+?", "b": r"[^()]+?", "c": r"[^()]+?", "have": r"have|has",
    # the VideoCogQA-style scenes (eval/phrasings/videocogqa.py)
    "colour": r"[a-z]+", "shape": r"[a-z]+", "shape2": r"[a-z]+", "size": r"small|medium|large",
    "size2": r"small|medium|large", "attr": r"color|shape|size", "i": r"\d+", "j": r"\d+", "nth": r"[a-z]+",
    "nth2": r"[a-z]+", "time": r"\d{1,2}:\d{2}", "note": r"\d+", "obj": r"[a-z]+ [a-z]+ [a-z]+",
    "above": r"\d+", "objects": r"objects?", "steps": r"\d+", "line": r"row|column", "solid": r"[a-z]+",
    "occ": r"[a-z]+", "side": r"to the left|to the right|above|below", "pair": r"left or right|up or down",
    "axis": r"[a-z]+ or [a-z]+", "dir": r"[a-z]+", "value": r"[a-z]+", "action": r"[a-z]+(?: [a-z]+)?",
    "action2": r"[a-z]+(?: [a-z]+)?",
}
# Slots that carry grammar, not content: phrasings need not repeat them word for word.
GRAMMAR_SLOTS = frozenset({"have", "nth", "nth2"})  # nth: a scene number restated as an ordinal


@dataclass(frozen=True)
class Phrasing:
    """One way to ask a template's question; `split` is fixed here, never drawn per run."""

    text: str
    split: str  # "dev" (may be looked at while developing) | "heldout" (reported apart, never tuned on)


def dev(text: str) -> Phrasing:
    return Phrasing(text, DEV)


def held(text: str) -> Phrasing:
    return Phrasing(text, HELDOUT)


def plural_forms(slots: Mapping[str, str]) -> dict[str, str]:
    """Agreement words for a `thing` slot ("keys" -> them/were/are/have), so a phrasing can
    say "where were they" / "I saw them" without a second bank for plural things."""
    thing = slots.get("thing", "")
    many = thing.endswith("s")
    return {"it": "them" if many else "it", "they": "they" if many else "it", "was": "were" if many else "was", "is": "are" if many else "is",
            "have": "have" if many else "has", "where_have": "where've" if many else "where's"}


@dataclass(frozen=True)
class Template:
    id: str
    text: str  # renders the generator's question exactly, e.g. "Where did I leave my {thing}?"
    phrasings: tuple[Phrasing, ...]
    derive: Callable[[Mapping[str, str]], dict[str, str]] | None = field(default=None, compare=False)

    @property
    def slots(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(name for _, name, _, _ in Formatter().parse(self.text) if name))

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        parts, seen = [], set()
        for literal, name, _, _ in Formatter().parse(self.text):
            parts.append(re.escape(literal))
            if name in seen:  # a slot said twice ("after {time}, including {time} itself") holds one value
                parts.append(f"(?P={name})")
            elif name:
                seen.add(name)
                parts.append(f"(?P<{name}>{SLOT_PATTERNS.get(name, r'.+?')})")
        return re.compile("".join(parts) + r"\Z")

    def match(self, question: str) -> dict[str, str] | None:
        m = self.pattern.match(question)
        return m.groupdict() if m else None

    def render(self, slots: Mapping[str, str]) -> dict[str, list[str]]:
        """Every phrasing with the slots filled, by split."""
        values = {**(self.derive(slots) if self.derive else {}), **slots}
        out: dict[str, list[str]] = {DEV: [], HELDOUT: []}
        for p in self.phrasings:
            out[p.split].append(p.text.format(**values))
        return out


class Bank:
    """The templates of one suite (or of the demo morning)."""

    def __init__(self, name: str, templates: Sequence[Template]):
        self.name = name
        self.templates = tuple(templates)
        ids = [t.id for t in self.templates]
        if len(set(ids)) != len(ids):
            raise ValueError(f"{name}: duplicate template ids")

    def match(self, question: str) -> tuple[Template, dict[str, str]] | None:
        """The one template that renders `question`; ambiguity is a bank bug and raises."""
        hits = [(t, slots) for t in self.templates if (slots := t.match(question)) is not None]
        if len(hits) > 1:
            raise ValueError(f"{self.name}: {question!r} matches {[t.id for t, _ in hits]}")
        return hits[0] if hits else None

    def phrasings_for(self, question: str) -> dict | None:
        """{"template", "slots", "dev", "heldout"} for a question, or None if no template renders it."""
        hit = self.match(question)
        if hit is None:
            return None
        template, slots = hit
        return {"template": template.id, "slots": slots, **template.render(slots)}


def with_phrasings(item: Item, bank: Bank) -> Item:
    """The item with `meta["phrasings"]` added (id, options, times, question unchanged);
    an item no template renders is returned as it was (it stays template-only)."""
    found = bank.phrasings_for(item.question)
    return item if found is None else replace(item, meta={**item.meta, META_KEY: found})


def phrasings_of(item: Item) -> dict | None:
    return item.meta.get(META_KEY)


def pick_index(item_id: str, split: str, n: int) -> int:
    """Which of an item's `n` phrasings of a split is asked: a stable hash of the item id
    (never Python's salted hash()), so every run and every machine asks the same one."""
    digest = hashlib.sha256(f"{split}:{item_id}".encode()).hexdigest()
    return int(digest[:12], 16) % n


def asked_question(item: Item, split: str) -> str | None:
    """The question text a run of phrasing set `split` asks for this item: the template
    question itself, or one dev / held-out phrasing picked by `pick_index`; None when the
    item has no phrasings of that split."""
    if split == TEMPLATE:
        return item.question
    if split not in (DEV, HELDOUT):
        raise ValueError(f"unknown phrasing set {split!r}; sets: {', '.join(PHRASING_SETS)}")
    texts = (phrasings_of(item) or {}).get(split) or []
    return texts[pick_index(item.id, split, len(texts))] if texts else None


def parse_phrasing_sets(value: str) -> tuple[str, ...]:
    """`--phrasing` values: template | dev | heldout | all, or a comma-separated list."""
    names = [v.strip().lower().replace("held-out", HELDOUT) for v in value.split(",") if v.strip()]
    out: list[str] = []
    for name in names:
        if name == "all":
            out += PHRASING_SETS
        elif name in PHRASING_SETS:
            out.append(name)
        else:
            raise ValueError(f"--phrasing: unknown set {name!r}; use template, dev, heldout, all "
                             "or a comma-separated list")
    if not out:
        raise ValueError("--phrasing: give at least one of template, dev, heldout, all")
    return tuple(s for s in PHRASING_SETS if s in out)
