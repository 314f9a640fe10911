"""SQLite (metadata, text, BM25 via FTS5) + FAISS (vectors) implementation of RecordStore.

SQLite is the source of truth: it also keeps every vector, so a FAISS index file that is
missing, stale or written by another embedder is rebuilt on open instead of trusted.
All three stores share one database file; each has its own FAISS index file, kept in step
with the commits by memory.mirrored_index.
"""
from __future__ import annotations

import json
import re
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import faiss
import numpy as np

from memory.embedding import TextEmbedder
from memory.mirrored_index import MirroredIndex, exact_top
from memory.records import SEEN_ON_KEYFRAMES, STORE_NAMES, MemoryRecord, RecordFilter, StoreName, cut_at

_SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store TEXT NOT NULL, kind TEXT NOT NULL, namespace TEXT NOT NULL, text TEXT NOT NULL,
    video_id TEXT, start REAL NOT NULL, end REAL NOT NULL,
    wall_start TEXT NOT NULL, wall_end TEXT NOT NULL,
    keyframes TEXT NOT NULL, attrs TEXT NOT NULL, vector BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS records_scope ON records(store, namespace, wall_end);
CREATE INDEX IF NOT EXISTS records_video ON records(video_id);
CREATE VIRTUAL TABLE IF NOT EXISTS records_fts USING fts5(text, content='records', content_rowid='id');
CREATE TRIGGER IF NOT EXISTS records_ai AFTER INSERT ON records BEGIN
    INSERT INTO records_fts(rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER IF NOT EXISTS records_ad AFTER DELETE ON records BEGIN
    INSERT INTO records_fts(records_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
_COLUMNS = "id, store, kind, namespace, text, video_id, start, end, wall_start, wall_end, keyframes, attrs"
_WORD = re.compile(r"[A-Za-z0-9]+")


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


def _where(store: str, flt: RecordFilter, alias: str = "records") -> tuple[str, list]:
    """Translate a RecordFilter to SQL; must agree with RecordFilter.matches."""
    clauses, params = [f"{alias}.store = ?"], [store]
    if flt.namespace is not None:
        clauses.append(f"{alias}.namespace = ?"), params.append(flt.namespace)
    if flt.kinds is not None:
        clauses.append(f"{alias}.kind IN ({','.join('?' * len(flt.kinds))})"), params.extend(flt.kinds)
    if flt.video_ids is not None:
        clauses.append(f"{alias}.video_id IN ({','.join('?' * len(flt.video_ids))})")
        params.extend(flt.video_ids)
    if flt.before is not None:
        clauses.append(f"({alias}.wall_end < ? OR ({alias}.kind IN ({','.join('?' * len(SEEN_ON_KEYFRAMES))}) "
                       f"AND {alias}.wall_start < ?))")
        params.extend([_ts(flt.before), *SEEN_ON_KEYFRAMES, _ts(flt.before)])
    if flt.not_before is not None:
        clauses.append(f"{alias}.wall_end >= ?"), params.append(_ts(flt.not_before))
    if flt.overlaps is not None:
        clauses.append(f"{alias}.wall_start < ? AND {alias}.wall_end >= ?")
        params.extend([_ts(flt.overlaps[1]), _ts(flt.overlaps[0])])
    if flt.ids is not None:
        clauses.append(f"{alias}.id IN ({','.join('?' * len(flt.ids))})"), params.extend(flt.ids)
    for key, value in flt.attrs:
        clauses.append(f"json_extract({alias}.attrs, ?) = ?")
        params.extend([f"$.{key}", value])
    return " AND ".join(clauses), params


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
    """One read transaction that all the threads of a question share: LangGraph runs
    parallel branches in worker threads and copies the caller's context into them, so a
    ContextVar carries the view there. SQLite calls on its connection are serialised."""

    owner: MemoryDatabase
    conn: sqlite3.Connection
    generation: int
    lock: threading.Lock = field(default_factory=threading.Lock)


_VIEW: ContextVar[_View | None] = ContextVar("memlens_memory_view", default=None)


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
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._idle_views: list[sqlite3.Connection] = []  # connections of ended views, for the next
        self._readers_lock = threading.Lock()  # not the writer's: a new reader must not wait for a batch
        # A commit and the index changes it brings are one step for a view that starts
        self._commit_lock = _ReadWriteLock()
        # another process may hold the write lock for a whole re-ingest: wait for it, do not fail
        self.conn = sqlite3.connect(self.root / "memory.sqlite", check_same_thread=False, timeout=120.0)
        self.conn.row_factory = sqlite3.Row
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA secure_delete=ON")  # deleted rows are overwritten, not left in free pages
        self.conn.execute("PRAGMA foreign_keys=ON")
        self.conn.executescript(_SCHEMA)
        self._mirrors: list[MirroredIndex] = []  # every FAISS index kept in step with the commits
        self.stores = {name: SqliteFaissStore(self, name) for name in STORE_NAMES}
        self._reembed_if_model_changed()

    def _reembed_if_model_changed(self) -> None:
        row = self.conn.execute("SELECT value FROM meta WHERE key='embedder'").fetchone()
        if row is not None and row["value"] == self.embedder.model_id:
            return
        rows = self.conn.execute("SELECT id, text FROM records").fetchall()
        vectors = self.embedder.embed([r["text"] for r in rows]) if rows else []
        with self.batch():
            self.conn.executemany("UPDATE records SET vector=? WHERE id=?",
                                  [(v.tobytes(), r["id"]) for v, r in zip(vectors, rows)])
            for store in self.stores.values():
                store.rebuild_index()
            self.conn.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES ('embedder', ?)", (self.embedder.model_id,)
            )

    def mirror(self, path: Path, source: str, params: Sequence = (), dim=None) -> MirroredIndex:
        """A FAISS index file of the rows `source` selects, kept in step with every batch."""
        with self.lock:
            index = MirroredIndex(self, path, source, params, dim)
            self._mirrors.append(index)
        return index

    def mirrors(self) -> list[MirroredIndex]:
        return list(self._mirrors)

    @property
    def in_batch(self) -> bool:
        return self._batch_depth > 0

    def read(self, sql: str, params: Sequence = ()) -> list[sqlite3.Row]:
        """Every read goes here: inside this thread's own batch through the writer, which
        sees the batch's uncommitted changes; inside a view through the view's transaction;
        elsewhere through the thread's own read-only connection, which under WAL sees the
        last commit and does not wait for the writer."""
        if self._writer == threading.get_ident():
            return self.conn.execute(sql, params).fetchall()
        view = self._view()
        if view is not None:
            with view.lock:
                return view.conn.execute(sql, params).fetchall()
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
        with self._readers_lock:
            conn = self._idle_views.pop() if self._idle_views else None
        conn = conn or self._reader()
        with self._commit_lock.shared():  # the view starts between commits, never inside one
            conn.execute("BEGIN")
            row = conn.execute("SELECT value FROM meta WHERE key='generation'").fetchone()
        token = _VIEW.set(_View(self, conn, int(row["value"]) if row else 0))
        try:
            yield
        finally:
            _VIEW.reset(token)
            conn.commit()  # ends the read transaction
            with self._readers_lock:
                self._idle_views.append(conn)

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
                    with self._commit_lock.exclusive():  # readers see rows and indexes of one commit
                        self.conn.commit()
                        for mirror in self.mirrors():
                            mirror.committed(before, before + 1)
            except BaseException:
                if outermost:
                    self.conn.rollback()
                    for mirror in self.mirrors():
                        mirror.discard_staged()
                raise
            finally:
                self._batch_depth -= 1
                if outermost:
                    self._writer = None
            if outermost:
                for mirror in self.mirrors():
                    mirror.flush()  # after the lock: writing an index file must not hold up readers

    def scrub(self) -> None:
        """After a forget: merge the full-text index so no segment still holds the forgotten
        words, and fold the WAL into the database and truncate it, so the old pages go too."""
        with self.lock:
            with self.conn:
                self.conn.execute("INSERT INTO records_fts(records_fts) VALUES('optimize')")
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

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


class SqliteFaissStore:
    """A RecordStore over a shared MemoryDatabase; ids are SQLite rowids and FAISS ids."""

    def __init__(self, db: MemoryDatabase, name: StoreName):
        self.db = db
        self.name = name
        self.mirror = db.mirror(db.root / f"{name}.faiss", "SELECT id, vector FROM records WHERE store=?", (name,),
                                dim=self._dim)
        self.index_path = self.mirror.path

    @property
    def index(self) -> faiss.IndexIDMap2:
        """The index of the last commit; use it under `mirror.lock`."""
        return self.mirror.index

    def _dim(self) -> int:
        """Of an empty store: the other stores' vectors', else the embedder's."""
        rows = self.db.read("SELECT vector FROM records LIMIT 1")
        return len(rows[0]["vector"]) // 4 if rows else (self.db.embedder.dim or 384)

    def rebuild_index(self) -> None:
        self.mirror.rebuild()

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
            with self.db.writing():
                for record, vector in zip(records, vectors):
                    cursor = self.db.conn.execute(
                        f"INSERT INTO records({_COLUMNS[4:]}, vector) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                        (record.store, record.kind, record.namespace, record.text, record.video_id,
                         record.start, record.end, _ts(record.wall_start), _ts(record.wall_end),
                         json.dumps(record.keyframes), json.dumps(record.attrs, default=str),
                         vector.tobytes()),
                    )
                    ids.append(int(cursor.lastrowid))
                self.mirror.stage_add(ids, vectors)
        return ids

    def get(self, ids: Sequence[int]) -> list[MemoryRecord]:
        return self.query(RecordFilter(ids=tuple(ids))) if ids else []

    def query(self, flt: RecordFilter, limit: int | None = None) -> list[MemoryRecord]:
        where, params = _where(self.name, flt)
        sql = f"SELECT {_COLUMNS} FROM records WHERE {where} ORDER BY wall_start, id"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [cut_at(_row_to_record(r), flt.before) for r in self.db.read(sql, params)]

    def count(self, flt: RecordFilter) -> int:
        where, params = _where(self.name, flt)
        return self.db.read(f"SELECT COUNT(*) FROM records WHERE {where}", params)[0][0]

    def _candidate_ids(self, flt: RecordFilter) -> np.ndarray:
        where, params = _where(self.name, flt)
        return np.array([r[0] for r in self.db.read(f"SELECT id FROM records WHERE {where}", params)], dtype=np.int64)

    def search_dense(self, text: str, flt: RecordFilter, k: int) -> list[tuple[MemoryRecord, float]]:
        query = self.db.embedder.embed([text])
        with self.db.pinned():  # the candidate rows and the vectors searched from one commit
            candidates = self._candidate_ids(flt)
            if candidates.size == 0:
                return []
            found = self.mirror.search(query[0], candidates, k)
            if found is None:  # the index has moved past this view: the view's own vectors, exactly
                found = self._search_rows(query[0], flt, k)
            by_id = {r.id: cut_at(r, flt.before) for r in self.get([i for i, _ in found])}
        return [(by_id[i], s) for i, s in found if i in by_id]

    def _search_rows(self, query: np.ndarray, flt: RecordFilter, k: int) -> list[tuple[int, float]]:
        where, params = _where(self.name, flt)
        return exact_top(self.db.read(f"SELECT id, vector FROM records WHERE {where}", params), query, k)

    def search_lexical(self, text: str, flt: RecordFilter, k: int) -> list[tuple[MemoryRecord, float]]:
        terms = [w.lower() for w in _WORD.findall(text)]
        if not terms:
            return []
        match = " OR ".join(f'"{t}"' for t in dict.fromkeys(terms))
        where, params = _where(self.name, flt, alias="r")
        sql = (
            f"SELECT r.id AS rid, -bm25(records_fts) AS score FROM records_fts "
            f"JOIN records r ON r.id = records_fts.rowid "
            f"WHERE records_fts MATCH ? AND {where} ORDER BY score DESC LIMIT ?"
        )
        with self.db.pinned():  # the matches and their rows from one commit
            rows = self.db.read(sql, [match, *params, k])
            by_id = {r.id: cut_at(r, flt.before) for r in self.get([row["rid"] for row in rows])}
        return [(by_id[row["rid"]], float(row["score"])) for row in rows if row["rid"] in by_id]

    def delete(self, flt: RecordFilter) -> int:
        with self.db.lock, self.db.writing():  # the ids are read inside the write transaction
            ids = self._candidate_ids(flt)
            if ids.size:
                self.db.conn.executemany("DELETE FROM records WHERE id=?", [(int(i),) for i in ids])
                self.mirror.stage_remove(ids)
        return int(ids.size)
