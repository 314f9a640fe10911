"""Perception end to end with the real offline models (faster-whisper base, rapidocr,
Resemblyzer) on generated media: a 16 s video with two shots, two plaques of text and
two synthetic voices. The pipeline runs once per module; tests read its observation."""
from __future__ import annotations

import itertools
import re
import time
from datetime import UTC, datetime, timedelta

import pytest

from perception import (
    EmptyVideoFile,
    FasterWhisperRecognizer,
    NoVideoStream,
    Perceiver,
    PerceptionConfig,
    RapidOcrReader,
    ResemblyzerTagger,
    UnreadableVideo,
    VideoNotFound,
    probe,
    video_to_dict,
)
from tests.test_perception_helpers import (
    VOICE_A,
    VOICE_B,
    Shot,
    Utterance,
    have_espeak,
    mix_speech,
    write_audio_only,
    write_video,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not have_espeak(), reason="espeak-ng is needed to generate test speech"),
]

SHOT_CHANGE = 8.0  # not on a clip boundary, so only shot detection can find it
CLIP_SECONDS = 6.0
MIN_INTERVAL = 4.0
SAMPLE_FPS = 2.0
CREATED_UTC = datetime(2024, 5, 1, 9, 30, tzinfo=UTC)
UTTERANCES = [
    Utterance(1.0, "Could you buy oat milk and eggs", tuple(VOICE_A)),
    Utterance(6.8, "The meeting is moved to Thursday afternoon", tuple(VOICE_B)),
    Utterance(12.5, "Please remember the blue fox at the station", tuple(VOICE_A)),
]


class Counting:
    """Wraps a real backend and counts (and times) calls to its model method."""

    def __init__(self, inner, method: str):
        self.inner, self.method = inner, method
        self.calls, self.seconds = 0, []

    def __getattr__(self, name):
        attr = getattr(self.inner, name)
        if name != self.method:
            return attr

        def counted(*args, **kwargs):
            self.calls += 1
            t0 = time.perf_counter()
            try:
                return attr(*args, **kwargs)
            finally:
                self.seconds.append(time.perf_counter() - t0)

        return counted


@pytest.fixture(scope="module")
def media(tmp_path_factory):
    root = tmp_path_factory.mktemp("media")
    track, windows = mix_speech(UTTERANCES, 16.0, root / "tts")
    shots = [Shot(0, SHOT_CHANGE, (40, 90, 160), "KITCHEN"), Shot(SHOT_CHANGE, 16.0, (200, 120, 40), "BLUEFOX42")]
    video = write_video(root / "day.mp4", shots, audio=track, creation_time="2024-05-01T09:30:00.000000Z")
    silent = write_video(root / "silent.mp4", [Shot(0, 3.0, (20, 140, 60), "EXIT 7")])
    data = video.read_bytes()
    truncated = root / "truncated.mp4"
    truncated.write_bytes(data[: int(len(data) * 0.3)])
    text = root / "notes.mp4"
    text.write_text("this is not a video\n" * 20)
    empty = root / "empty.mp4"
    empty.write_bytes(b"")
    m4a = write_audio_only(root / "voice.m4a", track[: 16000 * 3])
    wav = write_audio_only(root / "voice.wav", track[: 16000 * 3])
    subtitles = root / "talk.srt"  # FFmpeg reads it as a subtitle stream: no pictures, no sound
    subtitles.write_text("1\n00:00:00,000 --> 00:00:02,000\nHello\n\n2\n00:00:03,000 --> 00:00:05,000\nBye\n")
    return {
        "video": video, "windows": windows, "silent": silent, "truncated": truncated,
        "text": text, "empty": empty, "m4a": m4a, "wav": wav, "missing": root / "nope.mp4",
        "no streams": subtitles,
    }


