"""`memlens bench scale`: how memlens's latency, disk and memory grow with a long memory.

One database holds other users' memories and a growing memory of the wearer "me" (a day,
then a week, a month, a year of recorded days, eval/scale/world.py). At each size it
times `ask` (the agent with the deterministic planner) and hybrid `search` over everyday
questions, then FAISS search over a million vectors the way the stores index them, and
the ingest speed on a day-like video (eval/day_video.py). Writes `summary.json`,
`report.md` (a table with the issue's targets beside the figures) and `latency.png`.

Timing: every question is first answered once untimed on another user's memory (spaCy,
the intent model and the lexicons load as in a running server); each size is then timed
once per question, right after its memory was written, so what the stores keep per commit
is computed afresh, as after a bulk import of those days. Then one more hour-long video is
written in its own commit, as a live ingest adds it to a memory that has been answering
questions, and the questions are timed again ("live"). Disk is the memory folder after a
WAL checkpoint.

`--keep DIR` keeps the memory: a later run with the same DIR opens it, as a server would
after a restart, grows it to the sizes asked for and times each; a year takes about 95
minutes to build and minutes to measure again. A memory opened is timed as a restarted
server answers: once it has read the wearer's indexes (MemlensSystem.warm; the seconds
that took are reported).
"""
from __future__ import annotations

import json
import resource
import tempfile
import time
from dataclasses import asdict, dataclass, field, replace
from datetime import timedelta
from pathlib import Path

import numpy as np

from benchmarks.ingest import START, fresh_config
from eval.scale.texts import QUESTIONS
from eval.scale.world import (
    DAY_STARTS_AT,
    FIRST_DAY,
    HOURS_PER_DAY,
    RATES_PER_HOUR,
    SPEECH_SHARE,
    SyntheticWearer,
    TextPool,
    records_per_hour,
)
from memory.records import STORE_NAMES, RecordFilter
from perception.config import default_cache_root
from perception.progress import as_progress
from retrieval.search import SearchQuery
from service.config import AppConfig
from service.system import MemlensSystem

TARGETS = {"ask_p95_ms": {"week": 300, "year": 1000}, "search_p95_ms": {"year": 50}, "vector_1m_p95_ms": 20,
           "ingest_realtime_factor": 5, "disk_mb_per_video_hour": 50}


@dataclass(frozen=True)
class ScaleSizes:
    """What one run builds and measures (days of "me" per size are cumulative)."""

    days: dict[str, int] = field(default_factory=lambda: {"day": 1, "week": 7, "month": 30, "year": 365})
    other_users: int = 100
    # Each other user holds a recorded morning (2 h, ~4,700 records): a whole day each would be
    # 3.7M records at the measured rates, outweighing the wearer's own month.
    other_hours: float = 2.0
    hours_per_day: float = HOURS_PER_DAY
    pool: int = 20_000  # distinct texts embedded for the records to draw from
    vector_records: int = 1_000_000
    day_video_seconds: float = 300.0  # 0: no ingest measurement
    questions: int = len(QUESTIONS)


QUICK = ScaleSizes(days={"day": 1, "week": 7}, other_users=10, pool=3_000,
                   vector_records=100_000, day_video_seconds=90.0)


def run_scale_bench(config: AppConfig, out: Path, sizes: ScaleSizes = ScaleSizes(), progress=None,
                    work: Path | None = None, command: str = "memlens bench scale",
                    pool_cache: Path | None = default_cache_root() / "scale", keep: Path | None = None) -> dict:
    """Build, measure, write the outputs; returns the summary. `work` holds the (large)
    memory while it runs (a temporary folder by default, removed afterwards); `keep` holds
    it instead and keeps it: run again with the same `keep`, the memory is opened as a
    server would open it and grown from where it is (a year is built once, in about
    95 minutes, and measured again in minutes). `pool_cache` keeps the text pool's
    vectors between runs."""
    kept = KeptBuild.open(keep, sizes) if keep is not None else None  # refused before minutes of work
    out.mkdir(parents=True, exist_ok=True)
    progress = as_progress(progress)
    summary: dict = {"command": command, "sizes": asdict(sizes), "rates_per_hour": RATES_PER_HOUR,
                     "records_per_video_hour": round(records_per_hour(), 1), "rss_mb_after": {}}
    with tempfile.TemporaryDirectory(prefix="memlens-scale-", dir=work) as home:
        if sizes.day_video_seconds:
            summary.update(_ingest_speed(config, Path(home) / "ingest", sizes, progress))
            summary["rss_mb_after"]["ingest"] = _peak_rss_mb()
        (out / "sizes.jsonl").write_text("")
        summary.update(_memory_sizes(config, keep or Path(home) / "scale", sizes, progress, pool_cache,
                                     lambda row: _append(out / "sizes.jsonl", row), kept=kept))
        summary["rss_mb_after"]["memory sizes"] = _peak_rss_mb()
    summary.update(_vector_search(sizes.vector_records, progress, summary.pop("pool_vectors", None)))
    summary["rss_mb_after"]["vector search"] = _peak_rss_mb()
    summary["peak_rss_mb"] = _peak_rss_mb()
    (out / "summary.json").write_text(json.dumps(_headline(summary), indent=2))
    (out / "report.md").write_text(_report(summary))
    _plot(summary, out / "latency.png")
    return _headline(summary)


