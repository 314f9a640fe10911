"""`memlens bench refmem`: memlens and baselines as RefMem-Bench solvers, and the run that
scores and reports them. The composition lives here because eval must not import the
system it measures.

Each context (one long multi-session thread) is its own namespace ("refmem:<context_id>"),
ingested once; a question is asked after the thread's last turn (or at the item's
`asked_at`). Answers follow the paper's protocol: MC every correct letter, SC one letter, DA
1-4 words; evidence as exact `Speaker: text` lines and image indices.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cached_property

from agent.compose import all_that_apply
from agent.llm import ChatModel
from eval.refmem.dataset import LETTERS, RefMemItem, Suite
from eval.short_answer import ShortAnswerer
from memory.records import UTTERANCE, MemoryRecord
from perception.transcripts import Dialogue, read_transcript
from retrieval.search import SearchQuery
from service.system import MemlensSystem

ASK_AFTER = timedelta(days=1)
NAIVE_K = 10  # NaiveRAG's top-k turns
CHARS_PER_TOKEN = 4  # the full-context baseline's budget estimate


@dataclass
class RefMemPrediction:
    item_id: str
    question: str
    letters: list[str] = field(default_factory=list)  # MC / SC
    answer: str = ""  # DA: the phrase; MC / SC: the chosen options' text
    evidence_text: list[str] = field(default_factory=list)  # `Speaker: text` lines
    evidence_images: list[int] = field(default_factory=list)
    abstained: bool = False
    confidence: float = 0.0
    latency_s: float = 0.0
    error: str | None = None

    @staticmethod
    def from_dict(d: dict) -> RefMemPrediction:
        return RefMemPrediction(**d)


def namespace_of(context_id: str) -> str:
    return f"refmem:{context_id}"


def evidence_lines(records: list[MemoryRecord]) -> tuple[list[str], list[int]]:
    """Turns as the thread writes them (`Speaker: text`), and the images they shared."""
    lines, images = [], []
    for r in records:
        if r.kind != UTTERANCE:
            continue
        if r.attrs.get("said"):
            lines.append(f"{r.attrs.get('speaker_name') or r.attrs.get('speaker')}: {r.attrs['said']}")
        if r.attrs.get("image_index") is not None:
            images.append(int(r.attrs["image_index"]))
    return list(dict.fromkeys(lines)), list(dict.fromkeys(images))


class MemlensRefmem:
    """memlens's agent: the reflective tool gathers the turns, options are judged against them."""

    name = "memlens"

    def __init__(self, system: MemlensSystem, suite: Suite):
        self.system, self.suite = system, suite
        self.dialogues: dict[str, Dialogue] = {}

    @cached_property
    def short(self) -> ShortAnswerer:
        return ShortAnswerer(self.system.memory.embedder)

    def dialogue(self, context_id: str) -> Dialogue:
        if context_id not in self.dialogues:
            self.dialogues[context_id] = read_transcript(self.suite.thread(context_id))[0]
        return self.dialogues[context_id]

    def asked_at(self, item: RefMemItem) -> datetime:
        if item.asked_at:
            return datetime.fromisoformat(item.asked_at).replace(tzinfo=None)
        return self.dialogue(item.context_id).turns[-1].time + ASK_AFTER

    def prepare(self, context_id: str) -> bool:
        namespace, dialogue = namespace_of(context_id), self.dialogue(context_id)
        if any(v.video_id == dialogue.dialogue_id for v in self.system.memory.videos(namespace)):
            return False
        self.system.ingest_dialogue(dialogue, namespace)
        return True

    def answer(self, item: RefMemItem) -> RefMemPrediction:
        options = list(item.options) or None
        a = self.system.ask(item.question, namespace_of(item.context_id), self.asked_at(item), options)
        lines, images = evidence_lines([e.record for e in a.evidence])
        pred = RefMemPrediction(item.id, item.question, evidence_text=lines, evidence_images=images,
                                abstained=a.abstained, confidence=a.confidence)
        if item.format == "DA":
            # the phrase the cited turns bear out; a model's answer is already a sentence about them
            written = self.system.config.agent.llm.backend != "none"
            pred.answer = "" if a.abstained else self.short(item.question, [a.answer] if written else lines or [a.answer])
        else:
            chosen = all_that_apply(a.option_scores or [], item.options) if item.format == "MC" else (
                [a.chosen_option] if a.chosen_option is not None else [])
            pred.letters = [LETTERS[i] for i in sorted(chosen)]
            pred.answer = "; ".join(item.options[i] for i in sorted(chosen))
        return pred


