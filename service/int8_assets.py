"""Set-up step: the int8 copy of PP-OCR's text detector, calibrated once on real photos.

`python -m service.int8_assets` (called by scripts/setup.sh, hence by `make setup`) fetches
the calibration photos (eval/media.py: stills from opencv-doc, none of the clips that tests
and benches read), runs them through the float detector to learn its activation ranges,
and writes `<model_dir>/<detector>.int8.onnx` with its sha256 beside it (perception/int8.py).
Seconds when the copy is already there and intact.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2

from eval.media import CALIBRATION_PHOTOS, fetch_all
from perception.config import PerceptionConfig
from perception.int8 import int8_copy, quantize_int8
from perception.ocr import rapidocr_text_detector, text_detector_feeds


def build_text_detector(model_dir: Path, max_side: int) -> Path:
    source = rapidocr_text_detector()
    photos = (cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2RGB) for path in fetch_all(CALIBRATION_PHOTOS))
    return quantize_int8(source, model_dir, text_detector_feeds(photos, max_side))


def main(argv: list[str] | None = None) -> int:
    defaults = PerceptionConfig()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model-dir", type=Path, default=defaults.model_dir)
    args = parser.parse_args(argv)
    if int8_copy(args.model_dir, rapidocr_text_detector()) is None:
        print(f"setup: making the int8 text detector once ({len(CALIBRATION_PHOTOS)} calibration photos)")
    path = build_text_detector(args.model_dir, defaults.ocr_max_side)
    print(f"setup: int8 text detector ready ({path})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
