"""A long sound track cut into pieces of bounded length at its quietest moments.

Speech is heard piece by piece so that a day-long recording never sits in memory whole
(16 hours at 16 kHz is 3.7 GB of float32) and ASR starts before the track is read. A cut
inside a word would split it between two transcriptions, so each piece ends at the
quietest half second of its last stretch (a pause between utterances, in speech), not at a
fixed length. A track no longer than one piece is one piece, heard exactly as whole.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

QUIET_WINDOW = 0.5  # seconds: the stretch whose loudness is compared when choosing a cut


@dataclass(frozen=True)
class AudioPiece:
    start: float  # seconds on the source track
    samples: np.ndarray  # float32 mono

    def end(self, sr: int) -> float:
        return self.start + len(self.samples) / sr


def quietest_cut(samples: np.ndarray, sr: int, lo: int, hi: int) -> int:
    """The sample in [lo, hi) at the middle of the quietest `QUIET_WINDOW` (lowest RMS)."""
    width = max(1, int(QUIET_WINDOW * sr))
    span = samples[lo:hi].astype(np.float64)
    if len(span) <= width:
        return (lo + hi) // 2
    energy = np.concatenate([[0.0], np.cumsum(span * span)])
    loudness = energy[width:] - energy[:-width]  # sum of squares of each window
    return lo + int(np.argmin(loudness)) + width // 2


def audio_pieces(chunks: Iterable[np.ndarray], sr: int, piece_seconds: float,
                 search_seconds: float = 30.0) -> Iterator[AudioPiece]:
    """Pieces of at most `piece_seconds` and at least three quarters of that, each cut at the
    quietest moment of its last `search_seconds` (or last quarter, when shorter); memory
    holds one piece and the chunk being read."""
    size = max(2, int(piece_seconds * sr))
    search = max(1, min(size // 4, int(search_seconds * sr)))
    pending: list[np.ndarray] = []
    held = 0
    start = 0  # sample index of pending[0][0]
    for chunk in chunks:
        pending.append(chunk)
        held += len(chunk)
        while held > size:
            buffer = np.concatenate(pending)
            cut = quietest_cut(buffer, sr, size - search, size)
            yield AudioPiece(start / sr, buffer[:cut])
            pending, held, start = [buffer[cut:]], len(buffer) - cut, start + cut
    if held:
        yield AudioPiece(start / sr, np.concatenate(pending))
