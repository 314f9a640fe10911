"""Things in view from pixels: object detectors behind one small interface.

`NanoDetDetector` (the default) runs NanoDet-m and `CenterNetDetector` (the stronger
option) CenterNet-MobileNetV3, both COCO-80, through onnxruntime; their weights are converted once at
set-up (perception/detector_weights.py). Another ONNX export with the same head plugs in
through `detector_model`; another backend implements `ObjectDetector` and is injected. The label set is the model's
own (COCO's 80 classes), never a list of what our generated worlds draw.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .appearance import look_of, torso_of
from .config import PerceptionConfig
from .detector_weights import CENTERNET, NANODET, DetectorWeights, verified_weights
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


class OnnxDetector:
    """What every ONNX detector here shares: its weights (converted at set-up, or a file of
    the same architecture given as `detector_model`), a session that sleeps when idle, and
    the step from candidate boxes to detections (class-wise NMS, colour and look of each box).
    A subclass says how a frame becomes candidates."""

    WEIGHTS: DetectorWeights
    DEFAULT_THRESHOLD: float
    MODEL_ID: str
    # A box under SMALL of the frame's area is kept only from this score up (None: as any
    # other): too few pixels to tell a rock from a dog unless the model is sure.
    SMALL = 0.005
    SMALL_MIN_SCORE: float | None = None

    def __init__(self, path: Path | None, threshold: float | None = None, nms_iou: float = 0.5, threads: int = 0,
                 labels: Sequence[str] = COCO_LABELS, model_dir: Path | None = None, device: str = "auto"):
        self.path = path
        self.device = device
        self.model_dir = model_dir
        self.threshold = self.DEFAULT_THRESHOLD if threshold is None else threshold
        self.nms_iou = nms_iou
        self.threads = threads
        self.labels = tuple(labels)
        self.model_id = (f"{self.MODEL_ID}@{self.threshold:g}/{nms_iou:g}" if path is None
                         else f"onnx:{Path(path).name}+{self.MODEL_ID}@{self.threshold:g}/{nms_iou:g}")
        self._session: Any = None

    def _weights(self) -> Path:
        if self.path is not None:
            if not Path(self.path).is_file():
                raise BackendUnavailable(f"detector_model {self.path} does not exist")
            return Path(self.path)
        return verified_weights(self.WEIGHTS, self.model_dir or PerceptionConfig().model_dir)

    def describe(self) -> str:
        return f"{self.WEIGHTS.title} COCO-80 ({self._weights()}, min score {self.threshold:g})"

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

    def candidates(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(classes, scores, boxes in the frame's pixels) scoring at least the threshold."""
        raise NotImplementedError

    def detect_one(self, image: np.ndarray, frame_time: float) -> list[ObjectDetection]:
        height, width = image.shape[:2]
        classes, picked_scores, boxes = self.candidates(image)
        if len(classes) == 0:
            return []
        picked = np.clip(boxes, 0, [width, height, width, height])
        out = []
        small = self.SMALL * width * height
        for i in non_max_suppression(picked, picked_scores, classes, self.nms_iou):
            x0, y0, x1, y1 = (float(v) for v in picked[i])
            if x1 - x0 < 2 or y1 - y0 < 2:
                continue
            if self.SMALL_MIN_SCORE is not None and (x1 - x0) * (y1 - y0) < small \
                    and picked_scores[i] < self.SMALL_MIN_SCORE:
                continue
            crop = image[int(y0):int(y1), int(x0):int(x1)]
            if self.labels[classes[i]] == "person":
                crop = torso_of(crop, cut_off_below=y1 >= height - 2)
            colour, appearance = look_of(crop)
            out.append(ObjectDetection(
                label=self.labels[classes[i]], confidence=round(float(picked_scores[i]), 4), frame_time=frame_time,
                box=(round(x0, 1), round(y0, 1), round(x1, 1), round(y1, 1)), frame_size=(width, height),
                colour=colour, appearance=appearance))
        return out

    def detect(self, frames: Sequence[tuple[float, np.ndarray]]) -> list[ObjectDetection]:
        return [d for t, frame in frames for d in self.detect_one(frame, t)]


