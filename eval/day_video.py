"""A day-like video for ingest speed: real footage, with real speech about 30 % of the time.

Pictures are the real clips of eval/media.py (a campus street, hands with a box and a cup, an
animated trailer with title cards, a talk with lower thirds), cut together in turn as a
wearer's day moves between scenes. Sound is quiet room noise with stretches of real speech
(the talk's and the phone call's) laid over it until `speech_share` of the video is speech,
so ASR works as long as it would on a day where people talk a third of the time.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import av
import numpy as np

from eval.media import BOX_CLIP, BUNNY_TRAILER, CALL_AUDIO, CAMPUS_CLIP, CUP_CLIP, TED_CLIP, fetch
from eval.synthetic.render import AUDIO_RATE, mux_audio

PICTURES = (CAMPUS_CLIP, BOX_CLIP, TED_CLIP, CUP_CLIP, BUNNY_TRAILER)
VOICES = (TED_CLIP, CALL_AUDIO)


@dataclass(frozen=True)
class DayVideo:
    path: Path
    duration: float
    speech_seconds: float

    @property
    def speech_share(self) -> float:
        return self.speech_seconds / self.duration


def make_day_video(path: Path, seconds: float, speech_share: float = 0.3, size: tuple[int, int] = (960, 540),
                   fps: int = 24, scene_seconds: float = 20.0, seed: int = 0) -> DayVideo:
    """Write `seconds` of video to `path` (H.264 + AAC in MP4): scenes of `scene_seconds`
    from each real clip in turn (resized to `size`), speech in stretches that add up to
    `speech_share` of the time."""
    rng = np.random.default_rng(seed)
    audio, speech = _soundtrack(seconds, speech_share, rng)
    sources = [_frames(fetch(m), fps, size) for m in PICTURES]
    n_frames = int(round(seconds * fps))
    scene_frames = int(scene_seconds * fps)
    with av.open(str(path), "w", format="mp4") as container:
        vs = container.add_stream("libx264" if "libx264" in av.codecs_available else "mpeg4", rate=fps)
        vs.width, vs.height, vs.pix_fmt = size[0], size[1], "yuv420p"
        vs.codec_context.time_base = Fraction(1, fps)
        if vs.codec_context.name == "libx264":
            vs.options = {"crf": "23", "preset": "veryfast"}
        aus = container.add_stream("aac", rate=AUDIO_RATE, layout="mono")
        done = 0
        for i in range(n_frames):
            rgb = next(sources[(i // scene_frames) % len(sources)])
            frame = av.VideoFrame.from_ndarray(rgb, format="rgb24").reformat(format="yuv420p")
            frame.pts = i
            container.mux(vs.encode(frame))
            done = mux_audio(container, aus, audio, done, int((i + 1) / fps * AUDIO_RATE), last=i == n_frames - 1)
        container.mux(vs.encode(None))
        container.mux(aus.encode(None))
    return DayVideo(path, n_frames / fps, speech)


def _frames(path: Path, fps: int, size: tuple[int, int]):
    """The clip's pictures at `fps`, resized, looping for ever."""
    while True:
        with av.open(str(path)) as container:
            stream = container.streams.video[0]
            next_t = 0.0
            for frame in container.decode(stream):
                t = float(frame.time or 0.0)
                if t + 1e-6 < next_t:
                    continue
                picture = frame.reformat(width=size[0], height=size[1], format="rgb24").to_ndarray()
                while next_t <= t + 1e-6:  # a slow source repeats its frame, as a player would
                    yield picture
                    next_t += 1 / fps


def _soundtrack(seconds: float, speech_share: float, rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """Room noise with stretches of real speech (8 to 25 s each) until speech_share is spoken."""
    n = int(seconds * AUDIO_RATE)
    track = rng.normal(0, 0.003, n).astype(np.float32)
    voices = np.concatenate([_audio(fetch(m)) for m in VOICES])
    want, spoken, cursor, at = int(n * speech_share), 0, 0, 0
    while spoken < want:
        length = min(int(rng.uniform(8, 25) * AUDIO_RATE), want - spoken, len(voices))
        gap = int((n - want) / max(1, (want - spoken) / length) * rng.uniform(0.5, 1.0))
        at = min(at + gap, n - length)
        piece = np.take(voices, np.arange(cursor, cursor + length), mode="wrap")
        track[at:at + length] += piece
        spoken, cursor, at = spoken + length, (cursor + length) % len(voices), at + length
    return np.clip(track, -1, 1), spoken / AUDIO_RATE


def _audio(path: Path) -> np.ndarray:
    with av.open(str(path)) as container:
        resampler = av.AudioResampler(format="flt", layout="mono", rate=AUDIO_RATE)
        chunks = []
        for frame in container.decode(container.streams.audio[0]):
            chunks += [c.to_ndarray().reshape(-1) for c in resampler.resample(frame)]
        chunks += [c.to_ndarray().reshape(-1) for c in resampler.resample(None)]
    return np.concatenate(chunks).astype(np.float32)
