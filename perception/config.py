"""Perception settings, and stable fingerprints of them for cache keys.

Service composes this dataclass into its AppConfig; perception never reads files or
environment variables for its settings (the exceptions: the default model directory
follows XDG_CACHE_HOME, the standard place for re-creatable data, and the VLM's API key is
read from the variable `vlm_api_key_env` names, so no secret sits in a config file).
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field, fields
from pathlib import Path


def default_cache_root() -> Path:
    """~/.cache/memlens (or $XDG_CACHE_HOME/memlens): weights and caches we can rebuild."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "memlens"


# Which fields change which stage's output. A stage's cache key covers exactly these, so
# changing, say, the OCR threshold re-runs OCR but not ASR. Device and batch sizes are
# left out on purpose: they change speed, not results.
_KEYFRAME_FIELDS = (
    "clip_seconds",  # clip units are cache units, so their length is part of every key
    "sample_fps",
    "keyframe_min_interval",
    "shot_change_threshold",
    "keyframe_dedup_threshold",
    "keyframe_text_threshold",
    "keyframe_text_interval",
)
STAGE_FIELDS: dict[str, tuple[str, ...]] = {
    "keyframes": _KEYFRAME_FIELDS,
    "ocr": _KEYFRAME_FIELDS + ("ocr_backend", "ocr_min_confidence", "ocr_min_side", "ocr_max_side"),
    "clip": _KEYFRAME_FIELDS + ("clip_model", "clip_pretrained"),
    # detection runs on every sampled frame (not only keyframes), so only the sampling rate
    # and clip length matter of the keyframe fields
    "faces": _KEYFRAME_FIELDS + ("face_backend", "face_interval", "face_max_width", "detector_backend",
                                 "detector_model", "detector_threshold", "detector_nms_iou"),  # within the people seen
    "objects": ("clip_seconds", "sample_fps", "detector_backend", "detector_model", "detector_threshold",
                "detector_nms_iou"),  # the classifier is in the detector's model id
    "asr": ("asr_backend", "asr_model", "asr_compute_type", "asr_language", "speech_piece_seconds", "asr_speech_gap"),
    "speakers": (
        "asr_backend", "asr_model", "asr_compute_type", "asr_language", "speech_piece_seconds", "asr_speech_gap",
        "speaker_backend", "speaker_threshold", "turn_gap",
    ),
    "symbolic": ("symbolic", "symbolic_fps", "symbolic_hud_height", "symbolic_text_fps", "ocr_backend",
                 "ocr_min_confidence"),
    # the endpoint's address and API key are left out: where a model runs does not change what it says
    "vlm": _KEYFRAME_FIELDS + ("vlm_model", "vlm_max_images", "vlm_max_side", "vlm_max_tokens"),
    "sources": ("sources", "sources_fps", "sources_read_fps", "sources_auto_max_seconds", "ocr_backend",
                "ocr_min_confidence"),
}


