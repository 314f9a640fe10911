"""`memlens bench`: memlens and baselines over one suite, through the eval runner, into a
report. The composition lives here because eval must not import the system it measures."""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path

from eval.baselines import BlindBaseline, RandomBaseline
from eval.metrics import Scored, grouped, pair
from eval.phrasing_report import phrasing_report
from eval.phrasings import DEFAULT_SETS, TEMPLATE
from eval.report import egomemreason_report, plot_per_task, plot_risk_coverage, supermemory_report, versus
from eval.retrieval_baselines import BaselineAnswer, EgoButlerBaseline, VideoRagBaseline
from eval.runner import Runner
from eval.schema import Item, Prediction, QASystem, Suite, VideoRef
from service.system import MemlensSystem
from service.views import evidence_view


class MemlensQA:
    """memlens behind the eval Protocol: ingest on the wearer's clock, ask at t_q with the options."""

    name = "memlens"

    def __init__(self, system: MemlensSystem):
        self.system = system

    def ingest(self, video: VideoRef, namespace: str) -> None:
        self.system.ingest(video.path, namespace, datetime.fromisoformat(video.start).replace(tzinfo=None))

    def answer(self, item: Item, namespace: str) -> Prediction:
        a = self.system.ask(item.question, namespace, item.asked_time, [o.text for o in item.options])
        return Prediction(item.id, self.name, a.chosen_option, list(a.option_scores or []), a.abstained,
                          a.answer, [evidence_view(e) for e in a.evidence], features=dict(a.features))


class ClusteredMemlensQA(MemlensQA):
    """memlens with a suite's videos perceived together on a Ray cluster (`service.cluster`)."""

    def __init__(self, system: MemlensSystem, address: str, workers: int):
        super().__init__(system)
        self.address, self.workers = address, workers

    def ingest_all(self, videos: list[tuple[VideoRef, str]]) -> Iterator[tuple[VideoRef, str]]:
        from service.cluster import ingest_on_ray

        reports = ingest_on_ray(self.system, [Path(v.path) for v, _ in videos], [n for _, n in videos],
                                [datetime.fromisoformat(v.start).replace(tzinfo=None) for v, _ in videos],
                                self.address, self.workers)
        for remembered, _ in zip(videos, reports):  # each as its report comes
            yield remembered


class MemoryBaselineQA:
    """A retrieval baseline (Video-RAG, EgoButler) behind the eval Protocol, reading the memory
    memlens built: a video this memory already holds is not perceived or ingested again."""

    def __init__(self, system: MemlensSystem, baseline: VideoRagBaseline | EgoButlerBaseline):
        self.system = system
        self.baseline = baseline
        self.name = baseline.name

    def ingest(self, video: VideoRef, namespace: str) -> None:
        start = datetime.fromisoformat(video.start).replace(tzinfo=None)
        if not self.system.holds(video.path, namespace, start):
            self.system.ingest(video.path, namespace, start)

    def answer(self, item: Item, namespace: str) -> Prediction:
        a: BaselineAnswer = self.baseline.answer(item.question, namespace, item.asked_time,
                                                 [o.text for o in item.options])
        return Prediction(item.id, self.name, a.chosen, a.option_scores, a.abstained, a.answer,
                          [evidence_view(e) for e in a.evidence])


def make_systems(names: list[str], system: MemlensSystem, ray: str | None = None, ray_workers: int = 2) -> list[QASystem]:
    """The systems by name; with `ray` (a cluster address), memlens perceives a suite's
    videos on that cluster, and the baselines then read the memory it built."""
    factories: dict[str, Callable[[], QASystem]] = {
        "memlens": lambda: ClusteredMemlensQA(system, ray, ray_workers) if ray else MemlensQA(system),
        "random": RandomBaseline,
        "blind": lambda: BlindBaseline(system.memory.embedder.embed),
        "videorag": lambda: MemoryBaselineQA(system, VideoRagBaseline(system.retriever, system.memory.embedder)),
        "egobutler": lambda: MemoryBaselineQA(system, EgoButlerBaseline(system.retriever, system.memory.embedder)),
    }
    unknown = [n for n in names if n not in factories]
    if unknown:
        raise ValueError(f"unknown systems {unknown}; known: {', '.join(factories)}")
    return [factories[n]() for n in names]


# Systems asked in every requested phrasing set; baselines are asked the template wording only.
PHRASED_SYSTEMS = ("memlens",)


def run_bench(suite: Suite, out: Path, systems: list[QASystem], workers: int = 1,
              progress: Callable[[str, int, int], None] | None = None, command: str = "",
              phrasings: Sequence[str] = DEFAULT_SETS) -> Path:
    """Each system over the suite; memlens once per phrasing set (memory ingested once), the
    paper tables from its template run, and the template vs held-out section beside them."""
    runner = Runner(out / "predictions", workers=workers, progress=progress)
    runs: dict[str, list[Scored]] = {}
    phrased: dict[str, dict[str, list[Scored]]] = {}
    for s in systems:
        sets = tuple(phrasings) if s.name in PHRASED_SYSTEMS else (TEMPLATE,)
        by_set = {p: pair(suite.items, runner.run(s, suite, phrasing=p)) for p in sets}
        primary = TEMPLATE if TEMPLATE in by_set else sets[0]
        runs[s.name if primary == TEMPLATE else f"{s.name} [{primary}]"] = by_set[primary]
        if s.name in PHRASED_SYSTEMS:
            phrased[s.name] = by_set
    title = f"memlens bench: {suite.name} ({len(suite.items)} items, {len(suite.videos)} videos)"
    text, plots = _paper_report(suite.name, runs, out, title)
    text += "\n\n" + versus(runs)
    baselines = [s.name for s in systems if s.name not in phrased]
    for name, by_set in phrased.items():
        text += "\n\n" + phrasing_report(name, by_set, len(suite.items), baselines)
    if suite.meta:
        text += "\n\n## Suite\n\n" + "\n".join(f"- {k}: {v}" for k, v in suite.meta.items())
    if command:
        text += f"\n\nReproduce with `{command}`."
    report = out / "report.md"
    report.write_text(text + "\n\n" + "\n\n".join(f"![{p.stem}]({p.name})" for p in plots) + "\n")
    return report


def _paper_report(name: str, runs: dict[str, list[Scored]], out: Path, title: str) -> tuple[str, list[Path]]:
    """The report in the shape of the suite's paper, and its plots."""
    if name == "videocogqa":
        from eval.videocogqa.report import videocogqa_plots, videocogqa_report

        return videocogqa_report(runs, title), videocogqa_plots(runs, out, title)
    if name == "m3eval":
        from eval.m3eval.report import m3eval_plots, m3eval_report

        return m3eval_report(runs, title), m3eval_plots(runs, out)
    report_of = egomemreason_report if name == "egomemreason" else supermemory_report
    per_task = {n: grouped(scored, lambda s: s.item.task) for n, scored in runs.items()}
    tasks = tuple(sorted({s.item.task for scored in runs.values() for s in scored}))
    plots = [plot_per_task(per_task, tasks, out / "per_task.png", title),
             plot_risk_coverage(runs, out / "risk_coverage.png", "risk-coverage")]
    return report_of(runs, title), plots
