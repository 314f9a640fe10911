"""Speaker turns: which utterances share a voice, as per-video labels "S1", "S2", ...

Each ASR segment's audio is embedded by a speaker encoder and the embeddings are
clustered by cosine similarity. Labels are only consistent inside one video (memory links
them to people later); they are numbered in order of first appearance. The default
encoder is Resemblyzer's GE2E model, which ships its 17 MB weights inside the PyPI
package, so it works offline.
"""
from __future__ import annotations

import logging
import warnings
from dataclasses import replace
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .config import PerceptionConfig
from .errors import BackendUnavailable
from .types import AsrSegment

log = logging.getLogger(__name__)
# Segments shorter than this give unreliable voice embeddings: they join the closest
# existing speaker instead of founding a new one.
MIN_FOUNDING_SECONDS = 1.0


@runtime_checkable
class SpeakerTagger(Protocol):
    model_id: str

    def tag(self, audio: np.ndarray, sr: int, segments: list[AsrSegment]) -> list[AsrSegment]: ...


def cluster_embeddings(
    embeddings: list[np.ndarray | None], threshold: float, can_found: list[bool] | None = None
) -> list[int | None]:
    """Greedy centroid clustering by cosine similarity, then one reassignment pass.

    Greedy is order-dependent, so a second pass moves each item to its most similar final
    centroid. Items whose embedding is None get None. Cluster ids are 0, 1, ... in order
    of first appearance. Simple and O(n x speakers), enough for the few voices a day has.
    """
    can_found = can_found or [True] * len(embeddings)
    sums: list[np.ndarray] = []
    for i, emb in enumerate(embeddings):
        if emb is None:
            continue
        emb = emb / max(np.linalg.norm(emb), 1e-9)
        sims = [float(emb @ (s / np.linalg.norm(s))) for s in sums]
        best = int(np.argmax(sims)) if sims else -1
        if best >= 0 and (sims[best] >= threshold or not can_found[i]):
            sums[best] = sums[best] + emb
        elif can_found[i] or not sums:
            sums.append(emb.copy())
    if not sums:
        return [None] * len(embeddings)
    centroids = np.stack([s / np.linalg.norm(s) for s in sums])
    raw: list[int | None] = []
    for emb in embeddings:
        raw.append(None if emb is None else int(np.argmax(centroids @ (emb / max(np.linalg.norm(emb), 1e-9)))))
    order: dict[int, int] = {}
    for c in raw:
        if c is not None and c not in order:
            order[c] = len(order)
    return [None if c is None else order[c] for c in raw]


def label_segments(segments: list[AsrSegment], clusters: list[int | None]) -> list[AsrSegment]:
    return [replace(s, speaker=None if c is None else f"S{c + 1}") for s, c in zip(segments, clusters)]


class ResemblyzerTagger:
    """Resemblyzer voice embeddings (256-d, GE2E) + cosine clustering."""

    model_id = "resemblyzer-ge2e"

    def __init__(self, threshold: float = 0.75, device: str = "cpu"):
        self.threshold = threshold
        self.device = device
        self._encoder: Any = None

    @staticmethod
    def _import() -> Any:
        try:
            with warnings.catch_warnings():  # it imports a deprecated scipy path; not ours to fix
                warnings.simplefilter("ignore", DeprecationWarning)
                import resemblyzer
        except ImportError as exc:
            raise BackendUnavailable(
                "Resemblyzer is not installed: pip install webrtcvad-wheels librosa && "
                "pip install --no-deps Resemblyzer (or set speaker_backend='none')"
            ) from exc
        return resemblyzer

    def describe(self) -> str:
        self._import()
        return f"resemblyzer GE2E voice embeddings (threshold {self.threshold})"

    def load(self) -> Any:
        if self._encoder is None:
            self._encoder = self._import().VoiceEncoder(self.device, verbose=False)
        return self._encoder

    def embed(self, audio: np.ndarray, sr: int) -> np.ndarray | None:
        """One voice embedding for a waveform, or None if no speech is left after trimming."""
        import torch

        resemblyzer = self._import()
        wav = resemblyzer.preprocess_wav(np.asarray(audio, dtype=np.float32), source_sr=sr)
        if wav.size < 1600:  # under 0.1 s of voiced audio
            return None
        # oneDNN's LSTM spends seconds building kernels on its first call (measured 2.8 s vs
        # 0.4 s on 2 CPU cores) for no gain at this size, so it is off for this call only.
        encoder, previous = self.load(), torch.backends.mkldnn.enabled
        torch.backends.mkldnn.enabled = False
        try:
            return np.asarray(encoder.embed_utterance(wav), dtype=np.float32)
        finally:
            torch.backends.mkldnn.enabled = previous

    def tag(self, audio: np.ndarray, sr: int, segments: list[AsrSegment]) -> list[AsrSegment]:
        if not segments:
            return []
        embeddings = []
        for seg in segments:
            piece = audio[max(0, int(seg.start * sr)) : int(seg.end * sr)]
            embeddings.append(self.embed(piece, sr) if piece.size else None)
        can_found = [s.end - s.start >= MIN_FOUNDING_SECONDS for s in segments]
        return label_segments(segments, cluster_embeddings(embeddings, self.threshold, can_found))


class NoSpeakerTagger:
    """speaker_backend="none": segments pass through with speaker None."""

    model_id = "none"

    def describe(self) -> str:
        return "off: speaker_backend='none'"

    def tag(self, audio: np.ndarray, sr: int, segments: list[AsrSegment]) -> list[AsrSegment]:
        return list(segments)


def make_speaker_tagger(config: PerceptionConfig) -> SpeakerTagger | None:
    backend = config.speaker_backend.lower()
    if backend == "none":
        return None
    if backend == "resemblyzer":
        return ResemblyzerTagger(config.speaker_threshold, config.asr_device)
    raise ValueError(f"unknown speaker_backend {config.speaker_backend!r}: use resemblyzer or none")