@dataclass(frozen=True)
class PerceptionConfig:
    """Everything that decides what perception computes and with which backend."""

    # clips and keyframes
    clip_seconds: float = 30.0
    sample_fps: float = 2.0  # frames examined for shot changes
    keyframe_min_interval: float = 10.0  # at least one keyframe per this many seconds
    # 0.5 * L1 distance between HSV histograms (0 = same colours, 1 = disjoint). Hard cuts
    # between scenes score 0.5-1.0; head motion inside one room stays under ~0.3.
    shot_change_threshold: float = 0.4
    # A shot-change candidate this close to the last keyframe is a flash or flicker, not a
    # new view, and is skipped.
    keyframe_dedup_threshold: float = 0.05
    # Text shown inside a shot (a caption, a lower third, a sign turned to): a region whose
    # pixels are newly this much letter strokes makes a keyframe (0 = off), at most one per
    # `keyframe_text_interval` seconds (perception/keyframes.py).
    keyframe_text_threshold: float = 0.05
    keyframe_text_interval: float = 2.0

    # speech
    asr_backend: str = "faster-whisper"  # "whisperx" (GPU extra) or "none"
    asr_model: str | None = None  # None = packaged whisper-base; else a local dir or hub id
    asr_device: str = "auto"  # auto | cpu | cuda[:n] (perception/devices.py); speaker turns follow it
    asr_compute_type: str = "int8"
    asr_language: str | None = "en"  # None = detect per video
    asr_batch_size: int = 8  # whisperx only
    # a stretch of speech (pauses shorter than this kept inside it) that faster-whisper's packed
    # reading left without a word is read again on its own: packing can make Whisper drop phrases
    asr_speech_gap: float = 5.0
    # The track is heard in pieces of at most this many seconds, each cut at the quietest
    # half second of its last 30 s (perception/audio_pieces.py): memory holds one piece
    # (10 minutes: 38 MB of samples) however long the recording; a shorter track is one piece.
    speech_piece_seconds: float = 600.0
    speaker_backend: str = "resemblyzer"  # or "none"
    # Average cosine similarity above which voice windows (1.6 s) are one voice. Resemblyzer
    # windows of one voice average ~0.76 alike, of two voices ~0.69 (the pyannote sample call,
    # split right from 0.70 to 0.78); a voice must hold a tenth of the speech windows.
    speaker_threshold: float = 0.74
    # A pause this long (seconds) between words inside one ASR segment starts a new turn,
    # so that each turn gets its own speaker label. 0 keeps Whisper's segments whole.
    turn_gap: float = 1.0

    # text in view
    ocr_backend: str = "rapidocr"  # "easyocr" (needs torchvision) or "none"
    ocr_min_confidence: float = 0.5
    # Text detection scales a frame's shorter side up to at least this many pixels (frames
    # already larger are not scaled). On the 360p TED clip PP-OCR's own 736 costs 0.33 s a
    # frame, 480 0.19 s and 360 (no scaling) 0.13 s, all reading the same lower thirds (the
    # larger sizes add misreads of the logo).
    ocr_min_side: int = 360
    # A frame longer than this (pixels, its longer side) is scaled down to it for finding
    # text (0 = never); lines found are still read from the full frame, so only text too
    # small to find at 640 is lost. On the 540p day-like video's 51 keyframes 640 takes OCR
    # from 13.0 s to 6.3 s and finds as many lines (14; a credit cut by the frame's edge is
    # misread differently); the TED lower thirds (360p) and the trailer's title cards (720p)
    # are read and reached by questions as at full size (at 960 one junk line had joined a
    # card's block; at 640 it does not).
    ocr_max_side: int = 640
    ocr_device: str = "auto"  # rapidocr: CUDA where onnxruntime is the GPU build; easyocr: torch's
    # rapidocr on a CPU finds text with the int8 copy of its detector that set-up makes
    # (perception/int8.py): 0.07 CPU-s a 640 px keyframe against 0.33 for the float model
    ocr_int8: bool = True

    # things in view: an object detector on every sampled frame, tracked across frames
    detector_backend: str = "consensus"  # CenterNet and NanoDet voting; "centernet", "nanodet" or "none"
    detector_model: Path | None = None  # None = the backend's ONNX converted at set-up
    detector_device: str = "auto"  # "auto": CUDA where onnxruntime is the GPU build (onnxruntime-gpu)
    detector_threshold: float | None = None  # None = the backend's own (perception/objects.py)
    # a second opinion on each detected thing's crop (perception/classifier.py):
    # "efficientnet-lite0" (ImageNet-1k) or "none"; at most one frame every `classifier_every` s
    classifier_backend: str = "none"
    classifier_every: float = 1.0
    detector_nms_iou: float = 0.5

    # faces: found (dlib HOG) and described (dlib ResNet, 128-d) on every keyframe and at
    # least every `face_interval` seconds, on frames scaled to `face_max_width` pixels
    face_backend: str = "dlib"  # or "none"
    face_interval: float = 2.0
    face_max_width: int = 640
    # descriptors of one person lie within this distance (dlib's own threshold)
    face_distance: float = 0.6  # perception.faces.SAME_FACE

    # CLIP frame embeddings: off unless weights are configured (none ship offline)
    clip_model: str | None = None  # open_clip model name, e.g. "ViT-B-32"
    clip_pretrained: str | None = None  # pretrained tag or a local checkpoint path
    clip_device: str = "auto"
    clip_batch_size: int = 16

    # keyframe descriptions by a vision-language model at any OpenAI-compatible endpoint
    # (perception/vlm.py): off unless `vlm_base_url` is set, e.g. Ollama's
    # "http://localhost:11434/v1" or a vLLM server's "http://host:8000/v1"
    vlm_base_url: str | None = None
    vlm_model: str = "llava"  # the endpoint's model name
    vlm_api_key_env: str | None = None  # the environment variable holding the API key, if any
    vlm_max_images: int = 3  # keyframes sent per clip, spread evenly over it
    vlm_max_side: int = 512  # pixels on a sent frame's longer side
    vlm_max_tokens: int = 120  # description length cap
    vlm_timeout: float = 60.0  # seconds per clip's request

    # symbolic vision (OpenCV shapes, colours, sizes, grid, clock, tones) for synthetic and
    # game-like video: "auto" runs it when the picture is made of a few flat colours
    symbolic: str = "auto"  # auto | on | off
    symbolic_fps: float = 10.0  # frames examined per second (events last 0.5-1 s)
    symbolic_hud_height: int = 36  # top band holding text (clock, note track), never shapes
    symbolic_text_fps: float = 1.0  # HUD reads per second (the clock ticks once a second)
    # source identity for composed video (split screen, concatenation, interleaving)
    sources: str = "auto"  # auto | on | off
    sources_fps: float = 4.0  # frames examined for cuts and swaps (segments last 2-3 s)
    sources_read_fps: float = 1.0  # OCR reads per second per region (captions last ~3 s)
    sources_auto_max_seconds: float = 900.0  # "auto" leaves longer videos alone (cost)

    # storage
    cache_dir: Path | None = None  # None = no observation cache
    model_dir: Path = field(default_factory=lambda: default_cache_root() / "models")

    def fingerprint(self, stage: str) -> str:
        """Stable short hash of the fields that affect `stage`'s output (a cache key part)."""
        try:
            names = STAGE_FIELDS[stage]
        except KeyError:
            raise ValueError(f"unknown stage {stage!r}; known: {sorted(STAGE_FIELDS)}") from None
        values = {name: _jsonable(getattr(self, name)) for name in names}
        blob = json.dumps({"stage": stage, **values}, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def as_dict(self) -> dict[str, object]:
        return {f.name: _jsonable(getattr(self, f.name)) for f in fields(self)}


def _jsonable(value: object) -> object:
    return str(value) if isinstance(value, Path) else value
