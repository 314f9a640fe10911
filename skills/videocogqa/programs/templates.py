"""A question template answered by a program over the symbolic timeline, and the mapping of
a computed value onto the item's options."""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from skills.videocogqa.timeline import SymbolicTimeline


@dataclass(frozen=True)
class Solved:
    """A template's computed answer: `value` is an int, float, str, bool, or a sequence of
    those (compared in order); `times` are the source seconds of the evidence used."""

    value: Any
    times: tuple[float, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class Template:
    scene: str  # "S1"
    name: str  # the Table 31 template, for traces and reports
    pattern: re.Pattern[str]
    solve: Callable[[SymbolicTimeline, re.Match[str]], Solved | None]
    keywords: tuple[str, ...] = field(default=())
    # recognition by meaning (skills/videocogqa/programs/recognise.py): the question in typed slots
    # ("... the {colour} {shape} ...", which `pattern` matches once filled) and short
    # descriptions of what is asked, for the embedding match
    asked: str = ""
    about: tuple[str, ...] = field(default=())

    def match(self, question: str) -> re.Match[str] | None:
        return self.pattern.search(question)


def described(templates: list[Template], forms: dict[str, tuple[str, tuple[str, ...]]]) -> list[Template]:
    """The templates with their asked form and descriptions (`forms`: name -> (asked, about))."""
    missing = {t.name for t in templates} - set(forms)
    if missing:
        raise ValueError(f"templates without an asked form: {sorted(missing)}")
    return [replace(t, asked=forms[t.name][0], about=forms[t.name][1]) for t in templates]


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_WORDS = re.compile(r"-?\d+(?:\.\d+)?|[a-z]+")
_NUMERIC = re.compile(r"[-\d.,\s]+")
_YES, _NO = {"yes", "true"}, {"no", "false"}


def canon(value: Any) -> str:
    """Lower-case words (and numbers) only, so "Green circle" == "green circle"."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(canon(v) for v in value)
    return " ".join(w for w in _WORDS.findall(str(value).lower()) if w not in {"the", "a", "an"})


def option_scores(value: Any, options: Sequence[str]) -> list[float]:
    """How well each option states `value`: 1.0 for the same canonical text; numbers by
    closeness (a measured 3.1 s picks the "3 seconds" option); otherwise word overlap."""
    want = canon(value)
    scores = []
    for option in options:
        got = canon(option)
        if got == want:
            scores.append(1.0)
            continue
        first = got.split(" ")[0] if got else ""
        if isinstance(value, bool) or want in ("yes", "no"):
            scores.append(0.9 if (want == "yes" and first in _YES) or (want == "no" and first in _NO) else 0.0)
            continue
        nums_want, nums_got = _NUMBER.findall(want), _NUMBER.findall(got)
        if nums_want and nums_got and len(nums_want) == len(nums_got) and _NUMERIC.fullmatch(want):
            diff = sum(abs(float(a) - float(b)) for a, b in zip(nums_want, nums_got))
            scores.append(0.9 / (1.0 + diff))
            continue
        a, b = set(want.split()), set(got.split())
        scores.append(0.8 * len(a & b) / len(a | b) if a | b else 0.0)
    return scores
