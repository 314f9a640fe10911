"""Crash test: the real `memlens ingest` process, SIGKILLed at several stages of a re-ingest
and of a first ingest, leaves a memory home that opens clean: SQLite passes its integrity
check, every FAISS index agrees with SQLite, and the video is there whole, as before the
run or as after it, never a mix and never partly gone. A run after the kills then writes
what a clean run on a fresh home writes.

Where a kill landed is read from outside the process, as an operator could: whether it has
the memory file open yet, whether SQLite's write lock is held (a probe connection cannot
take it), and whether the run's rows are committed (a row id above the old ones is
visible). Run with `pytest -s tests/test_crash.py` to see the per-trial table.
"""
from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from memory.config import MemoryConfig
from memory.memory import Memory
from memory.records import DAY_SUMMARY, RecordFilter
from tests.memory_checks import STORES, contents, index_matches_sqlite, integrity_ok, on_disk, snapshot

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="stages are read from /proc")]

ROOT = Path(__file__).resolve().parents[1]
START, NAMESPACE = "2026-03-02T08:00", "me"
POLL = 0.01  # seconds between looks at a running ingest
FAST = 0.001  # the same in its write transaction: the index files follow the commit by a few ms
LIMIT = 300.0  # seconds an ingest may take to reach a stage before the test gives up

# The stages of an ingest in order, as seen from outside its process.
PERCEPTION = "perception"  # start-up and perception: the memory file is not open yet
OPENED = "memory open"  # the memory is open, its write transaction not begun
WRITING = "write transaction"  # old records deleted and new ones added, uncommitted
COMMITTED = "committed"  # the new records are committed; the index files and the close follow
CLOSED = "memory closed"  # committed and closed; the process is exiting
ENDED = "ended before the kill"  # a timed kill came too late on a run faster than the clean one
STAGES = (PERCEPTION, OPENED, WRITING, COMMITTED, CLOSED, ENDED)


