"""Fast perception unit tests: pure functions, cache, config, serialization, decoding of
small generated files. No speech or OCR models load here (the packaged Whisper weights
are assembled, not loaded)."""
from __future__ import annotations

import itertools
import json
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from perception import (
    AsrSegment,
    CallbackProgress,
    ClipObservation,
    ClipSpan,
    NullProgress,
    ObservationCache,
    OcrLine,
    PerceptionConfig,
    RichProgress,
    VideoObservation,
    Word,
    clip_index_at,
    cut_clips,
    iter_audio,
    iter_frames,
    make_image_embedder,
    read_audio,
    select_keyframes,
    video_from_dict,
    video_to_dict,
)
from perception.asr import _confidence, to_16k
from perception.audio_pieces import audio_pieces, quietest_cut
from perception.decode import parse_creation_time
from perception.keyframes import KeyframeSelector
from perception.ocr import polygon_to_box
from perception.progress import as_progress
from perception.speakers import cluster_windows, speech_share, split_by_voice

try:
    from tests.test_perception_helpers import Shot, write_video
except ImportError:  # pragma: no cover
    from test_perception_helpers import Shot, write_video  # type: ignore[no-redef]

T0 = datetime(2026, 3, 2, 8, 0, 0)


# ---- keyframes ------------------------------------------------------------------------
def flat(color, noise=0.0, seed=0, size=(90, 160)):
    rng = np.random.default_rng(seed)
    frame = np.empty((*size, 3), dtype=np.float64)
    frame[:] = color
    frame += rng.normal(0, noise, frame.shape)
    return np.clip(frame, 0, 255).astype(np.uint8)


def test_keyframes_shot_change_min_rate_and_dedup():
    fps = 2.0
    frames = []
    for i in range(int(30 * fps)):
        t = i / fps
        color = (30, 60, 200) if t < 12 else (220, 180, 20)
        if t == 20.0:
            color = (255, 255, 255)  # a one-frame flash
        frames.append((t, flat(color, noise=4, seed=i)))
    keys = [frames[i][0] for i in select_keyframes(frames, min_interval=10, shot_threshold=0.4, dedup_threshold=0.05)]
    assert keys[0] == 0.0 and 12.0 in keys
    marks = keys + [30.0]
    assert max(b - a for a, b in itertools.pairwise(marks)) <= 10.0
    # the flash is a shot change, but coming back from it returns to the last keyframe's look
    assert 20.0 in keys and 20.5 not in keys
    assert len(keys) <= 6, keys


def test_keyframes_static_video_only_minimum_rate():
    frames = [(i / 2, flat((90, 90, 90), noise=6, seed=i)) for i in range(40)]
    keys = [frames[i][0] for i in select_keyframes(frames, min_interval=5)]
    assert keys == [0.0, 5.0, 10.0, 15.0]


def _lower_third(frame: np.ndarray, text: str) -> np.ndarray:
    """A caption bar with white letters across the bottom of the frame, as broadcasts show."""
    import cv2

    out = frame.copy()
    h, w = out.shape[:2]
    out[int(h * 0.8):int(h * 0.95), int(w * 0.05):int(w * 0.7)] = (20, 20, 20)
    cv2.putText(out, text, (int(w * 0.07), int(h * 0.91)), cv2.FONT_HERSHEY_SIMPLEX, h / 500, (255, 255, 255), 2)
    return out


def test_text_appearing_inside_a_shot_makes_a_keyframe_and_text_leaving_does_not():
    captions = {6.0: "RECORDED AT A SALON", 12.0: "NEW YORK, NEW YORK"}  # shown from t until the next, gone at 14
    frames = []
    for i in range(40):
        t = i / 2
        frame = flat((90, 110, 130), size=(360, 640), noise=6, seed=i)
        shown = [text for start, text in captions.items() if start <= t < 14.0]
        frames.append((t, _lower_third(frame, shown[-1]) if shown else frame))
    keys = [frames[i][0] for i in select_keyframes(frames, min_interval=10)]
    assert 6.0 in keys and 12.0 in keys and 14.0 not in keys, keys
    plain = [(t, flat((90, 110, 130), size=(360, 640), noise=6, seed=n)) for n, (t, _) in enumerate(frames)]
    assert [plain[i][0] for i in select_keyframes(plain, min_interval=10)] == [0.0, 10.0]
    # the colour histogram alone would not have looked at the caption
    blind = KeyframeSelector(min_interval=10, text_threshold=0)
    assert [t for t, f in frames if blind.offer(t, f)] == [0.0, 10.0]


