"""When a photo was taken, from its EXIF tags.

A camera writes its own clock, without a zone, into DateTimeOriginal (when the shutter
fired); DateTimeDigitized and DateTime (changed by an editor that re-saves the file) come
after it in trust. An OffsetTimeOriginal tag, where the camera wrote one, places the time
in its zone (perception.decode then converts it to this machine's, its convention).
"""
from __future__ import annotations

from datetime import datetime
from pathlib import Path

_EXIF_IFD = 0x8769
_ORIGINAL, _DIGITIZED, _CHANGED = 36867, 36868, 306
_OFFSETS = {_ORIGINAL: 36881, _DIGITIZED: 36882, _CHANGED: 36880}


def taken_at(path: str | Path) -> datetime | None:
    """When the photo was taken: the camera's wall time (naive), aware when the camera wrote
    its zone's offset, or None (no EXIF, no readable time, a camera without a set clock)."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as image:
            tags = image.getexif()
            inner = tags.get_ifd(_EXIF_IFD)
    except (OSError, UnidentifiedImageError, ValueError, SyntaxError):
        return None
    for tag in (_ORIGINAL, _DIGITIZED, _CHANGED):
        where = inner if tag != _CHANGED else tags
        moment = _parsed(where.get(tag), where.get(_OFFSETS[tag]) or inner.get(_OFFSETS[tag]))
        if moment is not None:
            return moment
    return None


def _parsed(value: object, offset: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    text = value.strip("\x00 ").strip()
    try:
        moment = datetime.strptime(text[:19], "%Y:%m:%d %H:%M:%S")
    except ValueError:
        return None  # "0000:00:00 00:00:00", blanks, other layouts: no time rather than a wrong one
    if moment.year < 1971:  # a camera whose clock was never set
        return None
    zone = offset.strip("\x00 ") if isinstance(offset, str) else ""
    try:
        return datetime.strptime(f"{text[:19]}{zone}", "%Y:%m:%d %H:%M:%S%z") if zone else moment
    except ValueError:
        return moment