def _ingest(home: Path, video: Path, log: Path) -> subprocess.Popen:
    """The real CLI in a process of its own, configured as a user would: by environment (none
    of the caller's own MEMLENS_ settings, which could move the memory or the cache elsewhere)."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("MEMLENS_")}
    env |= {"MEMLENS_HOME": str(home), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    with log.open("w") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "memlens.cli", "ingest", str(video), "--start", START, "--namespace", NAMESPACE],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)


class Watch:
    """Tells which stage a running ingest has reached, without touching what it writes: the
    probe connection never creates the database file and holds no lock between looks."""

    def __init__(self, home: Path):
        self.db = home / "memory" / "memory.sqlite"
        self._conn: sqlite3.Connection | None = None
        self.last_id = self._last_id()  # the newest row before the run: a higher one is its commit

    def _connection(self) -> sqlite3.Connection | None:
        if self._conn is None and self.db.exists():
            self._conn = sqlite3.connect(f"file:{self.db}?mode=rw", uri=True, timeout=0, isolation_level=None)
        return self._conn

    def _query(self, sql: str):
        conn = self._connection()
        try:
            return conn.execute(sql).fetchone() if conn is not None else None
        except sqlite3.DatabaseError:  # a new file without its tables yet, or locked while set up
            return None

    def _last_id(self) -> int:
        row = self._query("SELECT COALESCE(MAX(id), 0) FROM records")
        return row[0] if row else 0

    def _write_locked(self) -> bool:
        """Whether another connection holds the write lock: this one cannot take it then.
        A lock taken before the memory recorded its embedder is the first open's schema set-up."""
        conn = self._connection()
        if conn is None or self._query("SELECT 1 FROM meta WHERE key='embedder'") is None:
            return False
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            return "locked" in str(exc)
        conn.execute("ROLLBACK")
        return False

    def _opened_by(self, pid: int) -> bool:
        target = os.path.realpath(self.db)
        for fd in Path(f"/proc/{pid}/fd").glob("*"):
            try:
                if os.readlink(fd) == target:
                    return True
            except OSError:  # closed while we looked
                continue
        return False

    def stage(self, proc: subprocess.Popen) -> str:
        if self._last_id() > self.last_id:
            return COMMITTED if self._opened_by(proc.pid) else CLOSED
        if self._write_locked():
            return WRITING
        return OPENED if self._opened_by(proc.pid) else PERCEPTION

    def close(self) -> None:
        """Closed while the ingest still runs, so that recovering a killed run's WAL is left to
        memlens opening the home, not done by this probe as the last connection to close."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None


@dataclass(frozen=True)
class Timeline:
    """When a clean run first showed each stage, in seconds from its start, and its length."""
    seen: dict[str, float]
    total: float

    def first(self, *stages: str) -> float:
        return min(self.seen[s] for s in stages if s in self.seen)

    @property
    def perceiving(self) -> float:
        """How long start-up and perception took (a short step may go unseen: the next counts)."""
        return self.first(OPENED, WRITING)

    @property
    def writing(self) -> float:
        """How long the write transaction lasted (its commit may be seen only once closed)."""
        return self.first(COMMITTED, CLOSED) - self.first(WRITING)


def _clean_run(home: Path, video: Path, log: Path) -> Timeline:
    """Ingest to the end while watching, to learn how long each stage lasts on this machine."""
    watch, seen = Watch(home), {}
    proc = _ingest(home, video, log)
    began = time.monotonic()
    while proc.poll() is None and time.monotonic() - began < LIMIT:
        seen.setdefault(stage := watch.stage(proc), time.monotonic() - began)
        time.sleep(FAST if stage == WRITING else POLL)
    watch.close()
    assert proc.wait(timeout=LIMIT) == 0, log.read_text()[-3000:]
    assert WRITING in seen and seen.keys() & {COMMITTED, CLOSED}, f"the watch missed the write: {seen}"
    return Timeline(seen, time.monotonic() - began)


@dataclass(frozen=True)
class Trial:
    name: str
    cold: bool  # the perception cache is emptied first, so perception runs in full as it did in the clean run
    trigger: str  # the kill comes `delay` after the run first shows this stage
    delay: Callable[[Timeline], float]


# Timed kills are spread over the clean run's perception, not its whole length: a re-run
# faster than the clean one (a less busy machine) could end before a kill timed near its end;
# the write and the commit are found by watching instead. Warm trials go first, while the
# clean run's cache is whole; the last kill leaves a partial cache the closing re-run reads.
REINGEST_TRIALS = (
    Trial("write lock taken", cold=False, trigger=WRITING, delay=lambda clean: 0.0),
    Trial("commit seen", cold=False, trigger=COMMITTED, delay=lambda clean: 0.0),
    Trial("95% into the write", cold=True, trigger=WRITING, delay=lambda clean: 0.95 * clean.writing),
    Trial("20% of perception", cold=True, trigger=PERCEPTION, delay=lambda clean: 0.2 * clean.perceiving),
    Trial("50% of perception", cold=True, trigger=PERCEPTION, delay=lambda clean: 0.5 * clean.perceiving),
    Trial("90% of perception", cold=True, trigger=PERCEPTION, delay=lambda clean: 0.9 * clean.perceiving),
)
FIRST_INGEST_TRIAL = Trial("first ingest, mid-write", cold=True, trigger=WRITING,
                           delay=lambda clean: 0.5 * clean.writing)


@dataclass(frozen=True)
class Kill:
    at: float  # seconds from the start of the run
    stage: str  # the stage seen just before the kill
    cached: tuple[str, ...]  # perception outputs in the cache by then: how far perception got

    def where(self) -> str:
        return f"{self.stage} ({', '.join(self.cached) or 'nothing'} cached)" if self.stage == PERCEPTION else self.stage


def _cached(home: Path) -> tuple[str, ...]:
    return tuple(sorted({p.name.split(".")[0] for p in (home / "cache").rglob("*.json")}))


def _kill_during(home: Path, video: Path, trial: Trial, clean: Timeline, log: Path) -> Kill:
    """Start an ingest and SIGKILL it where the trial says."""
    if trial.cold:
        shutil.rmtree(home / "cache", ignore_errors=True)
    watch = Watch(home)
    proc = _ingest(home, video, log)
    began = time.monotonic()
    try:
        while STAGES.index(stage := watch.stage(proc)) < STAGES.index(trial.trigger):
            assert proc.poll() is None and time.monotonic() - began < LIMIT, \
                f"{trial.name}: the ingest never reached {trial.trigger}:\n{log.read_text()[-3000:]}"
            time.sleep(FAST if stage == WRITING else POLL)
        if trial.delay(clean) > 0:  # else killed at once, with the stage just seen
            time.sleep(trial.delay(clean))
            stage = watch.stage(proc)
    finally:
        watch.close()
        killed_at, cached, ended = time.monotonic() - began, _cached(home), proc.poll() is not None
        proc.kill()
        proc.wait(timeout=LIMIT)
    assert proc.returncode == (0 if ended else -9), f"{trial.name}: exit {proc.returncode}:\n{log.read_text()[-3000:]}"
    return Kill(killed_at, ENDED if ended else stage, cached)


def _stale_index_files(memory: Memory, rows: dict[str, list[tuple]]) -> list[str]:
    """The stores whose index file on disk is behind SQLite (memlens rebuilds those on use).
    A file whose generation says it is current must hold exactly the store's rows."""
    generation, stale = memory.db.generation(), []
    for name in STORES:
        for mirror in memory.store(name).partitions().values():
            written_at, ids = on_disk(mirror)
            if written_at != generation:
                stale.append(name)
                continue
            assert ids == sorted(r[0] for r in rows[name]), f"{mirror.path.name} claims generation {generation}"
    return stale


def _dangling_support(memory: Memory) -> set[int]:
    """Record ids that behaviors cite as support but no store holds: a half-kept memory."""
    rows = snapshot(memory)
    kept = {r[0] for name in ("entity", "event") for r in rows[name]}
    cited = {i for r in memory.store("behavior").query(RecordFilter()) for i in r.attrs.get("support", [])}
    return cited - kept


