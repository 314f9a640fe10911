"""Render a simulated life to video files and keep its log beside them.

A rendered life is a folder: one .mp4 per episode plus `life.json`, the exact log (each
episode's script with real speech spans and its facts). Rendering is deterministic for a
seed, and a folder whose log and videos are complete is reused instead of re-rendered.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict
from datetime import datetime
from pathlib import Path

from eval.life.simulate import Episode, Fact
from eval.synthetic.render import render
from eval.synthetic.script import Script

LOG_NAME = "life.json"
Progress = Callable[[str, int, int], None]


def video_path(folder: Path, episode: Episode) -> Path:
    return Path(folder) / f"{episode.video_id}.mp4"


def record_life(episodes: list[Episode], folder: Path, progress: Progress | None = None) -> list[Episode]:
    """Render every episode (skipping a complete earlier render) and return the timed log."""
    folder = Path(folder)
    cached = load_life(folder)
    if cached is not None and [e.video_id for e in cached] == [e.video_id for e in episodes]:
        return cached
    timed = []
    for n, episode in enumerate(episodes, 1):
        rendered = render(episode.script, folder, stem=episode.video_id)
        rendered.script_path.unlink()  # the life log keeps every script; one file, not hundreds
        timed.append(episode.timed(rendered.script))
        if progress:
            progress("render", n, len(episodes))
    _write_log(timed, folder / LOG_NAME)
    return timed


def _write_log(episodes: list[Episode], path: Path) -> None:
    rows = [{
        "video_id": e.video_id, "person": e.person, "day": e.day, "kind": e.kind,
        "wall_start": e.wall_start.isoformat(), "script": json.loads(e.script.to_json()),
        "facts": [asdict(f) for f in e.facts],
    } for e in episodes]
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(rows))
    tmp.replace(path)  # the log appears only once every video is written


def load_life(folder: Path) -> list[Episode] | None:
    """The timed log of a complete render in `folder`, or None."""
    path = Path(folder) / LOG_NAME
    if not path.exists():
        return None
    episodes = [Episode(
        video_id=r["video_id"], person=r["person"], day=r["day"], kind=r["kind"],
        wall_start=datetime.fromisoformat(r["wall_start"]),
        script=Script.from_json(json.dumps(r["script"])),
        facts=tuple(Fact(**{**f, "info": tuple(tuple(kv) for kv in f["info"])}) for f in r["facts"]),
    ) for r in json.loads(path.read_text())]
    if not all(video_path(folder, e).exists() for e in episodes):
        return None
    return episodes