@pytest.fixture(scope="module")
def backends(tmp_path_factory):
    models = tmp_path_factory.mktemp("models")
    return {
        "recognizer": Counting(FasterWhisperRecognizer(model_dir=models), "transcribe"),
        "reader": Counting(RapidOcrReader(), "read"),
        "tagger": Counting(ResemblyzerTagger(), "voices"),
    }


@pytest.fixture(scope="module")
def config(tmp_path_factory):
    return PerceptionConfig(
        clip_seconds=CLIP_SECONDS, sample_fps=SAMPLE_FPS, keyframe_min_interval=MIN_INTERVAL,
        cache_dir=tmp_path_factory.mktemp("cache"),
    )


def make_perceiver(config, backends, progress=None):
    return Perceiver(config, recognizer=backends["recognizer"], reader=backends["reader"],
                     tagger=backends["tagger"], progress=progress)


@pytest.fixture(scope="module")
def run(media, backends, config):
    events: list[tuple[str, float, float | None]] = []
    perceiver = make_perceiver(config, backends, progress=lambda task, done, total: events.append((task, done, total)))
    t0 = time.perf_counter()
    obs = perceiver.perceive(media["video"])
    return {"obs": obs, "events": events, "seconds": time.perf_counter() - t0, "perceiver": perceiver}


def calls(backends) -> dict[str, int]:
    return {name: b.calls for name, b in backends.items()}


def norm(text: str) -> str:
    return re.sub(r"[^a-z0-9 ]", "", text.lower())


def test_probe_reads_container_facts(media):
    info = probe(media["video"])
    assert info.duration == pytest.approx(16.0, abs=0.15)
    assert info.fps == pytest.approx(10.0)
    assert (info.width, info.height) == (640, 360)
    assert info.has_audio and info.video_codec == "h264" and info.audio_codec == "aac"
    # creation_time is UTC in MP4; perception returns naive local wall time
    assert info.creation_time == CREATED_UTC.astimezone().replace(tzinfo=None)


def test_clips_are_cut_on_the_wearers_clock(run):
    obs = run["obs"]
    wall = CREATED_UTC.astimezone().replace(tzinfo=None)
    assert obs.wall_start == wall and obs.channels["clock"] == "container creation_time"
    assert [(c.span.start, c.span.end) for c in obs.clips] == [(0, 6), (6, 12), (12, pytest.approx(16.0, abs=0.15))]
    for clip in obs.clips:
        assert clip.span.video_id == obs.video_id and len(obs.video_id) == 16
        assert clip.span.wall_start == wall + timedelta(seconds=clip.span.start)
    assert obs.clips[-1].span.wall_end == wall + timedelta(seconds=obs.clips[-1].span.end)


def test_keyframes_catch_the_shot_change_and_keep_the_minimum_rate(run):
    obs = run["obs"]
    times = [t for c in obs.clips for t in c.keyframe_times]
    assert any(SHOT_CHANGE <= t <= SHOT_CHANGE + 1 / SAMPLE_FPS + 0.01 for t in times), times
    for clip in obs.clips:
        marks = [clip.span.start, *clip.keyframe_times, clip.span.end]
        assert clip.keyframe_times and clip.keyframe_times[0] == pytest.approx(clip.span.start, abs=0.01)
        gaps = [b - a for a, b in itertools.pairwise(marks)]
        assert max(gaps) <= MIN_INTERVAL + 1 / SAMPLE_FPS + 0.01, (clip.span.index, clip.keyframe_times)
    # the static first shot is not re-sampled at every examined frame
    assert len(times) <= 8, times


def test_ocr_reads_both_plaques_with_boxes_in_frame(run):
    obs = run["obs"]
    by_clip = {c.span.index: {norm(o.text) for o in c.ocr} for c in obs.clips}
    assert "kitchen" in by_clip[0]
    assert "bluefox42" in by_clip[1] | by_clip[2]
    for clip in obs.clips:
        for line in clip.ocr:
            x0, y0, x1, y1 = line.box
            assert 0 <= x0 < x1 <= 640 and 0 <= y0 < y1 <= 360
            assert line.frame_size == (640, 360) and line.confidence >= 0.5
            assert line.frame_time in clip.keyframe_times
            text = norm(line.text)
            assert (text == "kitchen") == (line.frame_time < SHOT_CHANGE)


