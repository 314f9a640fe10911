"""The two sides of keeping an index in step with SQLite's commits, apart from both.

An index (memory.mirrored_index for vectors, memory.word_index for words) is a `Mirror`:
the database's batch drives it. What the index asks of the database in return is a
`MirrorHost`. Both index modules and memory.database depend on this module, not on each
other, so the database can make indexes without the indexes importing the database.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Protocol


class Mirror(Protocol):
    """An index kept in step with SQLite's commits (MemoryDatabase.batch drives it)."""

    @property
    def index(self): ...  # current as of the last commit; touched by a writer as its batch begins

    def committed(self, before: int, after: int) -> None: ...

    def discard_staged(self) -> None: ...

    def flush(self) -> None: ...  # after the commit, outside the readers' way

    def scrub(self) -> None: ...  # after a forget: nothing forgotten lingers in its files


class MirrorHost(Protocol):
    """What a mirror reads of the database whose commits it follows (memory.database.Database)."""

    conn: sqlite3.Connection  # the writer's: a rebuild streams its rows inside the writer's batch

    @property
    def lock(self) -> AbstractContextManager: ...  # the writer's, held for a whole batch

    @property
    def in_batch(self) -> bool: ...

    def read(self, sql: str, params: Sequence = ()) -> list[sqlite3.Row]: ...

    def generation(self) -> int: ...

    def note_changed(self, mirror: str) -> None: ...

    def unchanged_since(self, mirror: str, written: int | None) -> bool: ...