class NaiveRagRefmem(MemlensRefmem):
    """The paper's NaiveRAG in the same harness: the top-k turns the hybrid retriever ranks
    for the bare question; options judged against them, DA the phrase they bear out; no
    planning, no reflective segments, never abstains."""

    name = "naiverag"

    def answer(self, item: RefMemItem) -> RefMemPrediction:
        from agent.reasoning import line_support

        hits = self.system.retriever.search(SearchQuery(item.question, namespace_of(item.context_id), stores=("event",),
                                                        kinds=(UTTERANCE,), before=self.asked_at(item), k=NAIVE_K))
        records = [h.record for h in hits]
        lines, images = evidence_lines(records)
        texts = [r.text for r in records]
        pred = RefMemPrediction(item.id, item.question, evidence_text=lines, evidence_images=images)
        if item.format == "DA":
            pred.answer = self.short(item.question, texts)
            return pred
        support, _ = line_support(self.system.memory.embedder, list(item.options), texts)
        chosen = all_that_apply(list(support), item.options) if item.format == "MC" else [int(support.argmax())]
        pred.letters = [LETTERS[i] for i in sorted(chosen)]
        return pred


_ANSWER = re.compile(r"<answer>(.*?)</answer>", re.S | re.I)
_EXPLANATION = re.compile(r"<explanation>(.*?)</explanation>", re.S | re.I)


class FullContextRefmem(MemlensRefmem):
    """The configured LLM reads the whole thread (the oldest turns dropped when it exceeds
    the model's window) and answers in the paper's protocol: `<answer>` (MC `[A,D]`, SC one
    letter, DA 1-4 words) and `<explanation>` citing `Speaker: text` lines and image indices."""

    name = "fullcontext"

    def __init__(self, system: MemlensSystem, suite: Suite, chat: ChatModel | None = None):
        super().__init__(system, suite)
        self.chat = chat or system.chat  # the model the system already loaded, not a second copy
        if self.chat is None:
            raise ValueError("the full-context baseline needs an LLM: set agent.llm (e.g. --config with "
                             "backend llamacpp or openai)")

    def prepare(self, context_id: str) -> bool:
        return False  # reads the thread file itself; no memory

    def thread(self, context_id: str) -> str:
        text = self.suite.thread(context_id).read_text(encoding="utf-8")
        llm = self.system.config.agent.llm
        budget = max(1000, (llm.n_ctx - llm.max_tokens - 400) * CHARS_PER_TOKEN)
        return text if len(text) <= budget else text[-budget:].split("\n", 1)[-1]

    def answer(self, item: RefMemItem) -> RefMemPrediction:
        from eval.refmem.metrics import parse_letters

        if item.format == "DA":
            form = "Answer with 1-4 words (a noun or verb phrase), using vocabulary from the dialogue."
        else:
            shown = "\n".join(f"{LETTERS[i]}. {o}" for i, o in enumerate(item.options))
            form = (f"Options:\n{shown}\n" + ("Select ALL correct options (1-4 may be correct); answer like [A,D]."
                                              if item.format == "MC" else "Select the ONE correct option letter."))
        messages = [
            {"role": "system", "content": "You answer questions about a long multi-session dialogue. Reason about "
                                          "the people in it from scattered cues. Reply with <answer>...</answer> then "
                                          "<explanation>...</explanation>; in the explanation copy the exact "
                                          "'Speaker: text' lines you relied on, one per line, and list image indices "
                                          "as a JSON list like [3, 7] (or [])."},
            {"role": "user", "content": f"Dialogue:\n{self.thread(item.context_id)}\n\nQuestion: {item.question}\n{form}"},
        ]
        reply = self.chat.complete(messages)
        answer = (_ANSWER.search(reply).group(1) if _ANSWER.search(reply) else reply).strip()
        explanation = _EXPLANATION.search(reply).group(1) if _EXPLANATION.search(reply) else ""
        lines = [ln.strip() for ln in explanation.splitlines() if re.match(r"^[^:\[\]]{1,80}:\s+\S", ln.strip())]
        images = [int(n) for group in re.findall(r"\[([\d,\s]+)\]", explanation) for n in re.findall(r"\d+", group)]
        pred = RefMemPrediction(item.id, item.question, evidence_text=lines, evidence_images=images)
        if item.format == "DA":
            pred.answer = " ".join(answer.split()[:8])
        else:
            letters = parse_letters(answer, len(item.options))
            pred.letters = list(letters if item.format == "MC" else letters[:1])
        return pred


