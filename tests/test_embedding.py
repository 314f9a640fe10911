"""The text embedder's two runtimes give the same vectors, and a question's process stays
free of torch (the cold `memlens ask`, issue 40)."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from memory.embedding import PACKAGED_MINILM, SentenceTransformerEmbedder
from memory.onnx_embedding import OnnxTextEmbedder, export_dir, is_exported
from memory.text_embedders import text_embedder

TEXTS = ["", "who was on the call?", "é 日本語, naïve café", "word " * 400,  # empty, unicode, truncated
         *[f"turn {i}: {'the train to Edinburgh ' * (i % 9)}left late" for i in range(70)]]  # > one batch


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """A fresh export made here (not set-up's), loaded once."""
    root = tmp_path_factory.mktemp("models")
    embedder = text_embedder(PACKAGED_MINILM, "cpu", "onnx", root)
    embedder.embed(["load"])
    return root, embedder


def test_onnx_vectors_match_sentence_transformers(exported):
    _, onnx = exported
    assert isinstance(onnx, OnnxTextEmbedder)
    ours = onnx.embed(TEXTS)
    theirs = SentenceTransformerEmbedder(cache_size=0).embed(TEXTS)
    assert ours.shape == theirs.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    assert np.abs(ours - theirs).max() < 1e-5
    # the same text gives the same vector whatever else is in its batch (padding is masked)
    assert np.abs(onnx.encode([TEXTS[1]])[0] - onnx.encode(TEXTS[:40])[1]).max() < 1e-5


def test_a_damaged_export_is_made_again(exported):
    root, _ = exported
    folder = export_dir(root, PACKAGED_MINILM)
    assert is_exported(folder)
    with open(folder / "model.onnx", "r+b") as handle:
        handle.truncate(1000)  # a torn copy
    assert not is_exported(folder)
    again = text_embedder(PACKAGED_MINILM, "cpu", "onnx", root)
    assert again.embed(["who was on the call?"]).shape == (1, 384)
    assert is_exported(folder)


def test_the_runtime_follows_the_configuration(tmp_path):
    assert isinstance(text_embedder(PACKAGED_MINILM, "cpu", "auto", tmp_path), OnnxTextEmbedder)
    assert isinstance(text_embedder(PACKAGED_MINILM, "cpu", "torch", tmp_path), SentenceTransformerEmbedder)
    assert isinstance(text_embedder(PACKAGED_MINILM, "cuda", "auto", tmp_path), SentenceTransformerEmbedder)
    # a model whose pipeline is not known to export keeps sentence-transformers
    assert isinstance(text_embedder(str(tmp_path / "elsewhere"), "cpu", "auto", tmp_path),
                      SentenceTransformerEmbedder)
    with pytest.raises(ValueError, match="runtime"):
        text_embedder(PACKAGED_MINILM, "cpu", "tensorflow", tmp_path)


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_a_question_process_imports_no_torch():
    """Memory, spaCy and the embedder in a new process: torch is never imported, and it can
    still be imported afterwards (an ingest in the same process needs it)."""
    out = _run(
        "import sys\n"
        "from memory.config import MemoryConfig\n"
        "from memory.text_embedders import text_embedder\n"
        "from memory.language import english\n"
        "c = MemoryConfig()\n"
        "text_embedder(c.embedding_model, 'cpu', 'auto', c.embedding_export_dir).embed(['which train?'])\n"
        "english()('Which train did Sam book?')\n"
        "print('torch' in sys.modules)\n"
        "import torch\n"
        "print(torch.ones(2).sum().item())\n")
    assert out.splitlines() == ["False", "2.0"]


def test_the_command_line_imports_no_model_library_until_a_command_runs():
    out = _run("import sys, memlens.cli\n"
               "print(sorted({'torch', 'spacy', 'langgraph', 'onnxruntime', 'faiss'} & set(sys.modules)))")
    assert out == "[]"
