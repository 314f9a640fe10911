"""Retrieval plans per question type; each refinement broadens the previous plan."""
from __future__ import annotations

from agent.state import QuestionAnalysis, RetrievalStep

_KINDS = {
    "conversation": ("utterance",),
    "text": ("text",),
    "entity_location": ("sighting",),
    "count": ("sighting",),
}


def make_plan(question: str, analysis: QuestionAnalysis, refinement: int, top_k: int) -> list[RetrievalStep]:
    qtype, target = analysis.qtype, analysis.target or question
    k = top_k * (refinement + 1)
    steps: list[RetrievalStep] = []
    if qtype in ("entity_location", "count"):
        steps.append(RetrievalStep("last_seen" if qtype == "entity_location" else "count", target, k=k))
        steps.append(RetrievalStep("search", target, stores=("entity",), kinds=_KINDS[qtype], k=k))
    elif qtype == "conversation":
        steps.append(RetrievalStep("search", question, stores=("event",), kinds=_KINDS[qtype], k=k,
                                   speaker=analysis.person if refinement == 0 else None))
    elif qtype == "text":
        steps.append(RetrievalStep("search", question, stores=("event",), kinds=_KINDS[qtype], k=k))
    elif qtype == "behavior":
        steps.append(RetrievalStep("search", question, stores=("behavior",), k=k))
    elif qtype == "order":
        steps.append(RetrievalStep("order", question, stores=("entity", "event"), k=k))
    if qtype == "event" or refinement > 0:
        # Events, and every refinement: look everywhere, fine records and roll-ups alike.
        steps.append(RetrievalStep("search", question, stores=("entity", "event"), k=k))
        steps.append(RetrievalStep("coarse_to_fine", question, stores=("event",), k=k))
    return steps
