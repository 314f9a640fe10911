"""Layout changes that bring a memory.sqlite written by an older memlens up to date on open.

Each runs before the schema script (memory.schema), which then creates the indexes and
triggers the change dropped. Each can be resumed: a file left half-way by a crash or a kill
goes on from where it stopped the next time it is opened. Moving every row works in chunks
of their own commits, so a year of memory is not one transaction (whose WAL would hold every
page it wrote). None counts a generation: the indexes on disk stay the memory's.
"""
from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

log = logging.getLogger(__name__)

# Where the records of a file written with vectors inline wait to be moved.
RECORDS_WITH_VECTORS = "records_with_vectors"
MOVE_CHUNK = 50_000  # ids moved per commit: about 100 MB of rows


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """One write transaction on `conn`, taken before its first statement (other processes
    wait), committed whole or rolled back; no generation is counted: nothing a view or an
    index mirrors may change in it."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.commit()
    except BaseException:
        conn.rollback()
        raise


def columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


def _exists(conn: sqlite3.Connection, table: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_schema WHERE type='table' AND name=?", (table,)).fetchone() is not None


def move_vectors_out(conn: sqlite3.Connection, create_records: str, create_vectors: str, record_columns: str,
                     chunk: int | None = None) -> int:
    """Move the vectors of a records table that keeps them inline into a table of their own
    (`create_vectors`: id, vector), leaving `create_records`'s columns; returns the rows moved.

    Why: a vector (1.5 KB) was three quarters of a row, so the rows a question reads (text,
    times, attrs) were spread over four times the pages, and a year (35 GB) no longer fitted
    in the page cache. The old table is renamed, its indexes and triggers dropped (the FTS
    index keeps its entries: the ids do not change), and its rows moved by id ranges, each
    range deleted from it as it lands, so the file grows by little more than a chunk."""
    if "vector" in columns(conn, "records"):
        with transaction(conn):
            for kind, name in conn.execute("SELECT type, name FROM sqlite_schema WHERE tbl_name='records' "
                                           "AND type IN ('index', 'trigger') AND sql IS NOT NULL").fetchall():
                conn.execute(f'DROP {kind.upper()} "{name}"')
            conn.execute(f"ALTER TABLE records RENAME TO {RECORDS_WITH_VECTORS}")
            conn.execute(create_records)
            conn.execute(create_vectors)
            # AUTOINCREMENT's high-water mark, so no id of a deleted record is handed out again
            conn.execute("INSERT INTO sqlite_sequence(name, seq) SELECT 'records', seq FROM sqlite_sequence "
                         "WHERE name=?", (RECORDS_WITH_VECTORS,))
    if not _exists(conn, RECORDS_WITH_VECTORS):
        return 0
    low, high = conn.execute(f"SELECT MIN(id), MAX(id) FROM {RECORDS_WITH_VECTORS}").fetchone()
    log.warning("memory.sqlite: moving the vectors of records %s..%s to a table of their own (once)", low, high)
    moved, chunk = 0, chunk or MOVE_CHUNK
    while low is not None:
        end = low + chunk
        with transaction(conn):
            moved += conn.execute(f"INSERT INTO records({record_columns}) SELECT {record_columns} "
                                  f"FROM {RECORDS_WITH_VECTORS} WHERE id < ?", (end,)).rowcount
            conn.execute(f"INSERT INTO record_vectors(id, vector) SELECT id, vector FROM {RECORDS_WITH_VECTORS} "
                         "WHERE id < ?", (end,))
            conn.execute(f"DELETE FROM {RECORDS_WITH_VECTORS} WHERE id < ?", (end,))
            low = conn.execute(f"SELECT MIN(id) FROM {RECORDS_WITH_VECTORS}").fetchone()[0]
            if low is None:
                conn.execute(f"DROP TABLE {RECORDS_WITH_VECTORS}")
        log.info("memory.sqlite: %s records moved, up to id %s of %s", moved, end - 1, high)
    return moved


def put_ends_in_tags(conn: sqlite3.Connection) -> bool:
    """Drop a tag table without the records' ends (key, value, record_id), and its trigger, so
    the schema makes them anew and the store fills it again from the records ("tags_kept").
    Why: with the end beside each tag, the newest rows of a tag are read in its order, not
    sorted out of every row that ever had it (a year of one speaker's turns)."""
    if not _exists(conn, "record_tags") or "wall_end" in columns(conn, "record_tags"):
        return False
    log.warning("memory.sqlite: the tags are kept again, with each record's end (once)")
    with transaction(conn):  # all or nothing: a dropped table with tags_kept left would never refill
        conn.execute("DROP TRIGGER IF EXISTS records_tags_ai")
        conn.execute("DROP TABLE record_tags")
        conn.execute("DELETE FROM meta WHERE key = 'tags_kept'")
    return True
