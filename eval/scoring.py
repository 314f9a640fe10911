"""Scoring an answer against a scripted question (plain values: scoring never imports the agent)."""
from __future__ import annotations

import re

from eval.synthetic.script import Question

_NOT_WORD = re.compile(r"[^\w]+|_")


def normalise(text: str) -> str:
    """Lower case, punctuation turned into spaces, whitespace collapsed: "4:30 PM." and
    "4.30 pm" both read "4 30 pm", "Bob's" reads "bob s" (so it still mentions "bob")."""
    return " ".join(_NOT_WORD.sub(" ", text.lower()).split())


def mentions(answer: str, expected: str) -> bool:
    """The normalised `expected` appears in the normalised `answer` as whole words, so "2"
    is not found inside "12:19" and "hall" is not found inside "hallway"."""
    want = normalise(expected)
    return bool(want) and f" {want} " in f" {normalise(answer)} "


def is_correct(question: Question, answer: str, abstained: bool, chosen_option: int | None) -> bool:
    """Multiple choice: the scripted option was chosen. Unanswerable: the system abstained.
    Open: it answered, and an accepted keyword appears in the answer."""
    if question.options:
        return chosen_option is not None and question.options[chosen_option] == question.answer
    if question.kind == "unanswerable":
        return abstained
    text = answer.lower()
    return not abstained and any(k.lower() in text for k in question.accepted or (question.answer,))
