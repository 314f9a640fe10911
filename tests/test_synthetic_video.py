"""The synthetic video generator: a rendered file must carry exactly what its script says
(rooms as colours, speech where scripted, the wearer's clock), because every generated
benchmark answer is checked against that script."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace

import av
import numpy as np
import pytest

from eval.synthetic import (
    CANNOT_ANSWER,
    Script,
    ScriptError,
    Utterance,
    morning_at_home,
    render,
)
from eval.synthetic.samples import short_scene
from eval.synthetic.script import parse_iso

needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                  reason="espeak-ng is not installed")


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    return render(short_scene(), tmp_path_factory.mktemp("short"))


def frame_at(path, t: float) -> np.ndarray:
    with av.open(str(path)) as container:
        for frame in container.decode(video=0):
            if frame.time >= t - 1e-6:
                return frame.to_ndarray(format="rgb24")
    raise AssertionError(f"no frame at {t}s")


def decoded_audio(path) -> tuple[np.ndarray, int]:
    """Samples placed by their timestamps, so encoder priming cannot shift the windows."""
    with av.open(str(path)) as container:
        stream = container.streams.audio[0]
        rate = stream.rate
        out = np.zeros(int(container.duration / 1e6 * rate) + rate, dtype=np.float32)
        for frame in container.decode(audio=0):
            samples = frame.to_ndarray().mean(axis=0)
            i = max(0, int(round(frame.time * rate)))
            out[i:i + len(samples)] = samples[: len(out) - i]
    return out, rate


def rms(x: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(x, dtype=np.float64))))


@needs_espeak
def test_container_streams_and_clock(rendered):
    script = short_scene()
    with av.open(str(rendered.video_path)) as container:
        video = container.streams.video[0]
        assert (video.codec_context.width, video.codec_context.height) == script.size
        assert container.streams.audio, "no audio stream"
        assert abs(container.duration / 1e6 - script.duration) < 0.5
        assert parse_iso(container.metadata["creation_time"]) == script.start_time()


@needs_espeak
def test_frames_show_the_scripted_room(rendered):
    for t, rgb in ((5.0, (236, 214, 140)), (15.0, (150, 200, 160))):
        pixels = frame_at(rendered.video_path, t).reshape(-1, 3)
        background = np.median(pixels, axis=0)  # the room colour fills most of the frame
        assert np.abs(background - np.array(rgb)).max() < 12, (t, background, rgb)


@needs_espeak
def test_speech_lies_exactly_in_the_utterance_window(rendered):
    (u,) = rendered.script.utterances
    assert u.end is not None and 1.0 < u.end - u.start < 5.0
    audio, rate = decoded_audio(rendered.video_path)
    inside = audio[int(u.start * rate):int(u.end * rate)]
    before = audio[int(0.5 * rate):int((u.start - 1.0) * rate)]
    after = audio[int((u.end + 1.0) * rate):int(19.0 * rate)]
    assert rms(inside) > 0.02
    assert rms(before) < 0.002 and rms(after) < 0.002


@needs_espeak
def test_written_script_is_the_ground_truth(rendered):
    written = Script.from_json(rendered.script_path.read_text())
    assert written == rendered.script
    assert written.utterances[0].end is not None
    assert replace(written, utterances=short_scene().utterances) == short_scene()


def test_json_round_trip():
    for script in (short_scene(), morning_at_home()):
        assert Script.from_json(script.to_json()) == script
        assert json.loads(script.to_json())["shots"][0]["start"] == 0


def test_morning_invariants():
    s = morning_at_home()
    s.validate()
    assert 180 <= s.duration <= 300
    assert len(s.rooms) >= 4 and all(10 <= sh.end - sh.start <= 30 for sh in s.shots)
    assert len({p.voice for p in s.people}) == len(s.people) >= 3
    open_unanswerable = [q for q in s.questions if q.kind == "unanswerable" and not q.options]
    assert len(open_unanswerable) >= 2 and all(q.answer == "" for q in open_unanswerable)
    for q in s.questions:
        if q.options:
            assert CANNOT_ANSWER in q.options and q.answer in q.options
        if q.kind != "unanswerable":
            assert q.answer and q.evidence
            assert all(0 <= a < b <= s.duration for a, b in q.evidence)
    spans = sorted(s.speech_span(u) for u in s.utterances)
    assert all(b[0] - a[1] >= 1.0 for a, b in zip(spans, spans[1:]))  # >= 1 s of silence
    assert all(b - a < 8 for a, b in spans)
    kitchen_then_living = [room for _, room in s.sightings("scissors")]
    assert kitchen_then_living[0] == "kitchen" and kitchen_then_living[-1] == "living room"
    by_id = {q.id: q for q in s.questions}
    assert by_id["scissors"].answer == "living room"
    assert "4:30" in by_id["dentist"].accepted


@pytest.mark.parametrize("broken", [
    lambda s: replace(s, utterances=s.utterances + (Utterance(5.0, "Bob", "en-us+m3", "Hello"),)),
    lambda s: replace(s, utterances=(Utterance(9.0, "Bob", "en-us+m3", "A long line that "
                                               "cannot fit before the cut."),)),
    lambda s: replace(s, shots=(replace(s.shots[0], end=9), s.shots[1])),
    lambda s: replace(s, shots=(replace(s.shots[0], room="garage"), s.shots[1])),
    lambda s: replace(s, utterances=(replace(s.utterances[0], speaker="Carol"),)),
    lambda s: replace(s, questions=(replace(s.questions[0], evidence=((5.0, 25.0),)),)),
    lambda s: replace(s, questions=(replace(s.questions[2], answer="red"),)),
    lambda s: replace(s, questions=(replace(s.questions[0], options=("A", "B")),)),
])
def test_inconsistent_scripts_raise(broken):
    with pytest.raises(ScriptError):
        broken(short_scene()).validate()


@needs_espeak
def test_render_rejects_speech_that_overruns_its_shot(tmp_path):
    s = short_scene()
    late = replace(s.utterances[0], start=8.5)  # ~2.5 s of speech, the shot ends at 10 s
    with pytest.raises(ScriptError, match="past its shot end"):
        render(replace(s, utterances=(late,)), tmp_path)
    assert not (tmp_path / "video.mp4").exists()
