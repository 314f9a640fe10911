"""Cut a video's timeline into fixed-length clips, the unit of memory and of caching.

30 s is the seeds' unit: long enough for an utterance, short enough that "when" answers
are precise. A last remainder shorter than `min_tail` (a fraction of a frame or an audio
packet past the last full clip) is merged into the previous clip instead of becoming a
clip of its own.
"""
from __future__ import annotations

import bisect
import math
from datetime import datetime, timedelta

from .types import ClipSpan


def cut_clips(
    video_id: str,
    duration: float,
    clip_seconds: float,
    wall_start: datetime,
    min_tail: float | None = None,
) -> list[ClipSpan]:
    """[0, duration) as consecutive ClipSpans of `clip_seconds` (the last one shorter).

    `wall_start` is the wearer's clock at source time 0; each span carries its own.
    """
    if clip_seconds <= 0:
        raise ValueError("clip_seconds must be positive")
    if duration <= 0:
        return []
    tail = min(1.0, 0.1 * clip_seconds) if min_tail is None else min_tail
    count = max(1, math.ceil(duration / clip_seconds - 1e-9))
    if count > 1 and duration - (count - 1) * clip_seconds < tail:
        count -= 1
    spans = []
    for index in range(count):
        start = index * clip_seconds
        end = duration if index == count - 1 else (index + 1) * clip_seconds
        spans.append(ClipSpan(video_id, index, start, end, wall_start + timedelta(seconds=start)))
    return spans


def clip_index_at(spans: list[ClipSpan], t: float) -> int | None:
    """Index of the clip containing source time `t`, clamped to the first and last clip.

    Clamping keeps a word that a decoder timestamps a few ms past the end in the video.
    """
    if not spans:
        return None
    pos = bisect.bisect_right(spans, t, key=lambda span: span.end)  # spans are in time order
    return spans[min(pos, len(spans) - 1)].index
