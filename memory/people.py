"""The people a namespace has seen, across videos: one row per person with the mean of
their face descriptors and the name they go by.

Perception groups one video's faces into people ("F1", "F2"); at ingest each of those is
matched to a known person by descriptor (within perception.faces.SAME_FACE) or becomes a
new one, so the same face in Monday's and Tuesday's video is one person. A name comes from
the user (`memlens name person`, the API), which always wins, or is learned from the
footage (a lower third under the face, a self-introduction in the voice seen speaking).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace

import numpy as np

from memory.sqlite_faiss import MemoryDatabase
from perception.faces import SAME_FACE

_SCHEMA = """
CREATE TABLE IF NOT EXISTS people (
    namespace TEXT NOT NULL, id INTEGER NOT NULL, name TEXT, named_by TEXT,
    descriptor TEXT NOT NULL, faces INTEGER NOT NULL,
    PRIMARY KEY (namespace, id)
);
"""


@dataclass(frozen=True)
class Person:
    id: int
    name: str | None  # None until someone names them
    named_by: str | None  # "user" or what in the footage named them ("lower third", "introduction")
    descriptor: tuple[float, ...]  # mean face descriptor
    faces: int  # how many face sightings the mean is over

    @property
    def label(self) -> str:
        """How memory refers to them: their name, else "person <id>"."""
        return self.name or f"person {self.id}"


class PeopleStore:
    def __init__(self, db: MemoryDatabase):
        self.db = db
        with db.lock:
            db.conn.executescript(_SCHEMA)

    def all(self, namespace: str) -> list[Person]:
        rows = self.db.read("SELECT * FROM people WHERE namespace=? ORDER BY id", (namespace,))
        return [Person(r["id"], r["name"], r["named_by"], tuple(json.loads(r["descriptor"])), r["faces"]) for r in rows]

    def match(self, namespace: str, faces: dict[str, tuple[np.ndarray, int]]) -> dict[str, Person]:
        """Each video person ("F1" -> (mean descriptor, sightings)) as a known person or a
        new one (not yet stored: `save` does that inside the ingest's transaction)."""
        known = self.all(namespace)
        next_id = max((p.id for p in known), default=0) + 1
        out: dict[str, Person] = {}
        for label, (mean, count) in sorted(faces.items(), key=lambda kv: -kv[1][1]):
            gaps = [float(np.linalg.norm(np.asarray(p.descriptor) - mean)) for p in known]
            best = int(np.argmin(gaps)) if gaps else -1
            if best >= 0 and gaps[best] <= SAME_FACE:
                person = known[best]
                merged = (np.asarray(person.descriptor) * person.faces + mean * count) / (person.faces + count)
                out[label] = replace(person, descriptor=tuple(float(v) for v in merged), faces=person.faces + count)
            else:
                out[label] = Person(next_id, None, None, tuple(float(v) for v in mean), count)
                next_id += 1
        return out

    def save(self, namespace: str, people: list[Person]) -> None:
        """Upsert; a name the user gave is never replaced by one learned from footage."""
        with self.db.writing():
            for p in people:
                self.db.conn.execute(
                    "INSERT INTO people VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (namespace, id) DO UPDATE SET "
                    "descriptor=excluded.descriptor, faces=excluded.faces, "
                    "name=CASE WHEN people.named_by='user' THEN people.name ELSE COALESCE(excluded.name, people.name) END, "
                    "named_by=CASE WHEN people.named_by='user' THEN 'user' "
                    "ELSE COALESCE(excluded.named_by, people.named_by) END",
                    (namespace, p.id, p.name, p.named_by, json.dumps(list(p.descriptor)), p.faces))

    def find(self, namespace: str, who: str) -> Person:
        """A person by id ("3", "person 3") or by their current name (KeyError if none)."""
        wanted = who.strip().lower()
        for p in self.all(namespace):
            if wanted in (str(p.id), f"person {p.id}", (p.name or "").lower()):
                return p
        raise KeyError(f"no person {who!r} in namespace {namespace!r}")

    def rename(self, namespace: str, who: str, name: str) -> Person:
        """Name a person (see `find`); the user's name is kept over any the footage gives."""
        name = " ".join(name.split())
        if not name:
            raise ValueError("a person's name cannot be empty")
        person = self.find(namespace, who)
        with self.db.writing():
            self.db.conn.execute("UPDATE people SET name=?, named_by='user' WHERE namespace=? AND id=?",
                                 (name, namespace, person.id))
        return replace(person, name=name, named_by="user")

    def prune(self, namespace: str, seen: set[int]) -> int:
        """Forget the people no remembered sighting shows any more (their face descriptor
        goes with the last video they were in)."""
        gone = [p.id for p in self.all(namespace) if p.id not in seen]
        with self.db.writing():
            self.db.conn.executemany("DELETE FROM people WHERE namespace=? AND id=?", [(namespace, i) for i in gone])
        return len(gone)
