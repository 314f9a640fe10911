"""The sound half of the pipeline: ASR over the audio track, then speaker turns.

Whisper hears the track in long pieces cut at quiet moments (perception/audio_pieces.py),
not per clip, because utterances cross clip boundaries; segments are assigned to clips
afterwards by their midpoint. Memory holds one piece, so a day-long recording is heard in
the memory ten minutes take. Voices are embedded per piece where words were said and
clustered once over the whole track, so a voice keeps one label across pieces. Both stages
are cached under the unit "audio", speaker turns separately from the transcript so that
changing the speaker threshold does not re-run ASR.
"""
from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .asr import SpeechRecognizer
from .audio_pieces import audio_pieces
from .cache import ObservationCache
from .config import PerceptionConfig
from .decode import VideoInfo, iter_audio
from .errors import BackendUnavailable
from .progress import ProgressReporter
from .serialize import segment_from_dict, segment_to_dict
from .speakers import SpeakerTagger, VoiceWindows, speech_spans, voice_prints
from .turns import split_at_pauses
from .types import AsrSegment

log = logging.getLogger(__name__)
AUDIO_UNIT = "audio"
AUDIO_RATE = 16000


@dataclass
class SpeechResult:
    segments: list[AsrSegment]
    asr_status: str
    speaker_status: str
    failures: dict[str, str] = field(default_factory=dict)  # channel -> why its backend failed
    voices: dict[str, tuple[float, ...]] = field(default_factory=dict)  # speaker label -> voice print


def _cached_segments(cache: ObservationCache | None, key: tuple[Any, ...]) -> list[AsrSegment] | None:
    payload = cache.get(*key) if cache is not None else None
    if payload is None:
        return None
    try:
        return [segment_from_dict(d) for d in payload]
    except (KeyError, TypeError, ValueError) as exc:
        log.warning("ignoring malformed cached segments (%s)", exc)
        return None


@dataclass
class _Heard:
    segments: list[AsrSegment]
    windows: VoiceWindows | None  # None: no tagger, or it failed
    failures: dict[str, str] = field(default_factory=dict)


def transcribe_track(
    path: Path,
    info: VideoInfo,
    video_id: str,
    config: PerceptionConfig,
    cache: ObservationCache | None,
    progress: ProgressReporter,
    recognizer: SpeechRecognizer | None,
    tagger: SpeakerTagger | None,
) -> SpeechResult:
    """Segments with words and speaker labels; the audio is decoded only on a cache miss,
    and heard piece by piece (`config.speech_piece_seconds`), so memory holds one piece."""
    if not info.has_audio:
        return SpeechResult([], "off: no audio stream", "off: no audio stream")
    if recognizer is None:
        return SpeechResult([], f"off: asr_backend={config.asr_backend!r}", "off: no ASR")
    span = (0.0, info.duration)
    asr_key = (video_id, AUDIO_UNIT, "asr", recognizer.model_id, config.fingerprint("asr"))
    tag_key = None if tagger is None else (  # "+prints": the payload holds each voice's print too
        video_id, AUDIO_UNIT, "speakers", f"{tagger.model_id}+{recognizer.model_id}+prints",
        config.fingerprint("speakers"))
    known = _cached_segments(cache, asr_key)
    tagged, prints = (None, {}) if tag_key is None else _cached_turns(cache, tag_key)
    if known is not None and (tagger is None or tagged is not None):
        return _result(split_at_pauses(known, config.turn_gap) if tagged is None else tagged, config, tagger, {},
                       prints)
    heard = _hear(path, info, config, progress, None if known is not None else recognizer, tagger, known)
    if "asr" in heard.failures:
        return SpeechResult([], f"off: {heard.failures['asr']}", "off: no ASR", heard.failures)
    if known is None and cache is not None:
        cache.put(*asr_key, [segment_to_dict(s) for s in heard.segments], span)
    segments = split_at_pauses(heard.segments, config.turn_gap)
    if tagger is None or heard.windows is None:
        return _result(segments, config, tagger, heard.failures)
    progress.start("speakers", 1)
    tagged = tagger.assign(heard.windows, segments)
    prints = voice_prints(heard.windows, tagged)
    if cache is not None and tag_key is not None:
        cache.put(*tag_key, {"turns": [segment_to_dict(s) for s in tagged],
                             "voices": {k: list(v) for k, v in prints.items()}}, span)
    progress.advance("speakers")
    return _result(tagged, config, tagger, heard.failures, prints)


