"""Every suite memlens can generate offline, by name: how to build it, which systems a
bench runs on it by default, and which opt-in skills (skills/) its bench turns on."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

Embed = Callable[[Sequence[str]], np.ndarray]
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class GeneratedSuite:
    name: str
    seed_paper: str
    default_systems: tuple[str, ...]
    skills: tuple[str, ...] = ()  # the benchmark's own skills, on for its bench only

    def build(self, size: str, root: Path, embed: Embed, seed: int = 0, progress: Progress | None = None) -> Path:
        if self.name in ("supermemory", "egomemreason"):
            from eval.life.suites import build_suite

            return build_suite(self.name, size, root, embed, seed, progress)
        if self.name == "videocogqa":
            from eval.videocogqa.suite import build_suite as build_vcq

            return build_vcq(size, root, seed, progress)
        from eval.m3eval.suite import build_suite as build_m3

        return build_m3(size, root, seed, progress)


_EVERYDAY = ("memlens", "videorag", "egobutler", "random", "blind")
GENERATED = {s.name: s for s in (
    GeneratedSuite("supermemory", "001 SuperMemory-VQA", _EVERYDAY),
    GeneratedSuite("egomemreason", "004 EgoMemReason", _EVERYDAY),
    GeneratedSuite("videocogqa", "003 VideoCogQA", ("memlens", "videorag", "random", "blind"), ("videocogqa",)),
    GeneratedSuite("m3eval", "000 M3Eval", ("memlens", "videorag", "random", "blind"), ("m3eval",)),
)}


def generated_suite(name: str) -> GeneratedSuite:
    try:
        return GENERATED[name]
    except KeyError:
        raise ValueError(f"unknown suite {name!r}; generated suites: {', '.join(GENERATED)}") from None
