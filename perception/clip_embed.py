"""CLIP frame embeddings: an optional channel that is off unless weights are configured.

No registry package ships CLIP weights, so offline the channel is off and says why; users
with weights set `clip_model` (an open_clip model name, e.g. "ViT-B-32") and
`clip_pretrained` (a pretrained tag, downloaded by open_clip when online, or a local
checkpoint path). Everything else in memlens works without this channel.

CPU-machine workaround (torchvision): open_clip imports torchvision, and PyPI has no CPU
build of torchvision for torch 2.13; the CUDA build (0.28.0) fails to import here with
"operator torchvision::nms does not exist" because its compiled ops library cannot load.
`ensure_torchvision_importable()` then defines the two operator schemas torchvision's
import-time fake registrations need (`nms`, `qnms`) with torch.library and imports again.
It only declares schemas (calling those ops would still fail), open_clip never calls
them, and it runs only after that exact failure. To keep torchvision out of the main
environment (it breaks `transformers` there), install the CLIP extras into a side folder
and put it on PYTHONPATH:

    pip install --no-deps --target .venv-extras/clip -c constraints.txt \
        open-clip-torch torchvision==0.28.0 ftfy regex
"""
from __future__ import annotations

import logging
import sys
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .config import PerceptionConfig
from .devices import torch_device

log = logging.getLogger(__name__)
_MISSING_OP = "operator torchvision::nms does not exist"
# The torch.library handle must outlive the import: dropping it unregisters the schemas.
_SHIM_LIBRARIES: list[Any] = []


@runtime_checkable
class ImageTextEmbedder(Protocol):
    model_id: str

    def encode_images(self, images: Sequence[np.ndarray]) -> np.ndarray: ...

    def encode_texts(self, texts: Sequence[str]) -> np.ndarray: ...


def ensure_torchvision_importable() -> bool:
    """Import torchvision, applying the CPU-machine shim above only if it is needed.

    Returns True when the shim was applied. Re-raises any other import failure.
    """
    try:
        import torchvision

        return False
    except RuntimeError as exc:
        if _MISSING_OP not in str(exc):
            raise
    import torch

    for name in [m for m in sys.modules if m == "torchvision" or m.startswith("torchvision.")]:
        del sys.modules[name]  # drop the half-imported package before importing again
    library = torch.library.Library("torchvision", "DEF")
    library.define("nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
    library.define("qnms(Tensor qdets, Tensor scores, float iou_threshold) -> Tensor")
    _SHIM_LIBRARIES.append(library)
    import torchvision  # noqa: F401

    log.info("torchvision imported with the CPU-machine operator shim (see perception.clip_embed)")
    return True


def import_open_clip() -> Any:
    ensure_torchvision_importable()
    import open_clip

    return open_clip


def _l2(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12)


class OpenClipEmbedder:
    """open_clip image/text encoders; outputs are L2-normalised float32 rows.

    Give `model_name` + `pretrained` to load on first use, or `components` =
    (model, preprocess, tokenizer) that are already built (tests use a tiny random model).
    """

    def __init__(
        self,
        model_name: str | None = None,
        pretrained: str | None = None,
        device: str = "cpu",
        batch_size: int = 16,
        components: tuple[Any, Any, Any] | None = None,
        model_id: str | None = None,
    ):
        if components is None and not model_name:
            raise ValueError("OpenClipEmbedder needs model_name (+ pretrained) or components")
        self.model_name = model_name
        self.pretrained = pretrained
        self.device = device
        self.batch_size = batch_size
        self._components = components
        self.model_id = model_id or f"open_clip:{model_name}:{pretrained}"

    def load(self) -> tuple[Any, Any, Any]:
        if self._components is None:
            open_clip = import_open_clip()
            self.device = torch_device(self.device)
            model, _, preprocess = open_clip.create_model_and_transforms(
                self.model_name, pretrained=self.pretrained, device=self.device
            )
            model.eval()
            self._components = (model, preprocess, open_clip.get_tokenizer(self.model_name))
        return self._components

    def encode_images(self, images: Sequence[np.ndarray]) -> np.ndarray:
        import torch
        from PIL import Image

        model, preprocess, _ = self.load()
        out = []
        for i in range(0, len(images), self.batch_size):
            batch = torch.stack([preprocess(Image.fromarray(im)) for im in images[i : i + self.batch_size]])
            with torch.inference_mode():
                out.append(model.encode_image(batch.to(self.device)).float().cpu().numpy())
        if not out:
            return np.zeros((0, 0), dtype=np.float32)
        return _l2(np.concatenate(out))

    def encode_texts(self, texts: Sequence[str]) -> np.ndarray:
        import torch

        model, _, tokenizer = self.load()
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        with torch.inference_mode():
            feats = model.encode_text(tokenizer(list(texts)).to(self.device))
        return _l2(feats.float().cpu().numpy())


def make_image_embedder(config: PerceptionConfig) -> tuple[ImageTextEmbedder | None, str]:
    """(loaded embedder, "on: ...") or (None, "off: <one-line reason>"). Loads eagerly so a
    broken configuration is reported once, at the start, not once per clip."""
    if not config.clip_model:
        return None, "off: no weights configured (set clip_model/clip_pretrained)"
    if not config.clip_pretrained and not config.clip_model.startswith("hf-hub:"):
        # open_clip would happily build random weights; embeddings from those mean nothing.
        return None, f"off: no weights configured for {config.clip_model} (set clip_pretrained)"
    try:
        import_open_clip()
    except Exception as exc:  # noqa: BLE001 - ImportError, or torchvision failing otherwise
        return None, f"off: open_clip is not importable ({type(exc).__name__}: {_first_line(exc)})"
    embedder = OpenClipEmbedder(
        config.clip_model, config.clip_pretrained, config.clip_device, config.clip_batch_size
    )
    try:
        embedder.load()
    except Exception as exc:  # noqa: BLE001 - unknown model, missing checkpoint, offline tag
        return None, (
            f"off: loading {config.clip_model}/{config.clip_pretrained} failed "
            f"({type(exc).__name__}: {_first_line(exc)})"
        )
    return embedder, f"on: open_clip {config.clip_model} ({config.clip_pretrained})"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else ""
