"""A classifier's second opinion on detected things (perception.classifier,
memory.second_opinion): on real pixels it names what COCO lacks; memory keeps the detector's
class when WordNet says the two agree (with the narrower name beside it), takes the
classifier's name when it is sure and they disagree, and a question's broader word finds it."""
from __future__ import annotations

from datetime import datetime

import numpy as np
import pytest

from eval.media import STREET_CLIP, fetch
from memory.kinds import Kinds
from memory.records import ENTITY_SIGHTING, RecordFilter
from memory.second_opinion import Verdict, verdict
from perception.classifier import EfficientNetLite0, SecondOpinion, imagenet_wnids, square_around
from perception.config import PerceptionConfig
from perception.decode import iter_frames
from perception.objects import CenterNetDetector, make_object_detector
from perception.types import ClipObservation, ClipSpan, ObjectDetection, VideoObservation
from retrieval.operators import MemoryOperators

T0 = datetime(2026, 3, 2, 9, 0)


def _looked(label: str, *names: tuple[str, float], t: float = 1.0) -> ObjectDetection:
    return ObjectDetection(label, 0.5, t, (100.0, 100.0, 300.0, 300.0), (640, 480), "brown", (), 1, 1, names)


def test_memory_weighs_the_classifier_against_the_detector_with_wordnet(kinds):
    van = [_looked("truck", ("moving van", 0.5), ("minivan", 0.2))]
    assert verdict("truck", van, kinds) == Verdict("truck", "moving van")  # agree, and narrower
    taxi = [_looked("car", ("cab", 0.4), ("racer", 0.3))]
    assert verdict("car", taxi, kinds).name == "cab"  # ImageNet's cab is a taxi: its own WordNet sense
    crate = [_looked("suitcase", ("crate", 0.6), ("chest", 0.2)), _looked("suitcase", t=2.0)]
    assert verdict("suitcase", crate, kinds) == Verdict("crate", by="classifier")  # sure, and disagreeing
    unsure = [_looked("airplane", ("dumbbell", 0.18), ("joystick", 0.1))]
    assert verdict("airplane", unsure, kinds) == Verdict("airplane")  # an unsure opinion changes nothing
    assert verdict("dog", [_looked("dog")], kinds) == Verdict("dog")  # no opinion
    assert verdict("truck", van, Kinds(None)) == Verdict("truck")  # without WordNet, the detector's word


def test_the_classifier_names_a_real_bicycle_a_kind_of_bicycle(kinds):
    frame = next(f for _, f in iter_frames(fetch(STREET_CLIP), 1.0, start=5.0))  # the cyclist at the railing
    bike = max((d for d in CenterNetDetector(None).detect_one(frame, 5.0) if d.label == "bicycle"),
               key=lambda d: d.confidence)
    (names,) = EfficientNetLite0().classify([square_around(frame, bike.box)])
    assert len(names) == 3 and names[0][1] >= names[1][1] >= names[2][1] > 0
    wnids = imagenet_wnids()
    assert any(kinds.related(wnids[name], "bicycle") for name, _ in names), names


def test_the_second_opinion_skips_people_and_frames_closer_than_its_interval():
    class Fixed:
        model_id = "fixed"

        def detect(self, frames):
            return [ObjectDetection(label, 0.5, t, (10.0, 10.0, 60.0, 60.0), (100, 100))
                    for t, _ in frames for label in ("person", "cup")]

    class Counting:
        model_id = "counting"
        crops: list = []

        def classify(self, crops):
            self.crops.extend(crops)
            return [(("coffee mug", 0.9),) for _ in crops]

    classifier = Counting()
    opinion = SecondOpinion(Fixed(), classifier, every=1.0)
    frame = np.zeros((100, 100, 3), np.uint8)
    found = opinion.detect([(0.0, frame), (0.5, frame), (1.0, frame)])
    assert [(d.frame_time, d.label, d.seen_as) for d in found if d.seen_as] == [
        (0.0, "cup", (("coffee mug", 0.9),)), (1.0, "cup", (("coffee mug", 0.9),))]
    assert len(classifier.crops) == 2 and classifier.crops[0].shape[0] == classifier.crops[0].shape[1]
    assert "counting" in opinion.model_id  # the cache key follows the classifier
    config = PerceptionConfig(detector_backend="centernet", classifier_backend="efficientnet-lite0")
    assert isinstance(make_object_detector(config), SecondOpinion)
    with pytest.raises(ValueError, match="efficientnet-lite0"):
        make_object_detector(PerceptionConfig(classifier_backend="resnet"))


def test_a_thing_coco_lacks_is_remembered_by_the_classifier_s_name_and_found_by_a_broader_word(memory):
    box = [_looked("suitcase", ("crate", 0.6), ("chest", 0.2), t=t) for t in (1.0, 2.0, 3.0)]
    van = [ObjectDetection("truck", 0.6, t, (300.0, 100.0, 500.0, 300.0), (640, 480), "white", (), 2, 1,
                           (("moving van", 0.5),)) for t in (1.0, 2.0)]
    span = ClipSpan("v", 0, 0.0, 10.0, T0)
    memory.ingest(VideoObservation("v", "/v.mp4", 10.0, T0, False, [ClipObservation(span, objects=box + van)]), "me")
    seen = {r.text: r.attrs for r in memory.store("entity").query(RecordFilter(namespace="me", kinds=(ENTITY_SIGHTING,)))}
    assert seen["brown crate seen"]["source"] == "classifier" and seen["brown crate seen"]["entity"] == "crate"
    assert seen["white moving van seen"]["entity"] == "truck" and seen["white moving van seen"]["fine"] == "moving van"
    assert MemoryOperators(memory).resolve_entity("box", "me", None).entity == "crate"  # a crate is a kind of box
