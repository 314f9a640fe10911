"""The perception pipeline: one video file in, one VideoObservation out.

Order of work, cheapest failure first: probe (bad files fail before any model loads),
identity (sha256 of the bytes, so a renamed file is the same video), clock, clips; then
one decoding pass that picks keyframes per clip and reads (OCR), embeds (CLIP) and, when an
endpoint is configured, describes (a VLM) them while their pixels are in hand,
detects objects on every sampled frame and looks for faces where a person is (reading, and
detecting with faces, each in a thread of its own beside the decoding), and one ASR
pass over the whole audio track (utterances cross clip boundaries) followed by speaker
tagging. Objects are then tracked and faces grouped across the whole video (cheap, not
cached: the per-clip detections are). An audio recording skips the pictures. Every stage's output is cached per (clip or "audio", stage, model,
config), so a second run on the same file decodes and loads nothing.

Backends are injected or built from the config on first need; a backend that turns out
to be unavailable switches its channel off with a reason (logged once) instead of
failing the ingest; a VLM endpoint that fails is off for that run only (it may be back).
"""
from __future__ import annotations

import hashlib
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any

from .asr import SpeechRecognizer, make_speech_recognizer
from .cache import ObservationCache
from .clip_embed import ImageTextEmbedder, make_image_embedder
from .clips import clip_index_at, cut_clips
from .config import PerceptionConfig
from .decode import VideoInfo, probe, to_local_naive
from .errors import BackendUnavailable
from .faces import FaceFinder, cluster_faces, make_face_finder
from .object_tracks import track_objects
from .objects import ObjectDetector, make_object_detector
from .ocr import TextReader, make_text_reader
from .pictures import ClipVisual, PicturePass, parse_cached
from .progress import ProgressReporter, as_progress
from .speakers import SpeakerTagger, make_speaker_tagger
from .speech import SpeechResult, transcribe_track
from .stages import Track, VideoStage
from .timing import StageClock
from .types import ClipObservation, ObjectDetection, VideoObservation
from .vlm import FrameDescriber, make_frame_describer

log = logging.getLogger(__name__)
KEYFRAME_MODEL_ID = "hsv-histogram+strokes-v2"
_UNRESOLVED = object()
# How far decoding may run ahead of the two threads that work on its frames (each queued
# frame holds its pixels: 25 MB at 4K)
FRAME_BACKLOG = 4  # sampled frames waiting for objects and faces
KEYFRAME_BACKLOG = 8  # keyframes waiting to be read


_IMPORTING = threading.Lock()


def import_shared_libraries() -> None:
    """Imports, in the calling thread, the scipy-based libraries that the speech thread
    (scikit-learn's clustering, librosa's resampling) and the picture threads (supervision's
    NMS and tracking) would otherwise import on first use, at the same time. CPython's
    import-deadlock avoidance can hand one of two threads importing one package a
    half-initialised module ("cannot import name 'PytestTester' from partially initialized
    module 'scipy._lib._testutils'", seen in CI), so the first perceive imports them here,
    one perceive at a time."""
    with _IMPORTING:  # once imported, each is a lookup
        import scipy.interpolate  # noqa: F401
        import scipy.signal  # noqa: F401
        import sklearn.cluster  # noqa: F401
        import supervision  # noqa: F401


