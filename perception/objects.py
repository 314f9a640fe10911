"""Things in view from pixels: object detectors behind one small interface.

`NanoDetDetector` (default) runs NanoDet-m (COCO-80, Apache-2.0) through onnxruntime at
about 0.03 s per frame on 2 cores; its weights are converted once at set-up
(perception/detector_weights.py). Another ONNX export with NanoDet's head plugs in through
`detector_model`; another backend implements `ObjectDetector` and is injected. The label set is the model's
own (COCO's 80 classes), never a list of what our generated worlds draw.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .appearance import look_of
from .config import PerceptionConfig
from .detector_weights import verified_nanodet
from .devices import onnx_providers, passive_threads
from .errors import BackendUnavailable
from .types import ObjectDetection

# The 80 COCO classes in the order every COCO-trained detector emits them.
COCO_LABELS = (
    "person", "bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck", "boat", "traffic light",
    "fire hydrant", "stop sign", "parking meter", "bench", "bird", "cat", "dog", "horse", "sheep", "cow",
    "elephant", "bear", "zebra", "giraffe", "backpack", "umbrella", "handbag", "tie", "suitcase", "frisbee",
    "skis", "snowboard", "sports ball", "kite", "baseball bat", "baseball glove", "skateboard", "surfboard",
    "tennis racket", "bottle", "wine glass", "cup", "fork", "knife", "spoon", "bowl", "banana", "apple",
    "sandwich", "orange", "broccoli", "carrot", "hot dog", "pizza", "donut", "cake", "chair", "couch",
    "potted plant", "bed", "dining table", "toilet", "tv", "laptop", "mouse", "remote", "keyboard",
    "cell phone", "microwave", "oven", "toaster", "sink", "refrigerator", "book", "clock", "vase", "scissors",
    "teddy bear", "hair drier", "toothbrush",
)


@runtime_checkable
class ObjectDetector(Protocol):
    """Finds labelled boxes on RGB frames taken at the given source times."""

    model_id: str

    def detect(self, frames: Sequence[tuple[float, np.ndarray]]) -> list[ObjectDetection]: ...


def non_max_suppression(boxes: np.ndarray, scores: np.ndarray, classes: np.ndarray, iou: float) -> np.ndarray:
    """Indices kept by class-wise NMS (supervision's), best score first."""
    import supervision as sv

    if len(boxes) == 0:
        return np.zeros(0, dtype=int)
    keep = sv.box_non_max_suppression(np.column_stack([boxes, scores, classes]), iou_threshold=iou)
    order = np.flatnonzero(keep)
    return order[np.argsort(-scores[order])]


class NanoDetDetector:
    """NanoDet-m ONNX: input [1,3,416,416] RGB/255; per stride 8/16/32 class scores [1,N,80]
    (sigmoid applied) and box distances [1,N,44] (4 sides x 11 bins: softmax, expected bin,
    times stride) around each cell centre."""

    SIZE = 416
    STRIDES = (8, 16, 32)
    BINS = 11

    def __init__(self, path: Path | None, threshold: float = 0.35, nms_iou: float = 0.5, threads: int = 0,
                 labels: Sequence[str] = COCO_LABELS, model_dir: Path | None = None, device: str = "auto"):
        self.path = path
        self.device = device
        self.model_dir = model_dir
        self.threshold = threshold
        self.nms_iou = nms_iou
        self.threads = threads
        self.labels = tuple(labels)
        # "+cv2": the input is resized by OpenCV (boxes differ a little from PIL's)
        self.model_id = (f"nanodet-m-onnx+cv2@{threshold:g}/{nms_iou:g}" if path is None
                         else f"onnx:{Path(path).name}+cv2@{threshold:g}/{nms_iou:g}")
        self._session: Any = None

    def _weights(self) -> Path:
        if self.path is not None:
            if not Path(self.path).is_file():
                raise BackendUnavailable(f"detector_model {self.path} does not exist")
            return Path(self.path)
        return verified_nanodet(self.model_dir or PerceptionConfig().model_dir)

    def describe(self) -> str:
        return f"NanoDet-m COCO-80 ({self._weights()}, min score {self.threshold})"

    def load(self) -> Any:
        if self._session is None:
            try:
                import onnxruntime as ort
            except ImportError as exc:
                raise BackendUnavailable("onnxruntime is not installed (or set detector_backend='none')") from exc
            options = passive_threads(ort.SessionOptions())
            if self.threads:
                options.intra_op_num_threads = self.threads
            self._session = ort.InferenceSession(str(self._weights()), options, providers=onnx_providers(self.device))
        return self._session

    def _scores_and_boxes(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(classes, scores, boxes in input pixels) of every cell and class scoring at least
        the threshold, over all strides; box bins are decoded for those cells only (a frame
        has 3,549 cells and a few things). The frame is resized, scaled and laid out by one
        OpenCV call, with the bilinear resize NanoDet was trained with: 0.3 ms a frame where
        PIL's resize, a divide and a transpose took 5 (real clips: 97.7 % of the boxes found
        the same, a few more found; docs/results/README.md, "... and ingest, stop 15")."""
        import cv2

        session = self.load()
        blob = cv2.dnn.blobFromImage(np.ascontiguousarray(image), 1 / 255.0, (self.SIZE, self.SIZE))
        feed = {session.get_inputs()[0].name: blob}
        outputs = [o[0] for o in session.run(None, feed)]
        classes, scores, boxes = [], [], []
        for stride in self.STRIDES:
            grid = self.SIZE // stride
            cells = grid * grid
            level_scores = next(o for o in outputs if o.shape == (cells, len(self.labels)))
            cell, cls = np.nonzero(level_scores >= self.threshold)
            bins = next(o for o in outputs if o.shape == (cells, 4 * self.BINS))[cell].reshape(-1, 4, self.BINS)
            weights = np.exp(bins - bins.max(axis=-1, keepdims=True, initial=-np.inf))
            distance = (weights / weights.sum(axis=-1, keepdims=True)) @ np.arange(self.BINS) * stride
            row, col = np.divmod(cell, grid)
            cx, cy = (col + 0.5) * stride, (row + 0.5) * stride
            boxes.append(np.column_stack([cx - distance[:, 0], cy - distance[:, 1],
                                          cx + distance[:, 2], cy + distance[:, 3]]))
            classes.append(cls)
            scores.append(level_scores[cell, cls])
        return np.concatenate(classes), np.concatenate(scores), np.concatenate(boxes)

    def detect_one(self, image: np.ndarray, frame_time: float) -> list[ObjectDetection]:
        height, width = image.shape[:2]
        classes, picked_scores, boxes = self._scores_and_boxes(image)
        if len(classes) == 0:
            return []
        scale = np.array([width, height, width, height], dtype=np.float64) / self.SIZE
        picked = np.clip(boxes * scale, 0, [width, height, width, height])
        out = []
        for i in non_max_suppression(picked, picked_scores, classes, self.nms_iou):
            x0, y0, x1, y1 = (float(v) for v in picked[i])
            if x1 - x0 < 2 or y1 - y0 < 2:
                continue
            colour, appearance = look_of(image[int(y0):int(y1), int(x0):int(x1)])
            out.append(ObjectDetection(
                label=self.labels[classes[i]], confidence=round(float(picked_scores[i]), 4), frame_time=frame_time,
                box=(round(x0, 1), round(y0, 1), round(x1, 1), round(y1, 1)), frame_size=(width, height),
                colour=colour, appearance=appearance))
        return out

    def detect(self, frames: Sequence[tuple[float, np.ndarray]]) -> list[ObjectDetection]:
        return [d for t, frame in frames for d in self.detect_one(frame, t)]


def make_object_detector(config: PerceptionConfig) -> ObjectDetector | None:
    """The configured detector, unloaded (weights are checked and loaded on first use)."""
    backend = config.detector_backend
    if backend == "none":
        return None
    if backend == "nanodet":
        return NanoDetDetector(config.detector_model, config.detector_threshold, config.detector_nms_iou,
                               model_dir=config.model_dir, device=config.detector_device)
    raise ValueError(f"unknown detector_backend {backend!r}; known: nanodet, none")
