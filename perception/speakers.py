"""Speaker turns: which utterances share a voice, as per-video labels "S1", "S2", ...

Voice embeddings of short windows over the whole track are clustered (average linkage,
cosine), and each word takes the voice of the window nearest it, so a quick exchange
inside one ASR segment becomes two turns. Labels are only consistent inside one video (memory links
them to people later); they are numbered in order of first appearance. The default
encoder is Resemblyzer's GE2E model, which ships its 17 MB weights inside the PyPI
package, so it works offline.
"""
from __future__ import annotations

import itertools
import logging
import re
import warnings
from dataclasses import dataclass, replace
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .config import PerceptionConfig
from .devices import torch_device
from .errors import BackendUnavailable
from .turns import segment_of_words
from .types import AsrSegment, Word

log = logging.getLogger(__name__)
WINDOW_RATE = 4  # voice windows per second (each 1.6 s long: Resemblyzer's partials)
MIN_SPEECH_SHARE = 0.5  # a window is speech when words cover this much of it
LONG_TURN = 1.0  # seconds: turns this long have a steady voice embedding
SAME_VOICE_TURNS = 0.75  # two window voices whose turns are this alike on average are one voice


@dataclass(frozen=True)
class VoiceWindows:
    """Voice embeddings of short windows and their (start, end) seconds on the track."""

    vectors: np.ndarray  # (n, d) float32
    spans: tuple[tuple[float, float], ...]

    def shifted(self, seconds: float) -> VoiceWindows:
        return VoiceWindows(self.vectors, tuple((a + seconds, b + seconds) for a, b in self.spans))

    @staticmethod
    def joined(parts: list[VoiceWindows], dim: int = 256) -> VoiceWindows:
        vectors = [p.vectors for p in parts if len(p.spans)]
        return VoiceWindows(np.concatenate(vectors) if vectors else np.zeros((0, dim), np.float32),
                            tuple(span for p in parts for span in p.spans))


@runtime_checkable
class SpeakerTagger(Protocol):
    """Speaker turns in two steps, so a long track is heard piece by piece: the voices of
    each piece's speech (`voices`, times relative to the piece), then turns over the whole
    track's windows at once (`assign`: a voice is one label across pieces)."""

    model_id: str

    def voices(self, audio: np.ndarray, sr: int, speech: list[tuple[float, float]]) -> VoiceWindows: ...

    def assign(self, windows: VoiceWindows, segments: list[AsrSegment]) -> list[AsrSegment]: ...


def speech_spans(segments: list[AsrSegment]) -> list[tuple[float, float]]:
    """Where words were said (whole segments when ASR gave no word times)."""
    return [(w.start, w.end) for seg in segments for w in seg.words] or [(s.start, s.end) for s in segments]


def cluster_windows(embeddings: np.ndarray, threshold: float, min_share: float = 0.1,
                    block: int = 1500) -> list[int]:
    """Voice clusters over speech windows: average-linkage agglomerative clustering by
    cosine (windows of one voice are ~0.76 alike, of two voices ~0.69: a centroid that
    absorbs neighbours merges voices, average linkage does not). Clusters holding under
    `min_share` of the windows (a cough, a laugh, overlap) join their nearest large one.
    Long tracks are clustered in blocks whose clusters are then clustered again, so memory
    stays bounded. Ids are 0, 1, ... in order of first appearance."""
    from sklearn.cluster import AgglomerativeClustering

    def agglomerate(vectors: np.ndarray) -> np.ndarray:
        if len(vectors) < 2:
            return np.zeros(len(vectors), dtype=int)
        return AgglomerativeClustering(n_clusters=None, distance_threshold=1.0 - threshold, metric="cosine",
                                       linkage="average").fit_predict(vectors)

    unit = embeddings / np.maximum(np.linalg.norm(embeddings, axis=1, keepdims=True), 1e-9)
    if len(unit) <= block:
        labels = agglomerate(unit)
    else:  # cluster each block, then the blocks' cluster means
        local = [(i, agglomerate(unit[i:i + block])) for i in range(0, len(unit), block)]
        means, owner = [], np.zeros(len(unit), dtype=int)
        for i, lab in local:
            for c in np.unique(lab):
                owner[i + np.flatnonzero(lab == c)] = len(means)
                means.append(unit[i:i + block][lab == c].mean(axis=0))
        labels = agglomerate(np.asarray(means))[owner]
    sizes = np.bincount(labels)
    large = np.flatnonzero(sizes >= max(2, min_share * len(labels)))
    if len(large) and len(large) < len(sizes):
        centroids = np.stack([unit[labels == c].mean(axis=0) for c in large])
        small = ~np.isin(labels, large)
        labels[small] = large[np.argmax(unit[small] @ centroids.T, axis=1)]
    order = {c: k for k, c in enumerate(dict.fromkeys(labels.tolist()))}
    return [order[c] for c in labels.tolist()]


