"""memlens perception: video files -> typed observations (clips, keyframes, ASR, OCR, CLIP, VLM).

Step 1 of the data flow (see DESIGN.md). `Perceiver.perceive(path)` returns a
`VideoObservation`; memory consumes only the types in `perception.types`. Backends (ASR,
speaker turns, OCR, CLIP, VLM descriptions) sit behind small Protocols, are injected or
built from `PerceptionConfig`, load their models on first use (never at import), and their
outputs are cached per (clip, stage, model, config) so re-ingestion is incremental.

    config = PerceptionConfig(cache_dir=Path("~/.cache/memlens/observations").expanduser())
    with rich.progress.Progress() as bars:          # or progress=callback(task, done, total)
        observation = Perceiver(config, progress=bars).perceive("day1.mp4")
    Perceiver(config).channel_status()               # for `memlens doctor`
"""
import os as _os

# Threads that wait for work sleep instead of spinning (OpenMP's default is to spin for a
# while). Stages run side by side (speech beside the pictures, a question beside an
# ingest), and on two cores a spinning pool starves the others: one short query took 600 ms
# to embed next to a busy process instead of 20 ms. Set before torch starts OpenMP; a
# value the user set stands.
_os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from .asr import FasterWhisperRecognizer, SpeechRecognizer, WhisperXRecognizer, make_speech_recognizer
from .cache import ObservationCache
from .clip_embed import (
    ImageTextEmbedder,
    OpenClipEmbedder,
    ensure_torchvision_importable,
    make_image_embedder,
)
from .clips import clip_index_at, cut_clips
from .config import PerceptionConfig, default_cache_root
from .decode import VideoInfo, iter_frames, probe, read_audio
from .errors import (
    BackendUnavailable,
    EmptyVideoFile,
    NoVideoStream,
    PerceptionError,
    UnreadableVideo,
    VideoNotFound,
)
from .keyframes import KeyframeSelector, select_keyframes
from .ocr import EasyOcrReader, RapidOcrReader, TextReader, make_text_reader
from .pipeline import Perceiver, file_video_id
from .progress import CallbackProgress, NullProgress, ProgressReporter, RichProgress
from .serialize import video_from_dict, video_to_dict
from .speakers import NoSpeakerTagger, ResemblyzerTagger, SpeakerTagger, make_speaker_tagger
from .types import AsrSegment, ClipObservation, ClipSpan, OcrLine, VideoObservation, Word
from .vlm import DescriberError, FrameDescriber, OpenAIVisionDescriber, make_frame_describer

__all__ = [
    "AsrSegment",
    "BackendUnavailable",
    "CallbackProgress",
    "ClipObservation",
    "ClipSpan",
    "DescriberError",
    "EasyOcrReader",
    "EmptyVideoFile",
    "FasterWhisperRecognizer",
    "FrameDescriber",
    "ImageTextEmbedder",
    "KeyframeSelector",
    "NoSpeakerTagger",
    "NoVideoStream",
    "NullProgress",
    "ObservationCache",
    "OcrLine",
    "OpenAIVisionDescriber",
    "OpenClipEmbedder",
    "Perceiver",
    "PerceptionConfig",
    "PerceptionError",
    "ProgressReporter",
    "RapidOcrReader",
    "ResemblyzerTagger",
    "RichProgress",
    "SpeakerTagger",
    "SpeechRecognizer",
    "TextReader",
    "UnreadableVideo",
    "VideoInfo",
    "VideoNotFound",
    "VideoObservation",
    "WhisperXRecognizer",
    "Word",
    "clip_index_at",
    "cut_clips",
    "default_cache_root",
    "ensure_torchvision_importable",
    "file_video_id",
    "iter_frames",
    "make_frame_describer",
    "make_image_embedder",
    "make_speaker_tagger",
    "make_speech_recognizer",
    "make_text_reader",
    "probe",
    "read_audio",
    "select_keyframes",
    "video_from_dict",
    "video_to_dict",
]