def _headline(summary: dict) -> dict:
    """The issue's keys first, then everything else measured."""
    keys = ("ask_p95_ms", "search_p95_ms", "vector_1m_p95_ms", "ingest_realtime_factor", "disk_mb_per_video_hour",
            "peak_rss_mb")
    return {**{k: summary.get(k) for k in keys}, **{k: v for k, v in summary.items() if k not in keys}}


def _append(path: Path, row: dict) -> None:
    """Each size's figures as soon as they are measured: a long run killed at the next size
    (a year may not fit in memory) still leaves what it measured."""
    with path.open("a") as f:
        f.write(json.dumps(row) + "\n")


KEPT_NOTE = "scale-build.json"  # in a --keep folder: the settings its memory was built with


class KeptMemoryError(ValueError):
    """A --keep folder this run cannot use."""


def _world(sizes: ScaleSizes) -> dict:
    """The settings that decide what a memory holds: a kept memory grows only under the same."""
    return {"other_users": sizes.other_users, "other_hours": sizes.other_hours,
            "hours_per_day": sizes.hours_per_day, "pool": sizes.pool}


@dataclass
class KeptBuild:
    """What a --keep folder's memory holds, noted beside it. A kill between a write and its
    note leaves no step done twice: the other users' one commit is noted after it lands,
    an evening before (its video name counts evenings), and days are read from the memory."""

    folder: Path
    world: dict
    others_built: bool = False
    days: int = 0  # as of the last note: a floor, for refusing early
    evenings: int = 0

    @classmethod
    def open(cls, folder: Path, sizes: ScaleSizes) -> KeptBuild:
        """The folder's note, or a new one for an empty folder; refuses a folder holding
        anything else, a memory built with other settings, or one past every size asked for."""
        note, world = folder / KEPT_NOTE, _world(sizes)
        if not note.is_file():
            if folder.is_dir() and any(folder.iterdir()):  # never write synthetic days into someone's memory
                raise KeptMemoryError(f"{folder} is not empty and holds no scale memory ({KEPT_NOTE}): keep it in a "
                                      "new folder")
            return cls(folder, world)
        held = json.loads(note.read_text())
        if held["world"] != world:
            raise KeptMemoryError(f"{folder} keeps a scale memory built with {held['world']}, not {world}: keep this "
                                  "run's memory in another folder, or run with the settings it was built with")
        kept = cls(folder, world, held["others_built"], held["days"], held["evenings"])
        kept.refuse_past(sizes)
        return kept

    def refuse_past(self, sizes: ScaleSizes) -> None:
        if self.days > max(sizes.days.values()):
            raise KeptMemoryError(f"{self.folder} keeps {self.days} days of \"me\", more than every size asked for "
                                  f"({', '.join(f'{k}={v}' for k, v in sizes.days.items())}): nothing to measure")

    def note(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / KEPT_NOTE).write_text(json.dumps({"world": self.world, "others_built": self.others_built,
                                                         "days": self.days, "evenings": self.evenings}))


def _days_held(memory) -> int:
    """Recorded days of "me" in memory: the day of its newest record, counted from the first
    day's start of recording (an evening video runs past midnight when days are long)."""
    newest = memory.store("event").query(RecordFilter(namespace="me"), limit=1, newest_first=True)
    return (newest[0].wall_start - FIRST_DAY - timedelta(hours=DAY_STARTS_AT)).days + 1 if newest else 0