def _cached_turns(cache: ObservationCache | None, key: tuple[Any, ...]
                  ) -> tuple[list[AsrSegment] | None, dict[str, tuple[float, ...]]]:
    payload = cache.get(*key) if cache is not None else None
    if not isinstance(payload, dict):
        return None, {}
    try:
        return ([segment_from_dict(d) for d in payload["turns"]],
                {str(k): tuple(float(x) for x in v) for k, v in payload["voices"].items()})
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        log.warning("ignoring malformed cached speaker turns (%s)", exc)
        return None, {}


def _result(segments: list[AsrSegment], config: PerceptionConfig, tagger: SpeakerTagger | None,
            failures: dict[str, str], voices: dict[str, tuple[float, ...]] | None = None) -> SpeechResult:
    """Heard segments with the speaker channel's status: the one place it is worded."""
    if "speakers" in failures:
        return SpeechResult(segments, "on", f"off: {failures['speakers']}", failures)
    if tagger is None:
        return SpeechResult(segments, "on", f"off: speaker_backend={config.speaker_backend!r}")
    return SpeechResult(segments, "on", "on", voices=dict(voices or {}))


def _hear(path: Path, info: VideoInfo, config: PerceptionConfig, progress: ProgressReporter,
          recognizer: SpeechRecognizer | None, tagger: SpeakerTagger | None,
          known: list[AsrSegment] | None) -> _Heard:
    """One pass over the track's pieces: ASR on each (unless `known` holds the track's
    segments already) and the voices of each piece's speech when a tagger is given."""
    task = "asr" if recognizer is not None else "speakers"
    total, reported = max(1, math.ceil(info.duration)), 0
    progress.start(task, total)
    segments: list[AsrSegment] = [] if known is None else list(known)
    spans = speech_spans(segments)
    parts: list[VoiceWindows] = []
    failures: dict[str, str] = {}
    for piece in audio_pieces(iter_audio(path, AUDIO_RATE), AUDIO_RATE, config.speech_piece_seconds):
        end = piece.end(AUDIO_RATE)
        if recognizer is not None:
            try:
                found = [_shifted(s, piece.start) for s in recognizer.transcribe(piece.samples, AUDIO_RATE)]
            except BackendUnavailable as exc:
                return _Heard([], None, {"asr": str(exc)})
            segments.extend(found)
            spans = speech_spans(found)
        if tagger is not None and "speakers" not in failures:
            inside = [(a - piece.start, b - piece.start) for a, b in spans if piece.start <= a < end]
            try:
                parts.append(tagger.voices(piece.samples, AUDIO_RATE, inside).shifted(piece.start))
            except BackendUnavailable as exc:
                failures["speakers"] = str(exc)
        step = min(total, math.floor(end)) - reported
        if step > 0:
            progress.advance(task, step)
            reported += step
    if reported < total:
        progress.advance(task, total - reported)
    windows = VoiceWindows.joined(parts) if tagger is not None and "speakers" not in failures else None
    return _Heard(segments, windows, failures)


def _shifted(segment: AsrSegment, seconds: float) -> AsrSegment:
    """A piece's segment on the track's clock."""
    if not seconds:
        return segment
    return replace(segment, start=segment.start + seconds, end=segment.end + seconds,
                   words=tuple(replace(w, start=w.start + seconds, end=w.end + seconds) for w in segment.words))