def test_asr_transcribes_words_with_timestamps_in_the_right_clip(run, media):
    obs = run["obs"]
    (start, end) = media["windows"][0]
    hits = [(c.span.index, s) for c in obs.clips for s in c.asr if "oat milk" in norm(s.text)]
    assert hits, [s.text for c in obs.clips for s in c.asr]
    index, seg = hits[0]
    assert index == 0 and "eggs" in norm(seg.text)
    assert 0.3 <= seg.confidence <= 1.0
    words = {norm(w.text): w for w in seg.words}
    for key in ("oat", "milk", "eggs"):
        w = words[key]
        assert start - 0.5 <= w.start < w.end <= end + 0.5, (key, w, (start, end))
        assert 0 < w.probability <= 1
    assert words["oat"].start < words["milk"].start < words["eggs"].start
    second = [c.span.index for c in obs.clips for s in c.asr if "thursday" in norm(s.text)]
    assert second == [1]


def test_speaker_labels_separate_the_two_voices(run):
    segments = [s for c in run["obs"].clips for s in c.asr]
    label = {}
    for key, needle in (("a1", "oat milk"), ("b", "thursday"), ("a2", "blue fox")):
        label[key] = next(s.speaker for s in segments if needle in norm(s.text))
    assert label["a1"] == "S1" and label["a1"] == label["a2"]
    assert label["b"] == "S2"


def test_a_track_heard_in_pieces_keeps_its_words_clips_and_voices(media, backends):
    """Heard in pieces of at most 6 s (each cut at the quietest half second of its last
    1.5 s): no ASR call hears more than a piece, yet every sentence is heard whole, in its
    clip, and the two voices keep one label each across pieces."""
    config = PerceptionConfig(clip_seconds=CLIP_SECONDS, sample_fps=SAMPLE_FPS, keyframe_min_interval=MIN_INTERVAL,
                              speech_piece_seconds=6.0, ocr_backend="none", detector_backend="none",
                              face_backend="none")
    heard: list[float] = []

    class Measured:
        model_id = backends["recognizer"].inner.model_id

        def transcribe(self, audio, sr):
            heard.append(len(audio) / sr)
            return backends["recognizer"].inner.transcribe(audio, sr)

    obs = Perceiver(config, recognizer=Measured(), tagger=backends["tagger"].inner).perceive(media["video"])
    assert len(heard) >= 3 and max(heard) <= 6.0 and sum(heard) == pytest.approx(16.0, abs=0.1), heard
    segments = [(c.span.index, s) for c in obs.clips for s in c.asr]
    found = {key: [(i, s.speaker) for i, s in segments if needle in norm(s.text)]
             for key, needle in (("a1", "eggs"), ("b", "thursday"), ("a2", "blue fox"))}
    assert found["a1"] == [(0, "S1")] and found["b"] == [(1, "S2")] and found["a2"] == [(2, "S1")], (
        [(i, s.speaker, s.text) for i, s in segments])


def test_channels_and_progress_are_reported(run):
    obs = run["obs"]
    assert obs.channels["asr"] == "on" and obs.channels["ocr"] == "on" and obs.channels["speakers"] == "on"
    assert obs.channels["clip"].startswith("off: no weights configured")
    assert all(c.clip_embeddings is None for c in obs.clips)
    finished = {task for task, done, total in run["events"] if total is not None and done == total}
    assert {"frames", "ocr", "asr", "speakers"} <= finished


