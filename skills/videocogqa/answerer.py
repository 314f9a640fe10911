"""The VideoCogQA skill's answerer: a recognised scene question solved by its program over
the namespace's latest symbolic track. Its answer carries a sufficiency the agent's judge
weighs like any tool's: how surely the question was recognised (1.0 in the generator's own
wording, the cosine to the nearest template description otherwise)."""
from __future__ import annotations

from datetime import datetime

from agent.state import AgentAnswer, Evidence
from memory.records import MemoryRecord
from memory.tracks import StoredTrack, TrackStore
from skills.videocogqa.programs import all_templates
from skills.videocogqa.programs.recognise import Recogniser
from skills.videocogqa.programs.s02_action_arena import ACTIONS
from skills.videocogqa.programs.slots import vocabulary
from skills.videocogqa.programs.templates import Solved, Template, canon, option_scores
from skills.videocogqa.symbols import SymbolTrack
from skills.videocogqa.timeline import SymbolicTimeline

TRACK = "symbols"  # the kind memory keeps the symbolic stage's output under


class SymbolicAnswerer:
    """Answers a recognised template over the namespace's latest symbolic track before the
    question time; anything else (or a namespace without one) is left to the main graph.
    Questions are recognised by meaning (skills/videocogqa/programs/recognise.py): the generator's
    wording is only the fast path."""

    name = "symbolic"

    def __init__(self, tracks: TrackStore, templates: list[Template] | None = None, embedder=None):
        self.tracks = tracks
        self.templates = templates if templates is not None else all_templates()
        self.recogniser = Recogniser(self.templates, embedder)

    def answer(self, question: str, namespace: str, at: datetime | None,
               options: list[str] | None) -> AgentAnswer | None:
        stored = self.tracks.get(namespace, TRACK, before=at)
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
            return AgentAnswer(question, canon(solved.value), False, hit.similarity, hit.similarity, "symbolic", evidence,
                               trace=[f"symbolic: {template.scene} '{template.name}' -> {solved.value!r}{how}"])
        scores = option_scores(solved.value, options)
        chosen = max(range(len(options)), key=lambda i: scores[i])
        return AgentAnswer(question, options[chosen], False, scores[chosen], hit.similarity, "symbolic", evidence, scores,
                           chosen,
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