@contextmanager
def _opened(home: Path, embedder) -> Iterator[Memory]:
    """The home opened as memlens opens it after a crash, and checked sound: SQLite intact,
    every FAISS index (trusted from disk or rebuilt) holding exactly SQLite's rows, and no
    behavior citing a record that is gone."""
    memory = Memory(MemoryConfig(root=home / "memory"), embedder=embedder)
    try:
        assert integrity_ok(memory)
        yield memory
        assert index_matches_sqlite(memory)
        assert not _dangling_support(memory)
    finally:
        memory.close()


@dataclass(frozen=True)
class Outcome:
    replaced: bool  # the run's rows are in; else memory is exactly as before the run
    rows: dict[str, list[tuple]]  # the snapshot now, the "before" of the next run
    stale: list[str]  # index files the crash left behind SQLite
    wal_bytes: int  # the write-ahead log the crash left for SQLite to recover


def _reopen(home: Path, embedder, before: dict[str, list[tuple]], whole: dict[str, list[tuple]]) -> Outcome:
    """After a run, the home holds the video either exactly as before it (same rows, same
    ids) or as a whole run writes it (every record of the clean run, in rows none of which
    is an old one, but for day summaries the run left as they were): never a mix, never
    partly gone."""
    wal = home / "memory" / "memory.sqlite-wal"
    wal_bytes = wal.stat().st_size if wal.exists() else 0
    with _opened(home, embedder) as memory:
        rows = snapshot(memory)
        stale = _stale_index_files(memory, rows)  # before any index is used and so rebuilt
        now = contents(memory)
    old_ids = {r[0] for name in STORES for r in before[name]}
    # the day's summaries are the day's, not the video's: those the run did not change keep their rows
    replaced = now == whole and not {r[0] for name in STORES for r in rows[name] if r[1] != DAY_SUMMARY} & old_ids
    assert replaced or rows == before, "memory is neither the old version nor the new one"
    return Outcome(replaced, rows, stale, wal_bytes)


def _agrees(kill: Kill, outcome: Outcome) -> bool:
    """A run killed before its write transaction began cannot have replaced anything, and one
    whose commit was seen must have; inside the transaction the commit may land between the
    last look and the kill, so either is right there."""
    if kill.stage in (PERCEPTION, OPENED):
        return not outcome.replaced
    return outcome.replaced or kill.stage == WRITING


def _row(trial: Trial, kill: Kill, outcome: Outcome, labels: tuple[str, str]) -> str:
    return (f"{trial.name:<24} {kill.at:6.2f} s  {kill.where():<46} {labels[outcome.replaced]:<14} "
            f"wal {outcome.wal_bytes:>6} B  stale indexes: {','.join(outcome.stale) or '-'}")


def test_an_ingest_killed_at_any_stage_leaves_the_video_whole(tmp_path, short_video, embedder):
    """One row per trial is printed as it ends (`pytest -s`), so a failure shows the trials before it."""
    began = time.monotonic()
    home, logs, nothing = tmp_path / "home", tmp_path / "logs", {name: [] for name in STORES}
    logs.mkdir()
    clean = _clean_run(home, short_video, logs / "clean.log")
    with _opened(home, embedder) as memory:
        before, whole = snapshot(memory), contents(memory)
        assert _stale_index_files(memory, before) == []  # a run that ends writes current index files
    assert all(before.values())
    print(f"\nclean run {clean.total:.2f} s; stages first seen at "
          + ", ".join(f"{stage} {at:.2f} s" for stage, at in clean.seen.items()))

    stages = set()
    for i, trial in enumerate(REINGEST_TRIALS):
        kill = _kill_during(home, short_video, trial, clean, logs / f"trial-{i}.log")
        outcome = _reopen(home, embedder, before, whole)
        print(row := _row(trial, kill, outcome, ("old kept", "new committed")))
        assert _agrees(kill, outcome), row
        before = outcome.rows
        stages.add(kill.stage)
    assert {PERCEPTION, WRITING} <= stages and stages & {COMMITTED, CLOSED}, f"the kills missed a stage: {stages}"

    fresh = tmp_path / "fresh"
    kill = _kill_during(fresh, short_video, FIRST_INGEST_TRIAL, clean, logs / "first.log")
    outcome = _reopen(fresh, embedder, nothing, whole)
    print(row := _row(FIRST_INGEST_TRIAL, kill, outcome, ("nothing", "all")))
    assert _agrees(kill, outcome), row

    rerun = _ingest(home, short_video, logs / "rerun.log")
    assert rerun.wait(timeout=LIMIT) == 0, (logs / "rerun.log").read_text()[-3000:]
    assert _reopen(home, embedder, before, whole).replaced  # every record of the clean run, in new rows
    print(f"re-run after the kills: the clean run's records; whole test {time.monotonic() - began:.1f} s")
