"""SQLite (metadata, text, BM25 via FTS5) + FAISS (vectors) implementation of RecordStore.

SQLite is the source of truth: it also keeps every vector (in a table of its own), so a FAISS
index file that is missing, stale or written by another embedder is rebuilt on open instead of
trusted.
All three stores share one database file; each keeps a FAISS index file per namespace, kept
in step with the commits by memory.mirrored_index.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import math
import re
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np

from memory import migrations
from memory.embedding import TextEmbedder
from memory.language import STOP
from memory.mirrored_index import Mirror, MirroredIndex, exact_top
from memory.page_cache import read_through
from memory.records import (
    SEEN_ON_KEYFRAMES,
    STORE_NAMES,
    MemoryRecord,
    RecordFilter,
    StoreName,
    Tally,
    cut_at,
    mention_groups,
)
from memory.word_index import MirroredWordIndex, WordQuery, WordRow

# attrs that `attrs_in` asks about, kept in `record_tags` (value, or each item of a list)
TAGGED_ATTRS = ("acts", "speaker_name")


def _tag_rows(row: str, table: str = "") -> str:
    """SQL for the (key, value, wall_end, id) tags of `row` (a trigger's new / old, or a table's rows)."""
    keys, source = ",".join(f"'{key}'" for key in TAGGED_ATTRS), f"{table}, " if table else ""
    return (f"SELECT e.key, e.value, {row}.wall_end, {row}.id FROM {source}json_each({row}.attrs) e "
            f"WHERE e.key IN ({keys}) AND e.type NOT IN ('array', 'object', 'null') UNION ALL "
            f"SELECT e.key, i.value, {row}.wall_end, {row}.id FROM {source}json_each({row}.attrs) e, json_each(e.value) i "
            f"WHERE e.key IN ({keys}) AND e.type = 'array' AND i.type NOT IN ('array', 'object', 'null')")


_RECORDS = """CREATE TABLE IF NOT EXISTS records (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store TEXT NOT NULL, kind TEXT NOT NULL, namespace TEXT NOT NULL, text TEXT NOT NULL,
    video_id TEXT, start REAL NOT NULL, end REAL NOT NULL,
    wall_start TEXT NOT NULL, wall_end TEXT NOT NULL,
    keyframes TEXT NOT NULL, attrs TEXT NOT NULL
)"""
# A record's vector, apart from its row: read only to build an index or re-score candidates,
# so the rows questions read stay a quarter of the pages (and a year's fit in memory).
_VECTORS = "CREATE TABLE IF NOT EXISTS record_vectors (id INTEGER PRIMARY KEY, vector BLOB NOT NULL)"
# (id, vector) of the records a WHERE clause on `records` keeps. The vector is a subquery on its
# key, so a query that reads no vector (a count, the ids) never touches record_vectors, and one
# that asks for ids is planned on records alone (a join would be planned on the namespace index).
_WITH_VECTORS = "SELECT id, (SELECT vector FROM record_vectors v WHERE v.id = records.id) AS vector FROM records"

_SCHEMA = f"""
{_RECORDS};
{_VECTORS};
CREATE TRIGGER IF NOT EXISTS records_vectors_ad AFTER DELETE ON records BEGIN
    DELETE FROM record_vectors WHERE id = old.id;
