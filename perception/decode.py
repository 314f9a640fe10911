"""Decoding with PyAV: probe a file, sample frames, read the audio track.

PyAV bundles FFmpeg's libraries, so any container FFmpeg reads works without system
packages and without writing frames to disk. Times are seconds from the start of the file
(the container's start_time is subtracted), the same origin for frames and audio.

Clock convention: every datetime perception returns is *naive local wall time*: the
wearer's clock as shown on a wall, without a timezone. Timestamps stored with a timezone
(MP4 `creation_time` is UTC by specification) are converted to this machine's local zone
and then made naive; file mtimes are read as local time, which is the same convention.
"""
from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import av
import numpy as np

from .errors import EmptyVideoFile, NoVideoStream, UnreadableVideo, VideoNotFound
from .exif import taken_at

STILL_SECONDS = 0.04  # how long a photo "lasts": one frame at 25 fps


@dataclass(frozen=True)
class VideoInfo:
    path: str
    duration: float  # seconds
    fps: float
    width: int
    height: int
    has_audio: bool
    creation_time: datetime | None  # naive local wall time, see the module docstring
    video_codec: str = ""
    audio_codec: str = ""
    has_video: bool = True  # False for an audio recording (a voice memo, a call)
    still: bool = False  # a photo: one picture, its time from EXIF (perception.exif)


def to_local_naive(moment: datetime) -> datetime:
    """Aware -> this machine's local wall time without tzinfo; naive is taken as-is."""
    if moment.tzinfo is None:
        return moment
    return moment.astimezone().replace(tzinfo=None)


def parse_creation_time(value: str | None) -> datetime | None:
    """Parse container metadata like '2024-05-01T09:30:00.000000Z'; None if unusable."""
    if not value:
        return None
    text = value.strip().replace("Z", "+00:00")
    if " " in text and "T" not in text:
        text = text.replace(" ", "T", 1)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.year < 1971:  # cameras without a clock write the epoch or 1904
        return None
    # MP4/MOV store UTC; a naive value from those containers is UTC too.
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return to_local_naive(moment)


def _check_path(path: Path) -> None:
    if not path.exists():
        raise VideoNotFound(path)
    if path.is_dir():
        raise VideoNotFound(path, "is a directory, not a video file")
    if path.stat().st_size == 0:
        raise EmptyVideoFile(path)


def _open(path: Path) -> av.container.InputContainer:
    try:
        return av.open(str(path), mode="r")
    except av.FFmpegError as exc:
        raise UnreadableVideo(path, f"not a readable media file ({_reason(exc)})") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise UnreadableVideo(path, f"cannot be opened ({exc})") from exc


def _reason(exc: BaseException) -> str:
    """FFmpeg's own words without the errno prefix and the repeated path."""
    message = getattr(exc, "strerror", None) or str(exc)
    return str(message).strip()


def _origin(container: av.container.InputContainer) -> float:
    """The file's time origin in seconds (containers may start at a non-zero pts)."""
    return container.start_time / av.time_base if container.start_time is not None else 0.0


# FFmpeg renders any text file as "video" through its tty/ANSI demuxer: not a recording.
_TEXT_FORMATS = {"tty"}
_TEXT_CODECS = {"ansi", "text", "subrip", "ass", "webvtt"}


def probe(path: str | Path) -> VideoInfo:
    """Read container facts and decode one frame, so corrupt files fail here, up front."""
    path = Path(path)
    _check_path(path)
    with _open(path) as container:
        if not container.streams.video:
            if container.streams.audio:
                return _probe_audio(path, container)
            kinds = sorted({s.type for s in container.streams})
            what = f"only {', '.join(kinds)} streams" if kinds else "no streams"
            raise NoVideoStream(path, f"neither pictures nor sound ({what})")
        stream = container.streams.video[0]
        if container.format.name in _TEXT_FORMATS or stream.codec_context.name in _TEXT_CODECS:
            raise UnreadableVideo(path, f"a text file, not a video (FFmpeg reads it as {container.format.name})")
        first = _first_frame(path, container, stream)
        if _is_still(container):
            return _probe_still(path, first, stream)
        fps = float(stream.average_rate or stream.guessed_rate or 0.0) or 30.0
        duration = _duration(container, stream)
        if duration <= 0:
            raise UnreadableVideo(path, "the container reports no duration")
        _check_tail(path, container, stream, duration)
        audio = container.streams.audio
        return VideoInfo(
            path=str(path),
            duration=duration,
            fps=fps,
            width=int(first.width),
            height=int(first.height),
            has_audio=bool(audio),
            creation_time=parse_creation_time(
                container.metadata.get("creation_time") or stream.metadata.get("creation_time")
            ),
            video_codec=stream.codec_context.name,
            audio_codec=audio[0].codec_context.name if audio else "",
        )


def _first_frame(path: Path, container: av.container.InputContainer, stream: av.stream.Stream) -> Any:
    """The stream's first decoded frame: a corrupt or empty stream fails here, up front."""
    try:
        first = next(container.decode(stream), None)
    except av.FFmpegError as exc:
        raise UnreadableVideo(path, f"the {stream.type} stream cannot be decoded ({_reason(exc)})") from exc
    if first is None:
        raise UnreadableVideo(path, f"the {stream.type} stream holds no decodable frame (truncated?)")
    return first


def _is_still(container: av.container.InputContainer) -> bool:
    """A single picture (JPEG, PNG, WebP...): FFmpeg opens those with an image demuxer, one
    per format ("jpeg_pipe", "png_pipe") or the file-sequence one ("image2")."""
    name = container.format.name
    return name == "image2" or name.endswith("_pipe")