# ---- clips ----------------------------------------------------------------------------
def test_cut_clips_last_shorter_and_wall_clock():
    spans = cut_clips("abc", 65.0, 30.0, T0)
    assert [(s.start, s.end) for s in spans] == [(0, 30), (30, 60), (60, 65.0)]
    assert spans[2].wall_start == T0 + timedelta(seconds=60) and spans[2].wall(62.5) == T0 + timedelta(seconds=62.5)
    # a sliver past the last full clip (an audio packet) joins the previous clip
    assert [(s.start, s.end) for s in cut_clips("abc", 60.04, 30.0, T0)] == [(0, 30), (30, 60.04)]
    assert cut_clips("abc", 0.0, 30.0, T0) == []
    assert clip_index_at(spans, 29.99) == 0 and clip_index_at(spans, 30.0) == 1
    assert clip_index_at(spans, 70.0) == 2 and clip_index_at(spans, -0.01) == 0


# ---- config -----------------------------------------------------------------------------
def test_fingerprints_are_stable_and_stage_specific():
    base = PerceptionConfig()
    assert base.fingerprint("asr") == PerceptionConfig().fingerprint("asr")
    changed = PerceptionConfig(ocr_min_confidence=0.7)
    assert changed.fingerprint("ocr") != base.fingerprint("ocr")
    assert changed.fingerprint("asr") == base.fingerprint("asr")
    assert PerceptionConfig(asr_device="cuda").fingerprint("asr") == base.fingerprint("asr")
    assert PerceptionConfig(clip_seconds=10).fingerprint("ocr") != base.fingerprint("ocr")
    with pytest.raises(ValueError):
        base.fingerprint("nope")


# ---- cache ------------------------------------------------------------------------------
def test_cache_roundtrip_corruption_and_deletion(tmp_path):
    cache = ObservationCache(tmp_path)
    key = ("0123456789abcdef", 0, "ocr", "rapidocr", "fp1")
    assert cache.get(*key) is None
    path = cache.put(*key, [{"a": 1}], span=(0.0, 30.0))
    assert cache.get(*key) == [{"a": 1}]
    assert cache.get("0123456789abcdef", 0, "ocr", "rapidocr", "fp2") is None  # other config
    assert not list(path.parent.glob("*.tmp"))  # atomic write left no temp file
    path.write_text("{not json")
    assert cache.get(*key) is None  # corrupt: ignored, recomputed
    cache.put(*key, [1], span=(0.0, 30.0))
    cache.put("0123456789abcdef", 1, "ocr", "rapidocr", "fp1", [2], span=(30.0, 60.0))
    cache.put("0123456789abcdef", "audio", "asr", "whisper", "fp", [3], span=(0.0, 60.0))
    assert cache.delete_range("0123456789abcdef", 35.0, 40.0) == 2  # clip 1 and the whole-track ASR
    assert cache.get(*key) == [1]
    assert cache.delete_video("0123456789abcdef") and cache.get(*key) is None
    with pytest.raises(ValueError):
        cache.put("../evil", 0, "ocr", "m", "f", [])


def test_entry_for_another_key_is_ignored(tmp_path):
    cache = ObservationCache(tmp_path)
    path = cache.put("v1", 0, "asr", "m", "f", {"x": 1})
    entry = json.loads(path.read_text())
    entry["model_id"] = "other"
    path.write_text(json.dumps(entry))
    assert cache.get("v1", 0, "asr", "m", "f") is None


