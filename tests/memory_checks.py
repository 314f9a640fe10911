"""Checks on a memory's state shared by the memory tests and the process crash test: what
it holds, with and without row ids, and whether its FAISS indexes and SQLite agree."""
from __future__ import annotations

from memory.records import RecordFilter

STORES = ("entity", "event", "behavior")


def snapshot(memory) -> dict[str, list[tuple]]:
    """Every record per store as (id, kind, text): equal only if the very same rows are kept."""
    return {name: [(r.id, r.kind, r.text) for r in memory.store(name).query(RecordFilter())]
            for name in STORES}


def contents(memory) -> dict[str, list[tuple]]:
    """Every record per store without its id: a re-ingest writes new rows (new ids) with
    the same contents, so this is what a re-run must reproduce."""
    return {name: sorted((r.video_id, r.kind, r.text, r.start, r.end, r.wall_start, r.wall_end)
                         for r in memory.store(name).query(RecordFilter()))
            for name in STORES}


def on_disk(mirror) -> tuple[int | None, list[int]]:
    """(the generation its manifest names, every id its segment files hold) of one index folder;
    (None, []) when it has no manifest."""
    from memory.segments import Manifest, read_segment

    manifest = Manifest.read(mirror.path)
    if manifest is None:
        return None, []
    segments = [read_segment(mirror.path, entry) for entry in manifest.segments]
    assert all(s is not None for s in segments), f"{mirror.path.name}: a manifest names a missing segment"
    return manifest.generation, sorted(int(i) for s in segments for i in s.ids())


def indexed_ids(store) -> list[int]:
    """Every id the store's namespace indexes hold."""
    return sorted(int(i) for mirror in store.partitions().values() for i in mirror.index.ids())


def index_matches_sqlite(memory) -> bool:
    return all(indexed_ids(memory.store(name)) == sorted(r[0] for r in rows)
               for name, rows in snapshot(memory).items())


def integrity_ok(memory) -> bool:
    return memory.db.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
