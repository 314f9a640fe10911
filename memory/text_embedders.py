"""Which text embedder a configuration gets: the model, its device and its runtime."""
from __future__ import annotations

import json
from pathlib import Path

from memory.embedding import PACKAGED_MINILM, RememberingEmbedder, SentenceTransformerEmbedder, model_source
from memory.onnx_embedding import OnnxTextEmbedder, export_dir
from perception.devices import AUTO, nvidia_gpu_present

RUNTIMES = ("auto", "onnx", "torch")


def _exportable_locally(model_id: str) -> bool:
    """Whether `model_id` is known, without loading it, to be Transformer -> Pooling
    [-> Normalize]: the packaged MiniLM, or a local folder whose modules.json says so."""
    if model_id == PACKAGED_MINILM:
        return True
    try:
        modules = json.loads((Path(model_id).expanduser() / "modules.json").read_text())
    except (OSError, ValueError):
        return False
    kinds = [m.get("type", "").rsplit(".", 1)[-1] for m in modules]
    return kinds in (["Transformer", "Pooling"], ["Transformer", "Pooling", "Normalize"])


def text_embedder(model: str = PACKAGED_MINILM, device: str = AUTO, runtime: str = "auto",
                  model_dir: Path | None = None) -> RememberingEmbedder:
    """The embedder for `model` on `device`. runtime "auto": onnxruntime when no NVIDIA GPU
    is asked for or present and the model exports (exported into `model_dir` on first use
    if set-up has not), else sentence-transformers; "onnx" / "torch" force one."""
    if runtime not in RUNTIMES:
        raise ValueError(f"embedding runtime {runtime!r} is not one of {', '.join(RUNTIMES)}")
    on_gpu = device.startswith("cuda") or (device == AUTO and nvidia_gpu_present())
    use_onnx = runtime == "onnx" or (runtime == "auto" and not on_gpu and model_dir is not None
                                     and _exportable_locally(model))
    if not use_onnx:
        return SentenceTransformerEmbedder(model, device)
    if model_dir is None:
        raise ValueError("the onnx embedding runtime needs a model_dir to keep its export in")
    return OnnxTextEmbedder(export_dir(model_dir, model), model, model_source, device)
