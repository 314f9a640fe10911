"""The memlens agent as a LangGraph StateGraph.

[skills ->] understand (QueryPlan) -> scope (the recording meant) -> ground (anchors) -> plan (tool calls) -> tools
(parallel branches via Send) -> read -> reason -> judge -> (refine -> plan ...) | answer |
abstain. `read` picks the short answer the question asks for out of every tool's evidence
(agent.reader); `reason` weighs it against the intent's tool.
Opt-in skills (none by default) answer first what they recognise, and their answer meets
the same judge: enough, it stands; too weak, the general agent takes the question. Nodes
are small typed functions returning partial state; the judge returns a typed verdict that
the router follows; dependencies arrive through the runtime context; the wiring sits at
the bottom.
"""
from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from itertools import zip_longest

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import Send

from agent.attribution import known_names
from agent.citing import CLOSEST_ALIGNMENT, RELATED_ALIGNMENT, cited
from agent.compose import (
    QUOTING_TOOLS,
    SPEAKER_TOOLS,
    abstain_options,
    answering,
    key_terms,
    off_topic,
    typed_option_scores,
    who_answers,
)
from agent.compose import draft as compose_draft
from agent.config import AgentConfig
from agent.llm import ChatModel
from agent.llm_reasoning import model_draft
from agent.plan import WEARER, Planner, QueryPlan, Vocabulary
from agent.question_nlp import located_nouns
from agent.reader import SPAN_KINDS, EvidenceReader, unmet
from agent.reading import QUOTE_KINDS
from agent.reasoning import Draft, EvidenceReasoner, evidence_text
from agent.scope import recording_word, resolve, scoped
from agent.state import AgentAnswer, AgentInput, AgentState, Evidence, Verdict
from agent.structured import StructuredAnswerer
from agent.sufficiency import SufficiencyModel, features, named_share, support_texts
from agent.tools import ToolCall, calls_for
from agent.tools.base import ToolContext
from memory.language import load_inflections
from memory.records import PLACE_VISIT, TEXT_SIGHTING, UTTERANCE
from memory.scene import names_a_place
from retrieval.operators import MemoryOperators
from retrieval.search import HybridRetriever

MAX_QUESTION_CHARS = 2000  # a question, not a document: longer input is refused, not truncated


@dataclass
class AgentContext:
    retriever: HybridRetriever
    operators: MemoryOperators
    reasoner: EvidenceReasoner
    config: AgentConfig
    planner: Planner
    chat: ChatModel | None = None
    sufficiency: SufficiencyModel = field(default_factory=SufficiencyModel.load)
    reader: EvidenceReader = field(default_factory=EvidenceReader)
    # The answerers of the opt-in skills a configuration turns on (skills/): programs that
    # answer the benchmark questions they recognise, judged like any tool's answer. None by
    # default, so a wearer's question always reaches the planner.
    skills: tuple[StructuredAnswerer, ...] = ()


@dataclass
class ToolTask:
    """What one tool branch receives (Send payload)."""

    call: ToolCall
    namespace: str
    at: datetime | None
    plan_time: object


def _tool_context(ctx: AgentContext, namespace: str, at: datetime | None, time) -> ToolContext:
    return ToolContext(ctx.retriever, ctx.operators, namespace, at, time,
                       people_in=ctx.planner.people_in, dates_in=ctx.planner.dates_in)


# The channels that hold words, searched each on its own when no tool found the answer: a
# question's words meet a sign's or a speaker's in few places, and the whole-memory ranking
# can bury them under sightings and roll-ups.
WORD_CHANNELS = (UTTERANCE, TEXT_SIGHTING)
PER_CHANNEL = 4
MANY_MORE = 8  # the lines searched beside a quoting tool's when a question asks for every one of a kind
TOOLS_FIRST = 4  # the intent's tools' records read before the channels' (the rest after them)


# -- nodes -------------------------------------------------------------------------------
def route_start(state: AgentState, runtime: Runtime[AgentContext]) -> str:
    return "skills" if runtime.context.skills else "understand"