def _memory_sizes(config: AppConfig, home: Path, sizes: ScaleSizes, progress, pool_cache: Path | None,
                  measured=lambda row: None, kept: KeptBuild | None = None) -> dict:
    """`kept`: what `home`, which outlives the run, holds. A memory already kept there is
    opened and grown to each size in turn; a size it has already passed is skipped (it
    cannot be measured inside a bigger memory); the size it holds is measured as this fresh
    process opens it."""
    build = kept or KeptBuild(home, _world(sizes))
    note = build.note if kept else (lambda: None)
    resumed = build.others_built
    system = MemlensSystem(fresh_config(config, home))
    memory = system.memory
    try:
        began = time.perf_counter()
        pool = TextPool(memory.embedder.embed, sizes.pool, cache_dir=pool_cache, progress=progress)
        pool_seconds = time.perf_counter() - began
        began = time.perf_counter()
        if not resumed:
            note()  # the folder is this bench's from now on
            progress.start("other users", sizes.other_users)
            with memory.db.batch():  # one commit: each commit rewrites the index files
                for i in range(sizes.other_users):
                    name = f"user{i:03d}"
                    SyntheticWearer(memory, pool, name, hours_per_day=sizes.other_hours).write_days(0, 1)
                    memory.refresh_behaviors(name)
                    progress.advance("other users")
            build.others_built = True
            note()
        others_seconds = time.perf_counter() - began
        # Models and lexicons load on another user's memory, so that at every size the
        # questions are the first after its commit (caches kept per commit start empty), as
        # they are after an ingest.
        _ask_all(system, QUESTIONS[: sizes.questions], FIRST_DAY + timedelta(days=1, hours=8), progress, "warm-up",
                 namespace="user000")
        me = SyntheticWearer(memory, pool, "me", hours_per_day=sizes.hours_per_day)
        built = held = build.days = _days_held(memory)
        build.refuse_past(sizes)  # the note may lag the memory by a day
        written = sum(memory.store(s).count(RecordFilter(namespace="me")) for s in ("entity", "event"))
        rows, skipped = {}, []
        for size, days in sorted(sizes.days.items(), key=lambda kv: kv[1]):
            if days < built:
                skipped.append(size)
                continue
            progress.start(f"build {size}", days - built)
            began, fold_seconds = time.perf_counter(), 0.0
            for day in range(built, days):  # a day's video in one commit, its behaviors folded in: an ingest
                since = memory.db.newest_id()
                written += sum(me.write_days(day, 1).values())
                folded = time.perf_counter()
                memory.refresh_behaviors("me", since=since)
                fold_seconds = time.perf_counter() - folded
                build.days = day + 1
                note()
                progress.advance(f"build {size}")
            build_seconds, built_now, built = time.perf_counter() - began, days - built, days
            recomputed = time.perf_counter()
            if built_now or not resumed:  # a kept memory opened at this size has its behaviors
                memory.refresh_behaviors("me")  # what a forget or a re-ingest does instead
            recompute_seconds = time.perf_counter() - recomputed
            _checkpoint(memory)
            read = time.perf_counter()
            if not built_now:  # opened: what a server reads at start (MemlensSystem.warm); built ones are in memory
                memory.load("me")
            read_seconds = time.perf_counter() - read
            at = FIRST_DAY + timedelta(days=days, hours=8)  # the morning after the last recorded day
            ask_ms = _ask_all(system, QUESTIONS[: sizes.questions], at, progress, f"ask {size}")
            search_ms, foreign = _search_all(system, QUESTIONS[: sizes.questions], at, progress, f"search {size}")
            rows[size] = _size_row(memory, home, days, sizes, build_seconds, ask_ms, search_ms, foreign, build.evenings)
            rows[size]["days_built_this_run"] = built_now  # 0: a kept memory, measured as opened
            rows[size]["slowest_asks_ms"] = _slowest(ask_ms)
            rows[size]["records_written_me"] = written  # entity and event records; behaviors are derived
            rows[size]["behaviors_fold_seconds"] = round(fold_seconds, 2)  # the last day's
            rows[size]["behaviors_recompute_seconds"] = round(recompute_seconds, 2)
            rows[size]["indexes_read_seconds"] = round(read_seconds, 2)  # 0 unless opened
            build.evenings += 1
            note()  # before its commit: a kill between them never writes one evening's video twice
            written += sum(me.write_evening(days - 1, nth=build.evenings - 1).values())  # a live ingest: one commit
            live_ms = _ask_all(system, QUESTIONS[: sizes.questions], at, progress, f"ask {size} after a video")
            rows[size].update({"ask_live_p50_ms": _pct(live_ms, 50), "ask_live_p95_ms": _pct(live_ms, 95),
                               "slowest_live_asks_ms": _slowest(live_ms)})
            rows[size]["peak_rss_mb"] = _peak_rss_mb()
            measured({"size": size, **rows[size]})
        return {
            "ask_p95_ms": {s: r["ask_p95_ms"] for s, r in rows.items()},
            "ask_live_p95_ms": {s: r["ask_live_p95_ms"] for s, r in rows.items()},
            "search_p95_ms": {s: r["search_p95_ms"] for s, r in rows.items()},
            "disk_mb_per_video_hour": rows[size]["disk_mb_per_video_hour"],
            "sizes_measured": rows, "pool_texts": pool.size, "pool_embed_seconds": round(pool_seconds, 1),
            "other_users_build_seconds": None if resumed else round(others_seconds, 1), "pool_vectors": pool.vectors,
            **({"kept": {"folder": str(home), "days_held_at_start": held if resumed else 0,
                         "sizes_skipped": skipped}} if kept else {}),
        }
    finally:
        system.close()


