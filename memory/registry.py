"""What a namespace knows across videos, one row per known thing: a person (by the mean of
their face descriptors) or a place (by the mean of its views), with the name it goes by.

Perception describes one video's people ("F1") and memory its stays (a run of alike
views); at ingest each is matched to a known entry by descriptor or becomes a new one, so
the same face or room in Monday's and Tuesday's video is one entry. A name comes from the
user (`memlens name person|place`, the API), which always wins, or from the footage (a
lower third under a face, a self-introduction, a sign, the objects seen in a place).
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from memory.database import Database


@dataclass(frozen=True)
class Known:
    noun: str  # "person" or "place": how an unnamed entry is called
    id: int
    name: str | None  # None until someone or something names it
    named_by: str | None  # "user", or what in the footage named it ("lower third", "sign", "objects")
    descriptor: tuple[float, ...]  # the mean descriptor
    count: int  # how many sightings (faces, views) the mean is over

    @property
    def label(self) -> str:
        """How memory refers to it: its name, else "<noun> <id>"."""
        return self.name or f"{self.noun} {self.id}"


class Registry:
    """One table of known entries; `alike(a, b)` says whether two descriptors are the same one."""

    def __init__(self, db: Database, table: str, noun: str, alike: Callable[[np.ndarray, np.ndarray], bool],
                 closeness: Callable[[np.ndarray, np.ndarray], float]):
        self.db, self.table, self.noun, self.alike, self.closeness = db, table, noun, alike, closeness
        with db.lock:
            db.conn.executescript(
                f"CREATE TABLE IF NOT EXISTS {table} (namespace TEXT NOT NULL, id INTEGER NOT NULL, name TEXT, "
                "named_by TEXT, descriptor TEXT NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (namespace, id));")

    def all(self, namespace: str) -> list[Known]:
        rows = self.db.read(f"SELECT * FROM {self.table} WHERE namespace=? ORDER BY id", (namespace,))
        return [Known(self.noun, r["id"], r["name"], r["named_by"], tuple(json.loads(r["descriptor"])), r["count"])
                for r in rows]

    def match(self, namespace: str, found: dict[str, tuple[np.ndarray, int]]) -> dict[str, Known]:
        """Each of this video's entries (key -> (mean descriptor, sightings)) as a known one
        or a new one (not yet stored: `save` does that inside the ingest's transaction)."""
        known = self.all(namespace)
        next_id = max((k.id for k in known), default=0) + 1
        out: dict[str, Known] = {}
        for key, (mean, count) in sorted(found.items(), key=lambda kv: -kv[1][1]):
            scores = [self.closeness(np.asarray(k.descriptor), mean) for k in known]
            best = int(np.argmax(scores)) if scores else -1
            if best >= 0 and self.alike(np.asarray(known[best].descriptor), mean):
                entry = known[best]
                merged = (np.asarray(entry.descriptor) * entry.count + mean * count) / (entry.count + count)
                out[key] = replace(entry, descriptor=tuple(float(v) for v in merged), count=entry.count + count)
            else:
                out[key] = Known(self.noun, next_id, None, None, tuple(float(v) for v in mean), count)
                known.append(out[key])
                next_id += 1
        return out

    def save(self, namespace: str, entries: list[Known]) -> None:
        """Upsert; a name the user gave is never replaced by one learned from footage."""
        with self.db.writing():
            for e in entries:
                self.db.conn.execute(
                    f"INSERT INTO {self.table} VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (namespace, id) DO UPDATE SET "
                    "descriptor=excluded.descriptor, count=excluded.count, "
                    f"name=CASE WHEN {self.table}.named_by='user' THEN {self.table}.name "
                    f"ELSE COALESCE(excluded.name, {self.table}.name) END, "
                    f"named_by=CASE WHEN {self.table}.named_by='user' THEN 'user' "
                    f"ELSE COALESCE(excluded.named_by, {self.table}.named_by) END",
                    (namespace, e.id, e.name, e.named_by, json.dumps(list(e.descriptor)), e.count))

    def find(self, namespace: str, which: str) -> Known:
        """An entry by id ("3", "person 3") or by its current name (KeyError if none)."""
        wanted = which.strip().lower()
        for k in self.all(namespace):
            if wanted in (str(k.id), f"{self.noun} {k.id}", (k.name or "").lower()):
                return k
        raise KeyError(f"no {self.noun} {which!r} in namespace {namespace!r}")

    def rename(self, namespace: str, which: str, name: str) -> Known:
        """Name an entry (see `find`); the user's name is kept over any the footage gives."""
        name = " ".join(name.split())
        if not name:
            raise ValueError(f"a {self.noun}'s name cannot be empty")
        entry = self.find(namespace, which)
        with self.db.writing():
            self.db.conn.execute(f"UPDATE {self.table} SET name=?, named_by='user' WHERE namespace=? AND id=?",
                                 (name, namespace, entry.id))
        return replace(entry, name=name, named_by="user")

    def prune(self, namespace: str, seen: set[int]) -> int:
        """Forget the entries no remembered record shows any more (their descriptor goes
        with the last video they were in)."""
        gone = [k.id for k in self.all(namespace) if k.id not in seen]
        with self.db.writing():
            self.db.conn.executemany(f"DELETE FROM {self.table} WHERE namespace=? AND id=?",
                                     [(namespace, i) for i in gone])
        return len(gone)