# ---- serialization ----------------------------------------------------------------------
def test_video_observation_roundtrip():
    span = ClipSpan("v", 0, 0.0, 30.0, T0)
    seg = AsrSegment(1.0, 2.0, "hi there", 0.9, (Word("hi", 1.0, 1.4, 0.95), Word("there", 1.4, 2.0, 0.8)), "S1")
    line = OcrLine("EXIT", 0.99, 3.0, (1.0, 2.0, 30.0, 12.0), (640, 360))
    obs = VideoObservation("v", "/x.mp4", 30.0, T0, True,
                           [ClipObservation(span, [0.0, 3.0], [seg], [line], [[0.6, 0.8]])], {"asr": "on"})
    data = json.loads(json.dumps(video_to_dict(obs)))
    assert video_from_dict(data) == obs


# ---- small helpers ----------------------------------------------------------------------
def test_creation_time_parsing_is_naive_local():
    expected = datetime(2024, 5, 1, 9, 30, tzinfo=UTC).astimezone().replace(tzinfo=None)
    assert parse_creation_time("2024-05-01T09:30:00.000000Z") == expected
    assert parse_creation_time("2024-05-01 09:30:00") == expected  # MP4 values are UTC
    assert parse_creation_time("1970-01-01T00:00:00Z") is None
    assert parse_creation_time("garbage") is None and parse_creation_time(None) is None


def test_polygon_to_box_clips_to_frame():
    assert polygon_to_box([[-5, 10], [50, 8], [52, 30], [-3, 31]], 40, 100) == (0.0, 8.0, 40.0, 31.0)


def test_voice_windows_cluster_by_average_likeness_and_stray_windows_join_a_voice():
    rng = np.random.default_rng(3)
    a, b = rng.normal(0, 1, 16), rng.normal(0, 1, 16)
    windows = [a + rng.normal(0, 0.3, 16) for _ in range(20)] + [b + rng.normal(0, 0.3, 16) for _ in range(20)]
    windows.insert(25, rng.normal(0, 1, 16))  # one stray window: a cough
    labels = cluster_windows(np.asarray(windows), threshold=0.6)
    assert labels[:20] == [0] * 20 and labels[21:] == [1] * 20 and labels[20] in (0, 1)
    assert cluster_windows(np.asarray(windows), threshold=0.6, block=10)[:20] == [0] * 20  # in blocks: the same


