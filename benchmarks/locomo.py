"""`memlens bench locomo`: memlens as a LoCoMo solver, and the run that scores and reports it.
The composition lives here because eval must not import the system it measures.

Each conversation is its own namespace ("locomo:<sample_id>") in the configured memlens home,
ingested once (a resumed run finds it in memory). Every question is asked a day after the
conversation's last turn, when all of it is in the past.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from eval.locomo.dataset import Conversation, LocomoItem, read_conversations, select
from eval.locomo.report import locomo_metrics, locomo_report, plot_locomo, score, summary, write_summary
from eval.locomo.runner import LocomoPrediction, run_locomo
from memory.records import UTTERANCE
from perception.transcripts import Dialogue, read_transcript
from retrieval.search import Hit, SearchQuery
from service.system import MemlensSystem

ASK_AFTER = timedelta(days=1)
RETRIEVED_K = 10  # the retriever's top-k kept per question (recall@5 reads its first five)


def namespace_of(sample_id: str) -> str:
    return f"locomo:{sample_id}"


class MemlensLocomo:
    def __init__(self, system: MemlensSystem, dialogues: list[Dialogue]):
        self.system = system
        self.dialogues = {d.dialogue_id: d for d in dialogues}

    def asked_at(self, sample_id: str) -> datetime:
        return self.dialogues[sample_id].turns[-1].time + ASK_AFTER

    def prepare(self, sample_id: str) -> bool:
        namespace, dialogue = namespace_of(sample_id), self.dialogues[sample_id]
        if any(v.video_id == sample_id for v in self.system.memory.videos(namespace)):
            return False
        self.system.ingest_dialogue(dialogue, namespace)
        return True

    def retrieved(self, question: str, namespace: str, at: datetime) -> list[Hit]:
        """The turns the hybrid retriever ranks first for the bare question, under the same
        time cut: utterances only, since only they carry a dia_id (session captions and
        roll-ups would take places in the top-k that no gold turn can fill)."""
        return self.system.retriever.search(SearchQuery(question, namespace, stores=("event",), kinds=(UTTERANCE,),
                                                        before=at, k=RETRIEVED_K))

    def answer(self, item: LocomoItem) -> LocomoPrediction:
        namespace, at = namespace_of(item.sample_id), self.asked_at(item.sample_id)
        a = self.system.ask(item.question, namespace, at)
        hits = self.retrieved(item.question, namespace, at)
        return LocomoPrediction(item.id, item.question, a.answer, a.abstained, a.confidence,
                                _refs(e.record for e in a.evidence), _refs(h.record for h in hits))


class NaiveRagLocomo(MemlensLocomo):
    """The paper's NaiveRAG baseline in the same harness: the same memory and retriever,
    no agent. It answers with the words of the top-ranked turn and never abstains, so it
    shows what memlens's planning, tools and abstention add over plain top-k retrieval."""

    def answer(self, item: LocomoItem) -> LocomoPrediction:
        hits = self.retrieved(item.question, namespace_of(item.sample_id), self.asked_at(item.sample_id))
        top = hits[0].record if hits else None
        return LocomoPrediction(item.id, item.question, top.attrs.get("said", top.text) if top else "",
                                False, hits[0].score if hits else 0.0, _refs([top] if top else []),
                                _refs(h.record for h in hits))


SOLVERS = {"memlens": MemlensLocomo, "naiverag": NaiveRagLocomo}


def _refs(records) -> list[str]:
    return list(dict.fromkeys(r.attrs["ref"] for r in records if r.attrs.get("ref")))


