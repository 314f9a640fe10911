"""int8 copies of ONNX models for the CPU: static (QDQ) quantization, made once at set-up.

Why: on a CPU, PP-OCR's text detector was the dearest part of ingest (0.33 CPU-s a keyframe
at 640 px, a third of the day-like video's CPU time). Quantized to int8, with activation
ranges calibrated on real photos, it takes 0.07 s on this machine's CPU (AVX-512 VNNI), and
what it reads on the real clips differs on 5 of 112 frames, as often for the better as for
the worse (docs/results/README.md, "Ingest, stop 7"). A GPU keeps the float model: the int8
copy is a CPU path only.

`quantize_int8` needs the `onnx` package (onnxruntime's quantizer is built on it); nothing is
imported or made at import time or during an ingest, and a missing or damaged copy is
reported by `int8_copy` as absent, so the caller keeps the float model.
"""
from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from .weights import is_sealed, seal


def int8_name(source: Path) -> str:
    """The int8 copy's file name: the float model's stem, so a new float model gets a new copy."""
    return f"{Path(source).stem}.int8.onnx"


def int8_copy(model_dir: Path, source: Path) -> Path | None:
    """The int8 copy of `source` made at set-up, or None (never made, torn or damaged)."""
    target = Path(model_dir).expanduser() / int8_name(source)
    return target if is_sealed(target) else None


def quantize_int8(source: Path, model_dir: Path, calibration: Iterable[dict[str, np.ndarray]]) -> Path:
    """Write `<model_dir>/<stem>.int8.onnx`: weights int8, activations uint8 with ranges
    from running `calibration` (model inputs by name) through the float model. Tensors are
    quantized per tensor: PP-OCR's exported opset predates per-channel QDQ. Returns the copy
    (already there and intact: no work)."""
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    existing = int8_copy(model_dir, source)
    if existing is not None:
        return existing
    feeds = iter(calibration)

    class Feeds(CalibrationDataReader):
        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(feeds, None)

    target = Path(model_dir).expanduser() / int8_name(source)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="memlens-int8-") as tmp:
        prepared, staged = Path(tmp) / "prepared.onnx", Path(tmp) / target.name
        # shapes are left symbolic (any frame size); the graph is fused first, as advised
        quant_pre_process(str(source), str(prepared), skip_symbolic_shape=True)
        quantize_static(str(prepared), str(staged), Feeds(), quant_format=QuantFormat.QDQ,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, per_channel=False)
        shutil.move(str(staged), target)
    return seal(target)
