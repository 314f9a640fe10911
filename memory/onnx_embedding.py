"""A sentence-transformers model run by onnxruntime: the same vectors without torch.

A question needs one small embedding, but loading sentence-transformers imports torch and
transformers (about 3 s on a 2-core machine), most of a cold `memlens ask`. The model is
exported to ONNX once (by set-up, or on first use) with its tokenizer; afterwards a new
process loads it in a fraction of a second with onnxruntime and `tokenizers`, and pools and
normalises in numpy exactly as sentence-transformers does (vectors agree to ~1e-7, so a
store built with either runtime is searched by the other).

Only models whose pipeline is Transformer -> Pooling (mean or CLS) [-> Normalize] export;
anything else keeps the torch runtime (memory.embedding.text_embedder decides).
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from memory.embedding import PACKAGED_MINILM, RememberingEmbedder
from perception.devices import onnx_providers, passive_threads

EXPORT_DIRNAME = "text-embedders"
_META = "memlens-export.json"
_POOLINGS = {"pooling_mode_mean_tokens": "mean", "pooling_mode_cls_token": "cls"}


class NotExportable(RuntimeError):
    """The model's pipeline is not one this module can reproduce outside torch."""


def export_dir(model_dir: Path, model_id: str) -> Path:
    """Where `model_id`'s export lives: one folder per model, named after it."""
    slug = "".join(c if c.isalnum() or c in "-_." else "_" for c in model_id).strip("_")
    return Path(model_dir).expanduser() / EXPORT_DIRNAME / slug


def is_exported(folder: Path) -> bool:
    """Whether `folder` holds a finished export whose model file is unchanged (its size and
    mtime as written; a cheap check, a hash of 90 MB would cost a cold start 0.2 s)."""
    try:
        meta = json.loads((folder / _META).read_text())
        stat = (folder / "model.onnx").stat()
    except (OSError, ValueError):
        return False
    return meta.get("size") == stat.st_size and meta.get("mtime_ns") == stat.st_mtime_ns


def _pooling_of(model) -> str:
    """The pooling of a loaded SentenceTransformer, or NotExportable."""
    names = [type(module).__name__ for module in model]
    if names not in (["Transformer", "Pooling"], ["Transformer", "Pooling", "Normalize"]):
        raise NotExportable(f"pipeline {' -> '.join(names)} is not Transformer -> Pooling [-> Normalize]")
    config = model[1].get_config_dict()
    if "pooling_mode" in config:  # sentence-transformers 5 names one mode
        if config["pooling_mode"] not in ("mean", "cls"):
            raise NotExportable(f"pooling {config['pooling_mode']!r} is not mean or CLS")
        return config["pooling_mode"]
    chosen = [mode for key, mode in _POOLINGS.items() if config.get(key)]
    others = [key for key, on in config.items() if key.startswith("pooling_mode") and on and key not in _POOLINGS]
    if len(chosen) != 1 or others:
        raise NotExportable(f"pooling {config} is not exactly one of mean or CLS")
    return chosen[0]