def speech_share(spans: list[tuple[float, float]], speech: list[tuple[float, float]]) -> np.ndarray:
    """For each window, the share of it that words cover."""
    starts = np.array([a for a, _ in speech]) if speech else np.zeros(0)
    ends = np.array([b for _, b in speech]) if speech else np.zeros(0)
    out = np.zeros(len(spans))
    for k, (a, b) in enumerate(spans):
        out[k] = np.clip(np.minimum(ends, b) - np.maximum(starts, a), 0, None).sum() / max(b - a, 1e-9)
    return out


def _sentences(words: list[Word]) -> list[tuple[int, int]]:
    """(first, past-last) word index of each sentence, ended by the ASR's . ? or !."""
    spans, start = [], 0
    for i, word in enumerate(words):
        if word.text.rstrip().endswith((".", "?", "!")) or i == len(words) - 1:
            spans.append((start, i + 1))
            start = i + 1
    return spans


_VOICE_LABEL = re.compile(r"S\d+")


def voice_label(k: int) -> str:
    """The name memlens gives the k-th (0-based) voice of a recording until someone names it: "S1"."""
    return f"S{k + 1}"


def is_voice_label(text: str) -> bool:
    """Whether text is such a label: memlens's own name for a voice, never a person's."""
    return _VOICE_LABEL.fullmatch(text.strip()) is not None


def split_by_voice(segments: list[AsrSegment], voice_at) -> list[AsrSegment]:
    """Each segment cut where the voice under its words changes, labelled "S<k+1>"; a
    change must hold for two words, so one misheard word does not make a turn, and a
    sentence begun and ended in one voice is that voice's throughout: one speaker's "I'm
    originally from Chicago also." is not split three ways because the middle words
    sounded like the other caller."""
    out: list[AsrSegment] = []
    for seg in segments:
        words = list(seg.words)
        if not words:
            voice = voice_at((seg.start + seg.end) / 2)
            out.append(replace(seg, speaker=None if voice is None else voice_label(voice)))
            continue
        voices = [voice_at((w.start + w.end) / 2) for w in words]
        for i in range(1, len(voices) - 1):  # a lone word in another voice keeps its neighbours'
            if voices[i - 1] == voices[i + 1] != voices[i]:
                voices[i] = voices[i - 1]
        for first, last in _sentences(words):
            if voices[first] == voices[last - 1]:
                voices[first:last] = [voices[first]] * (last - first)
        start = 0
        for i in range(1, len(words) + 1):
            if i == len(words) or voices[i] != voices[start]:
                piece = seg if (start, i) == (0, len(words)) else segment_of_words(seg, words[start:i])
                out.append(replace(piece, speaker=None if voices[start] is None else voice_label(voices[start])))
                start = i
    return out


def voice_prints(windows: VoiceWindows, turns: list[AsrSegment]) -> dict[str, tuple[float, ...]]:
    """Each speaker label's voice: the mean of the unit window vectors centred inside their
    turns, unit length again. What memory compares with the wearer's enrolled voice."""
    if not len(windows.spans) or not turns:
        return {}
    unit = windows.vectors / np.maximum(np.linalg.norm(windows.vectors, axis=1, keepdims=True), 1e-9)
    centres = np.array([(a + b) / 2 for a, b in windows.spans])
    inside: dict[str, np.ndarray] = {}
    for turn in turns:
        if turn.speaker:
            hit = (centres >= turn.start) & (centres <= turn.end)
            inside[turn.speaker] = inside.get(turn.speaker, np.zeros(len(centres), bool)) | hit
    prints = {}
    for label, hit in inside.items():
        if hit.any():
            mean = unit[hit].mean(axis=0)
            prints[label] = tuple(round(float(v), 5) for v in mean / max(float(np.linalg.norm(mean)), 1e-9))
    return prints


