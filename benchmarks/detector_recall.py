"""Object detectors on hand-labelled frames of real footage and photos (eval/detector_frames.py):
how many of the things in view each finds, how many things not there it names, and its
time per frame, for every backend and threshold asked, in one run.

    .venv/bin/python -m benchmarks.detector_recall --out benchmarks/results
    .venv/bin/python -m benchmarks.detector_recall --backend centernet@0.15 --backend centernet@0.25

A backend is `NAME` (its default threshold) or `NAME@THRESHOLD`. Recall counts a labelled
thing found when the detector names it (or a fair alternative) anywhere in the frame; a
false label is a name the frame's labels neither require nor allow. Writes
`detector_recall.json` and `detector_recall.png`. The labels were written before a detector
ran, but the default thresholds were chosen on these frames: read them as a development
set, not a held-out one.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

DEFAULT_BACKENDS = ("nanodet", "centernet", "consensus")


def _frame(path: Path, seconds: float | None) -> np.ndarray:
    """The frame as RGB: a photo whole, a video's first frame at `seconds` as ingest samples it."""
    import cv2

    from perception.decode import iter_frames

    if seconds is None:
        return cv2.cvtColor(cv2.imread(str(path), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    return next(frame for _, frame in iter_frames(path, 1.0, start=seconds))


def _detector(spec: str):
    from perception.objects import DETECTOR_BACKENDS

    name, _, threshold = spec.partition("@")
    detector = DETECTOR_BACKENDS[name](None, float(threshold) if threshold else None)
    detector.load()
    return detector


def measure(specs: list[str], console: Console) -> dict[str, dict]:
    from eval.detector_frames import FRAMES
    from eval.media import fetch

    frames = [(labelled, _frame(fetch(labelled.media), labelled.seconds)) for labelled in FRAMES]
    wanted = sum(len(labelled.must) for labelled in FRAMES)
    results = {}
    for spec in specs:
        detector = _detector(spec)
        detector.detect_one(frames[0][1], 0.0)  # warm-up: the first run allocates
        found, false, per_frame, seconds = 0, 0, {}, []
        for labelled, image in frames:
            began = time.perf_counter()
            labels = {d.label for d in detector.detect_one(image, 0.0)}
            seconds.append(time.perf_counter() - began)
            found += labelled.found(labels)
            wrong = labelled.false_labels(labels)
            false += len(wrong)
            per_frame[labelled.key] = {"labels": sorted(labels), "missed": len(labelled.must) - labelled.found(labels),
                                       "false": sorted(wrong)}
        results[spec] = {"model_id": detector.model_id, "recall": round(found / wanted, 3), "found": found,
                         "wanted": wanted, "false_labels": false,
                         "frames_with_false_labels": sum(bool(f["false"]) for f in per_frame.values()),
                         "frames": len(frames), "ms_per_frame_median": round(1000 * float(np.median(seconds)), 1),
                         "per_frame": per_frame}
        console.print(f"{spec}: recall {found}/{wanted}, {false} false labels")
    return results


def _plot(results: dict[str, dict], path: Path) -> None:
    from eval.report import plot_axes, save_plot

    fig, ax = plot_axes((7, 3.5))
    names = list(results)
    x = np.arange(len(names))
    ax.bar(x - 0.2, [100 * r["recall"] for r in results.values()], 0.4, label="things in view found (%)")
    ax.bar(x + 0.2, [100 * r["frames_with_false_labels"] / r["frames"] for r in results.values()], 0.4,
           label="frames with a false label (%)")
    ax.set_xticks(x, names)
    ax.set_ylim(0, 115)
    save_plot(fig, ax, path, "Object detectors on hand-labelled real frames", loc="upper center", ncol=2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", action="append", help="NAME or NAME@THRESHOLD (repeatable)")
    parser.add_argument("--out", type=Path, default=None, help="write detector_recall.json and .png here")
    args = parser.parse_args(argv)
    console = Console()
    results = measure(args.backend or list(DEFAULT_BACKENDS), console)
    table = Table("backend", "recall", "false labels", "frames with one", "ms / frame")
    for spec, r in results.items():
        table.add_row(spec, f"{r['found']}/{r['wanted']} ({r['recall']:.0%})", str(r["false_labels"]),
                      f"{r['frames_with_false_labels']}/{r['frames']}", str(r["ms_per_frame_median"]))
    console.print(table)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "detector_recall.json").write_text(json.dumps(results, indent=1))
        _plot(results, args.out / "detector_recall.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