def export(source: str, folder: Path) -> Path:
    """Export the sentence-transformers model at `source` (a path) into `folder`.

    Written into a temporary sibling and renamed into place, so a second process exporting
    at the same time, or a kill halfway, never leaves a half-written export that loads."""
    import torch
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()

    model = SentenceTransformer(source, device="cpu").float().eval()
    pooling = _pooling_of(model)
    transformer = model[0].auto_model
    tokenizer = model.tokenizer
    if not getattr(tokenizer, "is_fast", False):
        raise NotExportable("the model has no fast tokenizer (tokenizer.json)")

    class _Encoder(torch.nn.Module):
        """Named arguments: transformers' forward takes no positional token types."""

        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.inner(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state

    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    sample = tokenizer(["a sentence to trace the graph with"], return_tensors="pt")
    names = ["input_ids", "attention_mask", "token_type_ids"]
    inputs = tuple(sample.get(name, torch.zeros_like(sample["input_ids"])) for name in names)
    axes = {name: {0: "batch", 1: "tokens"} for name in names}
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the tracer's notes on shapes it fixes (checked in tests)
        torch.onnx.export(_Encoder(transformer).eval(), inputs, str(work / "model.onnx"),
                          input_names=names, output_names=["hidden"],
                          dynamic_axes={**axes, "hidden": {0: "batch", 1: "tokens"}},
                          opset_version=17, dynamo=False)
    tokenizer.backend_tokenizer.save(str(work / "tokenizer.json"))
    stat = (work / "model.onnx").stat()
    meta = {"source": source, "pooling": pooling, "max_length": int(model.max_seq_length),
            "dim": int(transformer.config.hidden_size), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
    (work / _META).write_text(json.dumps(meta, indent=1))
    if folder.exists():
        shutil.rmtree(folder, ignore_errors=True)
    try:
        os.replace(work, folder)
    except OSError:  # another process put its export there first: theirs is as good
        shutil.rmtree(work, ignore_errors=True)
        if not is_exported(folder):
            raise
    return folder


class OnnxTextEmbedder(RememberingEmbedder):
    """Embeds with an export made by `export` into `folder`; exports there first if set-up
    has not (`source` maps the model id to what sentence-transformers loads). Loads on first
    use, never at construction."""

    runtime = "onnxruntime"

    def __init__(self, folder: Path, model_id: str, source: Callable[[str], str], device: str = "auto",
                 batch_size: int = 64, cache_size: int = 4096):
        super().__init__(cache_size)
        self.folder = Path(folder)
        self.model_id = model_id
        self.source = source
        self.device = device
        self.batch_size = batch_size
        self._lock = threading.Lock()
        self._session = None
        self._tokenizer = None
        self._meta: dict = {}
        self.dim = 384 if model_id == PACKAGED_MINILM else 0
        try:
            self.dim = int(json.loads((self.folder / _META).read_text())["dim"])
        except (OSError, ValueError, KeyError):
            pass

    def _load(self):
        with self._lock:
            if self._session is None:
                import onnxruntime
                from tokenizers import Tokenizer

                if not is_exported(self.folder):
                    export(self.source(self.model_id), self.folder)
                meta = json.loads((self.folder / _META).read_text())
                tokenizer = Tokenizer.from_file(str(self.folder / "tokenizer.json"))
                tokenizer.enable_truncation(int(meta["max_length"]))
                tokenizer.enable_padding()
                options = passive_threads(onnxruntime.SessionOptions())
                options.log_severity_level = 3
                self._session = onnxruntime.InferenceSession(
                    str(self.folder / "model.onnx"), options, providers=onnx_providers(self.device))
                self._tokenizer, self._meta, self.dim = tokenizer, meta, int(meta["dim"])
        return self._session, self._tokenizer

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """(n, dim) L2-normalised float32 vectors, in `texts`' order, in batches of similar
        length (as sentence-transformers does), so padding stays short."""
        session, tokenizer = self._load()
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        wanted = {i.name for i in session.get_inputs()}
        for start in range(0, len(order), self.batch_size):
            chunk = order[start:start + self.batch_size]
            encodings = tokenizer.encode_batch([texts[i] for i in chunk])
            feed = {
                "input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
                "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
                "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64),
            }
            hidden = session.run(None, {k: v for k, v in feed.items() if k in wanted})[0]
            out[chunk] = _pooled(hidden, feed["attention_mask"], self._meta["pooling"])
        return out


def _pooled(hidden: np.ndarray, mask: np.ndarray, pooling: str) -> np.ndarray:
    """Token vectors -> one L2-normalised vector per text (mean over real tokens, or CLS)."""
    if pooling == "cls":
        vectors = hidden[:, 0]
    else:
        weights = mask[..., None].astype(np.float32)
        vectors = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.clip(norms, 1e-12, None)).astype(np.float32)


def main() -> int:
    """Set-up's step: export the configured default embedder once (seconds when done)."""
    from memory.config import MemoryConfig
    from memory.embedding import model_source

    config = MemoryConfig()
    folder = export_dir(config.embedding_export_dir, config.embedding_model)
    if not is_exported(folder):
        export(model_source(config.embedding_model), folder)
    print(f"text embedder: {folder}")
    return 0
