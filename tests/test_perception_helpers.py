"""Test media for the perception tests, generated on the fly (no binary fixtures).

Not a test module itself (it defines no tests); the perception test modules import it.
Video: flat-colour "shots" with black text on a white plaque (PIL), encoded with PyAV.
Speech: the espeak-ng CLI, two clearly different synthetic voices.
"""
from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import soundfile as sf
from PIL import Image, ImageDraw, ImageFont

RATE = 16000
VOICE_A = ["-v", "en-us", "-p", "35"]  # low male voice
VOICE_B = ["-v", "en-us+f4", "-p", "80"]  # high female voice
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")


@dataclass(frozen=True)
class Shot:
    start: float
    end: float
    color: tuple[int, int, int]
    text: str | None = None


@dataclass(frozen=True)
class Utterance:
    start: float
    text: str
    voice: tuple[str, ...]


def have_espeak() -> bool:
    return shutil.which("espeak-ng") is not None


def speak(text: str, voice: list[str] | tuple[str, ...], workdir: Path) -> np.ndarray:
    """espeak-ng speech as float32 mono at 16 kHz."""
    workdir.mkdir(parents=True, exist_ok=True)
    wav = workdir / f"tts_{abs(hash((text, tuple(voice))))}.wav"
    subprocess.run(["espeak-ng", *voice, "-s", "160", "-w", str(wav), text], check=True, capture_output=True)
    data, sr = sf.read(wav, dtype="float32", always_2d=False)
    if data.ndim > 1:
        data = data.mean(axis=1)
    n_out = round(len(data) * RATE / sr)
    return np.interp(np.arange(n_out) * sr / RATE, np.arange(len(data)), data).astype(np.float32)


def mix_speech(utterances: list[Utterance], duration: float, workdir: Path) -> tuple[np.ndarray, list[tuple[float, float]]]:
    """A track of `duration` seconds with each utterance placed at its start; also returns
    each utterance's (start, end) in seconds."""
    track = np.zeros(int(duration * RATE), dtype=np.float32)
    windows = []
    for u in utterances:
        wav = speak(u.text, u.voice, workdir) * 0.8
        i = int(u.start * RATE)
        wav = wav[: len(track) - i]
        track[i : i + len(wav)] += wav
        windows.append((u.start, u.start + len(wav) / RATE))
    return track, windows


def _font(size: int) -> ImageFont.ImageFont:
    if FONT.exists():
        return ImageFont.truetype(str(FONT), size)
    return ImageFont.load_default(size=size)


def draw_frame(size: tuple[int, int], color: tuple[int, int, int], text: str | None) -> np.ndarray:
    width, height = size
    image = Image.new("RGB", size, color)
    if text:
        draw = ImageDraw.Draw(image)
        font = _font(64)
        x0, y0, x1, y1 = draw.textbbox((0, 0), text, font=font)
        tw, th = x1 - x0, y1 - y0
        left, top = (width - tw) // 2, (height - th) // 2
        draw.rectangle([left - 30, top - 25, left + tw + 30, top + th + 25], fill=(255, 255, 255))
        draw.text((left - x0, top - y0), text, fill=(0, 0, 0), font=font)
    return np.asarray(image)


def write_video(
    path: Path,
    shots: list[Shot],
    fps: int = 10,
    size: tuple[int, int] = (640, 360),
    audio: np.ndarray | None = None,
    creation_time: str | None = None,
    faststart: bool = False,
) -> Path:
    """Encode shots (h264) and an optional 16 kHz mono track (AAC) into `path`;
    `faststart` puts the MP4 index before the data, as streaming-friendly cameras do."""
    duration = shots[-1].end
    options = {"movflags": "faststart"} if faststart else {}
    with av.open(str(path), "w", options=options) as container:
        if creation_time:
            container.metadata["creation_time"] = creation_time
        video = container.add_stream("libx264", rate=fps)
        video.width, video.height, video.pix_fmt = size[0], size[1], "yuv420p"
        video.time_base = Fraction(1, fps)
        astream = container.add_stream("aac", rate=RATE, layout="mono") if audio is not None else None
        cache: dict[int, np.ndarray] = {}
        for i in range(round(duration * fps)):
            t = i / fps
            k = next(j for j, s in enumerate(shots) if s.start <= t < s.end or j == len(shots) - 1)
            if k not in cache:
                cache[k] = draw_frame(size, shots[k].color, shots[k].text)
            frame = av.VideoFrame.from_ndarray(cache[k], format="rgb24")
            frame.pts = i
            for packet in video.encode(frame):
                container.mux(packet)
        for packet in video.encode():
            container.mux(packet)
        if astream is not None:
            encode_audio(container, astream, audio)
    return path


def write_audio_only(path: Path, audio: np.ndarray) -> Path:
    """An audio-only file (.m4a -> AAC, .wav -> PCM) written with PyAV."""
    codec = "pcm_s16le" if path.suffix == ".wav" else "aac"
    with av.open(str(path), "w") as container:
        encode_audio(container, container.add_stream(codec, rate=RATE, layout="mono"), audio)
    return path


def encode_audio(container, stream, audio: np.ndarray, step: int = 1024) -> None:
    """Encode mono float audio into `stream` in chunks and flush the encoder."""
    for i in range(0, len(audio), step):
        frame = av.AudioFrame.from_ndarray(audio[i : i + step].reshape(1, -1).astype(np.float32),
                                           format="flt", layout="mono")
        frame.sample_rate = RATE
        frame.pts = i
        for packet in stream.encode(frame):
            container.mux(packet)
    for packet in stream.encode():
        container.mux(packet)
