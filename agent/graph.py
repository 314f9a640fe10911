"""The memlens agent as a LangGraph StateGraph.

understand -> plan -> retrieve -> reason -> judge -> (refine -> plan ...) | answer | abstain.
Nodes are small typed functions returning partial state; dependencies arrive through the
runtime context; the wiring sits at the bottom.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import datetime

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from agent.config import AgentConfig
from agent.llm import ChatModel
from agent.llm_reasoning import ask_model
from agent.planning import make_plan
from agent.reasoning import Draft, EvidenceReasoner
from agent.skills import SkillContext, parse_scope, premise_failure, resolve_anchor, run_skills
from agent.state import AgentAnswer, AgentState, Evidence, RetrievalStep
from agent.structured import StructuredAnswerer
from agent.understand import understand as analyse
from retrieval.operators import MemoryOperators
from retrieval.search import HybridRetriever, SearchQuery

CONTEXT_TURNS = 5  # utterance hits whose follow-up turns are fetched as conversation context


@dataclass
class AgentContext:
    retriever: HybridRetriever
    operators: MemoryOperators
    reasoner: EvidenceReasoner
    config: AgentConfig
    chat: ChatModel | None = None
    structured: tuple[StructuredAnswerer, ...] = ()  # symbolic timelines, source maps


# -- nodes -------------------------------------------------------------------------------
def structured(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Questions a program over a whole-video track answers exactly (symbolic scenes,
    composed videos) are answered here; every other question goes on to understand."""
    for answerer in runtime.context.structured:
        result = answerer.answer(state.question, state.namespace, state.at, state.options)
        if result is not None:
            result.trace = state.trace + [f"structured: {answerer.name}"] + result.trace
            return {"result": result}
    return {}


def route_after_structured(state: AgentState) -> str:
    return END if state.result is not None else "understand"


def understand(state: AgentState) -> dict:
    scope = parse_scope(state.question)
    # An anchor clause only says which day: the question proper is what evidence must cover.
    analysis = analyse(scope.body if scope.anchor else state.question, state.options)
    return {"analysis": analysis, "scope": scope,
            "trace": state.trace + [f"understand: {analysis.qtype} '{analysis.target}'"]}


def _skill_context(state: AgentState, ctx: AgentContext) -> SkillContext:
    return SkillContext(ctx.retriever, ctx.operators, ctx.operators.memory.config.places, state.namespace, state.at,
                        state.scope)


