"""Render a Script to an .mp4 (H.264 + AAC via PyAV) and its ground-truth JSON.

Why this shape: perception must meet the same difficulties as on real video (a real
container, compressed frames, camera motion, synthesised speech at its own pace), while
evaluation keeps exact answers. Each shot's static picture is drawn once with PIL; frames
only add a smooth camera jitter and a little sensor noise, so a 4-minute video renders in
seconds and text stays large enough for OCR.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import zlib
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import soundfile as sf
from PIL import Image, ImageDraw, ImageFont

from .script import Placement, Script, ScriptError, Shot, TextArtifact, iso_utc

AUDIO_RATE = 16_000
FONT_PATH = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
INK = (25, 25, 30)
PAPER = {"note": (255, 248, 220), "screen": (240, 246, 255), "sign": (255, 255, 255)}


@dataclass(frozen=True)
class RenderedVideo:
    video_path: Path
    script_path: Path
    script: Script  # the input with exact utterance ends filled in: the ground truth


@dataclass(frozen=True)
class RenderOptions:
    """Knobs that change pixels but not the ground truth."""

    jitter_px: int = 6  # maximum camera drift from centre, at 540 px height
    noise: int = 2  # amplitude of the per-pixel sensor noise (costs x264 time and bits)
    crf: int = 23
    preset: str = "veryfast"  # x264 speed/size trade-off


def render(script: Script, out_dir: str | Path, options: RenderOptions = RenderOptions(),
           stem: str = "video") -> RenderedVideo:
    """Render `script` into out_dir/<stem>.mp4 and out_dir/<stem>.json."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    speech = [(u, synthesize(u.text, u.voice, script.speech_wpm, script.speech_word_gap))
              for u in script.utterances]
    timed = replace(script, utterances=tuple(
        replace(u, end=round(u.start + len(pcm) / AUDIO_RATE, 3)) for u, pcm in speech))
    timed.validate()  # with exact durations, so overlaps and shot overruns are real ones
    audio = np.zeros(int(round(script.duration * AUDIO_RATE)), dtype=np.float32)
    for u, pcm in speech:
        i = int(round(u.start * AUDIO_RATE))
        audio[i:i + len(pcm)] = pcm[: len(audio) - i]
    video_path, script_path = out / f"{stem}.mp4", out / f"{stem}.json"
    _encode(timed, audio, video_path, options)
    script_path.write_text(timed.to_json())
    return RenderedVideo(video_path, script_path, timed)


# ---- audio ----------------------------------------------------------------------------
def synthesize(text: str, voice: str, wpm: int = 150, word_gap: int = 0) -> np.ndarray:
    """Speak `text` with espeak-ng; 16 kHz mono float32 with edge silence trimmed, so the
    utterance starts exactly at its scripted time and its end is exact too."""
    if shutil.which("espeak-ng") is None:
        raise RuntimeError("espeak-ng is not installed (apt-get install espeak-ng)")
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "u.wav"
        subprocess.run(["espeak-ng", "-v", voice, "-s", str(wpm), "-g", str(word_gap),
                        "-w", str(wav), "--stdin"], input=text.encode(), check=True,
                       capture_output=True)  # stdin: text starting with "-" is not an option
        pcm, rate = sf.read(wav, dtype="float32", always_2d=True)
    pcm = _resample(pcm.mean(axis=1), rate)
    loud = np.flatnonzero(np.abs(pcm) > 0.01)
    if loud.size == 0:
        raise ScriptError(f"espeak-ng produced silence for {text!r} ({voice})")
    return np.ascontiguousarray(pcm[loud[0]: loud[-1] + 1])


def _resample(pcm: np.ndarray, rate: int) -> np.ndarray:
    if rate == AUDIO_RATE:
        return pcm
    frame = av.AudioFrame.from_ndarray(pcm[None, :], format="flt", layout="mono")
    frame.sample_rate = rate
    resampler = av.AudioResampler(format="flt", layout="mono", rate=AUDIO_RATE)
    chunks = resampler.resample(frame) + resampler.resample(None)
    return np.concatenate([c.to_ndarray().reshape(-1) for c in chunks]).astype(np.float32)


