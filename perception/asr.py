"""Speech recognition backends behind one small interface.

`FasterWhisperRecognizer` is the default: CTranslate2 Whisper on CPU, offline with the
packaged whisper-base weights (see weights.py), word timestamps, and the Silero VAD that
faster-whisper bundles so silence is skipped rather than hallucinated over (`speech_clips`).
`WhisperXRecognizer` is the GPU path (batched inference + wav2vec2 word alignment);
whisperx cannot be installed on the CPU machines (torchaudio stops at 2.11 on PyPI).
Models load on the first `transcribe`, never at import or construction.
"""
from __future__ import annotations

import logging
import math
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .config import PerceptionConfig
from .devices import ctranslate2_device, torch_device
from .errors import BackendUnavailable
from .types import AsrSegment, Word
from .weights import assemble_whisper_base

log = logging.getLogger(__name__)
SAMPLE_RATE = 16000  # what Whisper models expect


@runtime_checkable
class SpeechRecognizer(Protocol):
    """Turns a mono waveform into utterances with word timings (seconds from sample 0)."""

    model_id: str

    def transcribe(self, audio: np.ndarray, sr: int) -> list[AsrSegment]: ...


def to_16k(audio: np.ndarray, sr: int) -> np.ndarray:
    """Mono float32 at 16 kHz. Linear interpolation: adequate for speech, and the pipeline
    already decodes at 16 kHz, so this only serves callers with other rates."""
    audio = np.asarray(audio, dtype=np.float32)
    if audio.ndim > 1:
        audio = audio.mean(axis=-1 if audio.shape[-1] <= 8 else 0)
    if sr == SAMPLE_RATE or audio.size == 0:
        return audio
    n_out = round(audio.size * SAMPLE_RATE / sr)
    src = np.arange(audio.size) / sr
    return np.interp(np.arange(n_out) / SAMPLE_RATE, src, audio).astype(np.float32)


def _confidence(avg_logprob: float | None, word_probs: list[float]) -> float:
    """Geometric mean of exp(avg_logprob) (the decoder's view of the whole segment) and
    the mean word probability (which drops on mumbled words the average hides)."""
    parts = []
    if avg_logprob is not None and math.isfinite(avg_logprob):
        parts.append(math.exp(min(0.0, avg_logprob)))
    if word_probs:
        parts.append(float(np.mean(word_probs)))
    if not parts:
        return 0.0
    return float(min(1.0, max(0.0, math.prod(parts) ** (1 / len(parts)))))


def speech_clips(audio: np.ndarray, gap: float) -> list[tuple[float, float]]:
    """The stretches of 16 kHz audio that hold speech, as (start, end) seconds: Silero VAD's
    speech (faster-whisper bundles it), runs less than `gap` apart joined. faster-whisper's own
    `vad_filter` packs all the speech together, and Whisper then may drop phrases (a shop's
    whole exchange, before the next speaker's turn after a pause), the failure faster-whisper
    issue #1270 reports for its batched mode: a stretch left without a word is read again alone."""
    from faster_whisper.vad import VadOptions, get_speech_timestamps

    clips: list[tuple[float, float]] = []
    for span in get_speech_timestamps(audio, VadOptions()):
        start, end = span["start"] / SAMPLE_RATE, span["end"] / SAMPLE_RATE
        if clips and start - clips[-1][1] < gap:
            clips[-1] = (clips[-1][0], end)
        else:
            clips.append((start, end))
    return clips