END;
CREATE INDEX IF NOT EXISTS records_scope ON records(store, namespace, wall_end);
CREATE INDEX IF NOT EXISTS records_kind ON records(store, namespace, kind, wall_end);
DROP INDEX IF EXISTS records_entity;
CREATE INDEX IF NOT EXISTS records_entity_time ON records(store, namespace, json_extract(attrs, '$.entity'), wall_start);
CREATE INDEX IF NOT EXISTS records_place_time ON records(store, namespace, json_extract(attrs, '$.place'), kind, wall_start);
CREATE TABLE IF NOT EXISTS record_tags (
    key TEXT NOT NULL, value, wall_end TEXT NOT NULL, record_id INTEGER NOT NULL,
    PRIMARY KEY (key, value, wall_end, record_id)
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS records_tags_ai AFTER INSERT ON records BEGIN
    INSERT OR IGNORE INTO record_tags(key, value, wall_end, record_id) {_tag_rows("new")};
END;
CREATE INDEX IF NOT EXISTS record_tags_record ON record_tags(record_id);
DROP TRIGGER IF EXISTS records_tags_ad;
CREATE TRIGGER records_tags_ad AFTER DELETE ON records BEGIN
    DELETE FROM record_tags WHERE record_id = old.id;
END;
CREATE INDEX IF NOT EXISTS records_video ON records(video_id);
CREATE INDEX IF NOT EXISTS records_recording ON records(store, namespace, video_id, kind, wall_start);
CREATE VIRTUAL TABLE IF NOT EXISTS records_fts USING fts5(text, content='records', content_rowid='id');
CREATE TRIGGER IF NOT EXISTS records_ai AFTER INSERT ON records BEGIN
    INSERT INTO records_fts(rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER IF NOT EXISTS records_ad AFTER DELETE ON records BEGIN
    INSERT INTO records_fts(records_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE VIRTUAL TABLE IF NOT EXISTS records_vocab USING fts5vocab(records_fts, 'row');
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS first_seen_kept (
    store TEXT NOT NULL, spec TEXT NOT NULL, newest INTEGER NOT NULL, deletions INTEGER NOT NULL,
    seen TEXT NOT NULL, PRIMARY KEY (store, spec)
) WITHOUT ROWID;
"""
_COLUMNS = "id, store, kind, namespace, text, video_id, start, end, wall_start, wall_end, keyframes, attrs"
_WORD = re.compile(r"[A-Za-z0-9]+")
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# attrs with an index of their own, by start: a sighting's thing (records_entity_time); a
# place (records_place_time), by kind too, since records of every kind name theirs. Without
# it, "How many times did I go to the gym?" read a year's stays newest first to find the
# gym's (6.3 s, 224 MB read, after a reboot).
INDEXED_ATTRS = ("entity", "place")
KIND_INDEXED_ATTRS = ("place",)
# A word in more than this share of all rows ("the", "i", "was") ranks nothing and makes
# BM25 visit most of the index, so a lexical query leaves it out.
COMMON_SHARE = 1 / 3
# FTS5's bm25() term-frequency saturation (its default k1)
BM25_K1 = 1.2
# A word in this many times as many rows as the rarer words of a query together is read
# last: the rows holding a rarer word are scored first, and usually outscore it alone.
FREQUENT_OVER_SCARCE = 3
# A window this many times smaller than the rows holding the words is walked instead of their lists.
WINDOW_LEADS_AT = 50
# A dense search whose filter keeps at least this share of an index's vectors searches them
# all and filters the nearest few, instead of listing every matching id for FAISS.
POST_FILTER_SHARE = 0.25
# A filter with no time window (a namespace's kinds up to the question) is taken as broad
# without counting its rows: it is searched and filtered, in rounds that fetch four times
# more, and a filter that keeps too few of the nearest falls back to its ids when it keeps
# at most LISTED_AT_MOST rows (listing a year of one kind's ids costs a second); else the
# nearest are fetched up to FETCH_AT_MOST and what the filter keeps of them is the answer.
POST_FILTER_ROUNDS = 2
LISTED_AT_MOST = 20_000
FETCH_AT_MOST = 1_024
# Rows beyond the asked number taken from a word index for the newest matches: a few that
# overlap t_q pass its time test there but not SQL's.
NEWEST_MARGIN = 32


def _ts(value: datetime) -> str:
    """Fixed-width ISO text, so SQL string comparison orders like time."""
    return value.replace(tzinfo=None).isoformat(timespec="microseconds")


def _row_to_record(row: sqlite3.Row) -> MemoryRecord:
    return MemoryRecord(
        id=row["id"], store=row["store"], kind=row["kind"], namespace=row["namespace"],
        text=row["text"], video_id=row["video_id"], start=row["start"], end=row["end"],
        wall_start=datetime.fromisoformat(row["wall_start"]),
        wall_end=datetime.fromisoformat(row["wall_end"]),
        keyframes=json.loads(row["keyframes"]), attrs=json.loads(row["attrs"]),
    )


def _read_by_ids(flt: RecordFilter) -> bool:
    """Whether a filter's rows are found from ids (listed, past an id, holding words, tagged)."""
    return flt.ids is not None or flt.after_id is not None or flt.mentions is not None or any(
        key in TAGGED_ATTRS for key, _ in flt.attrs_in)


def _by_indexed_attr(flt: RecordFilter) -> bool:
    return any(key in INDEXED_ATTRS for key, _ in flt.attrs)


def _by_kind_indexed_attr(flt: RecordFilter) -> bool:
    return any(key in KIND_INDEXED_ATTRS for key, _ in flt.attrs)


# The share of a namespace's rows one recording holds, as SQLite's planner is told (it keeps
# no statistics here): told nothing, it read one recording's stays through the index of every
# stay the namespace holds (a year's 190,000, each row read to test its recording) instead
# of records_recording.
_ONE_RECORDING = 0.001


def _where(store: str, flt: RecordFilter, alias: str = "records", longest: float | None = None
           ) -> tuple[str, list]:
    """Translate a RecordFilter to SQL; must agree with RecordFilter.matches. With ids, words or
    tags, the other columns are written `+col` so SQLite looks the ids up instead of scanning an index
    of the namespace for them; with a thing or place named (`INDEXED_ATTRS`), the time columns
    are, and the kind unless that index holds it, so that the attr's own index is read,
    newest first where asked. `longest` (seconds no matching record outlasts) bounds the end
    of a record the question time cuts, so the time index is read over the window only, and
    so does a window's start bound the start of a named thing's rows, read from its index by
    start.
    """
    by_id = _read_by_ids(flt)
    scope = f"+{alias}" if by_id else alias
    col = f"+{alias}" if by_id or _by_indexed_attr(flt) else alias
    kind = scope if _by_kind_indexed_attr(flt) else col
    clauses, params = [f"{scope}.store = ?"], [store]
    if flt.namespace is not None:
        clauses.append(f"{scope}.namespace = ?"), params.append(flt.namespace)
    if flt.kinds is not None:
        clauses.append(f"{kind}.kind IN ({','.join('?' * len(flt.kinds))})"), params.extend(flt.kinds)
    if flt.video_ids is not None:  # a recording is a small part of a namespace: its own index is read
        clauses.append(f"likelihood({col}.video_id IN ({','.join('?' * len(flt.video_ids))}), {_ONE_RECORDING})")
        params.extend(flt.video_ids)
    if flt.before is not None:
        clauses.append(f"({col}.wall_end < ? OR ({col}.kind IN ({','.join('?' * len(SEEN_ON_KEYFRAMES))}) "
                       f"AND {col}.wall_start < ?))")
        params.extend([_ts(flt.before), *SEEN_ON_KEYFRAMES, _ts(flt.before)])
        if longest is not None and flt.ids is None:
            clauses.append(f"{col}.wall_end < ?"), params.append(_ts(flt.before + timedelta(seconds=longest + 1)))
    if flt.not_before is not None:
        clauses.append(f"{col}.wall_end >= ?"), params.append(_ts(flt.not_before))
        if longest is not None and flt.ids is None and _by_indexed_attr(flt):  # the thing's index runs by start
            clauses.append(f"{alias}.wall_start >= ?"), params.append(_ts(flt.not_before - timedelta(seconds=longest + 1)))
    if flt.overlaps is not None:
        clauses.append(f"{col}.wall_start < ? AND {col}.wall_end >= ?")
        params.extend([_ts(flt.overlaps[1]), _ts(flt.overlaps[0])])
        if longest is not None and flt.ids is None:
            clauses.append(f"{col}.wall_end < ?"), params.append(_ts(flt.overlaps[1] + timedelta(seconds=longest + 1)))
    if flt.ids is not None:
        clauses.append(f"{alias}.id IN ({','.join('?' * len(flt.ids))})"), params.extend(flt.ids)
    if flt.after_id is not None:
        clauses.append(f"{alias}.id > ?"), params.append(flt.after_id)
    for key, value in flt.attrs:
        if _PLAIN_KEY.fullmatch(key):  # written out, so an index on the expression can serve it
            clauses.append(f"json_extract({alias}.attrs, '$.{key}') = ?"), params.append(value)
        else:
            clauses.append(f"json_extract({alias}.attrs, ?) = ?"), params.extend([f"$.{key}", value])
    if flt.hours is not None:  # wall_start is fixed-width ISO text: hours at 12, minutes at 15
        hour = (f"(CAST(substr({alias}.wall_start, 12, 2) AS INTEGER) + "
                f"CAST(substr({alias}.wall_start, 15, 2) AS INTEGER) / 60.0)")
        clauses.append(f"{hour} >= ? AND {hour} < ?")
        params.extend([float(flt.hours[0]), float(flt.hours[1])])
    for key, values in flt.attrs_in:
        if key in TAGGED_ATTRS:
            since = "" if flt.not_before is None else " AND wall_end >= ?"  # the tags' own time index
            clauses.append(f"{alias}.id IN (SELECT record_id FROM record_tags WHERE key = ? AND value IN "
                           f"({','.join('?' * len(values))}){since})")
            params.extend([key, *values, *(() if flt.not_before is None else (_ts(flt.not_before),))])
        else:
            clauses.append(f"EXISTS (SELECT 1 FROM json_each({alias}.attrs, ?) WHERE value IN "
                           f"({','.join('?' * len(values))}))")
            params.extend([f"$.{key}", *values])
    if flt.mentions is not None:
        groups = mention_groups(flt.mentions)
        if not groups:
            clauses.append("0")
        else:
            clauses.append(f"{alias}.id IN (SELECT rowid FROM records_fts WHERE records_fts MATCH ?)")
            params.append(" OR ".join("(" + " AND ".join(f'"{w}"' for w in sorted(g)) + ")" for g in groups))
    return " AND ".join(clauses), params


def bm25_ceiling(docs: int, rows: int) -> float:
    """The most one word held by `docs` of `rows` can add to an FTS5 BM25 score: its idf
    times k1 + 1, which the term-frequency part approaches but never reaches."""
    idf = math.log((rows - docs + 0.5) / (docs + 0.5))
    return max(idf, 1e-6) * (BM25_K1 + 1)


def _split_by_frequency(docs: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """Words (with the rows holding each) split into scarce and frequent at the last word
    in `FREQUENT_OVER_SCARCE` times as many rows as all rarer words together, so a search
    can read the scarce words' rows first."""
    ordered = sorted(docs.items(), key=lambda item: item[1])
    for cut in range(len(ordered) - 1, 0, -1):
        if ordered[cut][1] > FREQUENT_OVER_SCARCE * sum(n for _, n in ordered[:cut]):
            return dict(ordered[:cut]), dict(ordered[cut:])
    return dict(ordered), {}


def _any_of(words: Iterable[str]) -> str:
    """An FTS5 query matching rows that hold any of these words (each quoted: never syntax)."""
    return " OR ".join(f'"{w}"' for w in words)


def _deletions_key(store: str, namespace: str | None) -> str:
    return f"deletions:{store}" if namespace is None else f"deletions:{store}:{namespace}"


def _keeps_nearly_all(flt: RecordFilter) -> bool:
    """Whether a filter cuts a namespace's index at most at question time: asked now, it
    keeps every row, so fetching four times k for it only made coded segments re-rank
    (from SQLite) and the filter test read four times the rows. Asked in the past, a first
    fetch of about k falls short and the usual rounds follow."""
    return flt.kinds is None and not flt.attrs and not _windowed(flt)


def _windowed(flt: RecordFilter) -> bool:
    """Whether a filter narrows by more than namespace, kinds, equal attrs and question time."""
    return bool(flt.attrs_in) or any(x is not None for x in (flt.not_before, flt.overlaps, flt.video_ids, flt.ids,
                                                             flt.after_id, flt.mentions, flt.hours))


def _word_window(flt: RecordFilter) -> tuple[datetime | None, datetime | None]:
    """A filter's time window as a word index narrows to it: (starts before, ends from),
    a superset of the rows the filter keeps (a row ended before t_q also began before it)."""
    starts_before, ends_from = flt.before, flt.not_before
    if flt.overlaps is not None:
        starts_before = min(filter(None, (starts_before, flt.overlaps[1])))
        ends_from = max(filter(None, (ends_from, flt.overlaps[0])))
    return starts_before, ends_from


def _lists_rows(flt: RecordFilter) -> bool:
    """Whether a filter names rows a word index cannot narrow to (only SQL can)."""
    return bool(flt.attrs_in) or any(x is not None for x in (flt.video_ids, flt.ids, flt.after_id, flt.mentions,
                                                             flt.hours))


class _ReadWriteLock:
    """Many holders of `shared` or one of `exclusive`; a waiting `exclusive` goes first, so a
    stream of questions cannot hold off a commit."""

    def __init__(self):
        self._cond = threading.Condition()
        self._readers = self._waiting = 0
        self._writing = False

    @contextmanager
    def shared(self) -> Iterator[None]:
        with self._cond:
            self._cond.wait_for(lambda: not self._writing and not self._waiting)
            self._readers += 1
        try:
            yield
        finally:
            with self._cond:
                self._readers -= 1
                self._cond.notify_all()

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        with self._cond:
            self._waiting += 1
            self._cond.wait_for(lambda: not self._writing and not self._readers)
            self._waiting -= 1
            self._writing = True
        try:
            yield
        finally:
            with self._cond:
                self._writing = False
                self._cond.notify_all()


@dataclass
class _View:
    """One commit that all the threads of a question read: LangGraph runs parallel branches
    in worker threads and copies the caller's context into them, so a ContextVar carries the
    view there. A worker thread gets a read transaction of its own when it can start one on
    the same commit (no commit since the view began), so branches read in parallel; else it
    shares the view's connection, one SQLite call at a time."""

    owner: MemoryDatabase
    conn: sqlite3.Connection
    generation: int
    lock: threading.Lock = field(default_factory=threading.Lock)
    started_by: int = field(default_factory=threading.get_ident)
    own: dict[int, sqlite3.Connection | None] = field(default_factory=dict)  # per worker thread; None: shares

    def read(self, sql: str, params: Sequence) -> list[sqlite3.Row]:
        thread = threading.get_ident()
        if thread != self.started_by:
            with self.lock:
                known = thread in self.own
                conn = self.own.get(thread)
            if not known:
                conn = self.owner.read_transaction(self.generation)
                with self.lock:
                    self.own[thread] = conn
            if conn is not None:
                return conn.execute(sql, params).fetchall()
        with self.lock:
            return self.conn.execute(sql, params).fetchall()

    def connections(self) -> list[sqlite3.Connection]:
        with self.lock:
            return [self.conn, *(conn for conn in self.own.values() if conn is not None)]


_VIEW: ContextVar[_View | None] = ContextVar("memlens_memory_view", default=None)


@contextmanager
def _setting_up(root: Path) -> Iterator[None]:
    """One process at a time sets a memory up (journal mode, migrations, schema, a new index
    built over a year's rows): SQLite answers a second process that switches a new file to
    WAL meanwhile "database is locked" at once, without waiting for its busy timeout."""
    with open(root / "setup.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


class MemoryDatabase:
    """One SQLite file (WAL) shared by the three stores. Writes go through one connection
    under one lock, a batch at a time; reads use a connection per thread, or a pinned view
    (`pinned`), so a question never waits for another question or for an ingest's
    transaction, and never sees half of one."""

    def __init__(self, root: Path, embedder: TextEmbedder):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.embedder = embedder
        self.lock = threading.RLock()  # the writer's: held for a whole batch
        self._batch_depth = 0
        self._writer: int | None = None  # the thread inside a batch
        self._changed: set[str] = set()  # the mirrors whose rows the batch under way changes
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._idle_views: list[sqlite3.Connection] = []  # connections of ended views, for the next
        self._readers_lock = threading.Lock()  # not the writer's: a new reader must not wait for a batch
        # A commit and the index changes it brings are one step for a view that starts
        self._commit_lock = _ReadWriteLock()
        # another process may hold the write lock for a whole re-ingest: wait for it, do not fail
        self.conn = sqlite3.connect(self.root / "memory.sqlite", check_same_thread=False, timeout=120.0)
        self.conn.row_factory = sqlite3.Row
        with _setting_up(self.root):
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA secure_delete=ON")  # deleted rows are overwritten, not left in free pages
            self.conn.execute("PRAGMA foreign_keys=ON")
            migrations.move_vectors_out(self.conn, _RECORDS, _VECTORS, _COLUMNS)
            migrations.put_ends_in_tags(self.conn)
            self.conn.executescript(_SCHEMA)
        self._mirrors: list[Mirror] = []  # every FAISS and word index kept in step with the commits
        self._mirrors_lock = threading.Lock()  # not the writer's: a reader may add an index during a batch
        self._row_count: tuple[int, int] | None = None  # (generation, rows), for the common-word share
        self._spans_seen: dict[str, tuple[int, dict[str, float]]] = {}  # store: (generation, spans)
        self.stores = {name: SqliteFaissStore(self, name) for name in STORE_NAMES}
        for store in self.stores.values():
            store.first_seen_kept.load()
        self._durations_kept = False
        self._keep_durations()
        self._reembed_if_model_changed()

    def _reembed_if_model_changed(self) -> None:
        row = self.conn.execute("SELECT value FROM meta WHERE key='embedder'").fetchone()
        if row is not None and row["value"] == self.embedder.model_id:
            return
        rows = self.conn.execute("SELECT id, text FROM records").fetchall()
        vectors = self.embedder.embed([r["text"] for r in rows]) if rows else []
        with self.batch():
            self.conn.executemany("UPDATE record_vectors SET vector=? WHERE id=?",
                                  [(v.tobytes(), r["id"]) for v, r in zip(vectors, rows)])
            for store in self.stores.values():
                store.rebuild_index()
            self.conn.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES ('embedder', ?)", (self.embedder.model_id,)
            )

    def mirror(self, path: Path, source: str, params: Sequence = (), dim=None,
               vectors: str | None = None) -> MirroredIndex:
        """A FAISS index file of the rows `source` selects, kept in step with every batch."""
        index = MirroredIndex(self, path, source, params, dim, vectors)
        with self._mirrors_lock:
            self._mirrors.append(index)
        return index

    def word_mirror(self, path: Path, source: str, params: Sequence = ()) -> MirroredWordIndex:
        """A word (BM25) index folder of the rows `source` selects, kept in step with every batch."""
        index = MirroredWordIndex(self, path, source, params)
        with self._mirrors_lock:
            self._mirrors.append(index)
        return index

    def catch_up_word_indexes(self) -> list[str]:
        """Build the word indexes this memory lacks (written before there were any, or left
        stale by a crash) in one batch, as "<store>/<namespace>"; until then those namespaces
        rank words with FTS5. No batch, so no new commit, when none is missing."""
        generation = self.generation()
        missing = [(store, namespace) for store in self.stores.values() for namespace in store.namespaces()
                   if store.words(namespace).documents(generation) is None]
        if missing:
            with self.batch():  # a writer's batch start rebuilds each index it finds stale
                pass
        return [f"{store.name}/{namespace}" for store, namespace in missing]

    def mirrors(self) -> list[Mirror]:
        with self._mirrors_lock:
            return list(self._mirrors)

    @property
    def in_batch(self) -> bool:
        return self._batch_depth > 0

    @property
    def writing_here(self) -> bool:
        """Whether this thread is inside its own batch: it reads changes not committed yet."""
        return self._writer == threading.get_ident()

    def read(self, sql: str, params: Sequence = ()) -> list[sqlite3.Row]:
        """Every read goes here: inside this thread's own batch through the writer, which
        sees the batch's uncommitted changes; inside a view through the view's transaction;
        elsewhere through the thread's own read-only connection, which under WAL sees the
        last commit and does not wait for the writer."""
        if self._writer == threading.get_ident():
            return self.conn.execute(sql, params).fetchall()
        view = self._view()
        if view is not None:
            return view.read(sql, params)
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._reader()
        return conn.execute(sql, params).fetchall()

    def _reader(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.root / "memory.sqlite", check_same_thread=False, timeout=120.0)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA query_only=ON")
        with self._readers_lock:
            self._readers.append(conn)
        return conn

    def _view(self) -> _View | None:
        view = _VIEW.get()
        return view if view is not None and view.owner is self else None

    @contextmanager
    def pinned(self) -> Iterator[None]:
        """Reads in this block, in this thread and in the threads it hands work to, see one
        commit: a re-ingest that commits meanwhile is either wholly seen or not at all (its
        deleted rows stay readable, its new ones stay hidden). It holds no lock while it
        lasts, so it never holds up a commit. Inside a batch or another view, that one."""
        if self._writer == threading.get_ident() or self._view() is not None:
            yield
            return
        conn, generation = self._begin_read()
        view = _View(self, conn, generation)
        token = _VIEW.set(view)
        try:
            yield
        finally:
            _VIEW.reset(token)
            for used in view.connections():
                self._end_read(used)

    def _begin_read(self) -> tuple[sqlite3.Connection, int]:
        """A read transaction on the last commit, and that commit's generation."""
        with self._readers_lock:
            conn = self._idle_views.pop() if self._idle_views else None
        conn = conn or self._reader()
        with self._commit_lock.shared():  # it starts between commits, never inside one
            conn.execute("BEGIN")
            row = conn.execute("SELECT value FROM meta WHERE key='generation'").fetchone()
        return conn, int(row["value"]) if row else 0

    def _end_read(self, conn: sqlite3.Connection) -> None:
        conn.commit()  # ends the read transaction
        with self._readers_lock:
            self._idle_views.append(conn)

    def read_transaction(self, generation: int) -> sqlite3.Connection | None:
        """A read transaction on the commit `generation` while it is still the last one;
        None once another commit has landed (a transaction now would see that one)."""
        conn, now = self._begin_read()
        if now == generation:
            return conn
        self._end_read(conn)
        return None

    def note_durations(self, store: str, records: Sequence[MemoryRecord]) -> None:
        """Inside a write: keep, per store and kind, the longest span any record has had."""
        longest: dict[str, float] = {}
        for r in records:
            longest[r.kind] = max(longest.get(r.kind, 0.0), (r.wall_end - r.wall_start).total_seconds())
        self.conn.executemany(
            "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET "
            "value = MAX(CAST(value AS REAL), CAST(excluded.value AS REAL))",
            [(f"longest:{store}:{kind}", str(seconds)) for kind, seconds in longest.items()])

    def longest(self, store: str, kinds: Sequence[str] | None) -> float | None:
        """Seconds no record of these kinds (any kind: None) in this store has outlasted, as
        of the caller's commit; None when not known (a database from before it was kept)."""
        spans = self._spans(store)
        if spans is None:
            return None
        return max((spans.get(k, 0.0) for k in (spans if kinds is None else kinds)), default=0.0)

    def kinds_written(self, store: str) -> set[str] | None:
        """The kinds of record this store has ever been given; None when not known."""
        spans = self._spans(store)
        return None if spans is None else set(spans)

    def _spans(self, store: str) -> dict[str, float] | None:
        if not self._durations_kept:
            return None
        # Every query reads these; a reader keeps them per commit. A batch's own adds change
        # them before its commit moves the generation, so the writer always reads them.
        generation = None if self.writing_here else self.generation()
        cached = self._spans_seen.get(store)
        if cached is not None and cached[0] == generation:
            return cached[1]
        rows = self.read("SELECT key, value FROM meta WHERE key >= ? AND key < ?",
                         (f"longest:{store}:", f"longest:{store};"))
        spans = {r["key"].split(":", 2)[2]: float(r["value"]) for r in rows}
        if generation is not None:
            self._spans_seen[store] = (generation, spans)
        return spans

    def _keep_durations(self) -> None:
        """Once per database: the longest span per store and kind, and the tags, from the
        records held."""
        if self.conn.execute("SELECT 1 FROM meta WHERE key='durations_kept'").fetchone() is None:
            with self.batch():
                self.conn.execute(
                    "INSERT OR REPLACE INTO meta(key, value) SELECT 'longest:' || store || ':' || kind, "
                    "MAX((julianday(wall_end) - julianday(wall_start)) * 86400.0) FROM records GROUP BY store, kind")
                self.conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('durations_kept', '1')")
        if self.conn.execute("SELECT 1 FROM meta WHERE key='tags_kept'").fetchone() is None:
            # A database from before the tags were kept (or kept without ends). Not a batch:
            # no index mirrors the tags, so no commit needs counting.
            with self.lock, migrations.transaction(self.conn):
                self.conn.execute("INSERT OR IGNORE INTO record_tags(key, value, wall_end, record_id) "
                                  f"{_tag_rows('records', 'records')}")
                self.conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('tags_kept', '1')")
        if self.conn.execute("SELECT 1 FROM meta WHERE key='changes_kept_from'").fetchone() is None:
            # A database from before each commit named the indexes it changed: an index written
            # before now may miss any commit's rows (not a batch: no index changes)
            with self.lock, migrations.transaction(self.conn):
                self.conn.execute("INSERT OR IGNORE INTO meta(key, value) SELECT 'changes_kept_from', "
                                  "COALESCE(MAX(CAST(value AS INTEGER)), 0) FROM meta WHERE key='generation'")
        self._durations_kept = True

    def row_count(self) -> int:
        """Rows in all stores as of the caller's commit (counted once per generation)."""
        generation = self.generation()
        cached = self._row_count
        if cached is None or cached[0] != generation:
            cached = self._row_count = (generation, self.read("SELECT COUNT(*) FROM records")[0][0])
        return cached[1]

    def newest_id(self) -> int:
        """The largest record id ever given, as of the caller's commit: AUTOINCREMENT keeps
        it in sqlite_sequence, and it never falls, even when the newest records are deleted."""
        rows = self.read("SELECT seq FROM sqlite_sequence WHERE name = 'records'")
        return int(rows[0]["seq"]) if rows else 0

    def deletions(self, store: str, namespace: str | None) -> int:
        """How many deletes have ever removed records of this store and namespace (of any
        namespace: None), as of the caller's commit."""
        rows = self.read("SELECT value FROM meta WHERE key = ?", (_deletions_key(store, namespace),))
        return int(rows[0]["value"]) if rows else 0

    def note_deletion(self, store: str, namespaces: Sequence[str]) -> None:
        """Inside a write that deleted records of these namespaces: what is kept per commit
        from added records alone must now be read afresh for them."""
        self.conn.executemany("INSERT INTO meta(key, value) VALUES (?, '1') ON CONFLICT(key) "
                              "DO UPDATE SET value = CAST(value AS INTEGER) + 1",
                              [(_deletions_key(store, ns),) for ns in (None, *dict.fromkeys(namespaces))])

    def rare_words(self, words: Sequence[str]) -> dict[str, int]:
        """The words (lower case) found in some rows but in no more than `COMMON_SHARE` of
        all, in the order given, with how many rows hold each (the full-text index's own
        document counts)."""
        if not words:
            return {}
        rows = self.read(f"SELECT term, doc FROM records_vocab WHERE term IN ({','.join('?' * len(words))})",
                         list(words))
        limit = COMMON_SHARE * self.row_count()
        docs = {r["term"]: r["doc"] for r in rows if 0 < r["doc"] <= limit}
        return {w: docs[w] for w in words if w in docs}

    def note_changed(self, mirror: str) -> None:
        """Inside a batch: its commit changes the rows of this mirror (named by its file)."""
        self._changed.add(mirror)

    def unchanged_since(self, mirror: str, written: int | None) -> bool:
        """Whether an index of `mirror` written at commit `written` holds the rows of the
        caller's commit: written at or before it, and no commit since changed them. A commit
        by one wearer (or a writer of another namespace) then leaves every other index
        current, where a stamp of the last commit alone made it stale: questions fell back to
        FTS5 and the next writer rebuilt a year's word index."""
        if written is None or written > self.generation():
            return False
        rows = self.read("SELECT MAX(CAST(value AS INTEGER)) FROM meta WHERE key IN ('changes_kept_from', ?)",
                         (f"changed:{mirror}",))
        return rows[0][0] is not None and rows[0][0] <= written

    def generation(self) -> int:
        """Bumped in the transaction of every change, so an index file can tell it is stale."""
        view = self._view()
        if view is not None and self._writer != threading.get_ident():
            return view.generation
        rows = self.read("SELECT value FROM meta WHERE key='generation'")
        return int(rows[0]["value"]) if rows else 0

    @contextmanager
    def writing(self) -> Iterator[None]:
        """One change: a batch of its own, or a part of the batch() around it."""
        with self.batch():
            yield

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Changes that land together or not at all: a re-ingest deletes a video's records
        and adds the new ones in every store in one SQLite transaction, holding the write
        lock against other processes from the start (an index another process changed is
        reloaded inside it). Index files are written only after the commit; if anything
        fails, the transaction rolls back and the index changes staged for it are dropped."""
        with self.lock:
            self._batch_depth += 1
            outermost = self._batch_depth == 1
            try:
                if outermost:
                    self.conn.execute("BEGIN IMMEDIATE")
                    self._writer = threading.get_ident()
                    before = self.generation()
                    for mirror in self.mirrors():  # current before the batch changes rows, to take its changes
                        _ = mirror.index
                yield
                if outermost:
                    self._bump()
                    self.conn.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
                                          [(f"changed:{m}", before + 1) for m in sorted(self._changed)])
                    for store in self.stores.values():
                        store.stage_first_seen(before + 1)
                    with self._commit_lock.exclusive():  # readers see rows and indexes of one commit
                        self.conn.commit()
                        for mirror in self.mirrors():
                            mirror.committed(before, before + 1)
                        for store in self.stores.values():
                            store.first_seen_kept.committed()
            except BaseException:
                if outermost:
                    self.conn.rollback()
                    for mirror in self.mirrors():
                        mirror.discard_staged()
                    for store in self.stores.values():
                        store.first_seen_kept.discard_staged()
                raise
            finally:
                self._batch_depth -= 1
                if outermost:
                    self._writer = None
                    self._changed.clear()
            if outermost:
                for mirror in self.mirrors():
                    mirror.flush()  # after the lock: writing an index file must not hold up readers

    def scrub(self) -> None:
        """After a forget: merge the full-text indexes so no segment still holds the forgotten
        words, and fold the WAL into the database and truncate it, so the old pages go too."""
        with self.lock:
            with self.conn:
                self.conn.execute("INSERT INTO records_fts(records_fts) VALUES('optimize')")
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            for mirror in self.mirrors():
                mirror.scrub()

    def _bump(self) -> None:
        self.conn.execute("INSERT INTO meta(key, value) VALUES ('generation', '1') "
                          "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1")

    def close(self) -> None:
        with self.lock:
            for mirror in self.mirrors():
                mirror.flush()
            with self._readers_lock:
                for reader in self._readers:
                    reader.close()
            self.conn.close()


@dataclass(frozen=True)
class _FirstSeen:
    """`_first_seen` for all time as of one commit, with the newest id and the count of
    deletions then, to tell whether a later commit only added records."""

    generation: int
    newest: int
    deletions: int
    seen: list[tuple[tuple, str, int, str]]


def _merge_first_seen(old: list[tuple[tuple, str, int, str]], new: list[tuple[tuple, str, int, str]]
                      ) -> list[tuple[tuple, str, int, str]]:
    """First-seen lists of two sets of records, as one list of their union."""
    merged = {values: (visible, first, order) for values, visible, first, order in old}
    for values, visible, first, order in new:
        was = merged.get(values)
        if was is None:
            merged[values] = (visible, first, order)
        else:
            earliest = (first, order) if order < was[2] else was[1:]
            merged[values] = (min(visible, was[0]), *earliest)
    return sorted(((values, *rest) for values, rest in merged.items()), key=lambda seen: seen[3])


def _spec_text(key: tuple) -> str:
    """A kept (keys, filter) as text for the database. Only filters without a window are
    kept, so keys, namespace, kinds and equal attrs say all of it."""
    keys, flt = key
    return json.dumps({"keys": list(keys), "namespace": flt.namespace,
                       "kinds": None if flt.kinds is None else list(flt.kinds),
                       "attrs": [list(pair) for pair in flt.attrs]}, sort_keys=True, default=str)


def _spec_key(text: str) -> tuple:
    spec = json.loads(text)
    kinds = None if spec["kinds"] is None else tuple(spec["kinds"])
    flt = RecordFilter(namespace=spec["namespace"], kinds=kinds, attrs=tuple(tuple(pair) for pair in spec["attrs"]))
    return tuple(spec["keys"]), flt


class _FirstSeenKept:
    """What `_first_seen` found for all time per (keys, filter), newest commit wins. A
    batch stages the entries it brought up to its own rows; they replace the kept ones at
    its commit, or are dropped with it, like the index changes of memory.mirrored_index.
    They are written to the database in the batch, so a restarted process starts from
    them rather than from every record."""

    LIMIT = 64

    def __init__(self, db: MemoryDatabase, store: str):
        self._db, self._store = db, store
        self._kept: dict[tuple, _FirstSeen] = {}
        self._staged: dict[tuple, _FirstSeen | None] = {}
        self._lock = threading.Lock()

    def load(self) -> None:
        """The entries the database holds, as of no commit in particular: each says which
        records it has seen (ids up to `newest`, `deletions` deletes), which is all a
        question needs to bring it up to its own commit."""
        rows = self._db.conn.execute("SELECT spec, newest, deletions, seen FROM first_seen_kept WHERE store = ?",
                                     (self._store,)).fetchall()
        for row in rows[-self.LIMIT:]:
            seen = [(tuple(values), visible, first, order) for values, visible, first, order in json.loads(row["seen"])]
            self.keep(_spec_key(row["spec"]), _FirstSeen(-1, row["newest"], row["deletions"], seen))

    def get(self, key: tuple) -> _FirstSeen | None:
        with self._lock:
            return self._kept.get(key)

    def items(self) -> list[tuple[tuple, _FirstSeen]]:
        with self._lock:
            return list(self._kept.items())

    def keep(self, key: tuple, seen: _FirstSeen) -> None:
        """Keep `seen` unless a newer commit's is kept already (a slow question ends late)."""
        with self._lock:
            was = self._kept.get(key)
            if was is None or was.generation <= seen.generation:
                self._kept[key] = seen
            while len(self._kept) > self.LIMIT:
                self._kept.pop(next(iter(self._kept)))

    def stage_all(self, deletions: Callable[[tuple], int], refresh: Callable[[tuple, _FirstSeen], _FirstSeen]) -> None:
        """Inside a batch: every kept entry brought up to the batch's rows by `refresh`, or,
        when a delete in its namespace may have removed what was first, forgotten, on disk
        with every other entry from before such a delete, so no name of a forgotten thing
        stays behind. `deletions`: the deletes so far that concern an entry's key."""
        for spec, count in self._db.conn.execute("SELECT spec, deletions FROM first_seen_kept WHERE store = ?",
                                                 (self._store,)).fetchall():
            if count != deletions(_spec_key(spec)):
                self._db.conn.execute("DELETE FROM first_seen_kept WHERE store = ? AND spec = ?", (self._store, spec))
        for key, cached in self.items():
            seen = self._staged[key] = refresh(key, cached) if cached.deletions == deletions(key) else None
            if seen is not None:
                self._db.conn.execute(
                    "INSERT OR REPLACE INTO first_seen_kept(store, spec, newest, deletions, seen) VALUES (?, ?, ?, ?, ?)",
                    (self._store, _spec_text(key), seen.newest, seen.deletions, json.dumps(seen.seen)))

    def committed(self) -> None:
        staged, self._staged = self._staged, {}
        for key, seen in staged.items():
            if seen is None:
                with self._lock:
                    self._kept.pop(key, None)
            else:
                self.keep(key, seen)

    def discard_staged(self) -> None:
        self._staged = {}


class SqliteFaissStore:
    """A RecordStore over a shared MemoryDatabase; ids are SQLite rowids and FAISS ids.

    Vectors are indexed per namespace (a folder of FAISS segments each), so a user's search
    never scans other users' vectors and an ingest appends a segment to its own user's."""

    def __init__(self, db: MemoryDatabase, name: StoreName):
        self.db = db
        self.name = name
        self._partitions: dict[str, MirroredIndex] = {}
        self._word_partitions: dict[str, MirroredWordIndex] = {}
        self._partitions_lock = threading.Lock()  # not the writer's: a question must not wait for a batch
        self.first_seen_kept = _FirstSeenKept(db, name)
        for legacy in (db.root / f"{name}.faiss", db.root / f"{name}.faiss.generation"):
            legacy.unlink(missing_ok=True)  # one index for every namespace, before partitions

    def partition(self, namespace: str) -> MirroredIndex:
        """The vector index of one namespace's records, current as of the caller's commit.
        Created before a batch writes that namespace's first rows, so it takes them."""
        return self._mirror_of(self._partitions, namespace, lambda path: self.db.mirror(
            Path(f"{path}.faiss"), f"{_WITH_VECTORS} WHERE store=? AND namespace=?",
            (self.name, namespace), dim=self._dim, vectors="record_vectors"), load=True)

    def words(self, namespace: str) -> MirroredWordIndex:
        """The word (BM25) index of one namespace's records; like `partition`, created before
        a batch writes the namespace's first rows (a reader never builds one)."""
        return self._mirror_of(self._word_partitions, namespace, lambda path: self.db.word_mirror(
            Path(f"{path}.words"),
            "SELECT id, text, kind, wall_start, wall_end FROM records WHERE store=? AND namespace=?",
            (self.name, namespace)), load=self.db.writing_here)

    def _mirror_of(self, kept: dict, namespace: str, make: Callable[[Path], Mirror], load: bool):
        """One namespace's index of a kind, made on first use at `<store>.<namespace digest>.<kind>`."""
        with self._partitions_lock:
            mirror = kept.get(namespace)
            if mirror is None:
                mirror = kept[namespace] = make(self._stem(namespace))
                if load:
                    _ = mirror.index
        return mirror

    def _stem(self, namespace: str) -> Path:
        return self.db.root / f"{self.name}.{hashlib.sha1(namespace.encode()).hexdigest()[:16]}"

    def load(self, namespace: str) -> None:
        """Read one namespace's vector and word indexes now, so that its next question does
        not wait for them: at a year of one wearer, reading them took 13 s from the page
        cache and 36 s from disk, inside the first question."""
        self.partition(namespace).size()
        words = self.words(namespace)
        words.documents(self.db.generation())
        read_through(words.path)  # Tantivy maps its files: a search's postings come from the page cache

    def index_footprint(self, namespace: str) -> tuple[int, float]:
        """(bytes, last written as a POSIX time) of the vector index files of one namespace,
        what loading it reads (into the process, or the page cache for mapped lists): read
        from the folder, without loading anything; (0, 0.0) when it has none yet."""
        folder = Path(f"{self._stem(namespace)}.faiss")
        try:
            files = [f.stat() for f in folder.iterdir() if f.is_file()]
        except OSError:
            return 0, 0.0
        return sum(f.st_size for f in files), max((f.st_mtime for f in files), default=0.0)

    def namespaces(self) -> list[str]:
        return [r[0] for r in self.db.read("SELECT DISTINCT namespace FROM records WHERE store=?", (self.name,))]

    def partitions(self) -> dict[str, MirroredIndex]:
        """Every namespace's index (for checks and diagnostics)."""
        return {namespace: self.partition(namespace) for namespace in self.namespaces()}

    def _dim(self) -> int:
        """Of an empty store: the other stores' vectors', else the embedder's."""
        rows = self.db.read("SELECT vector FROM record_vectors LIMIT 1")
        return len(rows[0]["vector"]) // 4 if rows else (self.db.embedder.dim or 384)

    def may_hold(self, kinds: Sequence[str]) -> bool:
        written = self.db.kinds_written(self.name)
        return written is None or bool(written & set(kinds))

    def _sql(self, flt: RecordFilter, alias: str = "records") -> tuple[str, list]:
        return _where(self.name, flt, alias, self.db.longest(self.name, flt.kinds))

    def rebuild_index(self) -> None:
        for mirror in self.partitions().values():
            mirror.rebuild()

    # -- RecordStore -------------------------------------------------------------------
    def add(self, records: Sequence[MemoryRecord], vectors: np.ndarray | None = None) -> list[int]:
        if not records:
            return []
        if any(r.store != self.name for r in records):
            raise ValueError(f"{self.name} store got a record for another store")
        if vectors is None:
            vectors = self.db.embedder.embed([r.text for r in records])
        if len(vectors) != len(records):
            raise ValueError(f"{len(records)} records but {len(vectors)} vectors")
        with self.db.lock:
            ids: list[int] = []
            namespaces = [r.namespace for r in records]
            mirrors = {namespace: self.partition(namespace) for namespace in dict.fromkeys(namespaces)}
            words = {namespace: self.words(namespace) for namespace in mirrors}
            with self.db.writing():
                for record, vector in zip(records, vectors):
                    cursor = self.db.conn.execute(
                        f"INSERT INTO records({_COLUMNS[4:]}) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                        (record.store, record.kind, record.namespace, record.text, record.video_id,
                         record.start, record.end, _ts(record.wall_start), _ts(record.wall_end),
                         json.dumps(record.keyframes), json.dumps(record.attrs, default=str)),
                    )
                    ids.append(int(cursor.lastrowid))
                self.db.conn.executemany("INSERT INTO record_vectors(id, vector) VALUES (?, ?)",
                                         [(i, np.asarray(v, np.float32).tobytes()) for i, v in zip(ids, vectors)])
                self.db.note_durations(self.name, records)
                for namespace, mirror in mirrors.items():
                    rows = [j for j, owner in enumerate(namespaces) if owner == namespace]
                    mirror.stage_add([ids[j] for j in rows], np.asarray(vectors)[rows])
                    words[namespace].stage_add([WordRow(ids[j], records[j].text, records[j].kind, records[j].wall_start,
                                                        records[j].wall_end) for j in rows])
        return ids

    def get(self, ids: Sequence[int]) -> list[MemoryRecord]:
        return self.query(RecordFilter(ids=tuple(ids))) if ids else []

    def query(self, flt: RecordFilter, limit: int | None = None, newest_first: bool = False) -> list[MemoryRecord]:
        if limit is not None and newest_first and flt.mentions is not None:
            newest = self._newest_mentioning(flt, limit)
            if newest is not None:
                return newest
        where, params = self._sql(flt)
        order = "wall_start DESC, id DESC" if newest_first else "wall_start, id"
        if limit is not None and newest_first and limit > 0:
            floor = self._newest_start_floor(flt, where, params, int(limit))
            if floor is not None and (flt.not_before is None or floor > _ts(flt.not_before)):
                where, params = self._sql(replace(flt, not_before=datetime.fromisoformat(floor)))
        sql = f"SELECT {_COLUMNS} FROM records WHERE {where} ORDER BY {order}"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [cut_at(_row_to_record(r), flt.before) for r in self.db.read(sql, params)]

    def _newest_start_floor(self, flt: RecordFilter, where: str, params: list, n: int) -> str | None:
        """A time every one of the `n` rows that start last ends at or after, read from an
        index that orders rows by end, not start (store, namespace[, kind], wall_end; or a
        tag's key, value, wall_end): the n-th latest start among the n rows of each kind (or
        tag value) that end last. Those rows start no later than the n that start last, so
        these end no earlier than it. The newest n are then sorted out of the rows ending
        since, not out of a year's. None when no such index serves the filter, or when fewer
        than n rows match (all are read anyway)."""
        tagged = [(key, values) for key, values in flt.attrs_in if key in TAGGED_ATTRS]
        if flt.ids is not None or flt.after_id is not None or flt.mentions is not None:
            return None
        parts, args = [], []
        if tagged:
            key, values = tagged[0]
            for value in values:
                parts.append(f"SELECT * FROM (SELECT records.id, records.wall_start FROM record_tags t CROSS JOIN records "
                             f"ON records.id = t.record_id WHERE t.key = ? AND t.value = ? AND {where} "
                             f"ORDER BY t.wall_end DESC LIMIT {n})")
                args += [key, value, *params]
        elif flt.namespace is None or _by_indexed_attr(flt):
            return None
        else:
            for kind in flt.kinds or (None,):
                one = "" if kind is None else " AND records.kind = ?"
                parts.append(f"SELECT * FROM (SELECT id, wall_start FROM records WHERE {where}{one} "
                             f"ORDER BY wall_end DESC LIMIT {n})")
                args += [*params, *(() if kind is None else (kind,))]
        if not parts:  # a tag asked with no values
            return None
        rows = self.db.read(f"SELECT wall_start FROM ({' UNION '.join(parts)}) "  # a row of two tags counts once
                            f"ORDER BY wall_start DESC LIMIT 1 OFFSET {n - 1}", args)
        return rows[0][0] if rows else None

    def count(self, flt: RecordFilter) -> int:
        where, params = self._sql(flt)
        return self.db.read(f"SELECT COUNT(*) FROM records WHERE {where}", params)[0][0]

    def distinct(self, keys: Sequence[str], flt: RecordFilter) -> list[tuple]:
        if not keys:
            return []
        return [seen[0] for seen in self._first_seen_by(keys, flt)]

    def first_of(self, keys: Sequence[str], flt: RecordFilter) -> list[MemoryRecord]:
        if not keys:
            return []
        records = self.get([seen[2] for seen in self._first_seen_by(keys, flt)])
        if flt.before is not None and not all(flt.matches(r) for r in records):
            # a combination's first record was not yet over while a later one was: ask exactly
            records = self.get([seen[2] for seen in self._first_seen(keys, flt)])
        return [cut_at(r, flt.before) for r in records]

    def _first_seen_by(self, keys: Sequence[str], flt: RecordFilter) -> list[tuple[tuple, str, int, str]]:
        """`_first_seen` as of the question time. Without a window only the question time
        varies between calls: the answer for all time is kept and cut by when each
        combination became visible. A commit brings it up to its own rows (ids past the last
        seen, `stage_first_seen`); after a delete in its store and namespace it is read
        afresh."""
        if _windowed(flt) or self.db.writing_here:  # a batch's uncommitted rows are not kept
            return self._first_seen(keys, flt)
        key = (tuple(keys), replace(flt, before=None))
        with self.db.pinned():  # the generation, the newest id and the rows from one commit
            generation = self.db.generation()
            cached = self.first_seen_kept.get(key)
            if cached is None or cached.generation != generation:
                cached = self._first_seen_now(key, cached, generation)
                self.first_seen_kept.keep(key, cached)
        cut = _ts(flt.before) if flt.before is not None else None
        return [seen for seen in cached.seen if cut is None or seen[1] < cut]

    def _first_seen_now(self, key: tuple, cached: _FirstSeen | None, generation: int) -> _FirstSeen:
        """`cached` brought up to the caller's commit: from the records added since, when
        nothing was deleted since, else afresh."""
        keys, all_time = key
        newest, deletions = self.db.newest_id(), self.db.deletions(self.name, all_time.namespace)
        if cached is not None and cached.deletions == deletions and newest >= cached.newest:
            seen = _merge_first_seen(cached.seen, self._first_seen(keys, replace(all_time, after_id=cached.newest)))
        else:
            seen = self._first_seen(keys, all_time)
        return _FirstSeen(generation, newest, deletions, seen)

    def stage_first_seen(self, generation: int) -> None:
        """Inside a batch, before its commit: bring what is kept for all time up to the
        batch's rows, so that the first question after a commit of a day of video does not
        group that day's records. A batch that deleted records forgets it instead: what was
        first may be gone, and the next question reads it afresh."""
        self.first_seen_kept.stage_all(lambda key: self.db.deletions(self.name, key[1].namespace),
                                       lambda key, cached: self._first_seen_now(key, cached, generation))

    def _first_seen(self, keys: Sequence[str], flt: RecordFilter) -> list[tuple[tuple, str, int, str]]:
        """Each distinct combination, in the order first seen, with the time its first record
        became visible to a question (its end; its start for things seen on keyframes), the
        id of the first record and its order key (start, then id)."""
        where, params = self._sql(flt)
        columns = ", ".join(f"json_extract(attrs, ?) AS k{i}" for i in range(len(keys)))
        groups = ", ".join(f"k{i}" for i in range(len(keys)))
        seen_on_keyframes = ",".join("?" * len(SEEN_ON_KEYFRAMES))
        rows = self.db.read(
            f"SELECT {columns}, MIN(wall_start || printf('%020d', id)) AS first_seen, "
            f"MIN(CASE WHEN kind IN ({seen_on_keyframes}) THEN wall_start ELSE wall_end END) AS visible "
            f"FROM records WHERE {where} AND k0 IS NOT NULL GROUP BY {groups} ORDER BY first_seen",
            [*(f"$.{key}" for key in keys), *SEEN_ON_KEYFRAMES, *params])
        return [(tuple(row[f"k{i}"] for i in range(len(keys))), row["visible"], int(row["first_seen"][-20:]),
                 row["first_seen"]) for row in rows]

    def tally(self, keys: Sequence[str], flt: RecordFilter, by_hour: bool = False, earliest: Sequence[str] = (),
              newest: int = 20) -> list[Tally]:
        where, params = self._sql(flt)
        columns = [f"json_extract(attrs, ?) AS k{i}" for i in range(len(keys))]
        if by_hour:
            columns.append(f"CAST(strftime('%H', wall_start) AS INTEGER) AS k{len(keys)}")
        groups = ", ".join(f"k{i}" for i in range(len(columns)))
        present = " AND ".join(f"k{i} IS NOT NULL AND k{i} != ''" for i in range(len(keys))) or "1"
        first = "json_array(" + ", ".join("json_extract(attrs, ?)" for _ in earliest) + ")"
        rows = self.db.read(
            f"SELECT {', '.join(columns)}, COUNT(*) AS n, MIN(wall_start) AS first, MAX(wall_end) AS last, "
            f"group_concat(DISTINCT substr(wall_start, 1, 10)) AS days, "
            f"MIN(wall_start || printf('%020d', id) || {first}) AS earliest, group_concat(id) AS ids "
            f"FROM records WHERE {where} GROUP BY {groups} HAVING {present}",
            [*(f"$.{key}" for key in keys), *(f"$.{key}" for key in earliest), *params])
        stamp = len(_ts(datetime(2000, 1, 1))) + 20  # the wall_start and id before the earliest's values
        return [Tally(tuple(row[f"k{i}"] for i in range(len(columns))), int(row["n"]),
                      tuple(sorted(set(row["days"].split(",")))), datetime.fromisoformat(row["first"]),
                      datetime.fromisoformat(row["last"]), tuple(json.loads(row["earliest"][stamp:])),
                      tuple(sorted(int(i) for i in row["ids"].split(","))[-newest:] if newest else ()))
                for row in rows]

    def timeline(self, key: str, flt: RecordFilter) -> list[tuple[int, datetime, datetime, object]]:
        where, params = self._sql(flt)
        rows = self.db.read(f"SELECT id, wall_start, wall_end, json_extract(attrs, ?) AS v FROM records "
                            f"WHERE {where} AND v IS NOT NULL ORDER BY wall_start, id", [f"$.{key}", *params])
        return [(int(r["id"]), datetime.fromisoformat(r["wall_start"]), datetime.fromisoformat(r["wall_end"]), r["v"])
                for r in rows]

    def _candidate_ids(self, flt: RecordFilter, limit: int | None = None) -> np.ndarray:
        where, params = self._sql(flt)
        cap = "" if limit is None else f" LIMIT {int(limit)}"
        return np.array([r[0] for r in self.db.read(f"SELECT id FROM records WHERE {where}{cap}", params)],
                        dtype=np.int64)

    def search_dense(self, text: str, flt: RecordFilter, k: int) -> list[tuple[MemoryRecord, float]]:
        with self.db.pinned():
            return self.shown(self.rank_dense(text, flt, k), flt)

    def rank_dense(self, text: str, flt: RecordFilter, k: int) -> list[tuple[int, float]]:
        query = self.db.embedder.embed([text])[0]
        with self.db.pinned():  # the candidate rows and the vectors searched from one commit
            namespaces = [flt.namespace] if flt.namespace is not None else self.namespaces()
            found: list[tuple[int, float]] | None = []
            for namespace in namespaces:
                part = self._search_index(self.partition(namespace), query, replace(flt, namespace=namespace), k)
                if part is None:  # the index has moved past this view: the view's own vectors, exactly
                    found = self._search_rows(query, flt, k)
                    break
                found += part
        return sorted(found, key=lambda hit: -hit[1])[:k]

    def shown(self, ranked: Sequence[tuple[int, float]], flt: RecordFilter) -> list[tuple[MemoryRecord, float]]:
        by_id = {r.id: cut_at(r, flt.before) for r in self.get([i for i, _ in ranked])}
        return [(by_id[i], score) for i, score in ranked if by_id.get(i) is not None]

    def _search_index(self, mirror: MirroredIndex, query: np.ndarray, flt: RecordFilter,
                      k: int) -> list[tuple[int, float]] | None:
        """Top-k within `flt` from one namespace's index. A filter that keeps most of its
        vectors is applied to the nearest ones after searching all; a selective one is
        handed to FAISS as ids. Only a filter with a window (time, videos, ids) is listed
        first, up to the share where filtering wins: its rows are an index range away, where
        listing a whole namespace is not."""
        total = mirror.size()
        if total is None:
            return None
        if not total or k <= 0:
            return []
        if flt.ids is not None:
            return mirror.search(query, self._candidate_ids(flt), k)
        if self._keeps_every_row(flt):  # asked now: the nearest are the answer, no row tested
            return mirror.search(query, None, min(k, total))
        rounds = POST_FILTER_ROUNDS
        first = k + k // 4 + 1 if _keeps_nearly_all(flt) else None  # a round before the rounds
        fetch = min(total, first or 4 * k)
        if _windowed(flt):  # its ids, unless it keeps so many that filtering the nearest is cheaper
            ids = self._candidate_ids(flt, limit=int(POST_FILTER_SHARE * total) + 1)
            if len(ids) < POST_FILTER_SHARE * total:
                return mirror.search(query, ids, k) if len(ids) else []
            rounds, fetch = None, min(total, max(fetch, 2 * k * total // self.count(flt)))
        while True:
            found = mirror.search(query, None, fetch)
            if found is None:
                return None
            hits = self._within(flt, found)
            if len(hits) >= k or fetch >= total:
                return hits[:k]
            if first is not None:  # asked in the past: the rounds, from their first fetch
                first, fetch = None, min(total, max(fetch, 4 * k))
                continue
            if rounds is not None:
                rounds -= 1
                if rounds <= 0:  # the filter keeps few of the nearest: search only what it keeps, if few
                    ids = self._candidate_ids(flt, limit=LISTED_AT_MOST + 1)
                    if len(ids) <= LISTED_AT_MOST:
                        return mirror.search(query, ids, k) if len(ids) else []
                    rounds = None
            if rounds is None and fetch >= FETCH_AT_MOST:  # many rows, few of them near: the nearest it keeps
                return hits[:k]
            fetch = min(total, fetch * 4 if rounds is not None else min(fetch * 4, FETCH_AT_MOST))

    def _keeps_every_row(self, flt: RecordFilter) -> bool:
        """Whether `flt` keeps every row of its namespace here: it names nothing but the
        namespace and a question time after the newest of them ended, as a question asked now
        does. A ranking's rows then need no test, which read a row from SQLite for each id
        found (at a year, after a reboot, a third of a search's time)."""
        if flt.namespace is None or not _keeps_nearly_all(flt):
            return False
        if flt.before is None:
            return True
        newest = self.db.read("SELECT MAX(wall_end) FROM records WHERE store = ? AND namespace = ?",
                              [self.name, flt.namespace])[0][0]
        return newest is None or newest < _ts(flt.before)

    def _within(self, flt: RecordFilter, found: list[tuple[int, float]]) -> list[tuple[int, float]]:
        """The ranked (id, score) pairs whose rows `flt` keeps, in their order: the filter
        applied after an index ranked without it."""
        where, params = self._sql(replace(flt, ids=tuple(i for i, _ in found)))
        kept = {r[0] for r in self.db.read(f"SELECT id FROM records WHERE {where}", params)}
        return [(i, s) for i, s in found if i in kept]

    def _search_rows(self, query: np.ndarray, flt: RecordFilter, k: int) -> list[tuple[int, float]]:
        where, params = self._sql(flt)
        return exact_top(self.db.read(f"{_WITH_VECTORS} WHERE {where}", params), query, k)

    def search_lexical(self, text: str, flt: RecordFilter, k: int) -> list[tuple[MemoryRecord, float]]:
        with self.db.pinned():
            return self.shown(self.rank_lexical(text, flt, k), flt)

    def rank_lexical(self, text: str, flt: RecordFilter, k: int) -> list[tuple[int, float]]:
        terms = list(dict.fromkeys(w.lower() for w in _WORD.findall(text)))
        if not terms:
            return []
        terms = [t for t in terms if t not in STOP] or terms
        where, params = self._sql(flt, alias="r")
        with self.db.pinned():  # the word index, the filter's rows and FTS5 from one commit
            found = self._search_words(terms, flt, k)
            if found is None:  # FTS5: exact for every filter and commit, slower on a long memory
                # a question without a rare word keeps all of its words: they are all it has
                rare = self.db.rare_words(terms)
                scarce, frequent = _split_by_frequency(rare)
                found = self._top_by_scarce_words(scarce, frequent, flt, where, params, k) if frequent else None
            if found is None:
                match = _any_of(rare or terms)
                rows = self.db.read(
                    f"SELECT r.id AS rid, -bm25(records_fts) AS score FROM records_fts {self._lexical_join(flt, rare)} "
                    f"records r ON r.id = records_fts.rowid WHERE records_fts MATCH ? AND {where} "
                    f"ORDER BY score DESC LIMIT ?", [match, *params, k])
                found = [(row["rid"], float(row["score"])) for row in rows]
        return found

    def _newest_mentioning(self, flt: RecordFilter, limit: int) -> list[MemoryRecord] | None:
        """The newest `limit` records holding `flt`'s words, taken newest first from the
        namespace's word index and only then read from SQLite: FTS5 hands over every row
        holding a word, and a word a year of memory holds 300,000 times takes a second to
        read and sort. None where SQL reads them all instead (see `_search_words`)."""
        rest = replace(flt, mentions=None)
        if flt.namespace is None or _lists_rows(rest):
            return None
        phrases = tuple(mention_groups(flt.mentions))
        if not phrases:
            return []
        query = WordQuery((), flt.kinds, *_word_window(flt), phrases=phrases)
        fetch = limit + NEWEST_MARGIN
        for _ in range(POST_FILTER_ROUNDS + 1):
            found = self.words(flt.namespace).search(query, fetch, newest=True)
            if found is None:
                return None
            rows = self.query(replace(rest, ids=tuple(i for i, _ in found)), limit, newest_first=True)
            if len(rows) >= limit or len(found) < fetch:
                break
            fetch *= 4  # rows the word index holds that the filter's exact time test drops
        return rows

    def _search_words(self, terms: list[str], flt: RecordFilter, k: int) -> list[tuple[int, float]] | None:
        """Top-k by BM25 from the namespace's word index, with the filter's kinds and time
        window applied inside it and the rest to the best rows, in rounds that fetch more, as
        a dense search does. None where FTS5 ranks instead: no namespace, a filter that
        lists rows (ids, tags, videos, hours, words), an index not holding the caller's
        commit, or a filter that keeps too few of the best rows."""
        if flt.namespace is None or _lists_rows(flt):
            return None
        words = self.words(flt.namespace)
        documents = words.documents(self.db.generation())
        if documents is None:
            return None
        # a question without a rare word keeps all of its words: they are all it has
        rare = tuple(t for t in terms if 0 < words.doc_freq(t) <= COMMON_SHARE * documents)
        query = WordQuery(rare or tuple(terms), flt.kinds, *_word_window(flt))
        if self._keeps_every_row(flt):
            return words.search(query, k)
        fetch = 4 * k
        for _ in range(POST_FILTER_ROUNDS + 1):
            found = words.search(query, fetch)
            if found is None:
                return None
            hits = self._within(flt, found)
            if len(hits) >= k or len(found) < fetch:
                return hits[:k]
            fetch *= 4
        return None

    def _lexical_join(self, flt: RecordFilter, docs: dict[str, int]) -> str:
        """SQLite cannot weigh a word match against an index range and may walk the window,
        matching each row's words (~50x a match read from the word's list): a window leads
        only when it is that much smaller than the rows holding the words."""
        return "JOIN" if docs and self._fewer_than(flt, sum(docs.values()) // WINDOW_LEADS_AT) else "CROSS JOIN"

    def _top_by_scarce_words(self, scarce: dict[str, int], frequent: dict[str, int], flt: RecordFilter,
                             where: str, params: list, k: int) -> list[tuple[int, float]] | None:
        """The exact BM25 top `k` of all the words, read from the rows that hold a scarce
        one, when those outscore any row holding only frequent words (MaxScore); None when
        they may not. FTS5 sums a score over every phrase of a query, so a row's score for
        all the words is its score for `scarce AND (all)` less its score for `scarce`; both
        visit only the scarce words' rows, where `all` alone visits every frequent one's."""
        any_scarce, any_word = _any_of(scarce), _any_of([*scarce, *frequent])
        rows = self.db.read(
            f"SELECT r.id AS rid, bm25(records_fts) AS doubled FROM records_fts {self._lexical_join(flt, scarce)} "
            f"records r ON r.id = records_fts.rowid WHERE records_fts MATCH ? AND {where}",
            [f"({any_scarce}) AND ({any_word})", *params])
        if len(rows) < k:
            return None
        once = dict(self.db.read("SELECT rowid, bm25(records_fts) FROM records_fts WHERE records_fts MATCH ?",
                                 [any_scarce]))
        found = sorted(((row["rid"], once[row["rid"]] - row["doubled"]) for row in rows), key=lambda hit: -hit[1])[:k]
        ceiling = sum(bm25_ceiling(docs, self.db.row_count()) for docs in frequent.values())
        return found if found[-1][1] > ceiling * (1 + 1e-9) else None

    def _fewer_than(self, flt: RecordFilter, n: int) -> bool:
        """Whether `flt` keeps fewer than `n` rows, counting no further than that."""
        if n <= 0:
            return False
        where, params = self._sql(flt)
        return self.db.read(f"SELECT COUNT(*) FROM (SELECT 1 FROM records WHERE {where} LIMIT ?)",
                            [*params, n])[0][0] < n

    def delete(self, flt: RecordFilter) -> int:
        with self.db.lock, self.db.writing():  # the ids are read inside the write transaction
            where, params = self._sql(flt)
            rows = self.db.read(f"SELECT id, namespace FROM records WHERE {where}", params)
            for namespace in dict.fromkeys(r["namespace"] for r in rows):
                ids = [r["id"] for r in rows if r["namespace"] == namespace]
                self.partition(namespace).stage_remove(np.array(ids, dtype=np.int64))
                self.words(namespace).stage_remove(ids)
            self.db.conn.executemany("DELETE FROM records WHERE id=?", [(r["id"],) for r in rows])
            if rows:
                self.db.note_deletion(self.name, [r["namespace"] for r in rows])
        return len(rows)
