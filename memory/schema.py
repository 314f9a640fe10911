"""The records' tables in memory.sqlite: their DDL, the attrs given indexes of their own, and
how a row and a time are written there.

A file written by an older memlens is first brought up to date by memory.migrations; the
schema script then creates what is missing (`migrate_and_create`).
"""
from __future__ import annotations

import json
import sqlite3
from datetime import datetime

from memory import migrations
from memory.records import MemoryRecord

# attrs that `attrs_in` asks about, kept in `record_tags` (value, or each item of a list)
TAGGED_ATTRS = ("acts", "speaker_name")


def tag_rows(row: str, table: str = "") -> str:
    """SQL for the (key, value, wall_end, id) tags of `row` (a trigger's new / old, or a table's rows)."""
    keys, source = ",".join(f"'{key}'" for key in TAGGED_ATTRS), f"{table}, " if table else ""
    return (f"SELECT e.key, e.value, {row}.wall_end, {row}.id FROM {source}json_each({row}.attrs) e "
            f"WHERE e.key IN ({keys}) AND e.type NOT IN ('array', 'object', 'null') UNION ALL "
            f"SELECT e.key, i.value, {row}.wall_end, {row}.id FROM {source}json_each({row}.attrs) e, json_each(e.value) i "
            f"WHERE e.key IN ({keys}) AND e.type = 'array' AND i.type NOT IN ('array', 'object', 'null')")


RECORDS = """CREATE TABLE IF NOT EXISTS records (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store TEXT NOT NULL, kind TEXT NOT NULL, namespace TEXT NOT NULL, text TEXT NOT NULL,
    video_id TEXT, start REAL NOT NULL, end REAL NOT NULL,
    wall_start TEXT NOT NULL, wall_end TEXT NOT NULL,
    keyframes TEXT NOT NULL, attrs TEXT NOT NULL
)"""
# A record's vector, apart from its row: read only to build an index or re-score candidates,
# so the rows questions read stay a quarter of the pages (and a year's fit in memory).
VECTORS = "CREATE TABLE IF NOT EXISTS record_vectors (id INTEGER PRIMARY KEY, vector BLOB NOT NULL)"
# (id, vector) of the records a WHERE clause on `records` keeps. The vector is a subquery on its
# key, so a query that reads no vector (a count, the ids) never touches record_vectors, and one
# that asks for ids is planned on records alone (a join would be planned on the namespace index).
WITH_VECTORS = "SELECT id, (SELECT vector FROM record_vectors v WHERE v.id = records.id) AS vector FROM records"

SCHEMA = f"""
{RECORDS};
{VECTORS};
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
    INSERT OR IGNORE INTO record_tags(key, value, wall_end, record_id) {tag_rows("new")};
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
COLUMNS = "id, store, kind, namespace, text, video_id, start, end, wall_start, wall_end, keyframes, attrs"
# attrs with an index of their own, by start: a sighting's thing (records_entity_time); a
# place (records_place_time), by kind too, since records of every kind name theirs. Without
# it, "How many times did I go to the gym?" read a year's stays newest first to find the
# gym's (6.3 s, 224 MB read, after a reboot).
INDEXED_ATTRS = ("entity", "place")
KIND_INDEXED_ATTRS = ("place",)


def migrate_and_create(conn: sqlite3.Connection) -> None:
    """Bring a file an older memlens wrote up to date, then create what the schema lacks."""
    migrations.move_vectors_out(conn, RECORDS, VECTORS, COLUMNS)
    migrations.put_ends_in_tags(conn)
    conn.executescript(SCHEMA)


def sql_time(value: datetime) -> str:
    """Fixed-width ISO text, so SQL string comparison orders like time."""
    return value.replace(tzinfo=None).isoformat(timespec="microseconds")


def row_to_record(row: sqlite3.Row) -> MemoryRecord:
    return MemoryRecord(
        id=row["id"], store=row["store"], kind=row["kind"], namespace=row["namespace"],
        text=row["text"], video_id=row["video_id"], start=row["start"], end=row["end"],
        wall_start=datetime.fromisoformat(row["wall_start"]),
        wall_end=datetime.fromisoformat(row["wall_end"]),
        keyframes=json.loads(row["keyframes"]), attrs=json.loads(row["attrs"]),
    )