def _slowest(ask_ms: list[float]) -> dict[str, float]:
    return dict(sorted(zip(QUESTIONS, ask_ms), key=lambda qa: -qa[1])[:3])


def _size_row(memory, home: Path, days: int, sizes: ScaleSizes, build_seconds: float, ask_ms: list[float],
              search_ms: list[float], foreign: int, evenings: int) -> dict:
    """`evenings`: the hour-long videos written by earlier sizes' live measurements."""
    mine = {s: memory.store(s).count(RecordFilter(namespace="me")) for s in STORE_NAMES}
    everyone = sum(memory.store(s).count(RecordFilter()) for s in STORE_NAMES)
    disk = sum(f.stat().st_size for f in (home / "memory").rglob("*") if f.is_file()) / 2**20
    hours_me = days * sizes.hours_per_day + evenings
    hours = hours_me + sizes.other_users * sizes.other_hours
    return {
        "days": days, "video_hours_me": hours_me, "records_me": sum(mine.values()),
        "records_me_by_store": mine, "records_all_users": everyone, "build_seconds": round(build_seconds, 1),
        "ask_p50_ms": _pct(ask_ms, 50), "ask_p95_ms": _pct(ask_ms, 95),
        "search_p50_ms": _pct(search_ms, 50), "search_p95_ms": _pct(search_ms, 95),
        "search_hits_of_other_users": foreign, "disk_mb": round(disk, 1),
        "disk_mb_per_video_hour": round(disk / hours, 2),
    }


def _checkpoint(memory) -> None:
    """Fold the WAL into the database file, as SQLite does when writes settle, so disk is
    what memory holds and not the last transaction's log."""
    with memory.db.lock:
        memory.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _ask_all(system: MemlensSystem, questions, at, progress, task: str, namespace: str = "me") -> list[float]:
    progress.start(task, len(questions))
    times = []
    for question in questions:
        began = time.perf_counter()
        system.ask(question, namespace, at)
        times.append((time.perf_counter() - began) * 1000)
        progress.advance(task)
    return times


def _search_all(system: MemlensSystem, questions, at, progress, task: str) -> tuple[list[float], int]:
    """Hybrid search in "me" strictly before `at`; also counts hits from other namespaces."""
    system.memory.embedder.embed(list(questions))  # the query's embedding is cached as in a running server
    progress.start(task, len(questions))
    times, foreign = [], 0
    for question in questions:
        began = time.perf_counter()
        hits = system.retriever.search(SearchQuery(text=question, namespace="me", before=at, k=10))
        times.append((time.perf_counter() - began) * 1000)
        foreign += sum(h.record.namespace != "me" for h in hits)
        progress.advance(task)
    return times, foreign