class CenterNetDetector(OnnxDetector):
    """CenterNet-MobileNetV3 ONNX (the stronger option): input [1,512,512,3] RGB 0-255, the frame
    stretched to the square as the model's own runtime feeds it; output `tower_0/detections`
    [1,100,6]: x0, y0, x1, y1 in input pixels, score, 0-based COCO class. Its heat-map peaks
    score lower than NanoDet's for the same thing, hence its lower threshold: on 27
    hand-labelled real frames (benchmarks/detector_recall.py) 0.3 finds 17 of 30 things in
    view with 5 false labels (2 with SMALL_MIN_SCORE); 0.2 finds 19 with 31, 0.25 17 with
    16. Letterboxing the frame instead of stretching it found 19 at 0.3 but with 10 false
    labels (a "sports ball" on every campus frame)."""

    WEIGHTS = CENTERNET
    SIZE = 512
    OUTPUT = "tower_0/detections"
    DEFAULT_THRESHOLD = 0.3
    # on the campus clip a rock on the lawn was a "dog", cones "fire hydrants" and litter
    # "sports balls", all under 0.42 and under 0.3 % of the frame
    SMALL_MIN_SCORE = 0.45
    MODEL_ID = "centernet-mbv3-onnx+cv2"

    def candidates(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        import cv2

        session = self.load()
        height, width = image.shape[:2]
        square = cv2.resize(np.ascontiguousarray(image), (self.SIZE, self.SIZE), interpolation=cv2.INTER_LINEAR)
        feed = {session.get_inputs()[0].name: square[None].astype(np.float32)}
        detections = session.run([self.OUTPUT], feed)[0][0]
        kept = detections[detections[:, 4] >= self.threshold]
        scale = np.array([width, height, width, height], dtype=np.float64) / self.SIZE
        return kept[:, 5].astype(int), kept[:, 4], kept[:, :4] * scale


class NanoDetDetector(OnnxDetector):
    """NanoDet-m ONNX (the fast option): input [1,3,416,416] RGB/255; per stride 8/16/32
    class scores [1,N,80] (sigmoid applied) and box distances [1,N,44] (4 sides x 11 bins:
    softmax, expected bin, times stride) around each cell centre."""

    WEIGHTS = NANODET
    SIZE = 416
    STRIDES = (8, 16, 32)
    BINS = 11
    # NanoDet-m's scores on real footage: 0.35-0.8 for things a person would name, spurious
    # classes mostly under 0.4 and on one or two frames (tracks drop those, object_tracks.py)
    DEFAULT_THRESHOLD = 0.35
    # "+cv2": the input is resized by OpenCV (boxes differ a little from PIL's); "+torso": a
    # person's colour is read from their top (perception.appearance.torso_of)
    MODEL_ID = "nanodet-m-onnx+cv2+torso"

    def candidates(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every cell and class scoring at least the threshold, over all strides; box bins
        are decoded for those cells only (a frame has 3,549 cells and a few things). The
        frame is resized, scaled and laid out by one OpenCV call, with the bilinear resize
        NanoDet was trained with: 0.3 ms a frame where PIL's resize, a divide and a transpose
        took 5 (real clips: 97.7 % of the boxes found the same, a few more found;
        docs/results/README.md, "... and ingest, stop 15")."""
        import cv2

        session = self.load()
        height, width = image.shape[:2]
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
        scale = np.array([width, height, width, height], dtype=np.float64) / self.SIZE
        return np.concatenate(classes), np.concatenate(scores), np.concatenate(boxes) * scale


def _iou(box: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Intersection over union of one box with each of `boxes` (x0, y0, x1, y1)."""
    x0, y0 = np.maximum(box[0], boxes[:, 0]), np.maximum(box[1], boxes[:, 1])
    x1, y1 = np.minimum(box[2], boxes[:, 2]), np.minimum(box[3], boxes[:, 3])
    inter = np.clip(x1 - x0, 0, None) * np.clip(y1 - y0, 0, None)
    area = (box[2] - box[0]) * (box[3] - box[1]) + (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    return inter / np.maximum(area - inter, 1e-9)


class ConsensusDetector(OnnxDetector):
    """CenterNet and NanoDet vote on every frame. Each sees different things (on the 27
    labelled frames CenterNet finds the street's cars and cyclist, NanoDet the cloth-covered
    table) and each alone makes its own mistakes, so: a box both report (same class,
    IoU >= MATCH) is kept when their mean score reaches the threshold, the two boxes
    averaged by score; a box only one reports must reach that detector's ALONE score.
    Agreement lets weak evidence through (NanoDet's cloth-covered table at 0.37-0.48 is one
    CenterNet scores 0.1-0.19), while what NanoDet alone is about as sure of (a "toilet" and a
    "refrigerator" in a street at 0.36-0.43, which CenterNet scores under 0.05) needs 0.5:
    on the labelled frames this halves the false labels (12 -> 6) at the same recall.
    CenterNet alone keeps its own threshold. Costs both detectors' time (about 50 ms a frame
    on one core)."""

    DEFAULT_THRESHOLD = 0.25
    MATCH = 0.3
    FLOOR = 0.1  # each detector's candidates from this score up; the vote decides
    # each detector, and its ALONE score: what only it reports is kept from there
    MEMBERS = (("centernet", 0.3), ("nanodet", 0.5))
    SMALL_MIN_SCORE = CenterNetDetector.SMALL_MIN_SCORE
    MODEL_ID = f"consensus({CenterNetDetector.MODEL_ID},{NanoDetDetector.MODEL_ID})+alone0.3/0.5"

    def __init__(self, path: Path | None = None, threshold: float | None = None, nms_iou: float = 0.5,
                 threads: int = 0, labels: Sequence[str] = COCO_LABELS, model_dir: Path | None = None,
                 device: str = "auto"):
        if path is not None:
            raise ValueError("detector_model names one ONNX file; the consensus backend runs two built-in ones")
        super().__init__(None, threshold, nms_iou, threads, labels, model_dir, device)
        self.members = [DETECTOR_BACKENDS[name](None, self.FLOOR, nms_iou, threads, labels, model_dir, device)
                        for name, _ in self.MEMBERS]
        self.alone = [alone for _, alone in self.MEMBERS]

    def describe(self) -> str:
        return " + ".join(member.describe() for member in self.members) + f", agreeing at {self.threshold:g}"

    def load(self) -> Any:
        return [member.load() for member in self.members]

    def candidates(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        first, second = (self._own_best(member, image) for member in self.members)
        alone_first, alone_second = self.alone
        classes, scores, boxes = [], [], []
        matched = np.zeros(len(second[0]), dtype=bool)
        for cls, score, box in zip(*first):
            same = np.flatnonzero((second[0] == cls) & ~matched)
            overlap = _iou(box, second[2][same]) if len(same) else np.zeros(0)
            if len(overlap) and overlap.max() >= self.MATCH:
                j = same[overlap.argmax()]
                matched[j] = True
                other = second[1][j]
                score, box = (score + other) / 2, (box * score + second[2][j] * other) / (score + other)
                if score < self.threshold:
                    continue
            elif score < alone_first:
                continue
            classes.append(cls), scores.append(score), boxes.append(box)
        for cls, score, box, was_matched in zip(*second, matched):
            if not was_matched and score >= alone_second:
                classes.append(cls), scores.append(score), boxes.append(box)
        return np.array(classes, dtype=int), np.array(scores), np.array(boxes).reshape(-1, 4)

    def _own_best(self, member: OnnxDetector, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One detector's candidates after its own NMS, so each thing votes once per detector."""
        classes, scores, boxes = member.candidates(image)
        kept = non_max_suppression(boxes, scores, classes, self.nms_iou)
        return classes[kept], scores[kept], boxes[kept]


DETECTOR_BACKENDS: dict[str, type[OnnxDetector]] = {
    "centernet": CenterNetDetector, "nanodet": NanoDetDetector, "consensus": ConsensusDetector}


def make_object_detector(config: PerceptionConfig) -> ObjectDetector | None:
    """The configured detector, unloaded (weights are checked and loaded on first use)."""
    backend = config.detector_backend
    if backend == "none":
        return None
    if backend not in DETECTOR_BACKENDS:
        raise ValueError(f"unknown detector_backend {backend!r}; known: {', '.join(DETECTOR_BACKENDS)}, none")
    detector = DETECTOR_BACKENDS[backend](config.detector_model, config.detector_threshold, config.detector_nms_iou,
                                          model_dir=config.model_dir, device=config.detector_device)
    if config.classifier_backend == "none":
        return detector
    if config.classifier_backend != "efficientnet-lite0":
        raise ValueError(f"unknown classifier_backend {config.classifier_backend!r}; known: efficientnet-lite0, none")
    from .classifier import EfficientNetLite0, SecondOpinion

    return SecondOpinion(detector, EfficientNetLite0(), config.classifier_every)
