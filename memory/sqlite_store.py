"""A record store's rows in the shared database: adding, reading, counting, grouping and
deleting them, and the per-namespace vector and word indexes its rankings search.

The rankings (memory.dense_ranking, memory.lexical_ranking) and the first-seen lists
(memory.first_seen) extend it; memory.sqlite_faiss puts them together as SqliteFaissStore.
"""
from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import numpy as np

from memory.database import Database
from memory.filter_sql import by_indexed_attr, keeps_nearly_all, where_clause
from memory.mirrored_index import MirroredIndex
from memory.mirrors import Mirror
from memory.page_cache import read_through
from memory.records import MemoryRecord, RecordFilter, StoreName, Tally, cut_at
from memory.schema import COLUMNS, TAGGED_ATTRS, WITH_VECTORS, row_to_record, sql_time
from memory.word_index import MirroredWordIndex, WordRow


class SqliteStore:
    """A store over a shared MemoryDatabase; ids are SQLite rowids and FAISS ids.

    Vectors are indexed per namespace (a folder of FAISS segments each), so a user's search
    never scans other users' vectors and an ingest appends a segment to its own user's."""

    def __init__(self, db: Database, name: StoreName):
        self.db = db
        self.name = name
        self._partitions: dict[str, MirroredIndex] = {}
        self._word_partitions: dict[str, MirroredWordIndex] = {}
        self._partitions_lock = threading.Lock()  # not the writer's: a question must not wait for a batch
        for legacy in (db.root / f"{name}.faiss", db.root / f"{name}.faiss.generation"):
            legacy.unlink(missing_ok=True)  # one index for every namespace, before partitions

    def partition(self, namespace: str) -> MirroredIndex:
        """The vector index of one namespace's records, current as of the caller's commit.
        Created before a batch writes that namespace's first rows, so it takes them."""
        return self._mirror_of(self._partitions, namespace, lambda path: self.db.mirror(
            Path(f"{path}.faiss"), f"{WITH_VECTORS} WHERE store=? AND namespace=?",
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
        return where_clause(self.name, flt, alias, self.db.longest(self.name, flt.kinds))

    def rebuild_index(self) -> None:
        for mirror in self.partitions().values():
            mirror.rebuild()

    # -- rows: RecordStore's `query` and `shown`, and the store's own writes and aggregates --
    def add(self, records: Sequence[MemoryRecord], vectors: np.ndarray | None = None) -> list[int]:
        """Persist records; returns their stable ids in order. `vectors` are their text
        embeddings when already computed (outside a write transaction, so it stays short)."""
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
                for record in records:
                    cursor = self.db.conn.execute(
                        f"INSERT INTO records({COLUMNS[4:]}) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                        (record.store, record.kind, record.namespace, record.text, record.video_id,
                         record.start, record.end, sql_time(record.wall_start), sql_time(record.wall_end),
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
        where, params = self._sql(flt)
        order = "wall_start DESC, id DESC" if newest_first else "wall_start, id"
        if limit is not None and newest_first and limit > 0:
            floor = self._newest_start_floor(flt, where, params, int(limit))
            if floor is not None and (flt.not_before is None or floor > sql_time(flt.not_before)):
                where, params = self._sql(replace(flt, not_before=datetime.fromisoformat(floor)))
        sql = f"SELECT {COLUMNS} FROM records WHERE {where} ORDER BY {order}"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [cut_at(row_to_record(r), flt.before) for r in self.db.read(sql, params)]

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
        elif flt.namespace is None or by_indexed_attr(flt):
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

    def tally(self, keys: Sequence[str], flt: RecordFilter, by_hour: bool = False, earliest: Sequence[str] = (),
              newest: int = 20) -> list[Tally]:
        """The records matching `flt` grouped by the attrs `keys` (and the hour of day of
        their start with `by_hour`), one Tally per group; records lacking a key (or holding
        an empty one) are left out. Aggregated where the records are, so a regularity over a
        year of memory costs no more memory than its groups."""
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
        stamp = len(sql_time(datetime(2000, 1, 1))) + 20  # the wall_start and id before the earliest's values
        return [Tally(tuple(row[f"k{i}"] for i in range(len(columns))), int(row["n"]),
                      tuple(sorted(set(row["days"].split(",")))), datetime.fromisoformat(row["first"]),
                      datetime.fromisoformat(row["last"]), tuple(json.loads(row["earliest"][stamp:])),
                      tuple(sorted(int(i) for i in row["ids"].split(","))[-newest:] if newest else ()))
                for row in rows]

    def timeline(self, key: str, flt: RecordFilter) -> list[tuple[int, datetime, datetime, object]]:
        """(id, wall_start, wall_end, value of the attr `key`) of the records matching `flt`
        that hold it, in time order: a sequence without reading whole records."""
        where, params = self._sql(flt)
        rows = self.db.read(f"SELECT id, wall_start, wall_end, json_extract(attrs, ?) AS v FROM records "
                            f"WHERE {where} AND v IS NOT NULL ORDER BY wall_start, id", [f"$.{key}", *params])
        return [(int(r["id"]), datetime.fromisoformat(r["wall_start"]), datetime.fromisoformat(r["wall_end"]), r["v"])
                for r in rows]

    def shown(self, ranked: Sequence[tuple[int, float]], flt: RecordFilter) -> list[tuple[MemoryRecord, float]]:
        by_id = {r.id: cut_at(r, flt.before) for r in self.get([i for i, _ in ranked])}
        return [(by_id[i], score) for i, score in ranked if by_id.get(i) is not None]

    def _keeps_every_row(self, flt: RecordFilter) -> bool:
        """Whether `flt` keeps every row of its namespace here: it names nothing but the
        namespace and a question time after the newest of them ended, as a question asked now
        does. A ranking's rows then need no test, which read a row from SQLite for each id
        found (at a year, after a reboot, a third of a search's time)."""
        if flt.namespace is None or not keeps_nearly_all(flt):
            return False
        if flt.before is None:
            return True
        newest = self.db.read("SELECT MAX(wall_end) FROM records WHERE store = ? AND namespace = ?",
                              [self.name, flt.namespace])[0][0]
        return newest is None or newest < sql_time(flt.before)

    def _within(self, flt: RecordFilter, found: list[tuple[int, float]]) -> list[tuple[int, float]]:
        """The ranked (id, score) pairs whose rows `flt` keeps, in their order: the filter
        applied after an index ranked without it."""
        where, params = self._sql(replace(flt, ids=tuple(i for i, _ in found)))
        kept = {r[0] for r in self.db.read(f"SELECT id FROM records WHERE {where}", params)}
        return [(i, s) for i, s in found if i in kept]

    def delete(self, flt: RecordFilter) -> int:
        """Remove matching records and their vectors; returns how many."""
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