def _vector_search(n: int, progress, basis: np.ndarray | None = None, queries: int = 200, k: int = 30,
                   seed: int = 0, commit: int = 40_000) -> dict:
    """FAISS as one namespace's partition holds n vectors, built as memlens builds it: a
    segment per commit of `commit` vectors (about a day of one wearer) and the merges its tier
    policy makes (memory.segments), then searched as `SqliteFaissStore.search_dense` does: a
    filter that keeps most of the namespace searches every vector (k = 10 x fetch multiplier
    3 x 4 per post-filter round; a question asked now fetches the 30 alone, so this is its
    dearer case); a selective one (1 % of ids here) is handed over as ids and is exact.
    Vectors are sums of two text embeddings from `basis` plus noise, so they cluster as text
    does (random vectors would not); recall is against exact search over the same vectors."""
    import faiss

    from memory.segments import SegmentedIndex, merged

    rng = np.random.default_rng(seed)
    basis = basis if basis is not None and len(basis) else _unit(rng.standard_normal((4096, 384), dtype=np.float32))
    progress.start("vectors", n)
    held = np.zeros((n, basis.shape[1]), np.float32)  # every vector by id: what SQLite keeps
    index = SegmentedIndex(basis.shape[1], exact=lambda ids: (ids, held[ids]))
    build_seconds = 0.0
    for lo in range(0, n, commit):
        m = min(commit, n - lo)
        mixed = basis[rng.integers(len(basis), size=m)] + rng.uniform(0, 0.7, (m, 1)).astype(np.float32) * \
            basis[rng.integers(len(basis), size=m)]
        vectors, ids = _unit(mixed + 0.05 * rng.standard_normal(mixed.shape, dtype=np.float32)), np.arange(lo, lo + m)
        held[ids] = vectors
        began = time.perf_counter()
        index.add(ids, vectors)  # what a commit does, then what the flush after it does
        if index.relist_due():
            index.relisted()
        for group in index.due_merges():
            index.replace(group, merged(index, group))
        build_seconds += time.perf_counter() - began
        progress.advance("vectors", m)
    asked = _unit(basis[rng.integers(len(basis), size=queries)] + 0.1 * rng.standard_normal(
        (queries, basis.shape[1]), dtype=np.float32))
    few = np.flatnonzero(rng.random(n) < 0.01).astype(np.int64)
    fetch = 4 * k
    threads = faiss.omp_get_max_threads()
    _, truth = faiss.knn(asked, held, k, metric=faiss.METRIC_INNER_PRODUCT)
    broad, selective, recall = _time_searches(index, truth, asked, few, fetch, k)
    faiss.omp_set_num_threads(1)  # one thread: what a search costs when the cores are busy with others
    try:
        single, _, _ = _time_searches(index, truth, asked[:50], few, fetch, k)
    finally:
        faiss.omp_set_num_threads(threads)
    return {"vector_1m_p95_ms": _pct(broad, 95), "vector_search": {
        "records": n, "index": index.describe(), "segments": [s.size for s in index.segments],
        "commit": commit, "build_seconds": round(build_seconds, 1),
        "p50_ms": _pct(broad, 50), "p95_ms": _pct(broad, 95), "recall_at_k": round(float(np.mean(recall)), 3),
        "selective_p50_ms": _pct(selective, 50), "selective_p95_ms": _pct(selective, 95),
        "one_thread_p50_ms": _pct(single, 50), "one_thread_p95_ms": _pct(single, 95), "queries": len(asked),
        "k": k, "fetch": fetch, "faiss_threads": threads}}


