"""What a skill is: perception stages that make a whole-video track, and answerers that
read it. The composition root builds them from this small contract; nothing below skills/
knows any skill by name."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from agent.question_nlp import SpacyPipeline
from agent.structured import StructuredAnswerer
from memory.embedding import TextEmbedder
from memory.tracks import TrackStore
from perception.stages import VideoStage


@dataclass(frozen=True)
class SkillContext:
    """What a skill's answerers may use: the stored tracks, the memory's sentence
    embedder, and the question parser (its model loads on first use)."""

    tracks: TrackStore
    embedder: TextEmbedder
    nlp: SpacyPipeline


class Skill(Protocol):
    name: str

    def stages(self) -> tuple[VideoStage, ...]:
        """Whole-video perception stages this skill adds (run, cached and stored as tracks)."""
        ...

    def answerers(self, context: SkillContext) -> tuple[StructuredAnswerer, ...]:
        """Programs that answer the questions they recognise over this skill's tracks."""
        ...
