"""Phrasing banks: natural ways a person asks each generated question, for evaluation only.

memlens's generated suites ask every question in one template wording, and the same team
wrote those templates and the agent, so template accuracy says little about a real wearer
who never speaks a template. Every template of the generated life suites
(eval/life/supermemory.py, eval/life/egomemreason.py) and of the demo morning
(eval/synthetic/morning.py) has here a bank of at least 8 phrasings (wake words,
contractions, reordered clauses, synonyms, indirect and casual questions, shorter and
longer) with the same slots, the same time and the same answer; options never change.

Each phrasing carries a fixed split: about 3 **dev** phrasings per template, which may be
looked at while developing, and at least 5 **held-out** ones, which are reported beside
the template accuracy (`memlens bench --phrasing ...`) and must never be tuned on. A
held-out phrasing later found in the system's own strings (tests/test_phrasings.py looks)
is no longer unseen: it moves to dev, marked where it was seen, and a new held-out
phrasing takes its place, so some templates have more than 3 dev phrasings.

THIS IS EVALUATION MATERIAL. Nothing under agent/, retrieval/, memory/, perception/ or
service/ may import this package or copy its wording (benchmarks/, the bench report, may); a
system that has seen the held-out phrasings makes the held-out figure meaningless.

Items keep their id, options, times and template question; the phrasings ride along in
`item.meta["phrasings"] = {"template": id, "slots": {...}, "dev": [...], "heldout": [...]}`.
"""
from __future__ import annotations

from eval.phrasings.bank import (
    DEV,
    GRAMMAR_SLOTS,
    HELDOUT,
    META_KEY,
    PHRASING_SETS,
    TEMPLATE,
    Bank,
    Phrasing,
    Template,
    asked_question,
    parse_phrasing_sets,
    phrasings_of,
    pick_index,
    with_phrasings,
)
from eval.phrasings.egomemreason import EGOMEMREASON
from eval.phrasings.m3eval import M3EVAL
from eval.phrasings.morning import MORNING, morning_phrasings
from eval.phrasings.supermemory import SUPERMEMORY
from eval.phrasings.videocogqa import VIDEOCOGQA

BANKS = {b.name: b for b in (SUPERMEMORY, EGOMEMREASON, MORNING, M3EVAL, VIDEOCOGQA)}
DEFAULT_SETS = (TEMPLATE, HELDOUT)


def bank_for(suite: str) -> Bank | None:
    return BANKS.get(suite)


__all__ = [
    "BANKS", "DEFAULT_SETS", "DEV", "EGOMEMREASON", "GRAMMAR_SLOTS", "HELDOUT", "M3EVAL", "META_KEY", "MORNING",
    "PHRASING_SETS", "SUPERMEMORY", "TEMPLATE", "VIDEOCOGQA", "Bank", "Phrasing", "Template", "asked_question", "bank_for",
    "morning_phrasings", "parse_phrasing_sets", "phrasings_of", "pick_index", "with_phrasings",
]
