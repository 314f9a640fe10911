"""Intent classification over sentence embeddings, fitted on the phrasing bank.

A logistic regression over normalised MiniLM embeddings: the shape of a question ("where
did ... end up", "any idea where ...") is what separates intents, and a bank of many
phrasings per intent teaches that better than any rule. Fitted lazily on first use (a few
hundred short sentences embed in about a second) and never at import time.
"""
from __future__ import annotations

import threading
from collections.abc import Hashable, Mapping, Sequence

from memory.embedding import TextEmbedder


class IntentClassifier:
    def __init__(self, embedder: TextEmbedder, bank: Mapping[str, Sequence[str]] | None = None):
        if bank is None:
            from agent.intent_bank import INTENT_BANK

            bank = INTENT_BANK
        self.embedder = embedder
        self.bank = bank
        self._model = None

    def _fit(self):
        from sklearn.linear_model import LogisticRegression

        texts = [t for phrasings in self.bank.values() for t in phrasings]
        labels = [intent for intent, phrasings in self.bank.items() for _ in phrasings]
        model = LogisticRegression(C=8.0, max_iter=2000)
        model.fit(self.embedder.embed(texts), labels)
        self._model = model
        return model

    def scores(self, text: str) -> dict[str, float]:
        """Probability per intent for one question."""
        model = self._model or self._fit()
        probs = model.predict_proba(self.embedder.embed([text]))[0]
        return {str(label): float(p) for label, p in zip(model.classes_, probs)}

    def classify(self, text: str) -> tuple[str, float]:
        scores = self.scores(text)
        best = max(scores, key=scores.__getitem__)
        return best, scores[best]


class NearestExamples:
    """Labelled example texts, embedded once on first use; for a text, its best cosine to
    each label's examples. How the benchmark skills recognise a question by meaning: a
    question is as near a kind as it is to the nearest example of that kind."""

    def __init__(self, embedder: TextEmbedder, examples: Sequence[tuple[Hashable, str]]):
        self.embedder = embedder
        self.examples = list(examples)
        self._vectors = None
        self._lock = threading.Lock()

    def best(self, text: str) -> dict[Hashable, float]:
        with self._lock:
            if self._vectors is None:
                self._vectors = self.embedder.embed([t for _, t in self.examples])
        similarities = self._vectors @ self.embedder.embed([text])[0]
        best: dict[Hashable, float] = {}
        for (label, _), s in zip(self.examples, similarities):
            best[label] = max(best.get(label, -1.0), float(s))
        return best
