"""Faces in view: found and described by dlib, grouped into the people of one video.

`DlibFaces` (default) runs dlib's HOG frontal-face detector and its ResNet face descriptor
(128-d; the models are CC0, from the `face_recognition_models` package, located with
importlib rather than imported, since its __init__ needs pkg_resources). About 0.08 s to
look at a 640-pixel frame and 0.075 s per face found, on 2 cores. dlib's CNN detector is
far slower (14 s a frame here) and is not used.
"""
from __future__ import annotations

import dataclasses
import importlib.util
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .config import PerceptionConfig
from .errors import BackendUnavailable
from .types import FaceSighting

# Descriptors of one person lie within this Euclidean distance (dlib's documented threshold:
# 99.38 % on LFW); measured here: one speaker 0.25-0.48 apart, different people 0.70-1.02.
SAME_FACE = 0.6
# dlib's HOG window is 80 px; looking at the frame upsampled once finds faces from 40 px.
SMALLEST_FACE = 40
# Regions looked in are widened by this share of their larger side (a person's box may clip
# the head) and by a smallest face; once they cover this share of the frame, the whole is.
REGION_MARGIN = 0.1
WHOLE_FRAME_FROM = 0.6
Box = tuple[float, float, float, float]  # x0, y0, x1, y1


@runtime_checkable
class FaceFinder(Protocol):
    model_id: str

    def find(self, image: np.ndarray, frame_time: float, regions: Sequence[Box] | None = None
             ) -> list[FaceSighting]:
        """Faces on the image; within `regions` (image pixels, e.g. where the detector saw a
        person) only, when given."""
        ...


def face_models_dir() -> Path:
    spec = importlib.util.find_spec("face_recognition_models")
    if spec is None or not spec.submodule_search_locations:
        raise BackendUnavailable("face_recognition_models is not installed: pip install face_recognition_models "
                                 "(or set face_backend='none')")
    return Path(next(iter(spec.submodule_search_locations))) / "models"


class DlibFaces:
    model_id = "dlib-hog+resnet-v2"  # v2: looks within the regions it is given

    def __init__(self, max_width: int = 640, upsample: int = 1, min_score: float = 0.0):
        self.max_width = max_width
        self.upsample = upsample
        self.min_score = min_score
        self._models: Any = None

    @staticmethod
    def _import() -> Any:
        try:
            import dlib
        except ImportError as exc:
            raise BackendUnavailable("dlib is not installed: pip install dlib-bin (or set face_backend='none')") from exc
        return dlib

    def describe(self) -> str:
        self._import()
        return f"dlib HOG faces + ResNet descriptors ({face_models_dir()})"

    def load(self) -> Any:
        if self._models is None:
            dlib, models = self._import(), face_models_dir()
            self._models = (dlib.get_frontal_face_detector(),
                            dlib.shape_predictor(str(models / "shape_predictor_5_face_landmarks.dat")),
                            dlib.face_recognition_model_v1(str(models / "dlib_face_recognition_resnet_model_v1.dat")))
        return self._models

    def find(self, image: np.ndarray, frame_time: float, regions: Sequence[Box] | None = None
             ) -> list[FaceSighting]:
        """Faces on the frame scaled to `max_width`; only within `regions` when given. The
        HOG scan costs by area: on the day-like video a 640 x 360 frame took 97 ms, a person's
        320 x 180, 25."""
        from PIL import Image

        detector, landmarks, describer = self.load()
        height, width = image.shape[:2]
        scale = min(1.0, self.max_width / width)
        small = image if scale == 1.0 else np.asarray(
            Image.fromarray(image).resize((round(width * scale), round(height * scale))))
        scaled = None if regions is None else [tuple(v * scale for v in box) for box in regions]
        found = []
        for x0, y0, x1, y1 in regions_to_scan(scaled, small.shape[1], small.shape[0]):
            crop = np.ascontiguousarray(small[y0:y1, x0:x1])
            rects, scores, _ = detector.run(crop, self.upsample, self.min_score)
            for rect, score in zip(rects, scores):
                descriptor = describer.compute_face_descriptor(crop, landmarks(crop, rect))
                box = tuple(round(v / scale, 1) for v in (rect.left() + x0, rect.top() + y0, rect.right() + x0,
                                                          rect.bottom() + y0))
                found.append(FaceSighting(frame_time, box, (width, height), round(float(score), 3),  # type: ignore[arg-type]
                                          tuple(round(float(v), 5) for v in descriptor)))
        return found


def regions_to_scan(regions: Sequence[Box] | None, width: int, height: int) -> list[tuple[int, int, int, int]]:
    """Whole-pixel rectangles to look for faces in: each region widened (`REGION_MARGIN`, a
    smallest face), overlapping ones joined into their bounding box, so no face is looked at
    twice; the whole frame when `regions` is None or they cover most of it (none when empty)."""
    whole = [(0, 0, width, height)]
    if regions is None:
        return whole
    rects = []
    for x0, y0, x1, y1 in regions:
        pad = REGION_MARGIN * max(x1 - x0, y1 - y0) + SMALLEST_FACE
        rects.append([max(0, int(x0 - pad)), max(0, int(y0 - pad)), min(width, int(x1 + pad + 1)),
                      min(height, int(y1 + pad + 1))])
    while pair := next(((i, j) for i in range(len(rects)) for j in range(i + 1, len(rects))
                        if _overlap(rects[i], rects[j])), None):
        i, j = pair
        other = rects.pop(j)
        rects[i] = [min(rects[i][0], other[0]), min(rects[i][1], other[1]), max(rects[i][2], other[2]),
                    max(rects[i][3], other[3])]
    area = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in rects)
    return whole if area >= WHOLE_FRAME_FROM * width * height else [tuple(r) for r in rects if r[2] > r[0] and r[3] > r[1]]


def _overlap(a: Sequence[int], b: Sequence[int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def make_face_finder(config: PerceptionConfig) -> FaceFinder | None:
    if config.face_backend == "none":
        return None
    if config.face_backend == "dlib":
        return DlibFaces(config.face_max_width)
    raise ValueError(f"unknown face_backend {config.face_backend!r}; known: dlib, none")


def cluster_faces(faces: Sequence[FaceSighting], distance: float = SAME_FACE) -> list[FaceSighting]:
    """Each face labelled with the person it belongs to in this video ("F1", "F2"... in
    order of first appearance): a face joins the person whose mean descriptor is nearest,
    when within `distance`, else starts a new one."""
    centroids: list[np.ndarray] = []
    members: list[int] = []
    labelled = []
    for face in sorted(faces, key=lambda f: f.frame_time):
        vector = np.asarray(face.descriptor)
        gaps = [float(np.linalg.norm(c - vector)) for c in centroids]
        best = int(np.argmin(gaps)) if gaps else -1
        if best < 0 or gaps[best] > distance:
            centroids.append(vector)
            members.append(1)
            best = len(centroids) - 1
        else:
            members[best] += 1
            centroids[best] += (vector - centroids[best]) / members[best]
        labelled.append(dataclasses.replace(face, person=f"F{best + 1}"))
    return labelled
