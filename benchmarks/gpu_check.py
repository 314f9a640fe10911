"""The models' GPU path, checked where one is: what each library here can run on, then the
memory embedder and the object detector with their default device ("auto") against the CPU
on the same inputs: do they agree, and how much faster is the GPU. Prints a table and
writes `gpu_check.json`.

    .venv/bin/python -m benchmarks.gpu_check --texts texts.json --detector nanodet-m.onnx --images FRAMES --out DIR

`--model` takes any sentence-transformers directory (default: the packaged MiniLM);
`--reference` an .npy of the same texts' vectors made elsewhere (one row per text), to
check the vectors against another machine's; `--detector` a NanoDet ONNX file and
`--images` a folder of frames to run it on.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from memory.embedding import PACKAGED_MINILM, SentenceTransformerEmbedder
from perception.devices import accelerators, onnx_providers, torch_device


def _timed(fn, *args) -> tuple[object, float]:
    began = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - began


def _embedder_on(model: str, device: str, batch: list[str], single: list[str]) -> dict:
    embedder = SentenceTransformerEmbedder(model, device=device, cache_size=0)
    embedder.embed(batch)  # load, and warm up every batch shape (a GPU's kernels are chosen per shape)
    runs = [_timed(embedder.embed, batch) for _ in range(3)]
    vectors, seconds = runs[0][0], statistics.median(t for _, t in runs)
    one = [(_timed(embedder.embed, [text])[1]) * 1000 for text in single]
    return {"device": torch_device(device), "vectors": vectors, "texts_per_s": len(batch) / seconds,
            "query_ms_p50": statistics.median(one), "query_ms_max": max(one)}


def _agreement(a: np.ndarray, b: np.ndarray) -> float:
    """The lowest cosine between two runs' vectors of the same texts (1.0 = identical)."""
    return float(np.min(np.sum(a * b, axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))))


def _detector_on(path: Path, device: str, frames: list[np.ndarray]) -> dict:
    from perception.objects import NanoDetDetector

    detector = NanoDetDetector(path, device=device)
    detector.detect_one(frames[0], 0.0)  # load and warm up
    found, seconds = _timed(lambda: [detector.detect_one(f, float(i)) for i, f in enumerate(frames)])
    return {"providers": detector.load().get_providers(), "frames_per_s": len(frames) / seconds,
            "found": [sorted((d.label, round(d.confidence, 2)) for d in per) for per in found]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=PACKAGED_MINILM)
    parser.add_argument("--texts", type=Path, required=True, help="a JSON list of texts to embed")
    parser.add_argument("--reference", type=Path, help=".npy of the same texts' vectors made elsewhere")
    parser.add_argument("--detector", type=Path, help="a NanoDet ONNX file")
    parser.add_argument("--images", type=Path, help="a folder of .jpg/.png frames for the detector")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    args = parser.parse_args(argv)
    console = Console()
    seen = accelerators()
    texts = [str(t) for t in json.loads(args.texts.read_text())]
    single = texts[:100]
    report: dict = {"accelerators": seen, "texts": len(texts)}

    table = Table("check", "auto", "cpu", "ratio / agreement", title="memlens GPU check")
    for lib, status in seen.items():
        table.add_row(f"{lib} sees", status, "", "")
    auto = _embedder_on(args.model, "auto", texts, single)
    cpu = _embedder_on(args.model, "cpu", texts, single)
    report["embedder"] = {run: {k: v for k, v in r.items() if k != "vectors"} for run, r in (("auto", auto), ("cpu", cpu))}
    report["embedder"]["min_cosine_auto_vs_cpu"] = _agreement(auto["vectors"], cpu["vectors"])
    table.add_row("embedder device", auto["device"], cpu["device"], "")
    table.add_row("embed texts/s", f"{auto['texts_per_s']:.0f}", f"{cpu['texts_per_s']:.0f}",
                  f"{auto['texts_per_s'] / cpu['texts_per_s']:.1f}x")
    table.add_row("one query ms p50", f"{auto['query_ms_p50']:.1f}", f"{cpu['query_ms_p50']:.1f}",
                  f"{cpu['query_ms_p50'] / auto['query_ms_p50']:.1f}x")
    table.add_row("vectors agree (min cos)", "", "", f"{report['embedder']['min_cosine_auto_vs_cpu']:.5f}")
    if args.reference:
        reference = np.load(args.reference)
        report["embedder"]["min_cosine_auto_vs_reference"] = _agreement(auto["vectors"], reference)
        table.add_row("vs reference (min cos)", "", "", f"{report['embedder']['min_cosine_auto_vs_reference']:.5f}")

    if args.detector and args.images:
        from PIL import Image

        frames = [np.asarray(Image.open(p).convert("RGB")) for p in sorted(args.images.iterdir())
                  if p.suffix.lower() in (".jpg", ".jpeg", ".png")]
        det_auto = _detector_on(args.detector, "auto", frames)
        det_cpu = _detector_on(args.detector, "cpu", frames)
        same = sum(a == b for a, b in zip(det_auto["found"], det_cpu["found"]))
        report["detector"] = {"auto": {k: v for k, v in det_auto.items() if k != "found"},
                              "cpu": {k: v for k, v in det_cpu.items() if k != "found"},
                              "frames_same_detections": same, "frames": len(frames),
                              "auto_would_use": onnx_providers("auto")}
        table.add_row("detector providers", det_auto["providers"][0], det_cpu["providers"][0], "")
        table.add_row("detector frames/s", f"{det_auto['frames_per_s']:.0f}", f"{det_cpu['frames_per_s']:.0f}",
                      f"{det_auto['frames_per_s'] / det_cpu['frames_per_s']:.1f}x")
        table.add_row("detections agree", "", "", f"{same}/{len(frames)} frames")
    console.print(table)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "gpu_check.json").write_text(json.dumps(report, indent=2, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