SOLVERS = {"memlens": MemlensRefmem, "naiverag": NaiveRagRefmem, "fullcontext": FullContextRefmem}


def run_refmem_bench(system: MemlensSystem, suite: Suite, out, judge, progress=None, command: str = "",
                     solver_name: str = "memlens"):
    """Ask, score, and write predictions.jsonl (resumable), report.md, summary.json and the plot.
    `solver_name` picks memlens or a baseline from SOLVERS (one system per output folder)."""
    import json
    import time
    from pathlib import Path

    from eval.grouped import run_grouped
    from eval.refmem.report import plot_refmem, refmem_metrics, refmem_report, score, summary

    if solver_name not in SOLVERS:
        raise ValueError(f"unknown RefMem system {solver_name!r} (known: {', '.join(SOLVERS)})")
    began = time.perf_counter()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    solver = SOLVERS[solver_name](system, suite)
    groups = [(c, [i for i in suite.items if i.context_id == c]) for c in suite.contexts]
    preds, stats = run_grouped(groups, solver, out / "predictions.jsonl", RefMemPrediction.from_dict,
                               lambda item, error: RefMemPrediction(item.id, item.question, error=error), progress)
    metrics = refmem_metrics(score(suite.items, preds, judge, system.memory.embedder))
    llm = system.config.agent.llm.label if solver_name != "naiverag" else "none"
    (out / "summary.json").write_text(json.dumps(summary(metrics, solver_name, llm, judge.name), indent=2) + "\n")
    latency = [p.latency_s for p in preds.values()]
    setup = {
        "system": f"{solver_name}: {(SOLVERS[solver_name].__doc__ or '').split('.')[0].strip()}",
        "LLM": llm, "DA judge": judge.name, "suite": str(suite.root),
        "contexts": f"{len(suite.contexts)}; items: {len(suite.items)} ({len(preds)} answered)",
        "this invocation": f"{time.perf_counter() - began:.0f} s wall: {stats.ingested} contexts ingested, "
                           f"{stats.asked} questions asked ({stats.failed} failed, retried next run), "
                           f"{stats.resumed} resumed from predictions.jsonl",
        "ask latency": f"{sum(latency) / max(len(latency), 1):.3f} s per question",
    }
    notes = [
        "Acc: MC scores 1 only when the predicted option set equals the gold set (no partial credit); SC one "
        "letter; DA the judge's verdict (semantically equivalent to any one reference).",
        "memlens and NaiveRAG pick MC options with agent.compose.all_that_apply: the best ones down to the widest "
        "drop in score (the prompt's 'one to four may be correct').",
        "MemR, text dimensions: per item the mean over gold evidence lines of the best cosine "
        "(all-MiniLM-L6-v2; the paper does not name its encoder) to a cited line, averaged over items where both "
        "sides are non-empty, as the paper does; 'cited any evidence' is that coverage, since MemR skips items "
        "that cite nothing (an abstention cites only the lines closest to the question). Visual dimensions: recall of the gold image indices, "
        "0 when none is cited.",
        "BLEU-1 and F1 (DA): clipped unigram overlap over lower-cased, punctuation-stripped tokens, the best "
        "over the references (eval/refmem/metrics.py says what the paper leaves open).",
        "Means over dimensions are unweighted, as the paper's Table 1 is over Tables 4/6.",
        "Paper rows come from the real benchmark (LoCoMo, DialSim, REALTALK threads, GPT-4o judge); memlens's "
        "row from the suite named above: context, not a leaderboard.",
    ]
    if command:
        notes.append(f"Reproduce with `{command}`.")
    title = f"{solver_name} on RefMem-style suite ({suite.root.name})"
    plot = plot_refmem(metrics, out / "refmem.png", title)
    report = out / "report.md"
    report.write_text(refmem_report(metrics, title, solver_name, setup, notes) + f"\n\n![{plot.stem}]({plot.name})\n")
    return report