def _unit(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def _time_searches(index, truth: np.ndarray, asked: np.ndarray, few: np.ndarray, fetch: int, k: int
                   ) -> tuple[list[float], list[float], list[float]]:
    """Milliseconds per query over every vector (nearest `fetch`) and over 1 % of the ids
    (top k), and the share of the exact top k the first finds."""
    broad, selective, recall = [], [], []
    for q, exact_top in zip(asked, truth):
        began = time.perf_counter()
        _, found = index.search(q, fetch)
        broad.append((time.perf_counter() - began) * 1000)
        began = time.perf_counter()
        index.search(q, k, few)
        selective.append((time.perf_counter() - began) * 1000)
        recall.append(len(set(exact_top) & set(found)) / k)
    return broad, selective, recall


def _ingest_speed(config: AppConfig, home: Path, sizes: ScaleSizes, progress) -> dict:
    """Real-time factor of ingesting a day-like video with the default models, loaded once
    (a warm-up ingest of 20 s of another day-like video: speech most of the time, text and
    things, so every model and lexicon an ingest needs is loaded; at the day's 30 % speech,
    20 s held no words and the speaker model loaded inside the timed ingest) before the
    timed one."""
    from eval.day_video import make_day_video

    home.mkdir(parents=True)
    progress.start("day video", 1)
    video = make_day_video(home / "day.mp4", sizes.day_video_seconds, speech_share=SPEECH_SHARE)
    warm_up = make_day_video(home / "warm-up.mp4", 20.0, speech_share=0.9, scene_seconds=4.0, seed=1)
    progress.advance("day video")
    system = MemlensSystem(fresh_config(config, home))
    try:
        system.ingest(warm_up.path, "warm-up", start=START)
        system.memory.kinds.senses("thing")  # WordNet (7 s to load), if the warm-up read no thing's label
        report = system.ingest(video.path, "day", start=START, progress=progress)
    finally:
        system.close()
    hours = report.duration / 3600
    return {"ingest_realtime_factor": round(report.duration / report.seconds, 2), "ingest": {
        "video_seconds": round(report.duration, 1), "speech_share": round(video.speech_share, 3),
        "seconds": round(report.seconds, 1), "stages": report.stages,
        "records_per_hour": {k: round(v / hours) for k, v in sorted(report.records.items())}}}


def _pct(values: list[float], q: float) -> float:
    return round(float(np.percentile(values, q)), 2) if values else 0.0


def _peak_rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _report(s: dict) -> str:
    rows = s.get("sizes_measured", {})
    target = TARGETS
    lines = ["# Scale: latency, disk and memory as memory grows", "", f"Command: `{s['command']}`", "",
             "Records per hour of video (measured from real ingest, eval/scale/world.py): "
             + ", ".join(f"{k} {v:g}" for k, v in s["rates_per_hour"].items())
             + f" (+1 hour summary, 1 day summary a day): {s['records_per_video_hour']} an hour.", "",
             "| size | days of \"me\" | records of \"me\" | records, all users | build s | behaviors fold / recompute s | ask p50 ms "
             "| ask p95 ms (target) | live ask p50 / p95 ms | search p50 ms | search p95 ms (target) | disk MB | "
             "peak RSS MB |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for size, r in rows.items():
        ask_t = target["ask_p95_ms"].get(size)
        search_t = target["search_p95_ms"].get(size)
        lines.append(f"| {size} | {r['days']} | {r['records_me']:,} | {r['records_all_users']:,} | {r['build_seconds']} | "
                     f"{r.get('behaviors_fold_seconds')} / {r.get('behaviors_recompute_seconds')} | {r['ask_p50_ms']} | {r['ask_p95_ms']}{f' (<= {ask_t})' if ask_t else ''} | "
                     f"{r.get('ask_live_p50_ms')} / {r.get('ask_live_p95_ms')} | {r['search_p50_ms']} | "
                     f"{r['search_p95_ms']}{f' (<= {search_t})' if search_t else ''} | {r['disk_mb']:,} | "
                     f"{r.get('peak_rss_mb')} |")
    lines += ["", "Each day of \"me\" is one commit, as an ingest writes a day's video; behaviors fold: what the "
              "last day's ingest then paid to fold its records into the behaviors held; recompute: one "
              "recomputation from every record, what a forget or a re-ingest pays instead."]
    slowest = _slowest_per_size(rows, "slowest_asks_ms")
    if slowest:
        lines += ["", "Slowest questions (ms), each asked once right after the memory grew to that size: "
                  + " | ".join(slowest) + "."]
    live = _slowest_per_size(rows, "slowest_live_asks_ms")
    if live:
        lines += ["", "Live: the same questions right after one more hour-long video was written in its own "
                  "commit, as a live ingest adds it to a memory that has been answering. Slowest (ms): "
                  + " | ".join(live) + "."]
    vec = s.get("vector_search", {})
    ingest = s.get("ingest", {})
    lines += ["", "| measure | measured | target |", "|---|---|---|",
              f"| vector search p95 at {vec.get('records', 0):,} vectors (ms) | {s.get('vector_1m_p95_ms')} | <= 20 at 1M |",
              f"| ingest speed on a day-like video (x real time) | {s.get('ingest_realtime_factor')} | >= 5 |",
              f"| disk per hour of video (MB) | {s.get('disk_mb_per_video_hour')} | <= 50 |",
              f"| peak RSS of the bench process (MB) | {s.get('peak_rss_mb')} | |", ""]
    if vec:
        lines.append(f"Vector search: one namespace's {vec['records']:,} vectors in {vec['index']} (segments of "
                     f"{vec.get('segments')} vectors, from commits of {vec.get('commit')}; built in "
                     f"{vec.get('build_seconds')} s), nearest {vec['fetch']} of all with {vec['faiss_threads']} FAISS "
                     f"threads: p50 {vec['p50_ms']} ms, p95 {vec['p95_ms']} ms, recall of the exact top {vec['k']} "
                     f"{vec.get('recall_at_k')}; on one thread p50 {vec.get('one_thread_p50_ms')} ms, p95 "
                     f"{vec.get('one_thread_p95_ms')} ms; top {vec['k']} of 1 % of the ids (exact) p50 "
                     f"{vec.get('selective_p50_ms')} ms, p95 {vec.get('selective_p95_ms')} ms.")
    if ingest:
        lines.append(f"Ingest: {ingest['video_seconds']} s of video ({ingest['speech_share']:.0%} speech) in "
                     f"{ingest['seconds']} s; stages {ingest['stages']}; records per hour on it: "
                     f"{ingest['records_per_hour']}.")
    kept = s.get("kept")
    if kept:
        lines.append(f"Memory kept in {kept['folder']}: it held {kept['days_held_at_start']} days of \"me\" when this "
                     f"run opened it; days built by this run per size: "
                     f"{ {k: r.get('days_built_this_run') for k, r in rows.items()} } (0: timed as opened, as a "
                     f"restarted server answers: the wearer's indexes read first, in "
                     f"{ {k: r.get('indexes_read_seconds') for k, r in rows.items()} } s, as `memlens serve` does "
                     f"at start within `service.warm_mb`; the first questions after it still compute what the "
                     f"stores keep per commit); sizes it had passed: {kept['sizes_skipped'] or 'none'}.")
    lines.append(f"Peak RSS after each stage (MB): {s['rss_mb_after']}. Text pool: {s.get('pool_texts')} distinct "
                 f"texts embedded in {s.get('pool_embed_seconds')} s (0 when cached); other users "
                 + (f"built in {s['other_users_build_seconds']} s." if s.get("other_users_build_seconds") is not None
                    else "kept from an earlier run."))
    return "\n".join(lines) + "\n"


def _slowest_per_size(rows: dict, key: str) -> list[str]:
    """'size: "question" ms; ...' for each size that measured `key`."""
    return [f"{size}: " + "; ".join(f"\"{q}\" {ms:.0f}" for q, ms in r[key].items())
            for size, r in rows.items() if r.get(key)]


def _plot(s: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = s.get("sizes_measured", {})
    records = [r["records_me"] for r in rows.values()]
    fig, ax = plt.subplots(figsize=(7, 4))
    for key, label, style in (("ask_p50_ms", "ask p50", "o--"), ("ask_p95_ms", "ask p95", "o-"),
                              ("ask_live_p95_ms", "ask p95, live (after one video's commit)", "^-"),
                              ("search_p50_ms", "search p50", "s--"), ("search_p95_ms", "search p95", "s-")):
        ax.plot(records, [r[key] for r in rows.values()], style, label=label)
    for size, r in rows.items():
        ax.annotate(size, (r["records_me"], r["ask_p95_ms"]), textcoords="offset points", xytext=(4, 6), fontsize=8)
    ax.axhline(300, color="grey", linestyle=":", linewidth=1, label="ask target at a week (300 ms)")
    ax.axhline(50, color="black", linestyle=":", linewidth=1, label="search target at a year (50 ms)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel('records in the wearer\'s memory ("me")')
    ax.set_ylabel("latency (ms)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def sizes_from(spec: str | None, quick: bool, other_users: int | None, vectors: int | None = None) -> ScaleSizes:
    """`--scale-sizes day=1,week=7` (days of "me" per size), `--other-users`, `--vectors`
    over the quick or full defaults."""
    sizes = QUICK if quick else ScaleSizes()
    if spec:
        days = {}
        for part in spec.split(","):
            name, _, value = part.partition("=")
            if not name.strip() or not value.strip().isdigit() or int(value) < 1:
                raise ValueError(f"--scale-sizes: {part!r} is not NAME=DAYS (e.g. day=1,week=7)")
            days[name.strip()] = int(value)
        sizes = replace(sizes, days=days)
    if other_users is not None:
        sizes = replace(sizes, other_users=other_users)
    if vectors is not None:
        sizes = replace(sizes, vector_records=vectors)
    return sizes