def file_video_id(path: str | Path, chunk: int = 1 << 22) -> str:
    """First 16 hex chars of the file's sha256: the same bytes are the same video."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(chunk):
            digest.update(block)
    return digest.hexdigest()[:16]


class Perceiver(PicturePass):
    """Runs perception with injected or config-built backends and an optional cache."""

    def __init__(
        self,
        config: PerceptionConfig | None = None,
        cache: ObservationCache | None = None,
        recognizer: SpeechRecognizer | None = None,
        reader: TextReader | None = None,
        tagger: SpeakerTagger | None = None,
        embedder: ImageTextEmbedder | None = None,
        detector: ObjectDetector | None = None,
        faces: FaceFinder | None = None,
        describer: FrameDescriber | None = None,
        progress: Any = None,
        stages: tuple[VideoStage, ...] = (),
    ):
        self.config = config or PerceptionConfig()
        self.stages = tuple(stages)  # whole-video stages of the skills turned on (perception.stages)
        if cache is None and self.config.cache_dir is not None:
            cache = ObservationCache(self.config.cache_dir)
        self.cache = cache
        self.progress: ProgressReporter = as_progress(progress)
        self._recognizer: Any = recognizer if recognizer is not None else _UNRESOLVED
        self._reader: Any = reader if reader is not None else _UNRESOLVED
        self._tagger: Any = tagger if tagger is not None else _UNRESOLVED
        self._embedder: Any = embedder if embedder is not None else _UNRESOLVED
        self._detector: Any = detector if detector is not None else _UNRESOLVED
        self._faces: Any = faces if faces is not None else _UNRESOLVED
        self._clip_status = f"on: {embedder.model_id}" if embedder is not None else ""
        self._describer: Any = describer if describer is not None else _UNRESOLVED
        self._vlm_status = "on"
        self._vlm_failure: str | None = None  # "off: why", when the endpoint failed this run
        self._off: dict[str, str] = {}  # channel -> reason, once a backend proved unavailable
        self._run_lock = threading.Lock()  # one video at a time: backends are not re-entrant
        self.clock = StageClock()  # the last video's seconds per stage

    # ---- backends, built on first need -------------------------------------------------
    def recognizer(self) -> SpeechRecognizer | None:
        if self._recognizer is _UNRESOLVED:
            self._recognizer = make_speech_recognizer(self.config)
        return self._recognizer

    def reader(self) -> TextReader | None:
        if self._reader is _UNRESOLVED:
            self._reader = make_text_reader(self.config)
        return self._reader

    def tagger(self) -> SpeakerTagger | None:
        if self._tagger is _UNRESOLVED:
            self._tagger = make_speaker_tagger(self.config)
        return self._tagger

    def detector(self) -> ObjectDetector | None:
        if self._detector is _UNRESOLVED:
            self._detector = make_object_detector(self.config)
        return self._detector

    def faces(self) -> FaceFinder | None:
        if self._faces is _UNRESOLVED:
            self._faces = make_face_finder(self.config)
        return self._faces

    def describer(self) -> FrameDescriber | None:
        """The VLM describer (contacts nothing), or None with `vlm_status` saying why."""
        if self._describer is _UNRESOLVED:
            self._describer, self._vlm_status = make_frame_describer(self.config)
        return self._describer

    @property
    def vlm_status(self) -> str:
        """"on" or "off: why" (from the config; an endpoint failing is reported per run)."""
        self.describer()
        return self._vlm_status

    @property
    def clip_model_id(self) -> str | None:
        """The CLIP model's id, known without loading it; None when the channel is off."""
        return self._clip_model_id()

    def _clip_model_id(self) -> str | None:
        """The CLIP cache key part, known without loading anything; None = channel off."""
        if self._embedder is None:
            return None
        if self._embedder is not _UNRESOLVED:
            return self._embedder.model_id
        if not self.config.clip_model:
            return None
        return f"open_clip:{self.config.clip_model}:{self.config.clip_pretrained}"

    @property
    def embedder_resolved(self) -> bool:
        """Whether the CLIP embedder was injected or already built (and so has a status)."""
        return self._embedder is not _UNRESOLVED

    @property
    def clip_status(self) -> str:
        """"on: ..." / "off: why" once the embedder is resolved, else ""."""
        return self._clip_status

    def embedder(self) -> ImageTextEmbedder | None:
        """Builds (and loads) the configured CLIP model once; logs why not, once."""
        if self._embedder is _UNRESOLVED:
            self._embedder, self._clip_status = make_image_embedder(self.config)
            if self._embedder is None:
                log.warning("CLIP channel %s", self._clip_status)
        return self._embedder

    def _switch_off(self, channel: str, reason: BackendUnavailable | str) -> None:
        """A backend proved unavailable: its channel stays off for this Perceiver."""
        if channel not in self._off:
            log.warning("%s channel off: %s", channel, reason)
        self._off[channel] = f"off: {reason}"

    # ---- the pipeline -----------------------------------------------------------------
    def perceive(self, path: str | Path, wall_start: datetime | None = None,
                 progress: Any = None, cache: ObservationCache | None = None) -> VideoObservation:
        """Observe one video file. `wall_start` (the wearer's clock at t=0) overrides the
        container's creation_time, which overrides the file's mtime. `progress` reports
        this call only (else the reporter given at construction); so does `cache` (one
        tenant's cache, else the one given at construction)."""
        with self._run_lock:
            defaults = self.progress, self.cache
            self.progress = as_progress(progress) if progress is not None else self.progress
            self.cache = cache if cache is not None else self.cache
            self.clock = StageClock()
            try:
                video = self._perceive(path, wall_start)
                video.stage_seconds = self.clock.report()
                return video
            finally:
                self.progress, self.cache = defaults

    def _perceive(self, path: str | Path, wall_start: datetime | None) -> VideoObservation:
        path = Path(path).expanduser().resolve()
        info = probe(path)
        self._vlm_failure = None  # a remote endpoint gets a fresh chance every run
        video_id = file_video_id(path)
        wall, clock = self._clock(path, info, wall_start)
        spans = cut_clips(video_id, info.duration, self.config.clip_seconds, wall)
        channels = {"clock": clock}
        # the sound track is heard while the pictures are looked at: much of either is one
        # thread (decoding, glue, face finding), so on two cores they overlap well
        import_shared_libraries()
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="memlens-speech") as pool:
            hearing = pool.submit(self._hear, path, info, video_id)
            if info.has_video:
                visual = self._visual(path, info, spans, channels)
            else:  # an audio recording: nothing to see
                visual = {s.index: ClipVisual(keyframe_times=[]) for s in spans}
                channels.update({c: "off: an audio recording"
                                 for c in ("keyframes", "ocr", "clip", "objects", "faces", "vlm")})
            speech = hearing.result()
        for channel, reason in speech.failures.items():
            self._switch_off(channel, reason)
        channels["asr"] = self._off.get("asr", speech.asr_status)
        channels["speakers"] = self._off.get("speakers", speech.speaker_status)
        segments = speech.segments

        clips = [
            ClipObservation(span=s, keyframe_times=list(visual[s.index].keyframe_times or []))
            for s in spans
        ]
        for seg in segments:
            idx = clip_index_at(spans, (seg.start + seg.end) / 2)
            if idx is not None:
                clips[idx].asr.append(seg)
        for s in spans:
            for line in visual[s.index].ocr or []:
                idx = clip_index_at(spans, line.frame_time)
                if idx is not None:
                    clips[idx].ocr.append(line)
            if channels["clip"].startswith("on"):
                clips[s.index].clip_embeddings = visual[s.index].embeddings
            clips[s.index].views = list(visual[s.index].views or [])
            clips[s.index].description = visual[s.index].description or None
        with self.clock("tracking"):
            tracked = self._tracked(visual)
        for thing in tracked:
            idx = clip_index_at(spans, thing.frame_time)
            if idx is not None:
                clips[idx].objects.append(thing)
        for face in cluster_faces([f for v in visual.values() for f in v.faces or []], self.config.face_distance):
            idx = clip_index_at(spans, face.frame_time)
            if idx is not None:
                clips[idx].faces.append(face)
        tracks: dict[str, Track] = {}
        for stage in self.stages:
            with self.clock(stage.name):
                track = self._whole_video(video_id, info, stage, path)
            if track is not None:
                tracks[stage.track] = track
            channels[stage.name] = "on" if track is not None else (
                "off: an audio recording" if not info.has_video else _declined(stage.name, stage.mode(self.config),
                                                                             stage.declined))
        return VideoObservation(
            video_id=video_id, path=str(path), duration=info.duration, wall_start=wall,
            has_audio=info.has_audio, clips=clips, still=info.still, channels=channels, tracks=tracks,
            voices=speech.voices,
            clip_model=self._clip_model_id() if channels["clip"].startswith("on") else None,
        )

    def _tracked(self, visual: dict[int, ClipVisual]) -> list[ObjectDetection]:
        """Every clip's detections followed across the whole video (tracking is cheap and
        not cached: the per-clip detections are)."""
        times = [t for v in visual.values() for t in v.sampled or []]
        found = [d for v in visual.values() for d in v.detections or []]
        return track_objects(found, times, self.config.sample_fps) if found else []

    def _whole_video(self, video_id: str, info: VideoInfo, stage: VideoStage, path: Path) -> Track | None:
        """A skill's whole-video stage, cached under unit "video"; an empty payload caches
        "not applicable" (a natural video the symbolic stage declined)."""
        if stage.mode(self.config) == "off" or not info.has_video:
            return None
        fp = self.config.fingerprint(stage.name)
        cached = self._get(video_id, "video", stage.name, stage.model_id, fp)
        if cached is not None:
            return parse_cached(cached, stage.parse) if cached else None
        result = stage.observe(path, info, self.config, lambda: None if "ocr" in self._off else self.reader())
        self._put(video_id, "video", stage.name, stage.model_id, fp, result.to_dict() if result is not None else {},
                  (0.0, info.duration))
        return result

    @staticmethod
    def _clock(path: Path, info: VideoInfo, wall_start: datetime | None) -> tuple[datetime, str]:
        if wall_start is not None:
            return to_local_naive(wall_start), "argument"
        if info.creation_time is not None:
            return info.creation_time, "EXIF time" if info.still else "container creation_time"
        return datetime.fromtimestamp(path.stat().st_mtime), "file mtime"

    def _get(self, video_id: str, unit: int | str, stage: str, model_id: str, fp: str) -> Any | None:
        return self.cache.get(video_id, unit, stage, model_id, fp) if self.cache is not None else None

    def _put(self, video_id: str, unit: int | str, stage: str, model_id: str, fp: str,
             payload: Any, span: tuple[float, float]) -> None:
        if self.cache is not None:
            self.cache.put(video_id, unit, stage, model_id, fp, payload, span)

    def _hear(self, path: Path, info: VideoInfo, video_id: str) -> SpeechResult:
        with self.clock("speech"):
            return transcribe_track(
                path, info, video_id, self.config, self.cache, self.progress,
                None if "asr" in self._off else self.recognizer(),
                None if "speakers" in self._off else self.tagger(),
            )

    # ---- doctor -----------------------------------------------------------------------
    def channel_status(self, load: bool = False) -> dict[str, str]:
        """channel -> "on: what" or "off: why", for `memlens doctor` (see doctor.py)."""
        from .doctor import channel_status

        return channel_status(self, load)


def _declined(stage: str, mode: str, why: str) -> str:
    return f"off: {stage}={mode!r}" if mode == "off" else f"off: {why} ({stage}={mode!r})"
