"""The VideoCogQA skill: the symbolic stage and the scene programs' answerer."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from perception.config import PerceptionConfig
from perception.decode import VideoInfo
from perception.ocr import TextReader
from skills.base import SkillContext
from skills.videocogqa.answerer import TRACK, SymbolicAnswerer
from skills.videocogqa.symbols import SymbolTrack
from skills.videocogqa.vision import MODEL_ID, observe_symbols


class SymbolicStage:
    """Shapes, colours, sizes, layout, the HUD's text and tones of a synthetic video;
    `PerceptionConfig.symbolic` says on, off or auto (flat-colour video only)."""

    name = "symbolic"
    track = TRACK
    model_id = MODEL_ID
    declined = "not flat-colour synthetic or game video"

    def mode(self, config: PerceptionConfig) -> str:
        return config.symbolic

    def observe(self, path: Path, info: VideoInfo, config: PerceptionConfig,
                reader: Callable[[], TextReader | None]) -> SymbolTrack | None:
        return observe_symbols(path, info, config, reader())

    def parse(self, payload: dict[str, Any]) -> SymbolTrack:
        return SymbolTrack.from_dict(payload)


class VideoCogQASkill:
    name = "videocogqa"

    def stages(self) -> tuple[SymbolicStage, ...]:
        return (SymbolicStage(),)

    def answerers(self, context: SkillContext) -> tuple[SymbolicAnswerer, ...]:
        return (SymbolicAnswerer(context.tracks, embedder=context.embedder),)