def skills(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """The first skill answer to a question a skill recognises, as a draft for the judge."""
    for answerer in runtime.context.skills:
        found = answerer.answer(state.question, state.namespace, state.at, state.options)
        if found is not None:
            return {"skill_answer": found, "draft": found.answer, "sufficiency": found.sufficiency,
                    "support": found.evidence, "option_scores": found.option_scores,
                    "note": f"skill {answerer.name}", "trace": [f"skill {answerer.name}"] + found.trace}
    return {"trace": ["skills: none recognised the question"]}


def route_after_skills(state: AgentState) -> str:
    return "understand" if state.skill_answer is None else "judge"


def understand(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    ops = runtime.context.operators
    question = state.question
    doc = runtime.context.reader.nlp(question)
    visited = _tool_context(runtime.context, state.namespace, state.at, None).known_places()
    # "was there a mug in the bathroom?": a room memory never saw the wearer in is still a place
    unvisited = [noun for noun in located_nouns(doc) if noun not in visited and names_a_place(ops.kinds, noun)]
    vocabulary = Vocabulary(places=tuple(visited + unvisited),
                            people=tuple(sorted(ops.speakers(state.namespace, state.at))))
    names = known_names(doc, vocabulary.people)
    for short, name in names.items():  # "what did Mel paint?": the lines are Melanie's
        question = re.sub(rf"\b{re.escape(short)}\b", name, question)
    plan = runtime.context.planner.plan(question, state.at, state.options, vocabulary)
    named = [f"understand: '{short}' is {name}" for short, name in names.items()]
    return {"plan": plan, "question": question, "trace": [*named, f"understand ({plan.planner}): {plan.summary()}"]}


def ground(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Resolve an anchor ("the day Bob asked for the slides", "after I got home") to the
    time it names, so tools see a plain window."""
    time, told = state.plan.time, {}
    if time.end is not None and state.at is not None and _of_someone_else(state.plan) and \
            not _tool_context(runtime.context, state.namespace, state.at, time).remembers_before(time.end):
        # "where did Caroline move from 4 years ago?": before memory began, so a time she told of
        told = {"plan": replace(state.plan, time=replace(time, start=None, end=None)),
                "trace": [f"ground: {time.start:%Y-%m-%d} to {time.end:%Y-%m-%d} is before memory began: "
                          f"a time told of, not a window"]}
        time = told["plan"].time
    if time.anchor is None or state.at is None:
        return told
    ctx = _tool_context(runtime.context, state.namespace, state.at, replace(time, anchor=None, relation=None))
    record = ctx.locate(time.anchor, latest=True)  # "after I left the office": the most recent time
    if record is None:
        return {**told, "trace": [*told.get("trace", []), f"ground: '{time.anchor}' not found"]}
    if time.relation == "day_of":
        time = replace(time, day_offset=(record.wall_start.date() - state.at.date()).days)
    elif time.relation == "during":  # "while we were in the kitchen", "when I was checking my email": that stay
        stay = record if record.kind == PLACE_VISIT else ctx.stay_at(record)
        span = stay or record
        left = ctx.left_at(span)  # up to the next place (exclusive), else through the stay's last second
        end = left if left > span.wall_end else left + timedelta(seconds=1)
        time = replace(time, start=span.wall_start, end=end, day_offset=None)
    elif time.relation == "after":
        time = replace(time, start=record.wall_end, end=record.wall_end + timedelta(hours=6), day_offset=None)
    elif time.relation == "before":
        time = replace(time, start=record.wall_start - timedelta(hours=6), end=record.wall_start, day_offset=None)
    return {"plan": replace(state.plan, time=time), "anchored": record.id,  # (a told span is gone from `time`)
            "trace": [f"ground: '{time.anchor}' -> {record.wall_start:%Y-%m-%d %H:%M}"]}


def _of_someone_else(plan: QueryPlan) -> bool:
    """The question is about another person's doings, which memory holds as they told them."""
    return bool(plan.people) and plan.speaker != WEARER and WEARER not in plan.people


def scope(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """A question about "the call" or "that talk" is asked within that recording (agent.scope)."""
    word = recording_word(runtime.context.reader.nlp, state.plan.text or state.question)
    if word is None:
        return {}
    found = resolve(_tool_context(runtime.context, state.namespace, state.at, state.plan.time), word)
    if found is None:
        return {"trace": [f"scope: '{word}' names no one recording"]}
    rec, plan_in = found.recording, scoped(state.plan, found)
    said = f"the {rec.attrs.get('sort')} of {rec.wall_start:%Y-%m-%d %H:%M}; asked within " \
        f"{plan_in.time.start:%H:%M:%S}-{plan_in.time.end:%H:%M:%S}" if rec else "no such recording in the window"
    return {"plan": plan_in, "scope": found, "trace": [f"scope: the {word} -> {said}"]}


def plan(state: AgentState) -> dict:
    calls = calls_for(state.plan, state.options or [], state.refinements)
    return {"calls": calls, "trace": [f"plan: {', '.join(c.tool for c in calls)}"]}


def fan_out(state: AgentState) -> list[Send]:
    return [Send("run_tool", ToolTask(call, state.namespace, state.at, state.plan.time)) for call in state.calls]


def run_tool(task: ToolTask, runtime: Runtime[AgentContext]) -> dict:
    ctx = _tool_context(runtime.context, task.namespace, task.at, task.plan_time)
    result = task.call.run(ctx)
    if not task.call.primary and result.tool != "premise":
        result = replace(result, tool="search")
    return {"results": [result], "trace": [f"tool {task.call.tool}: {result.note or result.answer[:60]}"]}


def read(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """The answer read out of the evidence found so far: inside the lines a quoting tool
    chose when one found them, else (or when those lines share no word with the question, or
    hold no span of the kind it asks for) the recording the question names, the intent's
    tools' first records (latest round first), the best few of each word channel (speech,
    on-screen text), the open search's and the tools' other records. A stronger reading of an
    earlier round is kept. An open question only (options are compared with the tools'
    values); a tool's typed answer is not read over."""
    if state.options:
        return {"reading": None, "wanted": None}
    found = answering(state.results)
    if found is not None and found.tool not in QUOTING_TOOLS + ("people",):
        return {"reading": None, "wanted": None}  # a tool's typed answer (a place, a count, a moment) stands: nothing to read
    if found is not None and state.plan.answer_type == "person" and found.tool in SPEAKER_TOOLS \
            and who_answers(state.plan, found):
        return {"reading": None, "wanted": None}  # "who said ...?": the line's speaker answers, nothing to read
    ops, reader = runtime.context.operators, runtime.context.reader

    def words_around(record):  # the rest of a screen's text, the turns either side of a line
        return ops.around(record, state.at) if record.kind in (UTTERANCE, TEXT_SIGHTING) else []

    reply_to = _reply_finder(runtime.context, state.at)
    reading, want, ranked = None, replace(reader.wanted(state.question), ahead=state.plan.to_come), []
    named = state.scope.recording if state.scope is not None else None  # the recording the question names
    if named is not None:
        want = reader.within(want, state.scope.word, named.video_id)
    ctx, query = _tool_context(runtime.context, state.namespace, state.at, state.plan.time), \
        state.plan.text or state.question
    if found is not None and found.tool in QUOTING_TOOLS:  # the short answer inside the lines the tool chose
        support = list(found.support)
        if want.many and want.kind not in QUOTE_KINDS and not found.by_act:
            # "which cities has he been to?": every one is asked, and the tool chose lines for the best one
            support += ctx.search(query, WORD_CHANNELS, k=MANY_MORE)
        reading = reader.read(state.question, support, want, around=words_around, reply_to=reply_to,
                              chosen=found.by_act)
    # a tool's lines chosen by their act ("what do I need to bring?": my commitments) may hold no
    # word of the question either
    unrelated = found is None or found.tool not in QUOTING_TOOLS or \
        not any(reader.alignment(want, e.record) for e in found.support)
    # every tool's evidence, every channel's search, the best of each word channel: when the
    # tool's lines share no word with the question, or hold no span of the kind it asks for
    if reading is None and (unrelated or want.kind in SPAN_KINDS):
        latest_first = list(reversed(state.results))
        asked = [r for r in latest_first if r.tool not in ("premise", "search")  # who talked is no place or date
                 and (r.tool != "people" or want.kind in ("person", *QUOTE_KINDS))]
        # each word channel's best in turn, after the tools' first few and before the open search
        # (whose captions and roll-ups restate them second-hand), the tools' other records last:
        # a sign is read though the tools brought ten lines of speech
        with ThreadPoolExecutor(len(WORD_CHANNELS)) as pool:  # the stores' searches release the GIL
            by_channel = list(pool.map(lambda kind: ctx.search(query, (kind,), k=PER_CHANNEL), WORD_CHANNELS))
        channels = [e for turn in zip_longest(*by_channel) for e in turn if e is not None]
        tools = [e for r in asked for e in r.support]
        ranked = [Evidence(named, 1.0, "scope")] if named is not None else []
        ranked += tools[:TOOLS_FIRST] + channels + [e for r in latest_first if r.tool == "search" for e in r.support] \
            + tools[TOOLS_FIRST:]
        # the event that dates the question is when, not what: "what was on the monitor when I was
        # checking my email?" is not answered by "let me check my email"
        ranked = [e for e in ranked if e.record.id != state.anchored]
        reading = reader.read(state.question, ranked, want, around=words_around, reply_to=reply_to)
    if state.reading is not None and (reading is None or state.reading.score > reading.score):
        reading = state.reading  # a refinement adds evidence; it does not forget a stronger earlier reading
    said = f"read {reading.kind} ({reading.score:.2f}, {reading.agreeing} record(s)): {reading.statement()}" \
        if reading else "read: nothing of the kind asked"
    return {"reading": reading, "wanted": want if found is None or found.tool in QUOTING_TOOLS else None,
            "looked_at": ranked, "trace": [said]}


def reason(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    ctx, options = runtime.context, state.options or []
    threshold = ctx.config.abstain_threshold
    abstain = abstain_options(options)
    alike = (state.wanted or ctx.reader.wanted(state.question)).alike_to  # "kids" covers "children"
    draft = compose_draft(state.plan, state.results, state.reading, alike)
    typed_all = [t for r in reversed(state.results) if r.found and r.tool not in ("premise", "search")
                 and (t := typed_option_scores(r, options)) is not None] if options else []
    # a tool whose value decides an option beats one whose value matches none
    typed = next((t for t in typed_all if max(t, default=0) >= 1.0), typed_all[0] if typed_all else None)
    lines = next((r for r in reversed(state.results) if r.tool == "reflect" and r.found), None)
    if typed is not None or not options:
        raw = typed
    elif lines is not None:  # a reflective question: options are judged against the scattered turns
        raw = ctx.reasoner.option_support(options, abstain, [evidence_text(e.record) for e in lines.support])
    else:
        raw = ctx.reasoner.option_agreement(options, abstain, draft.claim)
    texts = support_texts(state.results) or [evidence_text(e.record) for e in draft.support]
    span_read = bool(draft.reading) and state.reading is not None and state.reading.kind in SPAN_KINDS
    read_from = _read_from(state.reading, draft)
    asked = read_from.asked if read_from else ""  # a reply meets the question with the line it answers
    values = features(state.plan, state.results, texts, key_terms(state.plan), typed,
                      [raw[i] for i in range(len(options)) if i not in abstain] if raw else None,
                      state.refinements, ctx.config.max_refinements, max(draft.reading, draft.agreed),
                      named_share(state.plan, draft.support, read_from),
                      max(unmet(state.wanted, bool(draft.reading) or draft.span),
                          1.0 if off_topic(state.plan, draft, asked, alike) else 0.0), span_read=span_read,
                      alike=alike)
    sufficiency = ctx.sufficiency(values) if draft.answer else 0.0
    draft = Draft(draft.answer, draft.support, sufficiency, draft.note, claim=draft.claim, reading=draft.reading,
                  span=draft.span)
    scores = ctx.reasoner.distribute(raw, abstain, sufficiency, threshold) if options else None
    draft = _cited_where_said(ctx, draft, _read_from(state.reading, draft), state.at)
    evidence = [e for r in state.results for e in r.support]
    if ctx.chat is not None and evidence and draft.sufficiency > 0 and \
            (options or _for_the_model(draft, threshold, span_read)):
        # The model reads the answer out of the evidence the tools found, and cites it; an
        # answer not grounded in that evidence is rejected and the tools' draft stands.
        found = answering(state.results)
        draft, model_scores = model_draft(ctx.chat, state.question, state.at, state.options, draft, evidence,
                                          line=found is None or found.tool in QUOTING_TOOLS)
        weight = ctx.config.llm_option_weight
        if state.options and model_scores and weight > 0:
            scores = [round((1 - weight) * a + weight * b, 4) for a, b in zip(scores, model_scores)]
    return {
        "draft": draft.answer, "sufficiency": draft.sufficiency, "option_scores": scores,
        "support": draft.support, "note": draft.note, "features": values,
        "trace": [f"reason: {draft.note}; sufficiency {draft.sufficiency:.2f} ({ctx.sufficiency.describe(values)})"],
    }


def _cited_where_said(ctx: AgentContext, draft: Draft, reading, at: datetime | None) -> Draft:
    """A reading taken from a caption or a segment, which restate turns, cites the turn that
    said it first: the evidence a person checks is the line, with its speaker and time."""
    if reading is None or reading.evidence.record.kind in (UTTERANCE, TEXT_SIGHTING):
        return draft
    turn = ctx.operators.said_in(reading.evidence.record, reading.sentence, at)
    if turn is None:
        return draft
    support = [Evidence(turn, reading.evidence.score, reading.evidence.source), *draft.support]
    return Draft(draft.answer, support, draft.sufficiency, draft.note, claim=draft.claim, reading=draft.reading,
                 span=draft.span)


SHORT_ANSWER = 4  # words: an answer this short is the thing asked already, not a line to read it out of


def _for_the_model(draft: Draft, threshold: float, span_read: bool) -> bool:
    """Whether an open question's draft is worth the model's seconds: it will be answered
    (whether to answer is the sufficiency's call, so a draft that will abstain is not read),
    and it is a line or a template, not a name, place, date or number read out already."""
    return draft.sufficiency >= threshold and not span_read and len(draft.answer.split()) > SHORT_ANSWER


def _read_from(reading, draft: Draft):
    """The reading the draft rests on, when it rests on one (its first evidence is the reading's)."""
    return reading if reading is not None and draft.support and draft.support[0] is reading.evidence else None


def judge(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Whether the evidence is enough to answer, and if not, whether another round could
    find more: a typed verdict the router follows."""
    config = runtime.context.config
    enough = state.sufficiency >= config.abstain_threshold
    if state.plan is None and state.skill_answer is not None:  # a skill's answer, before any plan
        if state.skill_answer.abstained:  # the skill recognised the question and found no basis
            verdict = Verdict("skill", "the skill recognised the question and found no basis to answer")
        else:
            verdict = Verdict("skill" if enough else "understand",
                              "the skill's answer is sufficient" if enough else "the skill's answer is too weak")
    elif enough:
        verdict = Verdict("answer", "sufficient")
    elif any(r.tool == "premise" and not r.found for r in state.results):
        verdict = Verdict("abstain", "false premise")
    elif state.refinements >= config.max_refinements:
        verdict = Verdict("abstain", "no refinement left")
    else:
        # A refinement that would only run calls already run cannot find anything new.
        options = state.options or []
        tried = [c for round_ in range(state.refinements + 1) for c in calls_for(state.plan, options, round_)]
        fresh = [c for c in calls_for(state.plan, options, state.refinements + 1) if c not in tried]
        verdict = Verdict("refine", "insufficient; a broader plan remains") if fresh else \
            Verdict("abstain", "insufficient; nothing new to try")
    return {"verdict": verdict, "trace": [f"judge: sufficiency {state.sufficiency:.2f} -> {verdict.next} ({verdict.why})"]}


def route_after_judge(state: AgentState) -> str:
    return state.verdict.next


def refine(state: AgentState) -> dict:
    return {"refinements": state.refinements + 1, "trace": ["refine: change the plan"]}


def _result(state: AgentState, answer: str, abstained: bool, chosen: int | None) -> AgentAnswer:
    confidence = state.option_scores[chosen] if chosen is not None and state.option_scores else (
        1.0 - state.sufficiency if abstained else state.sufficiency
    )
    return AgentAnswer(
        question=state.question, answer=answer, abstained=abstained, confidence=round(confidence, 4),
        sufficiency=round(state.sufficiency, 4), question_type=state.plan.intent if state.plan else "",
        evidence=state.support, option_scores=state.option_scores,
        chosen_option=chosen, trace=state.trace, features=state.features, draft=state.draft,
    )


def skill(state: AgentState) -> dict:
    """The skill's answer as it gave it, with the graph's trace."""
    return {"result": replace(state.skill_answer, trace=state.trace)}


def _citing(state: AgentState, ctx: AgentContext, abstained: bool = False) -> list[Evidence]:
    """What the answer rests on, then the other records looked at that are about the question
    (agent.citing). An abstention rests on nothing: the records about the question, its
    draft's among them, are cited as related, the closest memory came, for the person to judge."""
    want = state.wanted or ctx.reader.wanted(state.question)
    looked_at = [*state.looked_at, *(e for r in state.results for e in r.support)]
    support = state.support
    if abstained:  # what the draft was read from is weighed like the rest, not cited for being the draft
        support, looked_at = [], [*state.support, *looked_at]
    return cited(support, looked_at, lambda records: ctx.reader.alignments(want, records),
                 reply_to=_reply_finder(ctx, state.at), bar=CLOSEST_ALIGNMENT if abstained else RELATED_ALIGNMENT)


def _reply_finder(ctx: AgentContext, at: datetime | None):
    """The turn answering a line said (another voice's next turn), for the reader and citing."""
    return lambda record: ctx.operators.reply_to(record, at) if record.kind == UTTERANCE else None


def answer(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """The draft, or the option the scores chose, citing what it rests on and then the other
    records looked at that are about the question (agent.citing)."""
    state = replace(state, support=_citing(state, runtime.context))
    chosen = None
    if state.options and state.option_scores:
        offered = abstain_options(state.options)
        candidates = [i for i in range(len(state.options)) if i not in offered]
        chosen = max(candidates, key=lambda i: state.option_scores[i]) if candidates else None
    text = state.options[chosen] if chosen is not None else state.draft
    return {"result": _result(state, text, abstained=False, chosen=chosen)}


def abstain(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    state = replace(state, support=_citing(state, runtime.context, abstained=True))
    offered = abstain_options(state.options or [])
    chosen = offered[0] if offered else None
    if chosen is None and state.options and state.option_scores:
        # No "cannot be answered" option: the protocol forces a choice, so give the best
        # guess (still flagged as an abstention for risk-coverage).
        chosen = max(range(len(state.options)), key=lambda i: state.option_scores[i])
    text = state.options[chosen] if chosen is not None else f"I can't answer that from memory ({state.note})."
    return {"result": _result(state, text, abstained=True, chosen=chosen)}


# -- wiring ------------------------------------------------------------------------------
def build_graph():
    graph = StateGraph(AgentState, input_schema=AgentInput, context_schema=AgentContext)
    for name, node in (("skills", skills), ("understand", understand), ("ground", ground), ("scope", scope),
                       ("plan", plan),
                       ("run_tool", run_tool), ("read", read), ("reason", reason), ("judge", judge), ("refine", refine),
                       ("skill", skill), ("answer", answer), ("abstain", abstain)):
        graph.add_node(name, node)
    graph.add_conditional_edges(START, route_start, ["skills", "understand"])
    graph.add_conditional_edges("skills", route_after_skills, ["understand", "judge"])
    graph.add_edge("understand", "scope")
    graph.add_edge("scope", "ground")
    graph.add_edge("ground", "plan")
    graph.add_conditional_edges("plan", fan_out, ["run_tool"])
    graph.add_edge("run_tool", "read")
    graph.add_edge("read", "reason")
    graph.add_edge("reason", "judge")
    graph.add_conditional_edges("judge", route_after_judge, ["skill", "understand", "answer", "refine", "abstain"])
    graph.add_edge("refine", "plan")
    for end in ("skill", "answer", "abstain"):
        graph.add_edge(end, END)
    return graph.compile()


class MemoryAgent:
    """Asks the compiled graph; one instance serves many questions."""

    def __init__(self, context: AgentContext):
        self.context = context
        self.graph = build_graph()
        load_inflections()  # before the tools run side by side (memory.language.words)

    def ask(self, question: str, namespace: str, at: datetime | None = None,
            options: list[str] | None = None) -> AgentAnswer:
        if not isinstance(question, str):
            raise ValueError(f"question must be text, not {type(question).__name__}")
        if not question.strip():
            raise ValueError("question is empty")
        if len(question) > MAX_QUESTION_CHARS:
            raise ValueError(f"question is {len(question)} characters; at most {MAX_QUESTION_CHARS} are accepted")
        if at is not None and at.tzinfo is not None:  # the service converts to the wearer's clock
            raise ValueError("question time must be on the wearer's clock (naive), not carry an offset")
        if not any(ch.isalnum() for ch in question):  # "?!", a control character: nothing is asked
            return AgentAnswer(question, "I can't answer that: it has no words to ask anything with.", True, 1.0, 0.0,
                               "", [], trace=["understand: no words"])
        state = AgentInput(question=question.strip(), namespace=namespace, at=at, options=options or None)
        with self.context.operators.pinned():  # old memory or new, never half of a re-ingest
            out = self.graph.invoke(state, context=self.context)
        return out["result"]
