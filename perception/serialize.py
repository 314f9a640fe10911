"""Plain-dict (JSON) forms of the contract types, for the cache and for other layers.

Kept beside the types rather than inside them so types.py stays a pure contract. Datetimes
are ISO 8601 strings (naive local wall time, see decode.py); tuples become lists.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from .types import (
    AsrSegment,
    ClipObservation,
    ClipSpan,
    FaceSighting,
    ObjectDetection,
    OcrLine,
    VideoObservation,
    Word,
)


def word_to_dict(w: Word) -> dict[str, Any]:
    return {"text": w.text, "start": w.start, "end": w.end, "probability": w.probability}


def word_from_dict(d: dict[str, Any]) -> Word:
    return Word(str(d["text"]), float(d["start"]), float(d["end"]), float(d["probability"]))


def segment_to_dict(s: AsrSegment) -> dict[str, Any]:
    return {
        "start": s.start, "end": s.end, "text": s.text, "confidence": s.confidence,
        "words": [word_to_dict(w) for w in s.words], "speaker": s.speaker,
    }


def segment_from_dict(d: dict[str, Any]) -> AsrSegment:
    return AsrSegment(
        float(d["start"]), float(d["end"]), str(d["text"]), float(d["confidence"]),
        tuple(word_from_dict(w) for w in d.get("words", ())), d.get("speaker"),
    )


def ocr_to_dict(line: OcrLine) -> dict[str, Any]:
    return {
        "text": line.text, "confidence": line.confidence, "frame_time": line.frame_time,
        "box": list(line.box), "frame_size": list(line.frame_size),
    }


def ocr_from_dict(d: dict[str, Any]) -> OcrLine:
    box = tuple(float(v) for v in d["box"])
    if len(box) != 4:
        raise ValueError(f"an OCR box needs 4 numbers, got {box}")
    size = tuple(int(v) for v in d.get("frame_size", (0, 0)))
    return OcrLine(str(d["text"]), float(d["confidence"]), float(d["frame_time"]), box, size)  # type: ignore[arg-type]


def detection_to_dict(d: ObjectDetection) -> dict[str, Any]:
    return {
        "label": d.label, "confidence": d.confidence, "frame_time": d.frame_time, "box": list(d.box),
        "frame_size": list(d.frame_size), "colour": d.colour, "appearance": list(d.appearance),
        "track": d.track, "instance": d.instance, "seen_as": [[name, p] for name, p in d.seen_as],
    }


def detection_from_dict(d: dict[str, Any]) -> ObjectDetection:
    box = tuple(float(v) for v in d["box"])
    if len(box) != 4:
        raise ValueError(f"a detection box needs 4 numbers, got {box}")
    return ObjectDetection(
        str(d["label"]), float(d["confidence"]), float(d["frame_time"]), box,  # type: ignore[arg-type]
        tuple(int(v) for v in d.get("frame_size", (0, 0))),  # type: ignore[arg-type]
        d.get("colour"), tuple(float(v) for v in d.get("appearance", ())),
        None if d.get("track") is None else int(d["track"]),
        None if d.get("instance") is None else int(d["instance"]),
        tuple((str(name), float(p)) for name, p in d.get("seen_as", ())),
    )


def face_to_dict(f: FaceSighting) -> dict[str, Any]:
    return {"frame_time": f.frame_time, "box": list(f.box), "frame_size": list(f.frame_size), "score": f.score,
            "descriptor": list(f.descriptor), "person": f.person}


def face_from_dict(d: dict[str, Any]) -> FaceSighting:
    box = tuple(float(v) for v in d["box"])
    descriptor = tuple(float(v) for v in d["descriptor"])
    if len(box) != 4 or not descriptor:
        raise ValueError("a face needs a 4-number box and a descriptor")
    return FaceSighting(float(d["frame_time"]), box, tuple(int(v) for v in d["frame_size"]),  # type: ignore[arg-type]
                        float(d["score"]), descriptor, d.get("person"))


def span_to_dict(s: ClipSpan) -> dict[str, Any]:
    return {
        "video_id": s.video_id, "index": s.index, "start": s.start, "end": s.end,
        "wall_start": s.wall_start.isoformat(),
    }


def span_from_dict(d: dict[str, Any]) -> ClipSpan:
    return ClipSpan(
        str(d["video_id"]), int(d["index"]), float(d["start"]), float(d["end"]),
        datetime.fromisoformat(d["wall_start"]),
    )


def clip_to_dict(c: ClipObservation) -> dict[str, Any]:
    return {
        "span": span_to_dict(c.span),
        "keyframe_times": list(c.keyframe_times),
        "asr": [segment_to_dict(s) for s in c.asr],
        "ocr": [ocr_to_dict(o) for o in c.ocr],
        "clip_embeddings": c.clip_embeddings,
        "objects": [detection_to_dict(o) for o in c.objects],
        "faces": [face_to_dict(f) for f in c.faces],
        "views": [list(v) for v in c.views],
        "description": c.description,
    }


def clip_from_dict(d: dict[str, Any]) -> ClipObservation:
    emb = d.get("clip_embeddings")
    return ClipObservation(
        span=span_from_dict(d["span"]),
        keyframe_times=[float(t) for t in d.get("keyframe_times", [])],
        asr=[segment_from_dict(s) for s in d.get("asr", [])],
        ocr=[ocr_from_dict(o) for o in d.get("ocr", [])],
        clip_embeddings=None if emb is None else [[float(v) for v in row] for row in emb],
        objects=[detection_from_dict(o) for o in d.get("objects", [])],
        faces=[face_from_dict(f) for f in d.get("faces", [])],
        views=[tuple(float(x) for x in v) for v in d.get("views", [])],
        description=None if d.get("description") is None else str(d["description"]),
    )


def video_to_dict(v: VideoObservation) -> dict[str, Any]:
    return {
        "video_id": v.video_id, "path": v.path, "duration": v.duration,
        "wall_start": v.wall_start.isoformat(), "has_audio": v.has_audio,
        "clips": [clip_to_dict(c) for c in v.clips], "channels": dict(v.channels), "clip_model": v.clip_model,
        "still": v.still, "voices": {k: list(p) for k, p in v.voices.items()},
    }


def video_from_dict(d: dict[str, Any]) -> VideoObservation:
    return VideoObservation(
        video_id=str(d["video_id"]), path=str(d["path"]), duration=float(d["duration"]),
        wall_start=datetime.fromisoformat(d["wall_start"]), has_audio=bool(d["has_audio"]),
        clips=[clip_from_dict(c) for c in d.get("clips", [])],
        channels={str(k): str(v) for k, v in d.get("channels", {}).items()},
        clip_model=None if d.get("clip_model") is None else str(d["clip_model"]),
        still=bool(d.get("still", False)),
        voices={str(k): tuple(float(x) for x in p) for k, p in d.get("voices", {}).items()},
    )