def test_a_segment_is_cut_where_the_voice_under_its_words_changes():
    words = tuple(Word(w, i * 0.5, i * 0.5 + 0.4, 0.9) for i, w in enumerate("sure thanks see you then bye".split()))
    seg = AsrSegment(0.0, 3.0, "sure thanks see you then bye", 0.9, words)
    voices = {0: 0, 1: 0, 2: 1, 3: 0, 4: 1, 5: 1}  # "see" is a lone word in another voice
    turns = split_by_voice([seg], lambda t: voices[int(t // 0.5)])
    assert [(t.text, t.speaker) for t in turns] == [("sure thanks see you", "S1"), ("then bye", "S2")]
    assert [s.speaker for s in split_by_voice([AsrSegment(0, 1, "x", 1.0)], lambda t: 1)] == ["S2"]


def _said(text: str) -> AsrSegment:
    words = tuple(Word(w, i * 0.5, i * 0.5 + 0.4, 0.9) for i, w in enumerate(text.split()))
    return AsrSegment(0.0, len(words) * 0.5, text, 0.9, words)


def test_a_sentence_begun_and_ended_in_one_voice_is_not_split_between_two():
    # the pyannote call: Diane's "I'm originally from Chicago also." had its middle words
    # sound like Sheila, who had just said the same (a real failure: credited to the other caller)
    seg = _said("I'm originally from Chicago also. I'm in New Jersey now though.")
    middle_elsewhere = [1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1]
    turns = split_by_voice([seg], lambda t: middle_elsewhere[int(t // 0.5)])
    assert [(t.text, t.speaker) for t in turns] == [(seg.text, "S2")]
    exchange = _said("Hello there. Hi, how are you?")  # the voice changes where a sentence ends
    turns = split_by_voice([exchange], lambda t: [0, 0, 1, 1, 1, 1][int(t // 0.5)])
    assert [(t.text, t.speaker) for t in turns] == [("Hello there.", "S1"), ("Hi, how are you?", "S2")]


def test_speech_share_is_the_part_of_a_window_words_cover():
    assert list(speech_share([(0.0, 2.0), (2.0, 4.0)], [(0.5, 1.5), (3.0, 3.2)])) == pytest.approx([0.5, 0.1])


def test_a_long_track_is_cut_into_bounded_pieces_at_its_quiet_moments():
    sr = 100
    rng = np.random.default_rng(0)
    track = rng.normal(0, 0.5, 100 * sr).astype(np.float32)  # 100 s of loud sound
    quiet = [(17.0, 17.6), (35.0, 35.6), (41.0, 41.6), (53.0, 53.6)]  # 41 is in no cut's last 4 s
    for a, b in quiet:
        track[int(a * sr):int(b * sr)] = 0.0
    chunks = np.array_split(track, 37)  # as a decoder hands them over, unevenly
    pieces = list(audio_pieces(chunks, sr, piece_seconds=20.0, search_seconds=4.0))
    assert np.array_equal(np.concatenate([p.samples for p in pieces]), track)  # nothing lost or doubled
    assert all(p.start == pytest.approx(q.end(sr)) for p, q in zip(pieces[1:], pieces))
    assert all(15.0 <= len(p.samples) / sr <= 20.0 for p in pieces[:-1])
    cuts = [p.end(sr) for p in pieces[:3]]  # inside the pauses, not at the 20 s marks
    assert all(a < cut < b for cut, (a, b) in zip(cuts, [quiet[0], quiet[1], quiet[3]])), cuts
    assert quietest_cut(track, sr, 38 * sr, 45 * sr) == pytest.approx(41.3 * sr, abs=0.3 * sr)
    whole = list(audio_pieces(chunks, sr, piece_seconds=120.0))  # shorter than a piece: one, as it is
    assert len(whole) == 1 and whole[0].start == 0.0 and np.array_equal(whole[0].samples, track)
    assert list(audio_pieces([], sr, 20.0)) == []


def test_iter_audio_reads_the_track_in_small_pieces_that_join_to_read_audio(tmp_path):
    video = write_video(tmp_path / "v.mp4", [Shot(0, 3.0, (10, 20, 30), "A")],
                        audio=np.sin(np.linspace(0, 2000, 3 * 16000)).astype(np.float32))
    chunks = list(iter_audio(video, 16000))
    assert len(chunks) > 10 and max(len(c) for c in chunks) < 16000
    assert np.array_equal(np.concatenate(chunks), read_audio(video, 16000))


def test_asr_helpers():
    assert _confidence(0.0, [1.0]) == 1.0
    assert _confidence(None, []) == 0.0
    assert 0.4 < _confidence(np.log(0.5), [0.5]) < 0.6
    out = to_16k(np.ones(8000, dtype=np.float32), 8000)
    assert out.shape == (16000,) and out.dtype == np.float32


def test_progress_adapters():
    seen = []
    progress = as_progress(lambda task, done, total: seen.append((task, done, total)))
    assert isinstance(progress, CallbackProgress)
    progress.start("ocr", 2)
    progress.advance("ocr")
    progress.advance("ocr")
    assert seen[-1] == ("ocr", 2, 2)
    assert isinstance(as_progress(None), NullProgress)
    from rich.progress import Progress

    with Progress(disable=True) as bars:
        rich_progress = as_progress(bars)
        assert isinstance(rich_progress, RichProgress)
        rich_progress.start("asr", 1)
        rich_progress.advance("asr")
        assert bars.tasks[0].completed == 1 and bars.tasks[0].description == "asr"


def test_clip_channel_off_reasons():
    assert make_image_embedder(PerceptionConfig()) == (
        None, "off: no weights configured (set clip_model/clip_pretrained)")
    embedder, reason = make_image_embedder(PerceptionConfig(clip_model="ViT-B-32"))
    assert embedder is None and reason.startswith("off: no weights configured for ViT-B-32")


# ---- decoding ---------------------------------------------------------------------------
def test_iter_frames_samples_by_time_and_seeks(tmp_path):
    video = write_video(tmp_path / "v.mp4", [Shot(0, 2.0, (200, 0, 0)), Shot(2.0, 4.0, (0, 0, 200))], fps=10,
                        size=(160, 96))
    got = list(iter_frames(video, 2.0))
    assert [round(t, 2) for t, _ in got] == [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5]
    assert got[0][1].shape == (96, 160, 3) and got[0][1].dtype == np.uint8
    assert got[0][1][..., 0].mean() > 150 and got[-1][1][..., 2].mean() > 150  # RGB order
    tail = [round(t, 2) for t, _ in iter_frames(video, 2.0, start=2.0, end=3.0)]
    assert tail == [2.0, 2.5]
    assert read_audio(video).shape == (0,)


def test_packaged_whisper_weights_assemble_and_repair(tmp_path):
    from perception.weights import WHISPER_BASE_SHA256, assemble_whisper_base, sha256_of

    target = assemble_whisper_base(tmp_path)
    assert {"model.bin", "config.json", "tokenizer.json", "vocabulary.txt"} <= {p.name for p in target.iterdir()}
    assert sha256_of(target / "model.bin") == WHISPER_BASE_SHA256
    (target / "model.bin").write_bytes(b"broken")  # a damaged copy is detected and rebuilt
    assert sha256_of(assemble_whisper_base(tmp_path) / "model.bin") == WHISPER_BASE_SHA256


def test_keyframes_follow_a_slow_change():
    # blue fades to yellow over 20 s: no two neighbouring samples differ much, but the
    # view drifts far from the first keyframe
    frames = []
    for i in range(40):
        a = i / 39
        color = tuple(int((1 - a) * c0 + a * c1) for c0, c1 in zip((30, 60, 200), (220, 180, 20)))
        frames.append((i / 2, flat(color, noise=3, seed=i)))
    keys = [frames[i][0] for i in select_keyframes(frames, min_interval=30, shot_threshold=0.4)]
    assert keys[0] == 0.0 and len(keys) >= 2, keys


def test_truncated_index_first_mp4_fails_in_probe(tmp_path):
    from perception import UnreadableVideo, probe

    video = write_video(tmp_path / "v.mp4", [Shot(0, 3.0, (200, 0, 0)), Shot(3.0, 6.0, (0, 0, 200))],
                        size=(160, 96), faststart=True)
    assert probe(video).duration == pytest.approx(6.0, abs=0.1)
    cut = tmp_path / "cut.mp4"
    data = video.read_bytes()
    cut.write_bytes(data[: int(len(data) * 0.4)])  # the index survives, the data does not
    with pytest.raises(UnreadableVideo, match="truncated"):
        probe(cut)


def test_missing_optional_backends_switch_their_channel_off(tmp_path):
    from perception import BackendUnavailable, EasyOcrReader, Perceiver, WhisperXRecognizer

    for backend, call in ((WhisperXRecognizer(), lambda b: b.transcribe(np.zeros(16000, np.float32), 16000)),
                          (EasyOcrReader(), lambda b: b.read(np.zeros((8, 8, 3), np.uint8), 0.0))):
        try:
            __import__("whisperx" if isinstance(backend, WhisperXRecognizer) else "easyocr")
        except ImportError:
            with pytest.raises(BackendUnavailable, match="is not installed"):
                call(backend)
    tone = (0.2 * np.sin(2 * np.pi * 440 * np.arange(32000) / 16000)).astype(np.float32)
    video = write_video(tmp_path / "v.mp4", [Shot(0, 2.0, (90, 90, 90))], size=(160, 96), audio=tone)
    config = PerceptionConfig(asr_backend="whisperx", ocr_backend="easyocr", speaker_backend="none")
    perceiver = Perceiver(config)
    obs = perceiver.perceive(video)
    status = perceiver.channel_status()
    for channel, package in (("asr", "whisperx"), ("ocr", "easyocr")):
        try:
            __import__(package)
        except ImportError:
            assert obs.channels[channel].startswith(f"off: {package} is not installed"), obs.channels
            assert status[channel].startswith(f"off: {package} is not installed"), status
    assert obs.channels["clip"].startswith("off: no weights configured") and status["cache"].startswith("off")


def test_waiting_threads_sleep_instead_of_spinning_unless_the_user_says_otherwise():
    import os
    import subprocess
    import sys

    probe = "import memory.memory, torch, os; print(os.environ['OMP_WAIT_POLICY'])"
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "PASSIVE", done.stderr[-2000:]
    done = subprocess.run([sys.executable, "-c", probe], env={**env, "OMP_WAIT_POLICY": "ACTIVE"},
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "ACTIVE", done.stderr[-2000:]


def test_a_frame_larger_than_ocr_max_side_is_searched_for_text_scaled_down_and_read_in_full():
    import cv2
    import numpy as np

    from perception.ocr import RapidOcrReader

    frame = np.full((900, 1600, 3), 255, np.uint8)
    cv2.putText(frame, "EXIT NOW", (300, 500), cv2.FONT_HERSHEY_SIMPLEX, 5, (0, 0, 0), 12)
    reader = RapidOcrReader(0.5, min_side=360, max_side=800)
    lines = reader.read(frame, 3.0)
    assert reader._large_engine is not None and reader._engine is None  # the small-frame engine is never made
    assert any("EXIT" in line.text.upper() for line in lines), [line.text for line in lines]
    assert all(line.frame_size == (1600, 900) and line.box[2] > 800 for line in lines)  # boxes in full-frame pixels


def test_the_text_reader_and_detector_sessions_sleep_when_idle():
    """ONNX Runtime's threads spin by default; beside speech on two cores that burned a
    fifth of the day-like video's ingest CPU (perception.devices.passive_threads)."""
    import numpy as np

    from perception.objects import NanoDetDetector
    from perception.ocr import RapidOcrReader

    reader = RapidOcrReader(0.5)
    reader.read(np.full((64, 64, 3), 255, np.uint8), 0.0)
    engine = reader.load()
    sessions = [engine._load_det_model().session.session, engine._load_rec_model().session.session,
                NanoDetDetector(None).load()]
    assert [s.get_session_options().get_session_config_entry("session.intra_op.allow_spinning")
            for s in sessions] == ["0", "0", "0"]


# ---- devices ----------------------------------------------------------------------------
def test_auto_devices_follow_what_each_library_sees_and_explicit_ones_pass_through():
    import ctranslate2
    import onnxruntime
    import torch

    from perception.devices import ctranslate2_device, onnx_providers, torch_device

    assert torch_device("auto") == ("cuda" if torch.cuda.is_available() else "cpu")
    assert ctranslate2_device("auto") == ("cuda" if ctranslate2.get_cuda_device_count() else "cpu")
    assert torch_device("cuda:1") == "cuda:1" and ctranslate2_device("cpu") == "cpu"
    assert onnx_providers("cpu") == ["CPUExecutionProvider"]
    assert onnx_providers("cuda:1") == [("CUDAExecutionProvider", {"device_id": 1}), "CPUExecutionProvider"]
    has_cuda = "CUDAExecutionProvider" in onnxruntime.get_available_providers()
    assert onnx_providers("auto")[0] == ("CUDAExecutionProvider" if has_cuda else "CPUExecutionProvider")
    assert PerceptionConfig(ocr_device="cpu", clip_device="cpu").fingerprint("ocr") == PerceptionConfig().fingerprint("ocr")


def test_the_torch_embedder_runs_where_auto_resolves_in_single_precision_on_a_cpu():
    from memory.embedding import SentenceTransformerEmbedder
    from perception.devices import torch_device

    embedder = SentenceTransformerEmbedder()
    assert embedder.device == "auto"
    model = embedder.model()
    parameter = next(model.parameters())
    assert parameter.device.type == torch_device("auto").split(":")[0]
    assert str(parameter.dtype) == ("torch.float16" if parameter.device.type == "cuda" else "torch.float32")


def test_importing_memory_or_a_perception_setting_does_not_load_video_or_model_libraries():
    import subprocess
    import sys

    probe = ("import sys, memory.embedding, perception.devices, perception.config; "
             "print(sorted({'av', 'cv2', 'torch', 'onnxruntime', 'faster_whisper'} & set(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr[-2000:]
    lazy = subprocess.run([sys.executable, "-c", "import perception; print(perception.Perceiver.__name__)"],
                          capture_output=True, text=True, timeout=120)
    assert lazy.stdout.strip() == "Perceiver", lazy.stderr[-2000:]


def test_every_name_the_perception_stub_lists_loads():
    import perception

    assert len(perception.__all__) > 40 and "Perceiver" in dir(perception)
    for name in perception.__all__:
        assert getattr(perception, name).__name__ == name


def test_the_libraries_both_threads_import_are_imported_before_the_speech_thread_starts(tmp_path):
    """Two threads importing scipy at once can leave one with a half-initialised module
    (CI once failed so), so a fresh process imports them before it starts the speech thread."""
    import subprocess
    import sys

    video = write_video(tmp_path / "v.mp4", [Shot(0, 1.0, (90, 90, 90))], size=(96, 64))
    probe = f"""
import sys
import perception.pipeline as pipeline
from perception import PerceptionConfig, Perceiver

shared = ("scipy.interpolate", "scipy.signal", "sklearn.cluster", "supervision")
before = [name for name in shared if name in sys.modules]
seen = []

class Watching(pipeline.ThreadPoolExecutor):
    def submit(self, *args, **kwargs):
        seen.append([name for name in shared if name not in sys.modules])
        return super().submit(*args, **kwargs)

pipeline.ThreadPoolExecutor = Watching
config = PerceptionConfig(asr_backend="none", ocr_backend="none", speaker_backend="none",
                          detector_backend="none", face_backend="none")
Perceiver(config).perceive({str(video)!r})
print(before, seen[:1])
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300)
    assert done.stdout.strip() == "[] [[]]", done.stdout + done.stderr[-2000:]


def test_faces_are_looked_for_in_widened_joined_regions_or_the_whole_frame():
    from perception.faces import SMALLEST_FACE, regions_to_scan

    assert regions_to_scan(None, 640, 360) == [(0, 0, 640, 360)]
    assert regions_to_scan([(0, 0, 600, 350)], 640, 360) == [(0, 0, 640, 360)]  # most of the frame: all of it
    apart = regions_to_scan([(100, 100, 140, 200), (400, 100, 440, 200)], 640, 360)
    pad = 0.1 * 100 + SMALLEST_FACE
    assert apart == [(int(100 - pad), int(100 - pad), int(140 + pad + 1), int(200 + pad + 1)),
                     (int(400 - pad), int(100 - pad), int(440 + pad + 1), int(200 + pad + 1))]
    joined = regions_to_scan([(100, 100, 140, 200), (150, 120, 190, 220), (500, 300, 520, 340)], 640, 360)
    assert len(joined) == 2 and joined[0][0] == int(100 - pad) and joined[0][2] == int(190 + pad + 1)
    assert joined[1][3] == 360  # widened up to the frame's edge, not past it


def test_a_face_found_within_a_persons_box_is_the_one_found_on_the_whole_frame():
    from perception.decode import iter_frames
    from perception.faces import DlibFaces
    from tests.media import TED_CLIP, fetch

    finder = DlibFaces()
    for t, frame in iter_frames(fetch(TED_CLIP), 1.0):
        whole = finder.find(frame, t)
        if whole:
            break
    face = whole[0]
    x0, y0, x1, y1 = face.box
    person = (x0 - (x1 - x0), y0 - 0.5 * (y1 - y0), x1 + (x1 - x0), y1 + 3 * (y1 - y0))  # head and shoulders
    within = finder.find(frame, t, [person])
    assert len(within) == 1
    (a0, b0, a1, b1), (c0, d0, c1, d1) = within[0].box, face.box  # HOG's window grid moves with the crop
    overlap = max(0, min(a1, c1) - max(a0, c0)) * max(0, min(b1, d1) - max(b0, d0))
    assert overlap / ((a1 - a0) * (b1 - b0) + (c1 - c0) * (d1 - d0) - overlap) > 0.6
    # the same person, described alike (one speaker's faces lie 0.25-0.48 apart)
    assert np.linalg.norm(np.subtract(within[0].descriptor, face.descriptor)) < 0.2
    height, width = frame.shape[:2]
    elsewhere = (0, 0, 60, 60) if x0 > width / 2 else (width - 60, height - 60, width, height)
    assert finder.find(frame, t, [elsewhere]) == []
