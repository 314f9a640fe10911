"""Speech is read where it was said: a shop's quick exchange, then a pause, then another
voice's turn. Packing every stretch of speech together (faster-whisper's own `vad_filter`)
made Whisper drop the whole first exchange; memlens reads a stretch of speech the packed
reading left without a word again on its own (perception.asr.speech_clips)."""
from __future__ import annotations

import numpy as np
import pytest

from eval.synthetic import errands_day, synthesize
from eval.synthetic.render import AUDIO_RATE
from perception.asr import FasterWhisperRecognizer, speech_clips


@pytest.fixture(scope="module")
def audio():
    """The errands day's speech (two minutes), each line at its scripted time."""
    script = errands_day()
    track = np.zeros(int(script.duration * AUDIO_RATE), dtype=np.float32)
    for u in script.utterances:
        pcm = synthesize(u.text, u.voice, script.speech_wpm, script.speech_word_gap)
        at = int(u.start * AUDIO_RATE)
        track[at:at + len(pcm)] = pcm[: len(track) - at]
    return track


def test_the_speech_stretches_are_in_the_recordings_own_time(audio):
    clips = speech_clips(audio, gap=5.0)
    assert len(clips) == 5  # the bakery's lines (pauses under 5 s kept), the pharmacy's, three more
    assert clips[0][0] == pytest.approx(3.0, abs=0.6) and clips[1][0] == pytest.approx(29.0, abs=0.6)
    assert speech_clips(np.zeros(AUDIO_RATE * 5, dtype=np.float32), gap=5.0) == []  # silence: nothing to read


def test_every_line_of_a_quick_exchange_is_transcribed(audio, tmp_path_factory):
    recognizer = FasterWhisperRecognizer(model_dir=tmp_path_factory.mktemp("models"))
    segments = recognizer.transcribe(audio, AUDIO_RATE)
    text = " ".join(s.text for s in segments).lower()
    assert "sourdough" in text and "close at" in text and "sorry" in text  # the bakery, first
    assert "insurance card" in text
    first = next(s for s in segments if "sourdough" in s.text.lower())
    assert first.start == pytest.approx(3.0, abs=1.0)  # at the time it was said
