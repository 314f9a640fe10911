"""Intent classification over sentence embeddings, fitted on the phrasing bank.

A logistic regression over normalised MiniLM embeddings: the shape of a question ("where
did ... end up", "any idea where ...") is what separates intents, and a bank of many
phrasings per intent teaches that better than any rule. Fitted lazily on first use (a few
hundred short sentences embed in about a second), never at import time, and kept on disk
beside the models so the next process reads the weights instead.
"""
from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from memory.embedding import TextEmbedder

C = 8.0  # the regression's inverse regularisation


@dataclass(frozen=True)
class FittedIntents:
    """The fitted multinomial regression as plain arrays: what classifying a question needs,
    kept on disk so a new process neither embeds the bank again nor imports scikit-learn."""

    classes: tuple[str, ...]
    coef: np.ndarray  # (classes, dim)
    intercept: np.ndarray  # (classes,)

    def probabilities(self, vector: np.ndarray) -> np.ndarray:
        z = self.coef @ vector + self.intercept
        z = np.exp(z - z.max())
        return z / z.sum()


class IntentClassifier:
    """`cache_dir`: where the fitted weights are kept, by a digest of the embedder's model and
    the bank (None: fitted in every process)."""

    def __init__(self, embedder: TextEmbedder, bank: Mapping[str, Sequence[str]] | None = None,
                 cache_dir: Path | None = None):
        if bank is None:
            from agent.intent_bank import INTENT_BANK

            bank = INTENT_BANK
        self.embedder = embedder
        self.bank = bank
        self.cache_dir = cache_dir
        self._model: FittedIntents | None = None

    def _digest(self) -> str:
        what = [self.embedder.model_id, C, sorted((k, list(v)) for k, v in self.bank.items())]
        return hashlib.sha256(json.dumps(what).encode()).hexdigest()[:20]

    def _fit(self) -> FittedIntents:
        path = self.cache_dir / f"intents-{self._digest()}.npz" if self.cache_dir is not None else None
        if path is not None and path.exists():
            with np.load(path) as kept:
                self._model = FittedIntents(tuple(str(c) for c in kept["classes"]), kept["coef"], kept["intercept"])
            return self._model
        from sklearn.linear_model import LogisticRegression

        texts = [t for phrasings in self.bank.values() for t in phrasings]
        labels = [intent for intent, phrasings in self.bank.items() for _ in phrasings]
        model = LogisticRegression(C=C, max_iter=2000).fit(self.embedder.embed(texts), labels)
        self._model = FittedIntents(tuple(str(c) for c in model.classes_), model.coef_, model.intercept_)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(f".{os.getpid()}.tmp.npz")
            np.savez(partial, classes=np.array(self._model.classes), coef=model.coef_, intercept=model.intercept_)
            os.replace(partial, path)  # whole or not at all, whoever writes it first
        return self._model

    def scores(self, text: str) -> dict[str, float]:
        """Probability per intent for one question."""
        model = self._model or self._fit()
        probs = model.probabilities(self.embedder.embed([text])[0])
        return {label: float(p) for label, p in zip(model.classes, probs)}

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
