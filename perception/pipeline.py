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

import bisect
import hashlib
import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from .asr import SpeechRecognizer, make_speech_recognizer
from .cache import ObservationCache
from .clip_embed import ImageTextEmbedder, make_image_embedder
from .clips import clip_index_at, cut_clips
from .config import PerceptionConfig
from .decode import VideoInfo, iter_frames, probe, to_local_naive
from .errors import BackendUnavailable
from .faces import SMALLEST_FACE, FaceFinder, cluster_faces, make_face_finder
from .keyframes import KeyframeSelector
from .object_tracks import track_objects
from .objects import ObjectDetector, make_object_detector
from .ocr import TIDY_ID, TextReader, make_text_reader, read_frames
from .overlap import BoundedWorker
from .progress import ProgressReporter, as_progress
from .serialize import (
    detection_from_dict,
    detection_to_dict,
    face_from_dict,
    face_to_dict,
    ocr_from_dict,
    ocr_to_dict,
)
from .source_tracking import MODEL_ID as SOURCES_MODEL_ID
from .source_tracking import observe_sources
from .sources import SourceMap
from .speakers import SpeakerTagger, make_speaker_tagger
from .speech import SpeechResult, transcribe_track
from .symbolic import MODEL_ID as SYMBOLIC_MODEL_ID
from .symbolic import observe_symbols
from .symbols import SymbolTrack
from .timing import StageClock
from .types import ClipObservation, ClipSpan, FaceSighting, ObjectDetection, OcrLine, VideoObservation
from .views import VIEWS_ID, view_descriptor
from .vlm import DescriberError, FrameDescriber, make_frame_describer

log = logging.getLogger(__name__)
KEYFRAME_MODEL_ID = "hsv-histogram+strokes-v2"
_UNRESOLVED = object()
# How far decoding may run ahead of the two threads that work on its frames (each queued
# frame holds its pixels: 25 MB at 4K)
FRAME_BACKLOG = 4  # sampled frames waiting for objects and faces
KEYFRAME_BACKLOG = 8  # keyframes waiting to be read


@dataclass(frozen=True)
class _KeyframeWork:
    """What the keyframe thread does with a clip's keyframes, and the cache keys it uses."""

    reader: TextReader | None
    embedder: ImageTextEmbedder | None
    describer: FrameDescriber | None
    fp: dict[str, str]
    clip_id: str | None


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


@dataclass
class _ClipVisual:
    keyframe_times: list[float] | None = None
    ocr: list[OcrLine] | None = None
    embeddings: list[list[float]] | None = None
    frames: list[tuple[float, np.ndarray]] = field(default_factory=list)
    # every sampled frame's time and what the detector found on it (untracked)
    sampled: list[float] | None = None
    detections: list[ObjectDetection] | None = None
    detecting: bool = False  # this pass computes them (not cached)
    faces: list[FaceSighting] | None = None
    facing: bool = False  # this pass looks for faces
    last_face_look: float = float("-inf")
    views: list[tuple[float, ...]] | None = None  # one per keyframe
    reading: list[Future[list[OcrLine]]] | None = None  # each keyframe's OCR, when this pass reads
    description: str | None = None  # the VLM's; "" = no keyframe to describe