class FasterWhisperRecognizer:
    """faster-whisper; `model` None = the packaged whisper-base, else a dir or hub id."""

    def __init__(
        self,
        model: str | None = None,
        device: str = "auto",
        compute_type: str = "int8",
        language: str | None = "en",
        model_dir: Path | None = None,
        beam_size: int = 5,
        speech_gap: float = 5.0,
    ):
        self.speech_gap = speech_gap
        self.model_name = model
        self.device = device
        self.compute_type = compute_type
        self.language = language
        self.model_dir = Path(model_dir) if model_dir else PerceptionConfig().model_dir
        self.beam_size = beam_size
        self._model: Any = None

    @property
    def model_id(self) -> str:
        # how the audio is fed is part of what transcribes it: stretches left unread are read again
        return f"faster-whisper:{self.model_name or 'packaged-whisper-base'}+unread-stretches"

    def describe(self) -> str:
        """One line for `doctor`; checks the weights are there without loading them."""
        if self.model_name:
            return f"faster-whisper {self.model_name} ({self.device}, {self.compute_type})"
        from .weights import packaged_data_dirs

        packaged_data_dirs()  # raises BackendUnavailable with the fix when missing
        where = self.model_dir / "faster-whisper-base"
        return f"faster-whisper base (packaged weights, assembled at {where})"

    def load(self) -> Any:
        if self._model is None:
            try:
                from faster_whisper import WhisperModel
            except ImportError as exc:
                raise BackendUnavailable("faster-whisper is not installed: pip install faster-whisper") from exc
            source = self.model_name or str(assemble_whisper_base(self.model_dir))
            device = ctranslate2_device(self.device)
            log.info("loading faster-whisper model %s on %s", source, device)
            try:
                self._model = WhisperModel(source, device=device, compute_type=self.compute_type)
            except Exception as exc:  # noqa: BLE001 - unknown name, offline hub id, bad dir or device
                raise BackendUnavailable(
                    f"cannot load faster-whisper model {source!r} on {device}/{self.compute_type}: "
                    f"{type(exc).__name__}: {exc}"
                ) from exc
        return self._model

    def transcribe(self, audio: np.ndarray, sr: int) -> list[AsrSegment]:
        audio = to_16k(audio, sr)
        if audio.size < SAMPLE_RATE // 10:
            return []
        # faster-whisper's VAD packing first (Whisper reads short turns best with speech around
        # them); a stretch of speech it left without a word is then read on its own
        out = self._transcribe(audio, 0.0, packed=True)
        heard = [w.start for seg in out for w in seg.words] + [seg.start for seg in out if not seg.words]
        for start, end in speech_clips(audio, self.speech_gap):
            if not any(start - 0.5 <= t <= end + 0.5 for t in heard):
                out += self._transcribe(audio[round(start * SAMPLE_RATE):round(end * SAMPLE_RATE)], start)
        return sorted(out, key=lambda seg: seg.start)

    def _transcribe(self, audio: np.ndarray, offset: float, packed: bool = False) -> list[AsrSegment]:
        """Segments of `audio`, times moved to the recording's (`offset` seconds in); `packed`:
        with faster-whisper's own VAD, else the audio is one stretch of speech already."""
        segments, _info = self.load().transcribe(
            audio,
            language=self.language,
            beam_size=self.beam_size,
            vad_filter=packed,
            word_timestamps=True,
            condition_on_previous_text=False,  # stops one misheard phrase echoing onwards
        )
        out = []
        for seg in segments:
            words = tuple(
                Word(w.word.strip(), offset + float(w.start), offset + float(w.end), float(w.probability))
                for w in (seg.words or [])
                if w.word.strip()
            )
            text = seg.text.strip()
            if not text:
                continue
            conf = _confidence(seg.avg_logprob, [w.probability for w in words])
            out.append(AsrSegment(offset + float(seg.start), offset + float(seg.end), text, conf, words))
        return out


