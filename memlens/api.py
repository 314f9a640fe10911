"""The Python front door: `Memlens(home=...)` remembers recordings and answers questions about
them, with evidence. It is the same system `memlens serve` and the CLI run (service.system),
opened on a home folder; models load on first use, not when it is made.

    from memlens import Memlens
    m = Memlens(home="~/memlens-home")
    m.ingest("morning.mp4", start=datetime(2026, 3, 2, 8, 0))
    m.ask("where did I leave my keys?")          # an Answer: shows its evidence in Jupyter
    m.memories(kind="utterance", limit=20)       # what was said, in time order
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from memlens.views import Answer, Moment, Moments


class Memlens:
    """A memory on disk (`home`) and the agent that answers from it.

    `home`: the folder memory lives in (else $MEMLENS_HOME, else the configured default);
    `config`: a TOML file of settings (docs/configuration.md); `namespace`: whose memory, when
    one home holds several wearers. Use it as a context manager, or call `close()`.
    """

    def __init__(self, home: str | Path | None = None, config: str | Path | None = None, namespace: str | None = None):
        from service.config import load_config
        from service.system import MemlensSystem

        env = dict(os.environ)
        if home is not None:
            env["MEMLENS_HOME"] = str(Path(home).expanduser())
        self._system = MemlensSystem(load_config(Path(config) if config else None, env=env))
        self.namespace = namespace or self._system.config.service.default_namespace
        self.home = Path(self._system.config.home)

    def __enter__(self) -> Memlens:
        return self

    def __exit__(self, *_) -> None:
        self.close()

    def close(self) -> None:
        """Close memory's files (what was written is already on disk)."""
        self._system.close()

    def __repr__(self) -> str:
        return f"Memlens(home={str(self.home)!r}, namespace={self.namespace!r})"

    def ingest(self, path: str | Path, start: datetime | None = None, namespace: str | None = None,
               progress: bool = False):
        """Remember a recording (video or audio) or a conversation transcript (LoCoMo JSON, a
        thread, a JSONL chat). `start`: when it began on the wearer's clock (else the file's
        own creation time, else now). Ingesting the same file again replaces what it left.
        Returns the ingest report (a list of them for a transcript of several conversations)."""
        from perception.transcripts import is_transcript

        path = Path(path).expanduser()
        namespace = namespace or self.namespace
        if is_transcript(path):
            return self._system.ingest_transcript(path, namespace, start)
        if not progress:
            return self._system.ingest(path, namespace, start)
        from rich.console import Console

        from service.console import progress_bars

        with progress_bars(Console()) as bars:
            return self._system.ingest(path, namespace, start, progress=bars)

    def ask(self, question: str, at: datetime | None = None, options: Sequence[str] | None = None,
            namespace: str | None = None) -> Answer:
        """Answer from what memory held before `at` (default: now), with the evidence, or
        abstain. `options`: answer choices, for a multiple-choice question."""
        answer = self._system.ask(question, namespace or self.namespace, at, list(options) if options else None)
        paths = self._paths(namespace)
        evidence = Moments([self._moment(e.record, paths, e.source, e.score, e.related) for e in answer.evidence])
        return Answer(answer.question, answer.answer, answer.abstained, answer.confidence, evidence, at,
                      answer.chosen_option, tuple(answer.trace))

    def memories(self, kind: str | None = None, since: datetime | None = None, until: datetime | None = None,
                 video: str | None = None, limit: int = 50, offset: int = 0, namespace: str | None = None) -> Moments:
        """Remembered moments in time order: of one `kind` (utterance, text, sighting, clip,
        recording, visit, day, ...; all event kinds when None), overlapping [since, until), of
        one recording (`video`, its id); a page of `limit` after skipping `offset`."""
        records = self._system.memories(namespace or self.namespace, kind, since, until, video, limit, offset)
        paths = self._paths(namespace)
        return Moments([self._moment(r, paths) for r in records])

    def recordings(self, namespace: str | None = None) -> Moments:
        """Every recording memory holds, in time order: what it was, when, and its file."""
        return self.memories(kind="recording", limit=10_000, namespace=namespace)

    def people(self, namespace: str | None = None) -> list[dict]:
        """The people memory has seen by face: id, name (None until named), sightings."""
        return self._system.known(namespace or self.namespace, "person")

    def places(self, namespace: str | None = None) -> list[dict]:
        """The places memory tells apart by their views: id, name, sightings."""
        return self._system.known(namespace or self.namespace, "place")

    def name(self, which: str | int, name: str, noun: str = "person", namespace: str | None = None) -> dict:
        """Name a person (or, with noun="place", a place): `which` is its id, "person 3" or its
        current name. What memory says of them is re-written; later questions use the name."""
        return self._system.name(namespace or self.namespace, noun, str(which), name)

    def enroll_wearer(self, recording: str | Path, namespace: str | None = None) -> dict:
        """Tell memory which voice is yours: a recording of you speaking (3 s or more). In every
        recording, remembered and to come, your turns become "me"'s, so "what did I say?"
        and "who did I talk to?" know you."""
        return self._system.enroll_wearer(recording, namespace or self.namespace)

    def forget(self, video: str | None = None, since: datetime | None = None, until: datetime | None = None,
               namespace: str | None = None, person: str | None = None) -> int:
        """Forget a recording (its id) or everything in [since, until) (one end left out:
        everything since, or before): records, vectors and cached observations; or a person
        ("person 3" or their name), on their own: their face, sightings and name. Returns how
        many records went (or, for a person, went or changed)."""
        from service.system import open_range

        if video is None and since is None and until is None and person is None:
            raise ValueError("give a video id, since or until, or a person")
        return self._system.forget(namespace or self.namespace, video, open_range(since, until), person)

    def export(self, path: str | Path, namespace: str | None = None):
        """Write this memory to one archive (records, vectors, people, places, with a manifest
        and checksums): a backup, or a memory to take to another home with `restore`."""
        return self._system.export(namespace or self.namespace, path)

    def restore(self, path: str | Path, namespace: str | None = None):
        """Restore an archive `export` wrote, into an empty namespace (default: the one it was
        exported from). A damaged or foreign archive raises and changes nothing."""
        return self._system.restore(path, namespace)

    def _paths(self, namespace: str | None) -> dict[str, str]:
        """Each recording's file, by video id, where memory knows it."""
        from memory.records import RECORDING, RecordFilter

        held = self._system.memory.store("event").query(RecordFilter(namespace=namespace or self.namespace,
                                                                      kinds=(RECORDING,)))
        return {r.video_id: r.attrs["path"] for r in held if r.video_id and r.attrs.get("path")}

    @staticmethod
    def _moment(record, paths: dict[str, str], source: str = "", score: float | None = None,
                related: bool = False) -> Moment:
        return Moment(record.attrs.get("said") or record.text, record.kind, record.wall_start, record.wall_end,
                      record.video_id, record.start, record.end, paths.get(record.video_id or ""),
                      source, record.attrs.get("speaker_name") or record.attrs.get("speaker"),
                      round(score, 4) if score is not None else None, record.id, related)
