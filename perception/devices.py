"""Where a model runs. "auto" (every device setting's default) means the GPU when the library
that runs the model sees one, else the CPU, so one configuration serves a laptop and a GPU
server; an explicit "cpu", "cuda" or "cuda:1" is passed through unchanged.

Resolved when a model loads, never at import: asking torch or CTranslate2 for a GPU loads
their native libraries.
"""
from __future__ import annotations

from typing import Any

AUTO = "auto"


def torch_device(requested: str) -> str:
    """A torch device name for `requested` ("auto": "cuda" when torch sees a GPU)."""
    if requested != AUTO:
        return requested
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def ctranslate2_device(requested: str) -> str:
    """A CTranslate2 device name for `requested` ("auto": "cuda" when CTranslate2, which may
    be built without CUDA where torch is not, sees a GPU)."""
    if requested != AUTO:
        return requested
    import ctranslate2

    return "cuda" if ctranslate2.get_cuda_device_count() > 0 else "cpu"


def onnx_providers(requested: str) -> list[str]:
    """onnxruntime execution providers for `requested`: CUDA first when asked for ("auto":
    when this onnxruntime is the GPU build), the CPU always last as the fallback."""
    if requested == "cpu":
        return ["CPUExecutionProvider"]
    if requested == AUTO and not _onnxruntime_sees_cuda():
        return ["CPUExecutionProvider"]
    if requested.startswith("cuda:"):
        return [(_ONNX_CUDA, {"device_id": int(requested.split(":", 1)[1])}), "CPUExecutionProvider"]
    return [_ONNX_CUDA, "CPUExecutionProvider"]


_ONNX_CUDA = "CUDAExecutionProvider"


def passive_threads(options: Any) -> Any:
    """onnxruntime `SessionOptions` whose idle intra-op threads sleep rather than spin.
    ONNX Runtime spins by default; stages run side by side here (speech beside the
    pictures), and on two cores a spinning pool burns the time the other stage needs: the
    day-like video's ingest took 49 CPU-s with rapidocr's sessions spinning, 39-41 without
    (see perception/__init__ for OpenMP's equivalent)."""
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return options


def nvidia_gpu_present() -> bool:
    """Whether the machine has an NVIDIA GPU, from the driver's files: cheap, unlike asking
    torch (importing it costs a second), for choices made before any model loads."""
    from pathlib import Path

    gpus = Path("/proc/driver/nvidia/gpus")
    return (gpus.is_dir() and any(gpus.iterdir())) or Path("/dev/nvidia0").exists()


def _onnxruntime_sees_cuda() -> bool:
    import onnxruntime

    return _ONNX_CUDA in onnxruntime.get_available_providers()


def accelerators() -> dict[str, str]:
    """What each model library here can run on, for `memlens doctor`."""
    seen: dict[str, str] = {}
    try:
        import torch

        seen["torch"] = (f"cuda ({torch.cuda.get_device_name(0)}, {torch.cuda.device_count()} GPU)"
                         if torch.cuda.is_available() else "cpu only")
    except ImportError:
        seen["torch"] = "not installed"
    try:
        import ctranslate2

        gpus = ctranslate2.get_cuda_device_count()
        seen["ctranslate2"] = f"cuda ({gpus} GPU)" if gpus else "cpu only"
    except ImportError:
        seen["ctranslate2"] = "not installed"
    try:
        seen["onnxruntime"] = "cuda" if _onnxruntime_sees_cuda() else "cpu only"
    except ImportError:
        seen["onnxruntime"] = "not installed"
    try:
        import faiss

        gpus = faiss.get_num_gpus() if hasattr(faiss, "get_num_gpus") else 0
        seen["faiss"] = f"faiss-gpu ({gpus} GPU)" if gpus else "cpu only"
    except ImportError:
        seen["faiss"] = "not installed"
    return seen
