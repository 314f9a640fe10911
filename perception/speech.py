"""The sound half of the pipeline: ASR over the whole audio track, then speaker turns.

Whisper is run once over the whole track rather than per clip because utterances cross
clip boundaries; segments are assigned to clips afterwards by their midpoint. Both stages
are cached under the unit "audio", speaker turns separately from the transcript so that
changing the speaker threshold does not re-run ASR.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .asr import SpeechRecognizer
from .cache import ObservationCache
from .config import PerceptionConfig
from .decode import VideoInfo, read_audio
from .errors import BackendUnavailable
from .progress import ProgressReporter
from .serialize import segment_from_dict, segment_to_dict
from .speakers import SpeakerTagger
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


def _cached_segments(cache: ObservationCache | None, key: tuple[Any, ...]) -> list[AsrSegment] | None:
    payload = cache.get(*key) if cache is not None else None
    if payload is None:
        return None
    try:
        return [segment_from_dict(d) for d in payload]
    except (KeyError, TypeError, ValueError) as exc:
        log.warning("ignoring malformed cached segments (%s)", exc)
        return None


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
    """Segments with words and speaker labels; the audio is decoded only on a cache miss."""
    if not info.has_audio:
        return SpeechResult([], "off: no audio stream", "off: no audio stream")
    if recognizer is None:
        return SpeechResult([], f"off: asr_backend={config.asr_backend!r}", "off: no ASR")
    span = (0.0, info.duration)
    audio = None
    asr_key = (video_id, AUDIO_UNIT, "asr", recognizer.model_id, config.fingerprint("asr"))
    segments = _cached_segments(cache, asr_key)
    if segments is None:
        progress.start("asr", 1)
        audio = read_audio(path, AUDIO_RATE)
        try:
            segments = recognizer.transcribe(audio, AUDIO_RATE)
        except BackendUnavailable as exc:
            return SpeechResult([], f"off: {exc}", "off: no ASR", {"asr": str(exc)})
        if cache is not None:
            cache.put(*asr_key, [segment_to_dict(s) for s in segments], span)
        progress.advance("asr")

    segments = split_at_pauses(segments, config.turn_gap)
    if tagger is None:
        return SpeechResult(segments, "on", f"off: speaker_backend={config.speaker_backend!r}")
    tag_key = (video_id, AUDIO_UNIT, "speakers", f"{tagger.model_id}+{recognizer.model_id}",
               config.fingerprint("speakers"))
    tagged = _cached_segments(cache, tag_key)
    if tagged is None:
        progress.start("speakers", 1)
        if audio is None:
            audio = read_audio(path, AUDIO_RATE)
        try:
            tagged = tagger.tag(audio, AUDIO_RATE, segments)
        except BackendUnavailable as exc:
            return SpeechResult(segments, "on", f"off: {exc}", {"speakers": str(exc)})
        if cache is not None:
            cache.put(*tag_key, [segment_to_dict(s) for s in tagged], span)
        progress.advance("speakers")
    return SpeechResult(tagged, "on", "on")