# ---- video ----------------------------------------------------------------------------
def _encode(script: Script, audio: np.ndarray, path: Path, options: RenderOptions) -> None:
    """Mux frames and audio in time order, so the muxer never buffers a whole stream."""
    width, height = script.size
    pad = 2 * max(1, round(options.jitter_px * height / 540 / 2))  # even: chroma is 2x2
    if not 0 <= options.noise <= 16:
        raise ValueError("noise must be within 0..16 (it rides inside the 16..235 luma range)")
    rng = np.random.default_rng(script.seed)
    noise_bank = rng.integers(0, 2 * options.noise + 1, size=(8, height, width), dtype=np.uint8)
    planes = [_yuv420(np.asarray(draw_shot(script, s, pad)), options.noise) for s in script.shots]
    with av.open(str(path), "w", format="mp4") as container:
        container.metadata["creation_time"] = iso_utc(script.start_time())
        container.metadata["title"] = script.title
        vs = _video_stream(container, script, options)
        aus = container.add_stream("aac", rate=AUDIO_RATE, layout="mono")
        aus.bit_rate = 64_000
        n_frames = int(round(script.duration * script.fps))
        offset = np.array([pad, pad], dtype=float)
        audio_done = 0
        buffer = np.empty(height * width * 3 // 2, dtype=np.uint8)
        y_size, c_size = height * width, height * width // 4
        for i in range(n_frames):
            t = i / script.fps
            y, u, v = planes[next(k for k, s in enumerate(script.shots) if s.start <= t < s.end)]
            # a slow random walk pulled back to centre reads as head motion, not shake
            offset = np.clip(offset + rng.normal(0, 0.8, 2) + 0.05 * (pad - offset), 0, 2 * pad)
            dx, dy = 2 * int(offset[0] / 2), 2 * int(offset[1] / 2)
            np.add(y[dy:dy + height, dx:dx + width], noise_bank[rng.integers(len(noise_bank))],
                   out=buffer[:y_size].reshape(height, width))
            cy, cx, ch, cw = dy // 2, dx // 2, height // 2, width // 2
            buffer[y_size:y_size + c_size].reshape(ch, cw)[:] = u[cy:cy + ch, cx:cx + cw]
            buffer[y_size + c_size:].reshape(ch, cw)[:] = v[cy:cy + ch, cx:cx + cw]
            frame = av.VideoFrame.from_ndarray(buffer.reshape(-1, width), format="yuv420p")
            frame.pts = i
            container.mux(vs.encode(frame))
            audio_done = mux_audio(container, aus, audio, audio_done, int((i + 1) / script.fps * AUDIO_RATE),
                                   last=i == n_frames - 1)
        container.mux(vs.encode(None))
        container.mux(aus.encode(None))


def mux_audio(container: av.container.OutputContainer, stream, audio: np.ndarray, done: int, until: int,
              last: bool = False, chunk: int = 1024) -> int:
    """Mux mono float audio from sample `done` up to `until` (the next video frame's time) in
    whole chunks, and everything left at the last frame; returns the samples muxed so far."""
    until = min(len(audio), until)
    while done + chunk <= until or (last and done < len(audio)):
        samples = audio[done:done + chunk]
        frame = av.AudioFrame.from_ndarray(samples[None, :], format="fltp", layout="mono")
        frame.sample_rate, frame.pts = AUDIO_RATE, done
        container.mux(stream.encode(frame))
        done += len(samples)
    return done


def _video_stream(container: av.container.OutputContainer, script: Script,
                  options: RenderOptions) -> av.VideoStream:
    """H.264 where PyAV's FFmpeg has libx264 (the wheels do), else MPEG-4 Part 2."""
    if "libx264" in av.codecs_available:
        vs = container.add_stream("libx264", rate=script.fps)
        vs.options = {"crf": str(options.crf), "preset": options.preset}
        vs.codec_context.thread_type = "FRAME"  # x264 frame threads stay deterministic
    else:
        vs = container.add_stream("mpeg4", rate=script.fps)
        vs.bit_rate = 2_000_000
    vs.width, vs.height = script.size
    vs.pix_fmt = "yuv420p"
    vs.codec_context.time_base = Fraction(1, script.fps)
    return vs


def _yuv420(rgb: np.ndarray, noise: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """RGB -> BT.601 limited-range planes (what decoders assume for untagged SD H.264),
    converted once per shot. Luma is lowered by `noise` so adding 0..2*noise never wraps."""
    r, g, b = (rgb[..., k].astype(np.float32) for k in range(3))
    y = 16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255 - noise
    u = 128 + (-37.797 * r - 74.203 * g + 112.0 * b) / 255
    v = 128 + (112.0 * r - 93.786 * g - 18.214 * b) / 255
    h, w = y.shape

    def quarter(c: np.ndarray) -> np.ndarray:
        return c.reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))

    return tuple(np.round(p).clip(0, 255).astype(np.uint8) for p in (y, quarter(u), quarter(v)))


# ---- drawing --------------------------------------------------------------------------
def draw_shot(script: Script, shot: Shot, pad: int = 0) -> Image.Image:
    """The static picture of a shot, with `pad` extra pixels on each side for jitter."""
    width, height = script.size
    room = next(r for r in script.rooms if r.name == shot.room)
    image = Image.new("RGB", (width + 2 * pad, height + 2 * pad), room.background_rgb)
    draw = ImageDraw.Draw(image)
    unit = height / 540  # every size below is designed at 540 px and scaled

    def font(px: float) -> ImageFont.FreeTypeFont:
        return ImageFont.truetype(str(FONT_PATH), max(12, round(px * unit)))

    # room sign: big dark capitals on a white plaque, top centre
    _plaque(draw, shot.room.upper(), font(52), (pad + width / 2, pad + 58 * unit),
            (255, 255, 255), 18 * unit, border=INK)
    for placement in shot.objects:
        _draw_object(script, draw, placement, pad, font(30), unit)
    if shot.text is not None:
        _draw_text(draw, shot.text, pad, (width, height), font(60), unit)  # caps >= 28 px at 360p
    if shot.speaker is not None:
        person = next(p for p in script.people if p.name == shot.speaker)
        _draw_person(draw, person.name, person.color_rgb, pad, (width, height), font(30), unit)
    return image


