"""The picture half of perception: one decoding pass over the clips that need it, keyframes
picked per clip and read (OCR), embedded (CLIP) and described (a VLM) while their pixels are
in hand, objects detected on every sampled frame and faces looked for where a person is,
each worker in a thread of its own beside the decoding; every clip's output cached on its
own. `PicturePass` is the base of `Perceiver` (perception/pipeline.py), which owns the
backends, the cache and the whole-video story this pass is one step of."""
from __future__ import annotations

import bisect
import logging
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .cache import ObservationCache
from .clip_embed import ImageTextEmbedder
from .config import PerceptionConfig
from .decode import VideoInfo, iter_frames
from .doctor import clip_off_reason
from .errors import BackendUnavailable
from .faces import SMALLEST_FACE, FaceFinder
from .keyframes import KeyframeSelector
from .objects import ObjectDetector
from .ocr import TIDY_ID, TextReader, read_frames
from .overlap import BoundedWorker
from .progress import ProgressReporter
from .serialize import (
    detection_from_dict,
    detection_to_dict,
    face_from_dict,
    face_to_dict,
    ocr_from_dict,
    ocr_to_dict,
)
from .timing import StageClock
from .types import ClipSpan, FaceSighting, ObjectDetection, OcrLine
from .views import VIEWS_ID, view_descriptor
from .vlm import DescriberError, FrameDescriber

log = logging.getLogger(__name__)
KEYFRAME_MODEL_ID = "hsv-histogram+strokes-v2"
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


@dataclass
class ClipVisual:
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


def _could_show_a_face(person: ObjectDetection, max_width: int) -> bool:
    """Whether a person's box is tall enough to hold a face the finder can see: at least
    three smallest findable faces high (a head and shoulders), at the finder's scale."""
    scale = min(1.0, max_width / person.frame_size[0]) if person.frame_size[0] else 1.0
    return (person.box[3] - person.box[1]) * scale >= 3 * SMALLEST_FACE


def parse_cached(payload: Any, convert: Any) -> Any | None:
    """A cached payload converted, or None (recompute) when it does not convert."""
    if payload is None:
        return None
    try:
        return convert(payload)
    except (KeyError, TypeError, ValueError) as exc:
        log.warning("ignoring malformed cached payload (%s)", exc)
        return None


class PicturePass:
    """Keyframes, OCR, CLIP, objects, faces and descriptions of a video's clips. What it
    uses of the perceiver is declared here; `Perceiver` provides it."""

    config: PerceptionConfig
    cache: ObservationCache | None
    progress: ProgressReporter
    clock: StageClock
    _off: dict[str, str]
    _clip_status: str
    _vlm_status: str
    _vlm_failure: str | None

    def _visual(self, path: Path, info: VideoInfo, spans: list[ClipSpan],
                channels: dict[str, str]) -> dict[int, ClipVisual]:
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
        out: dict[int, ClipVisual] = {}
        for s in spans:
            vid, i = s.video_id, s.index
            v = ClipVisual(keyframe_times=parse_cached(
                self._get(vid, i, "keyframes", KEYFRAME_MODEL_ID, fp["keyframes"]),
                lambda p: [float(t) for t in p]))
            if reader is not None:
                v.ocr = parse_cached(self._get(vid, i, "ocr", reader.model_id, fp["ocr"]),
                               lambda p: [ocr_from_dict(d) for d in p])
            if clip_id is not None:
                v.embeddings = parse_cached(self._get(vid, i, "clip", clip_id, fp["clip"]),
                                      lambda p: [[float(x) for x in row] for row in p])
            if detector is not None:
                v.sampled, v.detections = parse_cached(
                    self._get(vid, i, "objects", detector.model_id, cfg.fingerprint("objects")),
                    lambda p: ([float(t) for t in p["times"]], [detection_from_dict(d) for d in p["detections"]]),
                ) or (None, None)
            if finder is not None:
                v.faces = parse_cached(self._get(vid, i, "faces", finder.model_id, fp["faces"]),
                                 lambda p: [face_from_dict(f) for f in p])
            v.views = parse_cached(self._get(vid, i, "views", VIEWS_ID, fp["keyframes"]),
                             lambda p: [tuple(float(x) for x in row) for row in p])
            if describer is not None:
                v.description = parse_cached(self._get(vid, i, "vlm", describer.model_id, fp["vlm"]),
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

    def _decode_and_process(self, path: Path, todo: list[ClipSpan], out: dict[int, ClipVisual],
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

    def _look(self, detector: ObjectDetector | None, finder: FaceFinder | None, v: ClipVisual, t: float,
              frame: np.ndarray, keyframe: bool) -> None:
        """Objects, then faces where a person is, on one sampled frame (in the frame thread)."""
        self._detect(detector, v, t, frame)
        self._find_faces(finder, v, t, frame, keyframe)

    def _detect(self, detector: ObjectDetector | None, v: ClipVisual, t: float, frame: np.ndarray) -> None:
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

    def _find_faces(self, finder: FaceFinder | None, v: ClipVisual, t: float, frame: np.ndarray,
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

    def _finish_clip(self, span: ClipSpan, v: ClipVisual, detector: ObjectDetector | None,
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

    def _finish_sightings(self, span: ClipSpan, v: ClipVisual, detector: ObjectDetector | None,
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

    def _finish_keyframes(self, span: ClipSpan, v: ClipVisual, frames: list[tuple[float, np.ndarray]],
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

    def _describe(self, span: ClipSpan, v: ClipVisual, frames: list[tuple[float, np.ndarray]],
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
