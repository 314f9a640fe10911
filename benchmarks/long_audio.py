"""Hearing a long recording: seconds and peak memory of the sound half of ingest (ASR and
speaker turns) on HOURS of audio, mostly quiet room noise with a real two-person call
(pyannote's sample) every ten minutes, as a day from glasses is mostly not speech.

    .venv/bin/python -m benchmarks.long_audio --hours 1 --out benchmarks/results

Peak memory is the process's maximum resident set after the models are loaded and warm,
less what it was before the long track, so it is what hearing that track adds. Writes
`long_audio.json`.
"""
from __future__ import annotations

import argparse
import json
import resource
import tempfile
import time
import wave
from pathlib import Path

import numpy as np
from rich.console import Console

from eval.media import CALL_AUDIO, fetch
from perception.asr import make_speech_recognizer
from perception.config import PerceptionConfig
from perception.decode import probe, read_audio
from perception.progress import NullProgress
from perception.speakers import make_speaker_tagger
from perception.speech import transcribe_track

RATE = 16000


def write_long_track(path: Path, hours: float, every: float = 600.0, seed: int = 0) -> float:
    """A 16-bit mono WAV of `hours`: room noise, the call laid in every `every` seconds;
    returns the seconds of call in it. Written a minute at a time."""
    call = read_audio(fetch(CALL_AUDIO), RATE)
    rng = np.random.default_rng(seed)
    total, step, spoken = int(hours * 3600 * RATE), int(every * RATE), 0
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        for start in range(0, total, 60 * RATE):
            n = min(60 * RATE, total - start)
            minute = rng.normal(0.0, 0.003, n).astype(np.float32)
            for offset in range(start // step * step, start + n, step):  # calls overlapping this minute
                lo, hi = max(offset, start), min(offset + len(call), start + n)
                if hi > lo:
                    minute[lo - start:hi - start] += call[lo - offset:hi - offset]
                    spoken += hi - lo
            out.writeframes((np.clip(minute, -1, 1) * 32767).astype("<i2").tobytes())
    return spoken / RATE


def _max_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hours", type=float, default=1.0)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    args = parser.parse_args(argv)
    console = Console()
    config = PerceptionConfig()
    recognizer, tagger = make_speech_recognizer(config), make_speaker_tagger(config)
    with tempfile.TemporaryDirectory(prefix="memlens-long-audio-") as home:
        warm, track = Path(home) / "warm.wav", Path(home) / "long.wav"
        write_long_track(warm, 60 / 3600)
        with console.status(f"writing {args.hours} h of audio"):
            spoken = write_long_track(track, args.hours)
        transcribe_track(warm, probe(warm), "warm", config, None, NullProgress(), recognizer, tagger)
        before = _max_rss_mb()
        began = time.perf_counter()
        with console.status(f"hearing {args.hours} h"):
            heard = transcribe_track(track, probe(track), "long", config, None, NullProgress(), recognizer, tagger)
        seconds = time.perf_counter() - began
        peak = _max_rss_mb()
    summary = {
        "hours": args.hours, "speech_seconds": round(spoken, 1), "seconds": round(seconds, 1),
        "times_faster_than_real_time": round(args.hours * 3600 / seconds, 1),
        "peak_rss_added_mb": round(peak - before, 1), "peak_rss_mb": round(peak, 1),
        "segments": len(heard.segments), "voices": sorted({s.speaker for s in heard.segments if s.speaker}),
        "asr": heard.asr_status, "speakers": heard.speaker_status,
        "speech_piece_seconds": getattr(config, "speech_piece_seconds", None),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "long_audio.json").write_text(json.dumps(summary, indent=2))
    console.print_json(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
