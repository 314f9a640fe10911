"""One frame of a recording as a small JPEG: what a person looks at to recognise a moment
(the memory browser's keyframes, a notebook's evidence). Never raises for a file that is gone,
has no pictures or cannot be read: a missing still is no error."""
from __future__ import annotations

import io
from pathlib import Path

STILL_WIDTH = 320  # pixels


def still_jpeg(path: str | Path, seconds: float, width: int = STILL_WIDTH) -> bytes | None:
    """The frame at `seconds` into the recording, at most `width` wide, as JPEG bytes."""
    from PIL import Image

    from perception.decode import iter_frames

    if not Path(path).is_file():
        return None
    try:
        _, frame = next(iter_frames(path, 1.0, start=max(0.0, seconds)))
    except Exception:  # noqa: BLE001 - no video stream, corrupt file, past the end: no still
        return None
    image = Image.fromarray(frame)
    image.thumbnail((width, width * 2))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=80)
    return out.getvalue()
