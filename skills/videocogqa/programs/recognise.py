"""Which symbolic template a question asks, by meaning rather than wording.

1. a template's own pattern, when the question uses the generator's wording (fast path);
2. otherwise the nearest template by sentence-embedding similarity to the short
   descriptions each template carries (`Template.about`, written for recognition, not
   taken from any evaluation phrasing), among the templates whose typed slots the question
   can fill; below `min_similarity` nothing is recognised and the question goes to the
   general planner;
3. the slots are filled by type from the question (skills/videocogqa/programs/slots.py) into the
   template's `asked` form, which its own pattern matches: the solver gets the same match
   object it always got.
The embedder is the project's MiniLM; the descriptions are embedded once, on first use.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from agent.intents import NearestExamples
from skills.videocogqa.programs.slots import Vocabulary, example, fill, kinds_said, kinds_used, masked
from skills.videocogqa.programs.templates import Template

MIN_SIMILARITY = 0.4  # cosine to a template's nearest description; unrelated questions score ~0.1-0.3
SPECIFIC = 0.015  # per filled slot: of two near-equal templates, the one that uses more of the question
UNUSED = 0.1  # per kind of value the question names (a time, an object, a number) that the template ignores


@dataclass(frozen=True)
class Recognised:
    template: Template
    match: re.Match[str]
    similarity: float  # 1.0 on the fast path
    asked: str  # the question as the template's solver reads it


class Recogniser:
    def __init__(self, templates: list[Template], embedder=None, min_similarity: float = MIN_SIMILARITY):
        self.templates = templates
        self.embedder = embedder
        self.min_similarity = min_similarity
        self._about: list[tuple[int, str]] = [(i, a) for i, t in enumerate(templates)
                                              for a in ((example(t.asked),) if t.asked else ()) + t.about]
        self._nearest: NearestExamples | None = None

    def _embedder(self):
        if self.embedder is None:
            from memory.embedding import SentenceTransformerEmbedder

            self.embedder = SentenceTransformerEmbedder()
        return self.embedder

    def similarities(self, question: str, vocab: Vocabulary) -> np.ndarray:
        """Per template: cosine of the question to its nearest description (-1 without any),
        both with their slot values masked."""
        if self._nearest is None:  # the descriptions are masked with the first vocabulary seen
            self._nearest = NearestExamples(self._embedder(), [(i, masked(a, vocab)) for i, a in self._about])
        best = np.full(len(self.templates), -1.0)
        for i, s in self._nearest.best(masked(question, vocab)).items():
            best[i] = s
        return best

    def recognise(self, question: str, vocab: Vocabulary) -> Recognised | None:
        for t in self.templates:
            if (m := t.match(question)) is not None:
                return Recognised(t, m, 1.0, question)
        if not self._about:
            return None
        sims = self.similarities(question, vocab)
        ranked = []
        said = kinds_said(question, vocab)
        for i in np.argsort(-sims):
            t = self.templates[i]
            if sims[i] < self.min_similarity or not t.asked:
                continue
            asked = fill(t.asked, question, vocab)
            m = t.match(asked) if asked is not None else None
            if m is not None:
                score = sims[i] + SPECIFIC * t.asked.count("{") - UNUSED * len(said - kinds_used(t.asked))
                ranked.append((score, sims[i], t, m, asked))
        if not ranked:
            return None
        _, sim, t, m, asked = max(ranked, key=lambda r: r[0])
        return Recognised(t, m, sim, asked)
