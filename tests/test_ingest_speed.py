"""What makes ingest faster than life without changing what it finds: the int8 text
detector made at set-up, and the threads that look at and read frames beside decoding."""
from __future__ import annotations

import threading
import time

import numpy as np
import onnxruntime as ort
import pytest

from eval.media import BUNNY_TRAILER, fetch
from perception import BackendUnavailable, Perceiver, PerceptionConfig
from perception.decode import iter_frames
from perception.int8 import int8_copy, quantize_int8
from perception.ocr import RapidOcrReader, make_text_reader, rapidocr_text_detector
from perception.overlap import BoundedWorker
from perception.weights import sidecar_of

try:
    from tests.test_perception_helpers import Shot, write_video
except ImportError:  # pragma: no cover
    from test_perception_helpers import Shot, write_video  # type: ignore[no-redef]


def _conv_model(path):
    """A small float network (conv, relu, conv) to quantize."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(0)
    w1 = numpy_helper.from_array(rng.normal(0, 0.3, (8, 3, 3, 3)).astype(np.float32), "w1")
    w2 = numpy_helper.from_array(rng.normal(0, 0.3, (1, 8, 3, 3)).astype(np.float32), "w2")
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w1"], ["h"], pads=[1, 1, 1, 1]), helper.make_node("Relu", ["h"], ["r"]),
         helper.make_node("Conv", ["r", "w2"], ["y"], pads=[1, 1, 1, 1])],
        "small", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, "h", "w"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, "h", "w"])], initializer=[w1, w2])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)
    return path


def test_an_int8_copy_computes_what_its_float_model_does_and_a_damaged_one_is_not_used(tmp_path):
    source = _conv_model(tmp_path / "small.onnx")
    rng = np.random.default_rng(1)
    feeds = [{"x": rng.uniform(-1, 1, (1, 3, 32, 48)).astype(np.float32)} for _ in range(8)]
    models = tmp_path / "models"
    assert int8_copy(models, source) is None
    copy = quantize_int8(source, models, feeds)
    assert copy == models / "small.int8.onnx" and int8_copy(models, source) == copy
    ops = {node.op_type for node in __import__("onnx").load(str(copy)).graph.node}
    assert {"QuantizeLinear", "DequantizeLinear"} <= ops
    x = rng.uniform(-1, 1, (1, 3, 40, 40)).astype(np.float32)  # another size than calibrated
    (want,) = ort.InferenceSession(str(source)).run(None, {"x": x})
    (got,) = ort.InferenceSession(str(copy)).run(None, {"x": x})
    assert np.abs(got - want).max() < 0.05 * np.abs(want).max()
    made = copy.stat().st_mtime_ns
    assert quantize_int8(source, models, iter(())) == copy and copy.stat().st_mtime_ns == made  # no work twice
    copy.write_bytes(copy.read_bytes()[:-10])  # a torn copy
    assert int8_copy(models, source) is None
    sidecar_of(copy).unlink()
    assert int8_copy(models, source) is None


def test_ocr_on_a_cpu_uses_the_int8_detector_made_at_set_up_unless_asked_not_to(tmp_path, caplog):
    config = PerceptionConfig()
    assert int8_copy(config.model_dir, rapidocr_text_detector()) is not None, "scripts/setup.sh makes it"
    assert make_text_reader(config).model_id == "rapidocr-ppocr+PP-OCRv6_det_small.int8"
    assert make_text_reader(PerceptionConfig(ocr_int8=False)).model_id == "rapidocr-ppocr"
    with caplog.at_level("WARNING"):
        assert make_text_reader(PerceptionConfig(model_dir=tmp_path)).model_id == "rapidocr-ppocr"
    assert "int8 text detector was not made" in caplog.text


def test_the_int8_detector_reads_a_cartoons_title_card_as_the_float_one_does():
    frame = next(f for t, f in iter_frames(fetch(BUNNY_TRAILER), 1.0, start=6.0))
    config = PerceptionConfig()
    int8 = make_text_reader(config)
    assert "int8" in int8.model_id
    float_reader = RapidOcrReader(config.ocr_min_confidence, min_side=config.ocr_min_side,
                                  max_side=config.ocr_max_side)
    for reader in (float_reader, int8):
        read = [line.text for line in reader.read(frame, 6.0)]
        assert "The Blender Foundation and" in read and "Peach Project presents" in read, (reader.model_id, read)


def test_a_bounded_worker_runs_in_order_blocks_when_full_and_raises_the_first_failure():
    gate, done = threading.Event(), []
    with BoundedWorker(2, "test") as worker:
        worker.submit(gate.wait)
        worker.submit(done.append, 1)
        blocked = threading.Thread(target=worker.submit, args=(done.append, 2))
        blocked.start()
        time.sleep(0.2)
        assert blocked.is_alive() and done == []  # two queued: the third waits for a slot
        gate.set()
        blocked.join(5)
        worker.drain()
    assert done == [1, 2]
    later = threading.Event()
    with BoundedWorker(4, "test") as worker:
        worker.submit(later.wait)
        worker.submit(lambda: 1 / 0)
        worker.submit(done.append, 3)  # queued before the failure: it still runs
        later.set()
        with pytest.raises(ZeroDivisionError):
            worker.drain()
    assert done == [1, 2, 3]
    with BoundedWorker(4, "test") as worker:  # a failure stops the next submit, not only the drain
        worker.submit(lambda: 1 / 0).exception(5)
        with pytest.raises(ZeroDivisionError):
            worker.submit(done.append, 4)
    assert done == [1, 2, 3]


class _Reader:
    model_id = "test-reader"

    def __init__(self, error: Exception):
        self.error = error

    def read(self, image, frame_time):
        raise self.error


def test_a_reader_failing_in_the_keyframe_thread_turns_ocr_off_or_fails_the_ingest(tmp_path):
    video = write_video(tmp_path / "v.mp4", [Shot(0, 2.0, (90, 90, 90), "HELLO"), Shot(2.0, 4.0, (20, 90, 20))],
                        size=(320, 180))
    config = PerceptionConfig(asr_backend="none", speaker_backend="none", detector_backend="none",
                              face_backend="none", clip_seconds=2.0)
    unavailable = Perceiver(config, reader=_Reader(BackendUnavailable("no reader here")))
    obs = unavailable.perceive(video)
    assert obs.channels["ocr"] == "off: no reader here" and all(c.ocr == [] for c in obs.clips)
    assert obs.clips[0].keyframe_times  # the pictures were still looked at
    with pytest.raises(RuntimeError, match="a bug"):  # not an unavailable backend: not hidden
        Perceiver(config, reader=_Reader(RuntimeError("a bug"))).perceive(video)