class WhisperXRecognizer:
    """whisperx (GPU extra): batched Whisper + wav2vec2 forced alignment for word times.

    `model` None uses the packaged whisper-base directory (whisperx loads faster-whisper
    models, so the same weights work); alignment models come from the hub or its cache,
    and when they cannot be loaded segments are kept without words.
    """

    def __init__(
        self,
        model: str | None = None,
        device: str = "auto",
        compute_type: str = "float16",
        language: str | None = "en",
        model_dir: Path | None = None,
        batch_size: int = 8,
    ):
        self.model_name = model
        self.device = device  # resolved to a torch device when the model loads
        self.compute_type = compute_type
        self.language = language
        self.model_dir = Path(model_dir) if model_dir else PerceptionConfig().model_dir
        self.batch_size = batch_size
        self._model: Any = None
        self._align: dict[str, Any] = {}

    @property
    def model_id(self) -> str:
        return f"whisperx:{self.model_name or 'packaged-whisper-base'}"

    def describe(self) -> str:
        self._import()
        return f"whisperx {self.model_name or 'base (packaged weights)'} ({self.device}, {self.compute_type})"

    @staticmethod
    def _import() -> Any:
        try:
            import whisperx
        except ImportError as exc:
            raise BackendUnavailable(
                "whisperx is not installed (a GPU extra: pip install whisperx, which pulls "
                "torch 2.8 + torchaudio + pyannote); use asr_backend='faster-whisper' on CPU"
            ) from exc
        return whisperx

    def load(self) -> Any:
        if self._model is None:
            whisperx = self._import()
            self.device = torch_device(self.device)
            source = self.model_name or str(assemble_whisper_base(self.model_dir))
            kwargs = {"compute_type": self.compute_type, "language": self.language,
                      "download_root": str(self.model_dir)}
            try:  # whisperx >= 3.3.2 chooses the VAD; silero needs no hub token, pyannote does
                self._model = whisperx.load_model(source, self.device, vad_method="silero", **kwargs)
            except TypeError:  # older whisperx: pyannote VAD only
                self._model = whisperx.load_model(source, self.device, **kwargs)
        return self._model

    def _aligner(self, language: str) -> tuple[Any, Any] | None:
        if language not in self._align:
            whisperx = self._import()
            try:
                self._align[language] = whisperx.load_align_model(language_code=language, device=self.device)
            except Exception as exc:  # noqa: BLE001 - no alignment model for the language, or offline
                log.warning("whisperx alignment model for %r unavailable (%s); no word times", language, exc)
                self._align[language] = None
        return self._align[language]

    def transcribe(self, audio: np.ndarray, sr: int) -> list[AsrSegment]:
        audio = to_16k(audio, sr)
        if audio.size < SAMPLE_RATE // 10:
            return []
        whisperx = self._import()
        model = self.load()
        result = model.transcribe(audio, batch_size=self.batch_size, language=self.language)
        language = result.get("language") or self.language or "en"
        raw = result["segments"]
        logprobs = [s.get("avg_logprob") for s in raw]
        aligner = self._aligner(language)
        if aligner is not None and raw:
            align_model, metadata = aligner
            aligned = whisperx.align(raw, align_model, metadata, audio, self.device, return_char_alignments=False)
            raw = aligned["segments"]
        out = []
        for i, seg in enumerate(raw):
            # Alignment can leave words (digits, symbols) without times; they are dropped
            # from `words` but stay in `text`.
            words = tuple(
                Word(str(w["word"]).strip(), float(w["start"]), float(w["end"]), float(w.get("score", 0.0)))
                for w in seg.get("words", [])
                if "start" in w and "end" in w and str(w["word"]).strip()
            )
            text = str(seg.get("text", "")).strip()
            if not text:
                continue
            avg = seg.get("avg_logprob", logprobs[i] if i < len(logprobs) and len(logprobs) == len(raw) else None)
            conf = _confidence(avg, [w.probability for w in words])
            out.append(AsrSegment(float(seg["start"]), float(seg["end"]), text, conf, words))
        return out


def make_speech_recognizer(config: PerceptionConfig) -> SpeechRecognizer | None:
    """The configured recognizer (not yet loaded), or None when asr_backend is "none"."""
    backend = config.asr_backend.lower()
    if backend == "none":
        return None
    if backend == "faster-whisper":
        return FasterWhisperRecognizer(
            config.asr_model, config.asr_device, config.asr_compute_type, config.asr_language, config.model_dir,
            speech_gap=config.asr_speech_gap,
        )
    if backend == "whisperx":
        return WhisperXRecognizer(
            config.asr_model, config.asr_device, config.asr_compute_type, config.asr_language,
            config.model_dir, config.asr_batch_size,
        )
    raise ValueError(f"unknown asr_backend {config.asr_backend!r}: use faster-whisper, whisperx or none")
