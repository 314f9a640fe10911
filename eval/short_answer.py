"""A short answer (a few words) lifted from evidence, for protocols that want a phrase, not
a sentence: RefMem-Bench's direct answers ("1-4 words, use vocabulary from the dialogue"),
LoCoMo's span answers.

Candidates are the noun chunks and verb phrases of the evidence lines (spaCy). An answer
recurs across the evidence and adds to the question rather than repeating it, so a
candidate is scored by its mean cosine to the evidence lines, less the share of its
content words the question already holds. Deterministic; an LLM answer is shortened the
same way (its sentence is the evidence).
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agent.question_nlp import SpacyPipeline
from memory.embedding import TextEmbedder
from memory.language import content_words

MAX_WORDS = 4
_VERB_DEPS = {"dobj", "prt", "prep", "pobj", "acomp", "xcomp", "advmod", "neg", "attr", "dative", "compound"}


def _verb_phrase(verb) -> str:
    """The verb with its object, particle or complement, as few words as carry it."""
    kept = [verb] + [c for c in verb.children if c.dep_ in _VERB_DEPS and c.i > verb.i]
    for child in list(kept[1:]):
        kept += [g for g in child.children if g.dep_ in ("pobj", "dobj", "amod", "compound")]
    kept = sorted(set(kept), key=lambda t: t.i)
    return " ".join(t.text for t in kept[:MAX_WORDS])


def candidates(docs) -> list[str]:
    found: list[str] = []
    for doc in docs:
        for chunk in doc.noun_chunks:
            words = [t for t in chunk if t.pos_ not in ("DET", "PRON")]
            if words:
                found.append(" ".join(t.text for t in words[-MAX_WORDS:]))
        for tok in doc:
            if tok.pos_ == "VERB" and tok.lemma_.lower() not in ("be", "have", "do", "get", "say", "go"):
                found.append(_verb_phrase(tok))
            elif tok.pos_ == "ADJ" and tok.dep_ in ("acomp", "amod", "ROOT"):
                found.append(tok.text)
    return [c for c in dict.fromkeys(c.strip().lower() for c in found) if content_words(c)]


class ShortAnswerer:
    def __init__(self, embedder: TextEmbedder, nlp: SpacyPipeline | None = None):
        self.embedder = embedder
        self.nlp = nlp or SpacyPipeline()

    def __call__(self, question: str, texts: Sequence[str]) -> str:
        """The phrase of at most four words the evidence best bears out; "" without evidence."""
        texts = [t for t in texts if t.strip()]
        if not texts:
            return ""
        found = candidates(self.nlp(_body(t)) for t in texts)
        if not found:
            return " ".join(_body(texts[0]).split()[:MAX_WORDS])
        vectors = self.embedder.embed(found + list(texts))
        recurring = (vectors[: len(found)] @ vectors[len(found):].T).mean(axis=1)
        asked = set(content_words(question))
        repeated = np.array([sum(w in asked for w in content_words(c)) / len(content_words(c)) for c in found])
        return found[int(np.argmax(recurring - 0.5 * repeated))]


def _body(text: str) -> str:
    """A line without its speaker label ("Maya: ..." -> "...")."""
    head, sep, rest = text.partition(": ")
    return rest if sep and len(head.split()) <= 3 else text