def run_locomo_bench(system: MemlensSystem, path: Path, out: Path, conversations: int | None = None,
                     limit: int | None = None, progress: Callable[[str, int, int], None] | None = None,
                     command: str = "", solver_name: str = "memlens") -> Path:
    """Ask, score, and write predictions.jsonl (resumable), report.md, summary.json and the plot.
    `solver_name` picks memlens or a baseline from SOLVERS (one system per output folder)."""
    if solver_name not in SOLVERS:
        raise ValueError(f"unknown LoCoMo system {solver_name!r} (known: {', '.join(SOLVERS)})")
    began = time.perf_counter()
    chosen: list[Conversation] = select(read_conversations(path), conversations, limit)
    if not chosen:
        raise ValueError(f"{path}: no conversations selected")
    solver = SOLVERS[solver_name](system, read_transcript(path))
    out.mkdir(parents=True, exist_ok=True)
    preds, stats = run_locomo(chosen, solver, out / "predictions.jsonl", progress)
    metrics = locomo_metrics(score(chosen, preds))
    llm = system.config.agent.llm.label if solver_name == "memlens" else "none"
    write_summary(out / "summary.json", summary(metrics, llm))
    questions = sum(len(c.items) for c in chosen)
    title = f"{solver_name} on LoCoMo ({Path(path).name}, {len(chosen)} conversations, {questions} questions)"
    seconds = time.perf_counter() - began
    latency = [p.latency_s for p in preds.values()]
    setup = {
        "system": solver_name + ("" if solver_name == "memlens" else f" ({SOLVERS[solver_name].__doc__.split('.')[0].strip()})"),
        "planner": system.config.agent.planner if solver_name == "memlens" else "none",
        "conversations": ", ".join(c.sample_id for c in chosen),
        "questions": f"{questions}" + (f" ({limit} per conversation at most, taken in turn from each category)"
                                       if limit is not None else ""),
        "this invocation": f"{seconds:.0f} s wall: {stats.ingested} conversations ingested, {stats.asked} questions "
                           f"asked ({stats.failed} failed, retried next run), {stats.resumed} resumed from "
                           "predictions.jsonl",
        "ask latency": f"{sum(latency) / max(len(latency), 1):.3f} s per question, {sum(latency):.0f} s in all",
    }
    notes = [
        "F1: LoCoMo's official token F1 (task_eval/evaluation.py; eval/locomo/scoring.py says what was matched): "
        "normalised, Porter-stemmed tokens; category 1 splits answers on ',' and averages each gold part's best F1; "
        "category 3 scores the gold answer's first ';' part.",
        "An abstention by memlens on categories 1-4 scores F1 0 (its refusal text is not an answer); the "
        "'abstained' column is how often it abstained.",
        "Category 5 (adversarial: the conversation does not hold the answer): F1 is not computed; refusal = "
        "memlens abstained, or its answer (outside quoted turns) says the information is not there (LoCoMo's "
        "'no information available' / 'not mentioned' among the phrases).",
        f"Questions asked {ASK_AFTER.days} day after the conversation's last turn, memory cut strictly before; "
        "each conversation in its own namespace.",
        f"Retriever recall@k: share of an item's gold evidence turns (dia_ids) among the top-k utterances the "
        f"hybrid retriever (dense + BM25, reciprocal-rank fusion) returns for the bare question under the same "
        f"cut (top {RETRIEVED_K} kept; @5 is its first five). Answer evidence recall@k: the same over the first k "
        "turns the answer cites (an abstention's are the turns closest to the question, cited as related). "
        "Averaged over items of categories 1-4 with gold evidence; malformed gold ids ('D8:6; D9:17') are split, one naming no turn is dropped.",
        "1-4 together is question-weighted (micro), as the Mem0 paper's J over 1,540 questions is.",
        "predictions.jsonl quotes the dataset (questions, answers built from its turns): it stays out of the "
        "repository (CC BY-NC).",
    ]
    if command:
        notes.append(f"Reproduce with `{command}`.")
    plot = plot_locomo(metrics, out / "locomo.png", f"{solver_name} on LoCoMo")
    report = out / "report.md"
    report.write_text(locomo_report(metrics, title, llm, setup, notes) + f"\n\n![{plot.stem}]({plot.name})\n")
    return report
