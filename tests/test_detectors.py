"""The object detectors on real pixels (perception.objects): CenterNet, converted at set-up,
finds a street's cyclist where NanoDet finds nothing; the default vote of both keeps what
either is sure of and what both see weakly (a cloth-covered table); each backend is chosen
by name and refuses damaged weights with the fix."""
from __future__ import annotations

import shutil

import cv2
import pytest

from eval.media import BOX_CLIP, PEOPLE_PHOTO, STREET_CLIP, fetch
from perception.config import PerceptionConfig
from perception.decode import iter_frames
from perception.detector_weights import CENTERNET
from perception.errors import BackendUnavailable
from perception.objects import CenterNetDetector, ConsensusDetector, NanoDetDetector, make_object_detector


def _frame_at(seconds: float, media=STREET_CLIP):
    return next(frame for _, frame in iter_frames(fetch(media), 1.0, start=seconds))


def test_centernet_finds_the_cyclist_and_his_bicycle_that_nanodet_misses():
    frame = _frame_at(5.0)  # a man in a helmet astride a bicycle at a railing, a van's back
    centernet = {d.label for d in CenterNetDetector(None).detect_one(frame, 5.0)}
    nanodet = {d.label for d in NanoDetDetector(None).detect_one(frame, 5.0)}
    assert {"person", "bicycle"} <= centernet, centernet
    assert not {"person", "bicycle"} & nanodet, nanodet  # why CenterNet exists here


def test_the_vote_keeps_what_either_detector_is_sure_of_and_what_both_see_weakly():
    vote = ConsensusDetector()
    street = {d.label for d in vote.detect_one(_frame_at(5.0), 5.0)}
    assert {"person", "bicycle"} <= street, street  # CenterNet's, alone and sure
    # a box held over a cloth-covered table: NanoDet scores the table about 0.37 (its own
    # threshold 0.35), CenterNet about 0.15 (under its 0.3); the vote keeps it on this frame
    frame = _frame_at(3.0, BOX_CLIP)
    table = [d for d in vote.detect_one(frame, 3.0) if d.label == "dining table"]
    assert len(table) == 1 and table[0].confidence >= vote.threshold, table
    assert not [d for d in CenterNetDetector(None).detect_one(frame, 3.0) if d.label == "dining table"]
    # a box both report is one box, between the two
    x0, y0, x1, y1 = table[0].box
    assert (x1 - x0) * (y1 - y0) > 0.5 * frame.shape[0] * frame.shape[1]


def test_the_default_detector_is_the_vote_and_names_both_models_in_its_cache_key():
    detector = make_object_detector(PerceptionConfig())
    assert isinstance(detector, ConsensusDetector)
    assert CenterNetDetector.MODEL_ID in detector.model_id and NanoDetDetector.MODEL_ID in detector.model_id
    assert ConsensusDetector(threshold=0.4).model_id != detector.model_id
    with pytest.raises(ValueError, match="two built-in"):
        ConsensusDetector(path=fetch(PEOPLE_PHOTO))


def test_centernet_boxes_are_in_the_frame_s_own_pixels():
    image = cv2.cvtColor(cv2.imread(str(fetch(PEOPLE_PHOTO))), cv2.COLOR_BGR2RGB)
    height, width = image.shape[:2]
    people = [d for d in CenterNetDetector(None).detect_one(image, 0.0) if d.label == "person"]
    assert people, "two men throwing a ball"
    tallest = max(people, key=lambda d: d.box[3] - d.box[1])
    x0, y0, x1, y1 = tallest.box
    assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height and (y1 - y0) > height / 2  # a standing man


def test_the_backend_is_chosen_by_name_and_an_unknown_one_is_refused():
    assert isinstance(make_object_detector(PerceptionConfig(detector_backend="centernet")), CenterNetDetector)
    assert isinstance(make_object_detector(PerceptionConfig(detector_backend="nanodet")), NanoDetDetector)
    assert make_object_detector(PerceptionConfig(detector_backend="none")) is None
    with pytest.raises(ValueError, match="centernet"):
        make_object_detector(PerceptionConfig(detector_backend="yolo"))
    assert CenterNetDetector(None).threshold == CenterNetDetector.DEFAULT_THRESHOLD
    assert CenterNetDetector(None, 0.5).model_id != CenterNetDetector(None).model_id  # the cache key follows


def test_damaged_weights_are_refused_with_the_fix(tmp_path):
    made = PerceptionConfig().model_dir / CENTERNET.onnx
    for path in (made, made.with_name(made.name + ".sha256")):
        shutil.copy(path, tmp_path / path.name)
    with open(tmp_path / CENTERNET.onnx, "r+b") as handle:
        handle.seek(1000)
        handle.write(b"\0" * 16)
    with pytest.raises(BackendUnavailable, match="setup"):
        CenterNetDetector(None, model_dir=tmp_path).load()
    (tmp_path / CENTERNET.onnx).unlink()
    with pytest.raises(BackendUnavailable, match="setup"):
        CenterNetDetector(None, model_dir=tmp_path).load()
