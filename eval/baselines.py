"""Baselines that need no memory: random choice, and a blind text-only answerer.

They satisfy the QASystem Protocol, so the runner treats them exactly like memlens. The
memory-based baselines (Video-RAG-style, EgoButler-style) are eval/retrieval_baselines.py;
benchmarks/suites.py wires them to a system's memory.
"""
from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence

import numpy as np

from eval.schema import Item, Prediction, VideoRef


class RandomBaseline:
    """Uniform over the options, seeded per item so reruns agree."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.seed = seed

    def ingest(self, video: VideoRef, namespace: str) -> None:
        return None

    def answer(self, item: Item, namespace: str) -> Prediction:
        rng = random.Random(int(hashlib.sha256(f"{self.seed}:{item.id}".encode()).hexdigest()[:12], 16))
        scores = [rng.random() for _ in item.options]
        chosen = int(np.argmax(scores))
        return Prediction(item.id, self.name, chosen, scores, item.role_of(chosen) == "not_answerable")


class BlindBaseline:
    """Sees only the question and the options (seed 001's blind test): picks the option
    whose text is closest to the question. It never abstains: it has no evidence to judge."""

    name = "blind"

    def __init__(self, embed: Callable[[Sequence[str]], np.ndarray]):
        self.embed = embed

    def ingest(self, video: VideoRef, namespace: str) -> None:
        return None

    def answer(self, item: Item, namespace: str) -> Prediction:
        answerable = [i for i, o in enumerate(item.options) if o.role != "not_answerable"] or list(range(len(item.options)))
        vectors = self.embed([item.question] + [item.options[i].text for i in answerable])
        sims = vectors[1:] @ vectors[0]
        scores = [0.0] * len(item.options)
        for j, i in enumerate(answerable):
            scores[i] = float(sims[j])
        chosen = answerable[int(np.argmax(sims))]
        return Prediction(item.id, self.name, chosen, scores, False)