class Perceiver:
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
    ):
        self.config = config or PerceptionConfig()
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
                visual = {s.index: _ClipVisual(keyframe_times=[]) for s in spans}
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
        with self.clock("symbolic"):
            symbols = self._whole_video(
                video_id, info, "symbolic", SYMBOLIC_MODEL_ID, SymbolTrack.from_dict,
                lambda: observe_symbols(path, info, self.config, None if "ocr" in self._off else self.reader()))
        with self.clock("sources"):
            sources = self._whole_video(video_id, info, "sources", SOURCES_MODEL_ID, SourceMap.from_dict,
                                        lambda: observe_sources(path, info, self.config))
        channels["symbolic"] = "on" if symbols is not None else _declined(
            "symbolic", self.config.symbolic, "not flat-colour synthetic or game video")
        channels["sources"] = "on" if sources is not None else _declined(
            "sources", self.config.sources, "not a composed video (split screen, cuts with captions)")
        if not info.has_video:
            channels["symbolic"] = channels["sources"] = "off: an audio recording"
        return VideoObservation(
            video_id=video_id, path=str(path), duration=info.duration, wall_start=wall,
            has_audio=info.has_audio, clips=clips, channels=channels, symbols=symbols, sources=sources,
            clip_model=self._clip_model_id() if channels["clip"].startswith("on") else None,
        )

    def _tracked(self, visual: dict[int, _ClipVisual]) -> list[ObjectDetection]:
        """Every clip's detections followed across the whole video (tracking is cheap and
        not cached: the per-clip detections are)."""
        times = [t for v in visual.values() for t in v.sampled or []]
        found = [d for v in visual.values() for d in v.detections or []]
        return track_objects(found, times, self.config.sample_fps) if found else []

    def _whole_video(self, video_id: str, info: VideoInfo, stage: str, model_id: str,
                     convert: Any, compute: Any) -> Any | None:
        """A whole-video stage, cached under unit "video"; an empty payload caches "not
        applicable" (a natural video the symbolic stage declined)."""
        if getattr(self.config, stage) == "off" or not info.has_video:
            return None
        fp = self.config.fingerprint(stage)
        cached = self._get(video_id, "video", stage, model_id, fp)
        if cached is not None:
            return _parse(cached, convert) if cached else None
        result = compute()
        self._put(video_id, "video", stage, model_id, fp, result.to_dict() if result is not None else {},
                  (0.0, info.duration))
        return result

    @staticmethod
    def _clock(path: Path, info: VideoInfo, wall_start: datetime | None) -> tuple[datetime, str]:
        if wall_start is not None:
            return to_local_naive(wall_start), "argument"
        if info.creation_time is not None:
            return info.creation_time, "container creation_time"
        return datetime.fromtimestamp(path.stat().st_mtime), "file mtime"

    def _get(self, video_id: str, unit: int | str, stage: str, model_id: str, fp: str) -> Any | None:
        return self.cache.get(video_id, unit, stage, model_id, fp) if self.cache is not None else None

    def _put(self, video_id: str, unit: int | str, stage: str, model_id: str, fp: str,
             payload: Any, span: tuple[float, float]) -> None:
        if self.cache is not None:
            self.cache.put(video_id, unit, stage, model_id, fp, payload, span)

    # ---- pictures: keyframes, OCR, CLIP -----------------------------------------------
    def _visual(self, path: Path, info: VideoInfo, spans: list[ClipSpan],
                channels: dict[str, str]) -> dict[int, _ClipVisual]:
        cfg = self.config
        reader = self.reader() if "ocr" not in self._off else None
        detector = self.detector() if "objects" not in self._off else None
        finder = self.faces() if "faces" not in self._off else None
        clip_id = self._clip_model_id()
        describer = self.describer()
        # what was read or embedded on keyframes is stale when the keyframe choice changed
        fp = {stage: cfg.fingerprint(stage) + (f"+{KEYFRAME_MODEL_ID}" if stage != "keyframes" else "")
              for stage in ("keyframes", "ocr", "clip", "faces", "vlm")}
        fp["ocr"] += f"+{TIDY_ID}"
        out: dict[int, _ClipVisual] = {}
        for s in spans:
            vid, i = s.video_id, s.index
            v = _ClipVisual(keyframe_times=_parse(
                self._get(vid, i, "keyframes", KEYFRAME_MODEL_ID, fp["keyframes"]),
                lambda p: [float(t) for t in p]))
            if reader is not None:
                v.ocr = _parse(self._get(vid, i, "ocr", reader.model_id, fp["ocr"]),
                               lambda p: [ocr_from_dict(d) for d in p])
            if clip_id is not None:
                v.embeddings = _parse(self._get(vid, i, "clip", clip_id, fp["clip"]),
                                      lambda p: [[float(x) for x in row] for row in p])
            if detector is not None:
                v.sampled, v.detections = _parse(
                    self._get(vid, i, "objects", detector.model_id, cfg.fingerprint("objects")),
                    lambda p: ([float(t) for t in p["times"]], [detection_from_dict(d) for d in p["detections"]]),
                ) or (None, None)
            if finder is not None:
                v.faces = _parse(self._get(vid, i, "faces", finder.model_id, fp["faces"]),
                                 lambda p: [face_from_dict(f) for f in p])
            v.views = _parse(self._get(vid, i, "views", VIEWS_ID, fp["keyframes"]),
                             lambda p: [tuple(float(x) for x in row) for row in p])
            if describer is not None:
                v.description = _parse(self._get(vid, i, "vlm", describer.model_id, fp["vlm"]),
                                       lambda p: str(p["text"]))
            out[i] = v
        embedder = None
        if clip_id is not None and any(v.embeddings is None for v in out.values()):
            embedder = self.embedder()  # loads the model: only when some clip needs it
            if embedder is None:
                clip_id = None
        todo = [s for s in spans if out[s.index].keyframe_times is None or out[s.index].views is None
                or (reader is not None and out[s.index].ocr is None)
                or (clip_id is not None and out[s.index].embeddings is None)
                or (detector is not None and out[s.index].detections is None)
                or (finder is not None and out[s.index].faces is None)
                or (describer is not None and out[s.index].description is None)]
        if todo:
            self._decode_and_process(path, todo, out, reader, embedder, detector, finder, describer, fp, clip_id)
        channels["keyframes"] = "on"
        if reader is None:
            channels["ocr"] = self._off.get("ocr", f"off: ocr_backend={cfg.ocr_backend!r}")
        else:
            channels["ocr"] = self._off.get("ocr", "on")
        channels["clip"] = "on" if clip_id else (self._clip_status or clip_off_reason(cfg))
        channels["objects"] = self._off.get("objects", "on" if detector is not None else "off: detector_backend='none'")
        channels["faces"] = self._off.get("faces", "on" if finder is not None else "off: face_backend='none'")
        channels["vlm"] = self._vlm_failure or ("on" if describer is not None else self._vlm_status)
        return out

    def _decode_and_process(self, path: Path, todo: list[ClipSpan], out: dict[int, _ClipVisual],
                            reader: TextReader | None, embedder: ImageTextEmbedder | None,
                            detector: ObjectDetector | None, finder: FaceFinder | None,
                            describer: FrameDescriber | None, fp: dict[str, str], clip_id: str | None) -> None:
        """One decoding pass over the clips in `todo`, keyframes chosen afresh per clip
        (so every clip starts with a keyframe and can be cached on its own). This thread
        decodes and picks keyframes; objects and faces are found in a second one, and
        keyframes read, embedded and described in a third (each a `BoundedWorker`), while
        the next frames decode."""
        cfg = self.config
        self.progress.start("frames", len(todo))
        if reader is not None:
            self.progress.start("ocr", len(todo))
        if embedder is not None:
            self.progress.start("clip", len(todo))
        if detector is not None:
            self.progress.start("objects", len(todo))
        if finder is not None:
            self.progress.start("faces", len(todo))
        if describer is not None:
            self.progress.start("vlm", len(todo))
        todo = sorted(todo, key=lambda s: s.start)
        starts = [s.start for s in todo]
        finished: set[int] = set()
        current: ClipSpan | None = None
        selector = KeyframeSelector()
        frames = iter_frames(path, cfg.sample_fps, start=todo[0].start, end=todo[-1].end)
        keyframe_work = _KeyframeWork(reader, embedder, describer, fp, clip_id)
        with (BoundedWorker(FRAME_BACKLOG, "memlens-frames") as looking,
              BoundedWorker(KEYFRAME_BACKLOG, "memlens-keyframes") as reading):
            for t, frame in self.clock.timed("decode", frames):
                pos = bisect.bisect_right(starts, t) - 1
                if pos < 0 or t >= todo[pos].end:
                    continue  # a frame inside a clip that is already cached
                span = todo[pos]
                if current is None or span.index != current.index:
                    if current is not None:
                        self._finish_clip(current, out[current.index], detector, finder, looking, reading,
                                          keyframe_work)
                        finished.add(current.index)
                    current = span
                    v = out[span.index]
                    if detector is not None and v.detections is None and "objects" not in self._off:
                        v.sampled, v.detections, v.detecting = [], [], True
                    if finder is not None and v.faces is None and "faces" not in self._off:
                        v.faces, v.facing = [], True
                    if reader is not None and v.ocr is None and "ocr" not in self._off:
                        v.reading = []
                    selector = KeyframeSelector(cfg.keyframe_min_interval, cfg.shot_change_threshold,
                                                cfg.keyframe_dedup_threshold, text_threshold=cfg.keyframe_text_threshold,
                                                text_interval=cfg.keyframe_text_interval)
                with self.clock("keyframes"):
                    keyframe = selector.offer(t, frame)
                if keyframe:  # v is this clip's: set when the clip began
                    v.frames.append((t, frame))
                    if v.reading is not None:
                        v.reading.append(reading.submit(self._read, reader, t, frame))
                if detector is not None or finder is not None:
                    looking.submit(self._look, detector, finder, v, t, frame, keyframe)
            if current is not None:
                self._finish_clip(current, out[current.index], detector, finder, looking, reading, keyframe_work)
                finished.add(current.index)
            for span in todo:  # clips no sampled frame fell into (a tail shorter than a step)
                if span.index not in finished:
                    self._finish_clip(span, out[span.index], detector, finder, looking, reading, keyframe_work)
            looking.drain()
            reading.drain()

    def _read(self, reader: TextReader, t: float, frame: np.ndarray) -> list[OcrLine]:
        """The text on one keyframe (in the keyframe thread); none once the reader proved
        unavailable."""
        if "ocr" in self._off:
            return []
        try:
            with self.clock("ocr"):
                return read_frames(reader, [(t, frame)])
        except BackendUnavailable as exc:
            self._switch_off("ocr", exc)
            return []

    def _look(self, detector: ObjectDetector | None, finder: FaceFinder | None, v: _ClipVisual, t: float,
              frame: np.ndarray, keyframe: bool) -> None:
        """Objects, then faces where a person is, on one sampled frame (in the frame thread)."""
        self._detect(detector, v, t, frame)
        self._find_faces(finder, v, t, frame, keyframe)

    def _detect(self, detector: ObjectDetector | None, v: _ClipVisual, t: float, frame: np.ndarray) -> None:
        """Objects on one sampled frame, when this clip's detections are being computed."""
        if detector is None or not v.detecting or "objects" in self._off:
            return
        try:
            with self.clock("objects"):
                found = detector.detect([(t, frame)])
        except BackendUnavailable as exc:
            self._switch_off("objects", exc)
            v.sampled, v.detections, v.detecting = None, None, False
            return
        assert v.sampled is not None and v.detections is not None
        v.sampled.append(t)
        v.detections.extend(found)

    def _find_faces(self, finder: FaceFinder | None, v: _ClipVisual, t: float, frame: np.ndarray,
                    keyframe: bool) -> None:
        """Faces on every keyframe (a lower third appearing is one) and at least every
        `face_interval` seconds between, so people are seen while they speak; only where
        the object detector, when on, sees a person, and within those people's boxes."""
        if finder is None or not v.facing or "faces" in self._off:
            return
        if not keyframe and t - v.last_face_look < self.config.face_interval:
            return
        people = None if v.detections is None else [
            d.box for d in v.detections
            if d.label == "person" and d.frame_time == t and _could_show_a_face(d, self.config.face_max_width)]
        if people == []:
            return  # nobody near enough to show a face: none to look for (a third of ingest time on empty views)
        try:
            with self.clock("faces"):
                found = finder.find(frame, t, people)
        except BackendUnavailable as exc:
            self._switch_off("faces", exc)
            v.faces, v.facing = None, False
            return
        assert v.faces is not None
        v.faces.extend(found)
        v.last_face_look = t

    def _finish_clip(self, span: ClipSpan, v: _ClipVisual, detector: ObjectDetector | None,
                     finder: FaceFinder | None, looking: BoundedWorker, reading: BoundedWorker,
                     keyframe_work: _KeyframeWork) -> None:
        """A clip's last frame was decoded: its keyframe choice is cached, and what is left
        to do with its frames and keyframes is queued behind their looking and reading."""
        v.keyframe_times = [t for t, _ in v.frames]
        self._put(span.video_id, span.index, "keyframes", KEYFRAME_MODEL_ID, keyframe_work.fp["keyframes"],
                  v.keyframe_times, (span.start, span.end))
        self.progress.advance("frames")
        looking.submit(self._finish_sightings, span, v, detector, finder, keyframe_work.fp["faces"])
        frames, v.frames = v.frames, []  # keyframe pixels are not kept past their clip's work
        reading.submit(self._finish_keyframes, span, v, frames, keyframe_work)

    def _finish_sightings(self, span: ClipSpan, v: _ClipVisual, detector: ObjectDetector | None,
                          finder: FaceFinder | None, faces_fp: str) -> None:
        """A clip's objects and faces cached (in the frame thread, after its frames)."""
        vid, key_span = span.video_id, (span.start, span.end)
        if detector is not None and "objects" not in self._off:
            if v.detecting and v.detections is not None and v.sampled is not None:
                v.detecting = False
                payload = {"times": v.sampled, "detections": [detection_to_dict(d) for d in v.detections]}
                self._put(vid, span.index, "objects", detector.model_id, self.config.fingerprint("objects"),
                          payload, key_span)
            self.progress.advance("objects")
        if finder is not None and "faces" not in self._off:
            if v.facing and v.faces is not None:
                v.facing = False
                self._put(vid, span.index, "faces", finder.model_id, faces_fp, [face_to_dict(f) for f in v.faces],
                          key_span)
            self.progress.advance("faces")

    def _finish_keyframes(self, span: ClipSpan, v: _ClipVisual, frames: list[tuple[float, np.ndarray]],
                          work: _KeyframeWork) -> None:
        """A clip's keyframes viewed, read, embedded and described, and cached (in the
        keyframe thread, after their reading)."""
        vid, key_span = span.video_id, (span.start, span.end)
        if v.views is None:
            with self.clock("views"):
                v.views = [view_descriptor(frame) for _, frame in frames]
            self._put(vid, span.index, "views", VIEWS_ID, work.fp["keyframes"], [list(x) for x in v.views], key_span)
        if work.reader is not None:
            reading, v.reading = v.reading, None
            if reading is not None and "ocr" not in self._off:
                v.ocr = [line for read in reading for line in read.result()]
                self._put(vid, span.index, "ocr", work.reader.model_id, work.fp["ocr"],
                          [ocr_to_dict(o) for o in v.ocr], key_span)
            elif v.ocr is None:  # the reader proved unavailable: nothing read, nothing cached
                v.ocr = []
            self.progress.advance("ocr")
        if work.embedder is not None and work.clip_id is not None:
            if v.embeddings is None:
                images = [f for _, f in frames]
                with self.clock("clip"):
                    v.embeddings = work.embedder.encode_images(images).astype(float).tolist() if images else []
                self._put(vid, span.index, "clip", work.clip_id, work.fp["clip"], v.embeddings, key_span)
            self.progress.advance("clip")
        if work.describer is not None:
            self._describe(span, v, frames, work.describer, work.fp["vlm"])

    def _describe(self, span: ClipSpan, v: _ClipVisual, frames: list[tuple[float, np.ndarray]],
                  describer: FrameDescriber, fp: str) -> None:
        """The VLM's description of this clip's keyframes, cached; once the endpoint fails,
        the rest of the run asks it nothing (each try could cost a timeout) and caches nothing
        (clips described before the failure keep their descriptions)."""
        if v.description is None and self._vlm_failure is None:
            try:
                with self.clock("vlm"):
                    v.description = describer.describe([f for _, f in frames]) if frames else ""
            except DescriberError as exc:
                log.warning("vlm channel off for this run: %s", exc)
                self._vlm_failure = f"off: {exc}"
            else:
                self._put(span.video_id, span.index, "vlm", describer.model_id, fp, {"text": v.description},
                          (span.start, span.end))
        self.progress.advance("vlm")

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


def _could_show_a_face(person: ObjectDetection, max_width: int) -> bool:
    """Whether a person's box is tall enough to hold a face the finder can see: at least
    three smallest findable faces high (a head and shoulders), at the finder's scale."""
    scale = min(1.0, max_width / person.frame_size[0]) if person.frame_size[0] else 1.0
    return (person.box[3] - person.box[1]) * scale >= 3 * SMALLEST_FACE


def _declined(stage: str, mode: str, why: str) -> str:
    return f"off: {stage}={mode!r}" if mode == "off" else f"off: {why} ({stage}={mode!r})"


def clip_off_reason(config: PerceptionConfig) -> str:
    if not config.clip_model:
        return "off: no weights configured (set clip_model/clip_pretrained)"
    return "off"


def _parse(payload: Any, convert: Any) -> Any | None:
    """A cached payload converted, or None (recompute) when it does not convert."""
    if payload is None:
        return None
    try:
        return convert(payload)
    except (KeyError, TypeError, ValueError) as exc:
        log.warning("ignoring malformed cached payload (%s)", exc)
        return None
