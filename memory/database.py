"""The memory's SQLite file (WAL): one writer under one lock, a batch at a time, readers that
never wait for it, pinned views of one commit, the indexes kept in step with the commits
(memory.mirrors), and the counts kept in `meta` that reads plan by.

It knows no store: memory.sqlite_faiss adds the three record stores, and the keyframe, track,
people and place tables keep their own rows here.
"""
from __future__ import annotations

import fcntl
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path

from memory import migrations
from memory.bm25 import COMMON_SHARE
from memory.embedding import TextEmbedder
from memory.mirrored_index import MirroredIndex
from memory.mirrors import Mirror
from memory.pinned_view import VIEW, ReadWriteLock, View
from memory.records import MemoryRecord
from memory.schema import migrate_and_create, tag_rows
from memory.word_index import MirroredWordIndex

IDLE_READERS = 8  # read connections kept open between questions (more run at once, then close)


@contextmanager
def _setting_up(root: Path) -> Iterator[None]:
    """One process at a time sets a memory up (journal mode, migrations, schema, a new index
    built over a year's rows): SQLite answers a second process that switches a new file to
    WAL meanwhile "database is locked" at once, without waiting for its busy timeout."""
    with open(root / "setup.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _deletions_key(store: str, namespace: str | None) -> str:
    return f"deletions:{store}" if namespace is None else f"deletions:{store}:{namespace}"


class Database:
    """One SQLite file (WAL) shared by the three stores. Writes go through one connection
    under one lock, a batch at a time; reads use a connection per thread, or a pinned view
    (`pinned`), so a question never waits for another question or for an ingest's
    transaction, and never sees half of one.

    What a subclass keeps beside the rows and the indexes (the stores' first-seen lists,
    memory.sqlite_faiss) is staged, taken and dropped with each batch by `_before_commit`,
    `_after_commit` and `_after_rollback`; it calls `_keep_durations` once its parts exist."""

    def __init__(self, root: Path, embedder: TextEmbedder):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.embedder = embedder
        self.lock = threading.RLock()  # the writer's: held for a whole batch
        self._batch_depth = 0
        self._writer: int | None = None  # the thread inside a batch
        self._changed: set[str] = set()  # the mirrors whose rows the batch under way changes
        self._readers: list[sqlite3.Connection] = []  # every read connection open
        self._idle_readers: list[sqlite3.Connection] = []  # open and not in use: for the next read
        self._readers_lock = threading.Lock()  # not the writer's: a new reader must not wait for a batch
        # A commit and the index changes it brings are one step for a view that starts
        self._commit_lock = ReadWriteLock()
        # another process may hold the write lock for a whole re-ingest: wait for it, do not fail
        self.conn = sqlite3.connect(self.root / "memory.sqlite", check_same_thread=False, timeout=120.0)
        self.conn.row_factory = sqlite3.Row
        with _setting_up(self.root):
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA secure_delete=ON")  # deleted rows are overwritten, not left in free pages
            self.conn.execute("PRAGMA foreign_keys=ON")
            migrate_and_create(self.conn)
        self._mirrors: list[Mirror] = []  # every FAISS and word index kept in step with the commits
        self._mirrors_lock = threading.Lock()  # not the writer's: a reader may add an index during a batch
        self._row_count: tuple[int, int] | None = None  # (generation, rows), for the common-word share
        self._spans_seen: dict[str, tuple[int, dict[str, float]]] = {}  # store: (generation, spans)
        self._durations_kept = False

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
        elsewhere through an idle read-only connection borrowed for the statement, which under
        WAL sees the last commit and does not wait for the writer. Borrowed, not one per
        thread: a server's threads come and go, and open files follow the reads under way."""
        if self._writer == threading.get_ident():
            return self.conn.execute(sql, params).fetchall()
        view = self._view()
        if view is not None:
            return view.read(sql, params)
        conn = self._borrow()
        try:
            return conn.execute(sql, params).fetchall()
        finally:
            self._give_back(conn)

    def _connect_reader(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.root / "memory.sqlite", check_same_thread=False, timeout=120.0)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA query_only=ON")
        return conn

    def _borrow(self) -> sqlite3.Connection:
        """An idle read connection, or a new one (pooled: see _give_back), closed with the database."""
        with self._readers_lock:
            if self._idle_readers:
                return self._idle_readers.pop()
        conn = self._connect_reader()
        with self._readers_lock:
            self._readers.append(conn)
        return conn

    def _give_back(self, conn: sqlite3.Connection) -> None:
        """Ends the connection's read transaction, if any; it waits for the next read unless
        IDLE_READERS already do: a burst of concurrent reads leaves no more open files behind it."""
        conn.commit()
        with self._readers_lock:
            if len(self._idle_readers) < IDLE_READERS:
                self._idle_readers.append(conn)
                return
            self._readers.remove(conn)
        conn.close()

    def _view(self) -> View | None:
        view = VIEW.get()
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
        view = View(self, conn, generation)
        token = VIEW.set(view)
        try:
            yield
        finally:
            VIEW.reset(token)
            for used in view.connections():
                self._give_back(used)

    def _begin_read(self) -> tuple[sqlite3.Connection, int]:
        """A read transaction on the last commit, and that commit's generation."""
        conn = self._borrow()
        with self._commit_lock.shared():  # it starts between commits, never inside one
            conn.execute("BEGIN")
            row = conn.execute("SELECT value FROM meta WHERE key='generation'").fetchone()
        return conn, int(row["value"]) if row else 0

    def read_transaction(self, generation: int) -> sqlite3.Connection | None:
        """A read transaction on the commit `generation` while it is still the last one;
        None once another commit has landed (a transaction now would see that one)."""
        conn, now = self._begin_read()
        if now == generation:
            return conn
        self._give_back(conn)
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
                                  f"{tag_rows('records', 'records')}")
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
                    self._before_commit(before + 1)
                    with self._commit_lock.exclusive():  # readers see rows and indexes of one commit
                        self.conn.commit()
                        for mirror in self.mirrors():
                            mirror.committed(before, before + 1)
                        self._after_commit()
            except BaseException:
                if outermost:
                    self.conn.rollback()
                    for mirror in self.mirrors():
                        mirror.discard_staged()
                    self._after_rollback()
                raise
            finally:
                self._batch_depth -= 1
                if outermost:
                    self._writer = None
                    self._changed.clear()
            if outermost:
                for mirror in self.mirrors():
                    mirror.flush()  # after the lock: writing an index file must not hold up readers

    def _before_commit(self, generation: int) -> None:
        """Inside a batch, before its commit (that makes `generation`): stage what is kept
        beside the rows up to the batch's rows."""

    def _after_commit(self) -> None:
        """At the commit, under the commit lock: take what `_before_commit` staged."""

    def _after_rollback(self) -> None:
        """The batch rolled back: drop what `_before_commit` staged."""

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

    def backup_to(self, target: Path) -> int:
        """A consistent copy of memory.sqlite at `target` (SQLite's online backup, all pages
        in one read transaction: one commit, whatever writers do meanwhile), taken without
        stopping them; the indexes are rebuilt from it where it is opened. Returns the
        copy's generation."""
        with closing(self._connect_reader()) as source, closing(sqlite3.connect(target)) as copy:
            source.backup(copy)
            row = copy.execute("SELECT value FROM meta WHERE key='generation'").fetchone()
        return int(row[0]) if row else 0

    def close(self) -> None:
        with self.lock:
            for mirror in self.mirrors():
                mirror.flush()
            with self._readers_lock:
                for reader in self._readers:
                    reader.close()
            self.conn.close()

