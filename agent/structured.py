"""Structured answerers: programs over whole-video tracks (a symbolic timeline, a source
map) that answer the questions they recognise exactly, before any free-text retrieval.

Each answerer returns None for a question it does not recognise or a namespace without
its track, and the graph falls through to understand -> plan -> retrieve -> ...
"""
from __future__ import annotations

from datetime import datetime
from typing import Protocol

from agent.state import AgentAnswer


class StructuredAnswerer(Protocol):
    name: str

    def answer(self, question: str, namespace: str, at: datetime | None,
               options: list[str] | None) -> AgentAnswer | None: ...
