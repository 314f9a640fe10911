"""Scoring an answer against a scripted question (plain values: eval never imports the agent)."""
from __future__ import annotations

from eval.synthetic.script import Question


def is_correct(question: Question, answer: str, abstained: bool, chosen_option: int | None) -> bool:
    """Multiple choice: the scripted option was chosen. Unanswerable: the system abstained.
    Open: it answered, and an accepted keyword appears in the answer."""
    if question.options:
        return chosen_option is not None and question.options[chosen_option] == question.answer
    if question.kind == "unanswerable":
        return abstained
    text = answer.lower()
    return not abstained and any(k.lower() in text for k in question.accepted or (question.answer,))
