"""The M3Eval skill: the source-tracking stage and the composed-video answerer."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from perception.config import PerceptionConfig
from perception.decode import VideoInfo
from perception.ocr import TextReader
from skills.base import SkillContext
from skills.m3eval.answerer import TRACK, SourceAnswerer
from skills.m3eval.sources import SourceMap
from skills.m3eval.tracking import MODEL_ID, observe_sources


class SourceStage:
    """Which source stream each part of a composed video shows, and the captions each
    showed; `PerceptionConfig.sources` says on, off or auto (short flat videos only). It
    reads with its own fast OCR settings, not the perceiver's reader."""

    name = "sources"
    track = TRACK
    model_id = MODEL_ID
    declined = "not a composed video (split screen, cuts with captions)"

    def mode(self, config: PerceptionConfig) -> str:
        return config.sources

    def observe(self, path: Path, info: VideoInfo, config: PerceptionConfig,
                reader: Callable[[], TextReader | None]) -> SourceMap | None:
        return observe_sources(path, info, config)

    def parse(self, payload: dict[str, Any]) -> SourceMap:
        return SourceMap.from_dict(payload)


class M3EvalSkill:
    name = "m3eval"

    def stages(self) -> tuple[SourceStage, ...]:
        return (SourceStage(),)

    def answerers(self, context: SkillContext) -> tuple[SourceAnswerer, ...]:
        return (SourceAnswerer(context.tracks, context.embedder, context.nlp),)
