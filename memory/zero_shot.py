"""Zero-shot labels from CLIP keyframe embeddings: the kind of a place and the things in view.

CLIP scores an image against a prompt per label ("a photo of a kitchen"); a softmax over
the labels' cosines at CLIP's trained logit scale turns them into how much the image
prefers one label over the others. The labels come from configuration (place kinds) and
from the detector's own label set, never from a list of ours.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from memory.frames import ClipTextEncoder

# CLIP's learned temperature ends training at its clamp, 100 (exp(4.6052)); zero-shot
# classification uses it as is.
LOGIT_SCALE = 100.0


def label_probabilities(images: np.ndarray, prompts: np.ndarray, scale: float = LOGIT_SCALE) -> np.ndarray:
    """Softmax over labels of scale * cosine, one row per image (rows L2-normalised)."""
    logits = scale * (np.atleast_2d(images) @ prompts.T)
    logits -= logits.max(axis=1, keepdims=True)
    weights = np.exp(logits)
    return weights / weights.sum(axis=1, keepdims=True)


def best_label(image: np.ndarray, labels: Sequence[str], prompts: np.ndarray, threshold: float) -> str | None:
    """The label whose prompt the image prefers, when its probability reaches `threshold`."""
    if not len(labels):
        return None
    probs = label_probabilities(_unit(image), prompts)[0]
    best = int(np.argmax(probs))
    return labels[best] if probs[best] >= threshold else None


def top_labels(images: np.ndarray, labels: Sequence[str], prompts: np.ndarray, threshold: float,
               top: int) -> list[list[tuple[str, float]]]:
    """Per image, up to `top` labels at or above `threshold`, most probable first."""
    if not len(labels) or not len(images):
        return [[] for _ in range(len(images))]
    probs = label_probabilities(_unit(images), prompts)
    out = []
    for row in probs:
        order = np.argsort(-row, kind="stable")[:top]
        out.append([(labels[i], float(row[i])) for i in order if row[i] >= threshold])
    return out


def _unit(x: np.ndarray) -> np.ndarray:
    x = np.atleast_2d(np.asarray(x, dtype=np.float32))
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)


class ZeroShot:
    """Labels for one model's image vectors; prompt vectors are encoded once per label set."""

    def __init__(self, encoder: ClipTextEncoder, template: str = "a photo of a {}"):
        self.encoder = encoder
        self.template = template
        self._prompts: dict[tuple[str, ...], np.ndarray] = {}

    @property
    def model_id(self) -> str:
        return self.encoder.model_id

    def prompts(self, labels: Sequence[str]) -> np.ndarray | None:
        """One prompt vector per label, or None when the encoder gave none (its model
        could not load: the labelling is then off, as the channel is)."""
        key = tuple(labels)
        if key not in self._prompts:
            vectors = np.asarray(self.encoder.encode_texts([self.template.format(label) for label in labels]))
            if vectors.ndim != 2 or len(vectors) != len(labels):
                return None
            self._prompts[key] = _unit(vectors)
        return self._prompts[key]

    def place_kinds(self, stays: Mapping[str, np.ndarray], kinds: Sequence[str], threshold: float) -> dict[str, str]:
        """Stay key -> the kind its mean keyframe vector says, for the stays CLIP is sure of."""
        kinds = list(kinds)
        if not kinds or not stays:
            return {}
        prompts = self.prompts(kinds)
        if prompts is None:
            return {}
        out = {}
        for key, mean in stays.items():
            kind = best_label(mean, kinds, prompts, threshold)
            if kind is not None:
                out[key] = kind
        return out

    def frame_tags(self, vectors: np.ndarray, vocabulary: Sequence[str], threshold: float,
                   top: int) -> list[list[tuple[str, float]]]:
        vocabulary = list(dict.fromkeys(vocabulary))
        if not len(vectors) or not vocabulary:
            return [[] for _ in range(len(vectors))]
        prompts = self.prompts(vocabulary)
        if prompts is None:
            return [[] for _ in range(len(vectors))]
        return top_labels(vectors, vocabulary, prompts, threshold, top)
