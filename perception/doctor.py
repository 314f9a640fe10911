"""`memlens doctor` for perception: which channels would run, with what, and why not.

Cheap by default: packages and packaged weights are located, not loaded, so the command
answers in a second. `load=True` loads every configured model, which is the only way to
know that, say, a CLIP checkpoint really opens. A VLM endpoint is reported as configured,
never contacted.
"""
from __future__ import annotations

from typing import Any, Protocol

from .config import PerceptionConfig
from .errors import BackendUnavailable

_OPTION = {"asr": "asr_backend", "speakers": "speaker_backend", "ocr": "ocr_backend", "objects": "detector_backend",
           "faces": "face_backend"}


class Examined(Protocol):
    """What the doctor reads of a perception.pipeline.Perceiver; the pipeline calls the
    doctor, so the doctor names this shape rather than importing the pipeline."""

    config: PerceptionConfig
    cache: Any  # an ObservationCache (its .root) or None

    def recognizer(self) -> Any: ...
    def tagger(self) -> Any: ...
    def reader(self) -> Any: ...
    def detector(self) -> Any: ...
    def faces(self) -> Any: ...
    def embedder(self) -> Any: ...
    def describer(self) -> Any: ...
    @property
    def embedder_resolved(self) -> bool: ...
    @property
    def clip_status(self) -> str: ...
    @property
    def vlm_status(self) -> str: ...


def clip_off_reason(config: PerceptionConfig) -> str:
    if not config.clip_model:
        return "off: no weights configured (set clip_model/clip_pretrained)"
    return "off"


def channel_status(perceiver: Examined, load: bool = False) -> dict[str, str]:
    """channel -> "on: <backend, weights>" or "off: <reason and fix>"."""
    import av

    status = {"decode": f"on: PyAV {av.__version__} (FFmpeg bundled)"}
    getters = {"asr": perceiver.recognizer, "speakers": perceiver.tagger, "ocr": perceiver.reader,
               "objects": perceiver.detector, "faces": perceiver.faces}
    for channel, get in getters.items():
        try:
            backend = get()
        except ValueError as exc:  # an unknown backend name in the config
            status[channel] = f"off: {exc}"
            continue
        if backend is None:
            status[channel] = f"off: {_OPTION[channel]}='none'"
            continue
        try:
            describe = getattr(backend, "describe", None)
            text = describe() if describe else f"injected backend {backend.model_id}"
            if load and hasattr(backend, "load"):
                backend.load()
            status[channel] = text if text.startswith("off") else f"on: {text}"
        except BackendUnavailable as exc:
            status[channel] = f"off: {exc}"

    config = perceiver.config
    if perceiver.embedder_resolved or load:
        perceiver.embedder()
        status["clip"] = perceiver.clip_status or clip_off_reason(config)
    elif not config.clip_model:
        status["clip"] = clip_off_reason(config)
    else:
        status["clip"] = f"configured: open_clip {config.clip_model} ({config.clip_pretrained}); loads on first use"
    describer = perceiver.describer()
    if describer is None:
        status["vlm"] = perceiver.vlm_status
    else:  # a remote endpoint: not contacted here (a request costs a model call); the first clip tells
        summary = getattr(describer, "summary", None)
        status["vlm"] = f"on: {summary() if summary else describer.model_id}"
    status["cache"] = f"on: {perceiver.cache.root}" if perceiver.cache else "off: no cache_dir configured"
    return status
