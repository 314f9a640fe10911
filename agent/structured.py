"""Structured answerers: programs over whole-video tracks (a symbolic timeline, a source
map) that answer the questions they recognise exactly. The opt-in skills (skills/) provide
them; the graph asks them first only when a skill is turned on, and their answer, with the
sufficiency it reports, meets the judge like any tool's.

Each answerer returns None for a question it does not recognise or a namespace without
its track, and the graph goes on to understand -> plan -> retrieve -> ...
"""
from __future__ import annotations

from datetime import datetime
from typing import Protocol

from agent.state import AgentAnswer


class StructuredAnswerer(Protocol):
    name: str

    def answer(self, question: str, namespace: str, at: datetime | None,
               options: list[str] | None) -> AgentAnswer | None: ...
