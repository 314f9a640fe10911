"""Splits ASR segments into speaker turns at pauses.

Whisper groups speech into segments by acoustics, and a quick exchange ("Sure, I'll get
them." / "Thanks.") often lands in one segment. Speaker tagging labels whole segments, so
segments are first cut wherever the word timestamps show a pause long enough to be a
change of turn.
"""
from __future__ import annotations

from dataclasses import replace

from .types import AsrSegment, Word


def join_words(words: list[Word]) -> str:
    """Whisper splits "4.30" into "4" + ".30" and "don't" into "don" + "'t": tokens that
    start with punctuation attach to the previous word."""
    text = ""
    for w in words:
        text += w.text if (not text or not w.text[:1].isalnum()) else " " + w.text
    return text


def segment_of_words(segment: AsrSegment, words: list[Word]) -> AsrSegment:
    """The part of a segment those of its words make up."""
    return replace(
        segment, start=words[0].start, end=words[-1].end, words=tuple(words),
        text=join_words(words),
        confidence=min(segment.confidence, sum(w.probability for w in words) / len(words)),
    )


def split_at_pauses(segments: list[AsrSegment], min_gap: float) -> list[AsrSegment]:
    """Cut each segment where consecutive words are at least `min_gap` seconds apart.

    Segments without word timestamps pass through whole; min_gap <= 0 disables splitting.
    """
    if min_gap <= 0:
        return list(segments)
    out: list[AsrSegment] = []
    for segment in segments:
        words = list(segment.words)
        if len(words) < 2:
            out.append(segment)
            continue
        current = [words[0]]
        for prev, word in zip(words, words[1:]):
            if word.start - prev.end >= min_gap:
                out.append(segment_of_words(segment, current))
                current = []
            current.append(word)
        out.append(segment_of_words(segment, current) if len(current) < len(words) else segment)
    return out
