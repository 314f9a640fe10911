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
import importlib as _importlib
import os as _os

# Threads that wait for work sleep instead of spinning (OpenMP's default is to spin for a
# while). Stages run side by side (speech beside the pictures, a question beside an
# ingest), and on two cores a spinning pool starves the others: one short query took 600 ms
# to embed next to a busy process instead of 20 ms. Set before torch starts OpenMP; a
# value the user set stands.
_os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

# Names load their module on first use (PEP 562): `perception.devices` or `.config` from
# memory or a client does not pull in PyAV, OpenCV and the backends.
_EXPORTS = {
    "AsrSegment": "types",
    "BackendUnavailable": "errors",
    "CallbackProgress": "progress",
    "ClipObservation": "types",
    "ClipSpan": "types",
    "DescriberError": "vlm",
    "EasyOcrReader": "ocr",
    "EmptyVideoFile": "errors",
    "FasterWhisperRecognizer": "asr",
    "FrameDescriber": "vlm",
    "ImageTextEmbedder": "clip_embed",
    "KeyframeSelector": "keyframes",
    "NoSpeakerTagger": "speakers",
    "NoVideoStream": "errors",
    "NullProgress": "progress",
    "ObservationCache": "cache",
    "OcrLine": "types",
    "OpenAIVisionDescriber": "vlm",
    "OpenClipEmbedder": "clip_embed",
    "Perceiver": "pipeline",
    "PerceptionConfig": "config",
    "PerceptionError": "errors",
    "ProgressReporter": "progress",
    "RapidOcrReader": "ocr",
    "ResemblyzerTagger": "speakers",
    "RichProgress": "progress",
    "SpeakerTagger": "speakers",
    "SpeechRecognizer": "asr",
    "TextReader": "ocr",
    "UnreadableVideo": "errors",
    "VideoInfo": "decode",
    "VideoNotFound": "errors",
    "VideoObservation": "types",
    "WhisperXRecognizer": "asr",
    "Word": "types",
    "clip_index_at": "clips",
    "cut_clips": "clips",
    "default_cache_root": "config",
    "ensure_torchvision_importable": "clip_embed",
    "file_video_id": "pipeline",
    "iter_frames": "decode",
    "make_frame_describer": "vlm",
    "make_image_embedder": "clip_embed",
    "make_speaker_tagger": "speakers",
    "make_speech_recognizer": "asr",
    "make_text_reader": "ocr",
    "probe": "decode",
    "read_audio": "decode",
    "select_keyframes": "keyframes",
    "video_from_dict": "serialize",
    "video_to_dict": "serialize",
}


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(_importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = sorted(_EXPORTS)
