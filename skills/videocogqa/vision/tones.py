"""Sustained pitches in an audio track (S10's notes): a short-time FFT, the dominant
frequency of each loud window, and runs of a stable pitch merged into tones.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from skills.videocogqa.symbols import Tone

# Notes 1-7 of the C-major scale (C4 D4 E4 F4 G4 A4 B4), the numbered notation S10 asks in.
C_MAJOR = (261.63, 293.66, 329.63, 349.23, 392.00, 440.00, 493.88)


@dataclass(frozen=True)
class ToneRules:
    window: float = 0.05  # seconds per FFT window
    hop: float = 0.01  # seconds between windows: tone edges land within this
    min_rms: float = 0.01  # absolute floor: below is silence (float audio in [-1, 1])
    rel_rms: float = 0.1  # ...and a share of the loudest window, so quiet hiss is silence
    same_pitch: float = 0.03  # relative frequency change that still continues a run
    min_duration: float = 0.15  # seconds: shorter runs are clicks and transitions
    note_tolerance: float = 0.03  # relative distance to a scale note to name it
    min_frequency: float = 60.0
    max_frequency: float = 4000.0


def note_of(frequency: float, tolerance: float = 0.03) -> int | None:
    """1-7 when the frequency is within `tolerance` (relative) of a C-major note."""
    best = min(range(7), key=lambda i: abs(np.log(frequency / C_MAJOR[i])))
    return best + 1 if abs(frequency / C_MAJOR[best] - 1) <= tolerance else None


def find_tones(audio: np.ndarray, sr: int, rules: ToneRules = ToneRules()) -> list[Tone]:
    """Tones in mono float audio sampled at `sr` Hz (sample 0 = time 0)."""
    n, hop = round(rules.window * sr), max(1, round(rules.hop * sr))
    if len(audio) < n:
        return []
    starts = np.arange(0, len(audio) - n + 1, hop)
    frames = audio[starts[:, None] + np.arange(n)[None, :]].astype(np.float32)
    rms = np.sqrt((frames ** 2).mean(axis=1))
    loud = rms >= max(rules.min_rms, rules.rel_rms * float(rms.max(initial=0.0)))
    pitch = np.zeros(len(starts))
    if loud.any():
        pitch[loud] = _dominant(frames[loud], sr, rules)
    runs = _runs(pitch, rules.same_pitch)
    tones = []
    for a, b in runs:  # windows a..b-1
        start = starts[a] / sr + rules.window / 2 - rules.hop / 2
        end = starts[b - 1] / sr + rules.window / 2 + rules.hop / 2
        if end - start < rules.min_duration:
            continue
        f = float(np.median(pitch[a:b]))
        tones.append(Tone(round(float(start), 3), round(float(end), 3), round(f, 2), note_of(f, rules.note_tolerance)))
    return tones


def _dominant(frames: np.ndarray, sr: int, rules: ToneRules) -> np.ndarray:
    """Peak frequency per window (Hann, zero-padded, parabolic interpolation); 0 outside range."""
    size = 1 << int(np.ceil(np.log2(frames.shape[1] * 2)))
    spectrum = np.abs(np.fft.rfft(frames * np.hanning(frames.shape[1])[None, :], n=size, axis=1))
    lo, hi = int(rules.min_frequency * size / sr), min(spectrum.shape[1] - 2, int(rules.max_frequency * size / sr))
    k = spectrum[:, lo:hi].argmax(axis=1) + lo
    rows = np.arange(len(k))
    a, b, c = (np.log(spectrum[rows, k + d] + 1e-12) for d in (-1, 0, 1))
    shift = 0.5 * (a - c) / np.where(np.abs(a - 2 * b + c) < 1e-12, 1e-12, a - 2 * b + c)
    return (k + np.clip(shift, -0.5, 0.5)) * sr / size


def _runs(pitch: np.ndarray, same: float) -> list[tuple[int, int]]:
    """[start, end) index runs of non-zero pitch that stays within `same` of the run's start."""
    runs, a = [], None
    for i, f in enumerate(pitch):
        if a is not None and (f == 0 or abs(f / pitch[a] - 1) > same):
            runs.append((a, i))
            a = None
        if a is None and f > 0:
            a = i
    if a is not None:
        runs.append((a, len(pitch)))
    return runs