def _probe_still(path: Path, first: Any, stream: av.stream.Stream) -> VideoInfo:
    """A photo is a one-frame recording: it lasts one frame at 25 fps, and was taken when its
    EXIF says (a PNG rarely carries one: then the file's time, as for any recording)."""
    taken = taken_at(path)
    return VideoInfo(path=str(path), duration=STILL_SECONDS, fps=1 / STILL_SECONDS, width=int(first.width),
                     height=int(first.height), has_audio=False,
                     creation_time=to_local_naive(taken) if taken is not None else None,
                     video_codec=stream.codec_context.name, still=True)


def _probe_audio(path: Path, container: av.container.InputContainer) -> VideoInfo:
    """An audio recording: what is heard is remembered; there is nothing to see."""
    stream = container.streams.audio[0]
    if container.format.name in _TEXT_FORMATS:
        raise UnreadableVideo(path, f"a text file, not a recording (FFmpeg reads it as {container.format.name})")
    _first_frame(path, container, stream)
    duration = _duration(container, stream)
    if duration <= 0:
        raise UnreadableVideo(path, "the container reports no duration")
    _check_tail(path, container, stream, duration)
    return VideoInfo(
        path=str(path), duration=duration, fps=0.0, width=0, height=0, has_audio=True,
        creation_time=parse_creation_time(container.metadata.get("creation_time")
                                          or stream.metadata.get("creation_time")),
        audio_codec=stream.codec_context.name, has_video=False,
    )


def _check_tail(path: Path, container: av.container.InputContainer,
                stream: av.stream.Stream, duration: float) -> None:
    """Read (demux, not decode) the packets of the last seconds: a file cut short after its
    index (an MP4 written index-first, then truncated) opens and starts fine but has no end."""
    if duration <= 2.0:
        return
    origin = _origin(container)
    last = None
    try:
        container.seek(int((duration - 1.0 + origin) * av.time_base), backward=True)
        for packet in container.demux(stream):
            if packet.pts is not None and packet.time_base is not None:
                t = float(packet.pts * packet.time_base) - origin
                last = t if last is None else max(last, t)
    except av.FFmpegError as exc:
        raise UnreadableVideo(path, f"truncated or corrupt near the end ({_reason(exc)})") from exc
    if last is None or last < duration - 2.0:
        ends = "has no data" if last is None else f"ends at {last:.1f} s"
        raise UnreadableVideo(path, f"truncated: the container promises {duration:.1f} s but its {stream.type} {ends}")


def _duration(container: av.container.InputContainer, stream: av.stream.Stream) -> float:
    if stream.duration is not None and stream.time_base is not None:
        return float(stream.duration * stream.time_base)
    if container.duration is not None:
        return container.duration / av.time_base
    if stream.frames and stream.average_rate:
        return stream.frames / float(stream.average_rate)
    return 0.0


def iter_frames(
    path: str | Path, fps: float, start: float = 0.0, end: float | None = None
) -> Iterator[tuple[float, np.ndarray]]:
    """Yield (t_seconds, RGB uint8 HxWx3) about `fps` times per second in [start, end).

    Sampling follows each frame's presentation time, so variable-frame-rate video is
    sampled evenly in time; only the kept frames are converted to RGB.
    """
    if fps <= 0:
        raise ValueError("fps must be positive")
    path = Path(path)
    _check_path(path)
    step = 1.0 / fps
    with _open(path) as container:
        if not container.streams.video:
            raise NoVideoStream(path)
        stream = container.streams.video[0]
        stream.thread_type = "AUTO"
        origin = _origin(container)
        if start > 0:
            # Seek lands on the keyframe at or before `start`; frames before it are skipped.
            container.seek(int((start + origin) * av.time_base), backward=True)
        next_t = start
        try:
            for frame in container.decode(stream):
                if frame.time is None:
                    continue
                t = frame.time - origin
                if end is not None and t >= end:
                    break
                if t + 1e-6 < next_t:
                    continue
                yield t, frame.to_ndarray(format="rgb24")
                next_t = next_t + step * max(1, math.floor((t - next_t) / step) + 1)
        except av.FFmpegError as exc:
            raise UnreadableVideo(path, f"decoding failed after {next_t:.1f} s ({_reason(exc)})") from exc


def iter_audio(path: str | Path, sr: int = 16000) -> Iterator[np.ndarray]:
    """The first audio track as float32 mono at `sr` Hz, in the small pieces the decoder
    gives (a few thousand samples each), so a multi-hour track never sits in memory whole;
    nothing when there is no audio.

    Sample 0 is the file's time origin (a late-starting track is led by silence), so
    sample indices / sr are the same seconds as frame times.
    """
    path = Path(path)
    _check_path(path)
    with _open(path) as container:
        if not container.streams.audio:
            return
        stream = container.streams.audio[0]
        origin = _origin(container)
        resampler = av.AudioResampler(format="flt", layout="mono", rate=sr)
        lead = None
        try:
            for frame in container.decode(stream):
                if lead is None:
                    lead = max(0.0, (frame.time or 0.0) - origin) if frame.time is not None else 0.0
                    if round(lead * sr):
                        yield np.zeros(round(lead * sr), dtype=np.float32)
                for out in resampler.resample(frame):
                    yield out.to_ndarray().reshape(-1).astype(np.float32, copy=False)
            for out in resampler.resample(None):
                yield out.to_ndarray().reshape(-1).astype(np.float32, copy=False)
        except av.FFmpegError as exc:
            raise UnreadableVideo(path, f"the audio track cannot be decoded ({_reason(exc)})") from exc


def read_audio(path: str | Path, sr: int = 16000) -> np.ndarray:
    """The whole first audio track at once (`iter_audio` joined); empty when there is none.
    For short tracks: speech reads long ones piece by piece (perception/speech.py)."""
    pieces = list(iter_audio(path, sr))
    return np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.float32)