def test_second_perceive_does_no_model_work(run, media, backends, config):
    before = calls(backends)
    assert before["recognizer"] == 1 and before["tagger"] == 1 and before["reader"] >= 4
    again = make_perceiver(config, backends).perceive(media["video"])
    assert calls(backends) == before
    assert video_to_dict(again) == video_to_dict(run["obs"])
    # the clock is not part of the cache key: a new wall_start costs no model work either
    moved = make_perceiver(config, backends).perceive(media["video"], wall_start=datetime(2025, 1, 2, 8, 0))
    assert calls(backends) == before and moved.channels["clock"] == "argument"
    assert moved.clips[1].span.wall_start == datetime(2025, 1, 2, 8, 0, 6)


def test_a_corrupt_cache_entry_is_recomputed_alone(run, media, backends, config):
    entries = list((config.cache_dir / run["obs"].video_id / "0").glob("ocr.*.json"))
    assert len(entries) == 1
    entries[0].write_text('{"version": 1, "payl')  # a torn write from some other tool
    before = calls(backends)
    again = make_perceiver(config, backends).perceive(media["video"])
    after = calls(backends)
    assert after["reader"] - before["reader"] == len(run["obs"].clips[0].keyframe_times)
    assert after["recognizer"] == before["recognizer"] and after["tagger"] == before["tagger"]
    assert video_to_dict(again) == video_to_dict(run["obs"])


@pytest.mark.parametrize("name", ["m4a", "wav"])
def test_an_audio_recording_is_heard_and_nothing_is_looked_for(name, media, backends, config):
    obs = make_perceiver(config, backends).perceive(media[name])
    said = " ".join(seg.text for clip in obs.clips for seg in clip.asr).lower()
    assert said.strip() and obs.has_audio
    assert all(not clip.keyframe_times and not clip.ocr and not clip.objects and not clip.faces for clip in obs.clips)
    assert obs.channels["ocr"] == obs.channels["objects"] == "off: an audio recording"
    assert obs.channels["asr"] == "on"


@pytest.mark.parametrize(
    "name, error",
    [("missing", VideoNotFound), ("empty", EmptyVideoFile), ("truncated", UnreadableVideo),
     ("text", UnreadableVideo), ("no streams", NoVideoStream)],
)
def test_bad_inputs_fail_up_front_with_a_clear_error(name, error, media, backends, config):
    before = calls(backends)
    with pytest.raises(error) as caught:
        make_perceiver(config, backends).perceive(media[name])
    assert str(media[name]) in str(caught.value) and isinstance(caught.value, ValueError)
    assert calls(backends) == before  # rejected before any model ran
    with pytest.raises(error):
        probe(media[name])


def test_video_without_audio_is_perceived(media, backends, config):
    info = probe(media["silent"])
    assert not info.has_audio and info.duration == pytest.approx(3.0, abs=0.15)
    before = calls(backends)
    obs = make_perceiver(config, backends).perceive(media["silent"])
    assert not obs.has_audio and obs.channels["asr"] == "off: no audio stream"
    assert obs.channels["clock"] == "file mtime"  # no creation_time in this file
    assert all(c.asr == [] for c in obs.clips) and len(obs.clips) == 1
    assert calls(backends)["recognizer"] == before["recognizer"]
    assert any("exit 7" in norm(o.text) for o in obs.clips[0].ocr)


def test_doctor_status_names_backends(run):
    status = run["perceiver"].channel_status()
    assert status["asr"].startswith("on: faster-whisper base (packaged weights")
    assert status["ocr"].startswith("on: rapidocr") and status["speakers"].startswith("on: resemblyzer")
    assert status["clip"] == "off: no weights configured (set clip_model/clip_pretrained)"
    assert status["cache"].startswith("on: ")


def test_report_timings(run, backends, capsys):
    per_call = {name: b.seconds for name, b in backends.items()}
    with capsys.disabled():
        print(f"\n[perception timings] first perceive of 16 s video: {run['seconds']:.1f} s")
        for name, secs in per_call.items():
            print(f"  {name}: {len(secs)} calls, " + ", ".join(f"{s:.2f}s" for s in secs))
    assert all(per_call.values())
