"""One commit that every thread of a question reads (`MemoryDatabase.pinned`), and the lock
that keeps a commit and its index changes one step for a view that starts."""
from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Protocol


class ReadWriteLock:
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


class ReadTransactions(Protocol):
    """The database a view reads (memory.database.Database)."""

    def read_transaction(self, generation: int) -> sqlite3.Connection | None: ...


@dataclass
class View:
    """One commit that all the threads of a question read: LangGraph runs parallel branches
    in worker threads and copies the caller's context into them, so a ContextVar carries the
    view there. A worker thread gets a read transaction of its own when it can start one on
    the same commit (no commit since the view began), so branches read in parallel; else it
    shares the view's connection, one SQLite call at a time."""

    owner: ReadTransactions
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


VIEW: ContextVar[View | None] = ContextVar("memlens_memory_view", default=None)