def _plaque(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont,
            centre: tuple[float, float], fill: tuple[int, int, int], margin: float,
            border: tuple[int, int, int] | None = None) -> None:
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font, anchor="mm")
    cx, cy = centre
    box = (cx + left - margin, cy + top - margin, cx + right + margin, cy + bottom + margin)
    draw.rounded_rectangle(box, radius=margin / 2, fill=fill,
                           outline=border, width=max(2, round(margin / 5)))
    draw.text((cx, cy), text, font=font, fill=INK, anchor="mm")


def _draw_object(script: Script, draw: ImageDraw.ImageDraw, p: Placement, pad: int,
                 font: ImageFont.FreeTypeFont, unit: float) -> None:
    obj = next(o for o in script.objects if o.name == p.object)
    width, height = script.size
    cx, cy, r = pad + p.x * width, pad + p.y * height, 42 * unit
    colour, edge = obj.color_rgb, max(2, round(3 * unit))
    if obj.shape == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=INK, width=edge)
    elif obj.shape == "triangle":
        draw.polygon([(cx, cy - r), (cx + r, cy + r), (cx - r, cy + r)], fill=colour,
                     outline=INK, width=edge)
    elif obj.shape == "diamond":
        draw.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=colour,
                     outline=INK, width=edge)
    elif obj.shape == "rect":
        draw.rectangle((cx - 1.5 * r, cy - 0.6 * r, cx + 1.5 * r, cy + 0.6 * r), fill=colour,
                       outline=INK, width=edge)
    else:
        draw.rectangle((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=INK, width=edge)
    label = f"{obj.name} ({p.state})" if p.state else obj.name
    _plaque(draw, label.upper(), font, (cx, cy + r + 30 * unit), (255, 255, 255), 7 * unit)


def _draw_text(draw: ImageDraw.ImageDraw, art: TextArtifact, pad: int,
               size: tuple[int, int], font: ImageFont.FreeTypeFont, unit: float) -> None:
    width, height = size
    boxes = [draw.textbbox((0, 0), line, font=font) for line in art.lines]
    line_h = max(b[3] - b[1] for b in boxes) + 16 * unit
    text_w = max(b[2] - b[0] for b in boxes)
    margin = 26 * unit
    cx, cy = pad + art.x * width, pad + art.y * height
    box_w, box_h = text_w + 2 * margin, line_h * len(art.lines) + 2 * margin - 16 * unit
    box = (cx - box_w / 2, cy - box_h / 2, cx + box_w / 2, cy + box_h / 2)
    if art.kind == "screen":  # a monitor bezel around a bright screen
        bezel = 14 * unit
        draw.rounded_rectangle((box[0] - bezel, box[1] - bezel, box[2] + bezel, box[3] + bezel),
                               radius=bezel, fill=(40, 40, 48))
    draw.rectangle(box, fill=PAPER.get(art.kind, PAPER["note"]), outline=INK,
                   width=max(2, round(2 * unit)))
    if art.kind == "note":  # a fridge magnet
        draw.ellipse((cx - 10 * unit, box[1] - 10 * unit, cx + 10 * unit, box[1] + 10 * unit),
                     fill=(200, 40, 40))
    for k, line in enumerate(art.lines):
        y = box[1] + margin + k * line_h + line_h / 2 - 8 * unit
        draw.text((cx, y), line, font=font, fill=INK, anchor="mm")


def _draw_person(draw: ImageDraw.ImageDraw, name: str, colour: tuple[int, int, int],
                 pad: int, size: tuple[int, int], font: ImageFont.FreeTypeFont,
                 unit: float) -> None:
    width, height = size
    cx, top = pad + 0.86 * width, pad + 0.30 * height
    head = 40 * unit
    skin = (224, 186, 150) if zlib.crc32(name.encode()) % 2 else (170, 120, 90)
    draw.rounded_rectangle((cx - 70 * unit, top + 2 * head, cx + 70 * unit, top + 2 * head
                            + 190 * unit), radius=30 * unit, fill=colour, outline=INK,
                           width=max(2, round(3 * unit)))
    draw.ellipse((cx - head, top, cx + head, top + 2 * head), fill=skin, outline=INK,
                 width=max(2, round(3 * unit)))
    _plaque(draw, name.upper(), font, (cx, top + 2 * head + 70 * unit), (255, 255, 255),
            7 * unit)
