"""Questions about symbolic video (seed 003's scenes) answered by programs over the
perceived symbolic timeline: one template per Table 31 question form, per scene module."""
from __future__ import annotations

import importlib
from datetime import datetime

from agent.state import AgentAnswer, Evidence
from agent.symbolic.recognise import Recogniser
from agent.symbolic.s02_action_arena import ACTIONS
from agent.symbolic.slots import vocabulary
from agent.symbolic.templates import Solved, Template, canon, option_scores
from memory.records import MemoryRecord
from memory.tracks import StoredTrack, TrackStore
from perception.symbols import SymbolTrack
from retrieval.symbolic import SymbolicTimeline

__all__ = ["SymbolicAnswerer", "Solved", "Template", "all_templates", "canon", "option_scores"]

TEMPLATE_MODULES = (
    "s01_chameleon_grid", "s02_action_arena", "s03_straight_paths", "s04_time_sequence", "s05_flash_grid",
    "s06_navigator_3d", "s07_sky_battle", "s08_maze_runner", "s09_tic_tac_toe", "s10_note_matcher",
)


def all_templates() -> list[Template]:
    out: list[Template] = []
    for name in TEMPLATE_MODULES:
        out += importlib.import_module(f"agent.symbolic.{name}").TEMPLATES
    return out


class SymbolicAnswerer:
    """Answers a recognised template over the namespace's latest symbolic track before the
    question time; anything else (or a namespace without one) is left to the main graph.
    Questions are recognised by meaning (agent/symbolic/recognise.py): the generator's
    wording is only the fast path."""

    name = "symbolic"

    def __init__(self, tracks: TrackStore, templates: list[Template] | None = None, embedder=None):
        self.tracks = tracks
        self.templates = templates if templates is not None else all_templates()
        self.recogniser = Recogniser(self.templates, embedder)

    def answer(self, question: str, namespace: str, at: datetime | None,
               options: list[str] | None) -> AgentAnswer | None:
        stored = self.tracks.get(namespace, "symbols", before=at)
        if not stored:
            return None
        latest = stored[-1]
        until = (at - latest.wall_start).total_seconds() if at is not None else None
        timeline = SymbolicTimeline(SymbolTrack.from_dict(latest.payload), until=until)
        hit = self.recogniser.recognise(question, vocabulary(timeline, ACTIONS))
        if hit is None:
            return None
        template, match = hit.template, hit.match
        how = "" if hit.similarity == 1.0 else f" (recognised by meaning, similarity {hit.similarity:.2f}: {hit.asked!r})"
        solved = template.solve(timeline, match)
        if solved is None and hit.similarity < 1.0:
            return None  # a guess by meaning this timeline cannot answer: the question is likely not ours
        if solved is None:  # the timeline lacks what this template needs: no basis to answer
            return AgentAnswer(question, "The video does not show enough to answer that.", True, 0.0, 0.0,
                               "symbolic", [], [0.0] * len(options or []), None,
                               [f"symbolic: {template.scene} '{template.name}' unsolved{how}"])
        evidence = [_evidence(latest, solved, namespace)]
        if not options:
            return AgentAnswer(question, canon(solved.value), False, 1.0, 1.0, "symbolic", evidence,
                               trace=[f"symbolic: {template.scene} '{template.name}' -> {solved.value!r}{how}"])
        scores = option_scores(solved.value, options)
        chosen = max(range(len(options)), key=lambda i: scores[i])
        return AgentAnswer(question, options[chosen], False, scores[chosen], 1.0, "symbolic", evidence, scores, chosen,
                           [f"symbolic: {template.scene} '{template.name}' -> {solved.value!r}{how}"])


def _evidence(track: StoredTrack, solved: Solved, namespace: str) -> Evidence:
    start, end = (min(solved.times), max(solved.times)) if solved.times else (0.0, 0.0)
    record = MemoryRecord(
        id=None, store="event", kind="symbolic", namespace=namespace, video_id=track.video_id,
        text=solved.note or f"computed from the symbolic timeline: {canon(solved.value)}",
        start=start, end=end, wall_start=track.wall(start), wall_end=track.wall(end),
        keyframes=list(solved.times[:8]), attrs={"value": canon(solved.value)},
    )
    return Evidence(record, 1.0, "symbolic timeline")