def ground(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Resolve an anchor ("on the day Bob asked for the slides") to the day it names."""
    scope, record = resolve_anchor(state.scope, _skill_context(state, runtime.context))
    note = f"ground: '{scope.anchor}' -> {record.wall_start:%Y-%m-%d}" if record else "ground: no anchor"
    return {"scope": scope, "trace": state.trace + [note]}


def plan(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    steps = make_plan(state.question, state.analysis, state.refinements, runtime.context.config.top_k)
    return {"plan": steps, "trace": state.trace + [f"plan: {', '.join(s.operator for s in steps)}"]}


def _run_step(step: RetrievalStep, state: AgentState, ctx: AgentContext) -> list[Evidence]:
    after, before = _skill_context(state, ctx).window()  # the question's time scope is a constraint, never relaxed
    ns = state.namespace
    if step.operator in ("last_seen", "count"):
        match = ctx.operators.resolve_entity(step.query, ns, before)
        if match is None:
            return []
        if step.operator == "count":
            n = ctx.operators.count_sightings(ns, match.entity, before)
            return [Evidence(r, match.score, f"count={n}") for r in ctx.operators.trajectory(ns, match.entity, before)]
        trail = ctx.operators.trajectory(ns, match.entity, before)
        last_placed = ctx.operators.last_seen_with_place(ns, match.entity, before)
        chosen = [r for r in trail if r.id != getattr(last_placed, "id", None)][-2:] + ([last_placed] if last_placed else [])
        return [Evidence(r, match.score, f"last_seen:{match.entity}") for r in chosen]
    query = SearchQuery(
        text=step.query, namespace=ns, stores=step.stores, kinds=step.kinds, before=before, after=after, k=step.k,
        attrs=(("speaker_name", step.speaker),) if step.speaker else (),
    )
    if step.operator == "coarse_to_fine":
        hits = ctx.retriever.coarse_to_fine(query)
    else:
        hits = ctx.retriever.search(query)
        if step.speaker and not hits:  # the named person may not have been recognised by voice
            hits = ctx.retriever.search(replace(query, attrs=()))
    return [Evidence(h.record, h.score, step.operator) for h in hits]


def retrieve(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    with ThreadPoolExecutor(max_workers=max(1, len(state.plan))) as pool:
        found = list(pool.map(lambda s: _run_step(s, state, runtime.context), state.plan))
    merged: dict[int, Evidence] = {e.record.id: e for e in state.evidence}
    for evidence in (e for batch in found for e in batch):
        merged.setdefault(evidence.record.id, evidence)
    top_turns = sorted((e for e in merged.values() if e.record.kind == "utterance"), key=lambda e: -e.score)
    for turn in top_turns[:CONTEXT_TURNS]:
        for later in runtime.context.operators.follow_up_turns(turn.record, state.at):
            merged.setdefault(later.id, Evidence(later, turn.score * 0.5, "context"))
    evidence = sorted(merged.values(), key=lambda e: e.record.wall_start)
    return {"evidence": evidence, "trace": state.trace + [f"retrieve: {len(evidence)} records before {state.at}"]}


def reason(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    ctx, analysis = runtime.context, state.analysis
    entity_found = None
    if analysis.qtype in ("entity_location", "count"):
        entity_found = any(e.why.startswith(("last_seen", "count")) for e in state.evidence)
    skills = _skill_context(state, ctx)
    threshold, scores = ctx.config.abstain_threshold, None
    if (failed := premise_failure(state.question, skills)) is not None:
        draft = Draft("", [], 0.0, f"false premise: {failed}")
    elif (skill := run_skills(state.question, state.options or [], analysis, skills)) is not None:
        draft = Draft(skill.answer, skill.support, skill.sufficiency, skill.note, claim=skill.claim)
        if state.options and skill.raw is not None:
            scores = ctx.reasoner.distribute(skill.raw, analysis, draft.sufficiency, threshold)
    else:
        # Only a question that names a person needs the list of known speakers.
        people = ctx.operators.speakers(state.namespace, state.at) if analysis.person else set()
        draft = ctx.reasoner.draft(analysis, state.evidence, people, entity_found)
    if state.options and scores is None:
        scores = ctx.reasoner.score_options(state.options, analysis, draft, threshold)
    if ctx.chat is not None and state.evidence and draft.sufficiency > 0:
        reply = ask_model(ctx.chat, state.question, state.at, state.options, state.evidence)
        draft = Draft(reply["answer"] or draft.answer, draft.support, draft.sufficiency * (1.0 if reply["sufficient"] else 0.5),
                      f"{draft.note}; {ctx.chat.name} answered")
        if state.options:
            scores = [round(0.5 * a + 0.5 * float(b), 4) for a, b in zip(scores, reply["option_scores"])]
    return {
        "draft": draft.answer, "sufficiency": draft.sufficiency, "option_scores": scores,
        "support": draft.support, "note": draft.note,
        "trace": state.trace + [f"reason: {draft.note}; sufficiency {draft.sufficiency:.2f}"],
    }


def route_after_judge(state: AgentState, runtime: Runtime[AgentContext]) -> str:
    config = runtime.context.config
    if state.sufficiency >= config.abstain_threshold:
        return "answer"
    return "refine" if state.refinements < config.max_refinements else "abstain"


def judge(state: AgentState) -> dict:
    return {"trace": state.trace + [f"judge: sufficiency {state.sufficiency:.2f}"]}


def refine(state: AgentState) -> dict:
    return {"refinements": state.refinements + 1, "trace": state.trace + ["refine: broaden the plan"]}


def _result(state: AgentState, answer: str, abstained: bool, chosen: int | None) -> AgentAnswer:
    confidence = state.option_scores[chosen] if chosen is not None and state.option_scores else (
        1.0 - state.sufficiency if abstained else state.sufficiency
    )
    return AgentAnswer(
        question=state.question, answer=answer, abstained=abstained, confidence=round(confidence, 4),
        sufficiency=round(state.sufficiency, 4), question_type=state.analysis.qtype,
        evidence=[] if abstained else state.support, option_scores=state.option_scores,
        chosen_option=chosen, trace=state.trace,
    )


def answer(state: AgentState) -> dict:
    chosen = None
    if state.options and state.option_scores:
        candidates = [i for i in range(len(state.options)) if i not in state.analysis.abstain_options]
        chosen = max(candidates, key=lambda i: state.option_scores[i]) if candidates else None
    text = state.options[chosen] if chosen is not None else state.draft
    return {"result": _result(state, text, abstained=False, chosen=chosen)}


def abstain(state: AgentState) -> dict:
    offered = state.analysis.abstain_options
    chosen = offered[0] if offered else None
    if chosen is None and state.options and state.option_scores:
        # No "cannot be answered" option: the protocol forces a choice, so give the best
        # guess (still flagged as an abstention for risk-coverage).
        chosen = max(range(len(state.options)), key=lambda i: state.option_scores[i])
    text = state.options[chosen] if chosen is not None else f"I can't answer that from memory ({state.note})."
    return {"result": _result(state, text, abstained=True, chosen=chosen)}


# -- wiring ------------------------------------------------------------------------------
def build_graph():
    graph = StateGraph(AgentState, context_schema=AgentContext)
    for name, node in (("structured", structured), ("understand", understand), ("ground", ground), ("plan", plan), ("retrieve", retrieve), ("reason", reason),
                       ("judge", judge), ("refine", refine), ("answer", answer), ("abstain", abstain)):
        graph.add_node(name, node)
    graph.add_edge(START, "structured")
    graph.add_conditional_edges("structured", route_after_structured, ["understand", END])
    graph.add_edge("understand", "ground")
    graph.add_edge("ground", "plan")
    graph.add_edge("plan", "retrieve")
    graph.add_edge("retrieve", "reason")
    graph.add_edge("reason", "judge")
    graph.add_conditional_edges("judge", route_after_judge, ["answer", "refine", "abstain"])
    graph.add_edge("refine", "plan")
    graph.add_edge("answer", END)
    graph.add_edge("abstain", END)
    return graph.compile()


class MemoryAgent:
    """Asks the compiled graph; one instance serves many questions."""

    def __init__(self, context: AgentContext):
        self.context = context
        self.graph = build_graph()

    def ask(self, question: str, namespace: str, at: datetime | None = None,
            options: list[str] | None = None) -> AgentAnswer:
        if not question or not question.strip():
            raise ValueError("question is empty")
        if at is not None and at.tzinfo is not None:
            at = at.replace(tzinfo=None)  # memory keeps the wearer's clock as naive wall time
        state = AgentState(question=question.strip(), namespace=namespace, at=at, options=options or None)
        out = self.graph.invoke(state, context=self.context)
        return out["result"]
