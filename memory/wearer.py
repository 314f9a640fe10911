"""The wearer's own voice. Glasses hear their wearer in every recording but never see their
face, so no face and no introduction says which voice is theirs: the user enrolls it once
from a recording of themselves speaking (`memlens wearer enroll FILE`), and in every
recording the voice closest to it, at least SAME_VOICE alike, is the wearer's ("me").

Each recording's voice prints (perception.speakers.voice_prints) are kept as a whole-video
track (memory.tracks, kind VOICES_TRACK), so an enrollment made after a day was remembered
re-labels that day too; forgetting the recording forgets its prints.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import numpy as np

from memory.database import Database
from perception.speakers import SAME_VOICE_TURNS

VOICES_TRACK = "voices"
# GE2E cosine between the enrolled voice and a recording's voice: one voice's turns are
# 0.78-0.84 alike across a talk, two voices of a call 0.72 (perception.speakers)
SAME_VOICE = SAME_VOICE_TURNS


class WearerVoices:
    """One enrolled voice print per namespace, in memory's SQLite file."""

    def __init__(self, db: Database):
        self.db = db
        with db.lock:
            db.conn.executescript("CREATE TABLE IF NOT EXISTS wearer_voice "
                                  "(namespace TEXT PRIMARY KEY, print TEXT NOT NULL);")

    def enrolled(self, namespace: str) -> np.ndarray | None:
        rows = self.db.read("SELECT print FROM wearer_voice WHERE namespace=?", (namespace,))
        return np.asarray(json.loads(rows[0]["print"]), dtype=np.float32) if rows else None

    def enroll(self, namespace: str, voice: Sequence[float]) -> None:
        with self.db.writing():
            self.db.conn.execute("INSERT INTO wearer_voice VALUES (?, ?) ON CONFLICT (namespace) "
                                 "DO UPDATE SET print=excluded.print", (namespace, json.dumps([float(v) for v in voice])))

    def forget(self, namespace: str) -> None:
        with self.db.writing():
            self.db.conn.execute("DELETE FROM wearer_voice WHERE namespace=?", (namespace,))


def wearer_label(voices: Mapping[str, Sequence[float]], enrolled: np.ndarray | None,
                 same: float = SAME_VOICE) -> str | None:
    """The speaker label ("S2") whose voice print is the enrolled voice's: the most alike,
    at least `same`; None without an enrollment or a voice that close."""
    if enrolled is None or not voices:
        return None
    unit = enrolled / max(float(np.linalg.norm(enrolled)), 1e-9)
    alike = {label: float(np.dot(unit, np.asarray(v) / max(float(np.linalg.norm(v)), 1e-9)))
             for label, v in voices.items()}
    best = max(alike, key=alike.__getitem__)
    return best if alike[best] >= same else None