class ResemblyzerTagger:
    """Resemblyzer voice embeddings (256-d, GE2E) + cosine clustering."""

    model_id = "resemblyzer-ge2e+sentences"  # a sentence begun and ended in one voice is one voice

    def __init__(self, threshold: float = 0.74, device: str = "auto"):
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
            self._encoder = self._import().VoiceEncoder(torch_device(self.device), verbose=False)
        return self._encoder

    def voices(self, audio: np.ndarray, sr: int, speech: list[tuple[float, float]],
               batch: int = 256) -> VoiceWindows:
        """Voice embeddings of the 1.6 s windows, every 1 / WINDOW_RATE s, that words
        (`speech`, seconds into `audio`) cover at least half of: only those are clustered
        (`assign`), so silence and sound without words (most of a day) are never run
        through the voice model. The windows' grid and mel frames are Resemblyzer's own
        (`embed_utterance` computes the same vectors for all of them)."""
        import torch

        resemblyzer = self._import()
        wav = np.asarray(audio, dtype=np.float32)
        if sr != 16000:
            import librosa

            wav = librosa.resample(wav, orig_sr=sr, target_sr=16000)
        if len(wav) < 16000 // 10 or not speech:
            return VoiceWindows.joined([])
        encoder = self.load()
        wav_slices, mel_slices = encoder.compute_partial_slices(len(wav), WINDOW_RATE, 0.5)
        spans = [(w.start / 16000, min(w.stop, len(wav)) / 16000) for w in wav_slices]
        keep = np.flatnonzero(speech_share(spans, speech) >= MIN_SPEECH_SHARE)
        if len(keep) == 0:
            return VoiceWindows.joined([])
        wav = resemblyzer.normalize_volume(wav, -30, increase_only=True)
        wav = np.pad(wav, (0, max(0, wav_slices[-1].stop - len(wav))))
        mel = resemblyzer.audio.wav_to_mel_spectrogram(wav)
        previous = torch.backends.mkldnn.enabled
        # oneDNN's LSTM spends seconds building kernels on its first call (measured 2.8 s vs
        # 0.4 s on 2 CPU cores) for no gain at this size, so it is off for this call only.
        torch.backends.mkldnn.enabled = False
        vectors = []
        try:
            with torch.no_grad():
                for i in range(0, len(keep), batch):
                    mels = np.array([mel[mel_slices[k]] for k in keep[i:i + batch]])
                    vectors.append(encoder(torch.from_numpy(mels).to(encoder.device)).cpu().numpy())
        finally:
            torch.backends.mkldnn.enabled = previous
        return VoiceWindows(np.concatenate(vectors).astype(np.float32), tuple(spans[k] for k in keep))

    @staticmethod
    def confirmed(turns: list[AsrSegment], turn_vectors: list[np.ndarray | None],
                  voice_means: dict[str, np.ndarray] | None = None) -> dict[str, str]:
        """Window voices merged where whole turns do not tell them apart (label -> label).

        A turn's voice (the mean of its windows, as embedding it whole would give) is far
        steadier than one 1.6 s window: a lecturer's windows drift into clusters that her
        turns still show as one voice. Two window voices whose turns are on average at least
        `SAME_VOICE_TURNS` alike are merged, most alike first. A voice heard in no long turn
        (a few words inside a sentence drifting off) has no steady turn: all its windows
        together (`voice_means`) join the voice with a turn at least that alike. Measured:
        the pyannote call's two voices 0.72 across; the TED clip's one voice, split four ways
        by its windows, 0.78-0.84 across; a synthetic voice's four-word drift (espeak, AAC)
        0.77 to its own voice's turn, 0.58 to the other's. Few recordings to tune on (issue
        11's closing note).
        """
        pairs = [(t.speaker, v / max(np.linalg.norm(v), 1e-9)) for t, v in zip(turns, turn_vectors)
                 if t.speaker and v is not None and t.end - t.start >= LONG_TURN]
        merged = {label: label for label, _ in pairs}
        while True:
            groups: dict[str, list[np.ndarray]] = {}
            for label, v in pairs:
                groups.setdefault(merged[label], []).append(v)
            across = {(a, b): float(np.mean(np.stack(groups[a]) @ np.stack(groups[b]).T))
                      for a, b in itertools.combinations(sorted(groups), 2)}
            if not across or max(across.values()) < SAME_VOICE_TURNS:
                break
            keep, gone = max(across, key=across.__getitem__)
            for label, target in merged.items():
                if target == gone:
                    merged[label] = keep
        # a voice with no steady turn joins the voice one of whose turns it is most like
        for label, v in (voice_means or {}).items():
            if label in merged or not groups or not any(t.speaker == label for t in turns):
                continue
            v = v / max(np.linalg.norm(v), 1e-9)
            best = max(groups, key=lambda g: float(np.max(np.stack(groups[g]) @ v)))
            if float(np.max(np.stack(groups[best]) @ v)) >= SAME_VOICE_TURNS:
                merged[label] = best
        return merged

    def assign(self, windows: VoiceWindows, segments: list[AsrSegment]) -> list[AsrSegment]:
        """Who speaks when, from voice windows over the whole track (a quick exchange inside
        one ASR segment is cut into turns), each word given the voice of the nearest window;
        voices whole utterances do not tell apart are then merged (`confirmed`)."""
        if not segments:
            return []
        vectors, spans = windows.vectors, list(windows.spans)
        speech = speech_spans(segments)
        keep = np.flatnonzero(speech_share(spans, speech) >= MIN_SPEECH_SHARE) if len(spans) else np.zeros(0, int)
        if len(keep) == 0:
            return [replace(s, speaker="S1") for s in segments]
        labels = cluster_windows(vectors[keep], self.threshold)
        centres = np.array([(spans[k][0] + spans[k][1]) / 2 for k in keep])

        def voice_at(t: float) -> int:
            return labels[int(np.argmin(np.abs(centres - t)))]

        turns = split_by_voice(segments, voice_at)
        if max(labels) == 0:
            return turns
        # a turn's voice is the mean of its windows (what embedding it whole computes)
        unit = vectors[keep] / np.maximum(np.linalg.norm(vectors[keep], axis=1, keepdims=True), 1e-9)
        turn_vectors = [unit[inside].mean(axis=0) if (inside := (centres >= t.start) & (centres <= t.end)).any()
                        else None for t in turns]
        means = {voice_label(k): unit[np.asarray(labels) == k].mean(axis=0) for k in range(max(labels) + 1)}
        merged = self.confirmed(turns, turn_vectors, means)
        voice = {voice_label(k): k for k in range(max(labels) + 1)}
        relabel = {k: voice[merged.get(voice_label(k), voice_label(k))] for k in range(max(labels) + 1)}
        if all(k == v for k, v in relabel.items()):
            return turns
        order = {v: n for n, v in enumerate(dict.fromkeys(relabel[k] for k in labels))}
        labels = [order[relabel[k]] for k in labels]
        return split_by_voice(segments, voice_at)


class NoSpeakerTagger:
    """speaker_backend="none": segments pass through with speaker None."""

    model_id = "none"

    def describe(self) -> str:
        return "off: speaker_backend='none'"

    def voices(self, audio: np.ndarray, sr: int, speech: list[tuple[float, float]]) -> VoiceWindows:
        return VoiceWindows.joined([])

    def assign(self, windows: VoiceWindows, segments: list[AsrSegment]) -> list[AsrSegment]:
        return list(segments)


def make_speaker_tagger(config: PerceptionConfig) -> SpeakerTagger | None:
    backend = config.speaker_backend.lower()
    if backend == "none":
        return None
    if backend == "resemblyzer":
        return ResemblyzerTagger(config.speaker_threshold, config.asr_device)
    raise ValueError(f"unknown speaker_backend {config.speaker_backend!r}: use resemblyzer or none")
