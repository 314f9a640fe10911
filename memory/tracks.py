"""Whole-video tracks kept beside the record stores: what a skill's perception stage made
of a whole video (perception.stages), e.g. the symbolic timeline of a game video or the
source map of a composed one. They are dense (ten frames a
second of shapes) and are read whole by structured operators, so they are JSON rows in the
memory's SQLite file rather than embedded records; forget removes them with the records."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from memory.database import Database
from memory.schema import sql_time

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tracks (
    namespace TEXT NOT NULL, video_id TEXT NOT NULL, kind TEXT NOT NULL,
    wall_start TEXT NOT NULL, wall_end TEXT NOT NULL, payload TEXT NOT NULL,
    PRIMARY KEY (namespace, video_id, kind)
);
"""
TRACK_KIND = re.compile(r"[a-z][a-z0-9_]{0,31}")  # a stage's `track` name


@dataclass(frozen=True)
class StoredTrack:
    namespace: str
    video_id: str
    kind: str
    wall_start: datetime  # the wearer's clock at source second 0
    wall_end: datetime
    payload: dict[str, Any]

    def wall(self, t: float) -> datetime:
        return self.wall_start + timedelta(seconds=t)


class TrackStore:
    def __init__(self, db: Database):
        self.db = db
        with db.lock:
            db.conn.executescript(_SCHEMA)

    def put(self, namespace: str, video_id: str, kind: str, wall_start: datetime, duration: float,
            payload: dict[str, Any]) -> None:
        if not TRACK_KIND.fullmatch(kind):
            raise ValueError(f"a track kind is a short lower-case name, not {kind!r}")
        end = wall_start + timedelta(seconds=duration)
        with self.db.writing():
            self.db.conn.execute(
                "INSERT OR REPLACE INTO tracks VALUES (?, ?, ?, ?, ?, ?)",
                (namespace, video_id, kind, sql_time(wall_start), sql_time(end), json.dumps(payload)))

    def get(self, namespace: str, kind: str, before: datetime | None = None) -> list[StoredTrack]:
        """Tracks of this kind that started before `before` (the question time), oldest first.
        A track is read whole: operators cut it at `before` themselves."""
        sql = "SELECT * FROM tracks WHERE namespace=? AND kind=?"
        args: list[Any] = [namespace, kind]
        if before is not None:
            sql += " AND wall_start < ?"
            args.append(sql_time(before))
        rows = self.db.read(sql + " ORDER BY wall_start", args)
        return [StoredTrack(r["namespace"], r["video_id"], r["kind"], datetime.fromisoformat(r["wall_start"]),
                            datetime.fromisoformat(r["wall_end"]), json.loads(r["payload"])) for r in rows]

    def delete(self, namespace: str, video_id: str | None = None,
               between: tuple[datetime, datetime] | None = None) -> int:
        """Delete whole tracks of a video and/or overlapping a wall-clock range (a track is
        one unit: forgetting part of a synthetic clip forgets its timeline)."""
        sql, args = "DELETE FROM tracks WHERE namespace=?", [namespace]
        if video_id is not None:
            sql += " AND video_id=?"
            args.append(video_id)
        if between is not None:
            sql += " AND wall_start < ? AND wall_end >= ?"
            args += [sql_time(between[1]), sql_time(between[0])]
        with self.db.writing():
            return self.db.conn.execute(sql, args).rowcount
