"""The distinct combinations of some attrs in the order first seen (`distinct`, `first_of`),
and the lists of them kept per commit, so a question does not group a year of records to
list who spoke or what was seen."""
from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from memory.database import Database
from memory.filter_sql import windowed
from memory.records import SEEN_ON_KEYFRAMES, MemoryRecord, RecordFilter, StoreName, cut_at
from memory.schema import sql_time
from memory.sqlite_store import SqliteStore


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

    def __init__(self, db: Database, store: str):
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


class FirstSeenQueries(SqliteStore):
    """`distinct` and `first_of`, from the first-seen lists kept for this store."""

    def __init__(self, db: Database, name: StoreName):
        super().__init__(db, name)
        self.first_seen_kept = _FirstSeenKept(db, name)

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
        if windowed(flt) or self.db.writing_here:  # a batch's uncommitted rows are not kept
            return self._first_seen(keys, flt)
        key = (tuple(keys), replace(flt, before=None))
        with self.db.pinned():  # the generation, the newest id and the rows from one commit
            generation = self.db.generation()
            cached = self.first_seen_kept.get(key)
            if cached is None or cached.generation != generation:
                cached = self._first_seen_now(key, cached, generation)
                self.first_seen_kept.keep(key, cached)
        cut = sql_time(flt.before) if flt.before is not None else None
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
