"""One namespace's memory as a file: exported whole, checked, and restored into any home.

The archive is a zip holding a manifest (format, version, the namespace, the embedder its
vectors came from, counts, and the sha256 of every other member) and the namespace's rows:
every record with its vector, the people and places with their names, the wearer's enrolled
voice (when there is one), the skills' tracks and the keyframe vectors. Indexes (FAISS, Tantivy) are not in it: they are built from these
rows, as after any write. Import checks everything before it writes anything, then writes in
one transaction: a damaged or foreign archive changes nothing.
"""
from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections import defaultdict
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path

import numpy as np

from memory.records import MemoryRecord
from memory.registry import Known
from memory.schema import COLUMNS, row_to_record

FORMAT = "memlens-memory"
VERSION = 1
_CHUNK = 20_000  # records read or written at a time


class ArchiveError(ValueError):
    """An archive that cannot be restored: damaged, cut short, not ours, or not for this home."""


@dataclass(frozen=True)
class Portable:
    """A report of what an export wrote or an import restored."""
    namespace: str
    path: Path
    counts: dict[str, int]


def export_namespace(memory, namespace: str, path: Path, memlens_version: str = "") -> Portable:
    """Write `namespace` of `memory` (memory.memory.Memory) to the zip at `path`, as one
    commit of it: a write landing meanwhile is wholly in or wholly out."""
    db = memory.db
    members: dict[str, bytes] = {}
    with db.pinned():
        records, vectors = [], []
        for row in db.read(f"SELECT {COLUMNS}, (SELECT vector FROM record_vectors v WHERE v.id = records.id) "
                           "AS vector FROM records WHERE namespace=? ORDER BY id", (namespace,)):
            record = asdict(row_to_record(row))
            del record["id"], record["namespace"]
            records.append(json.dumps(record, default=_iso))
            vectors.append(np.frombuffer(row["vector"], dtype=np.float32))
        people = [asdict(k) for k in memory.people.all(namespace)]
        places = [asdict(k) for k in memory.places.all(namespace)]
        tracks = [dict(r) for r in db.read("SELECT video_id, kind, wall_start, wall_end, payload FROM tracks "
                                           "WHERE namespace=? ORDER BY video_id, kind", (namespace,))]
        frame_rows = db.read("SELECT model_id, video_id, t, wall, vector FROM frames WHERE namespace=? ORDER BY id",
                             (namespace,))
    dim = int(vectors[0].shape[0]) if vectors else int(memory.embedder.dim or 0)
    members["records.jsonl"] = "\n".join(records).encode()
    members["vectors.npy"] = _npy(np.stack(vectors) if vectors else np.zeros((0, dim), np.float32))
    members["people.json"] = json.dumps(people).encode()
    members["places.json"] = json.dumps(places).encode()
    members["tracks.jsonl"] = "\n".join(json.dumps(t) for t in tracks).encode()
    if (wearer := memory.wearer.enrolled(namespace)) is not None:  # the wearer's enrolled voice (memory.wearer)
        members["wearer.json"] = json.dumps([float(v) for v in wearer]).encode()
    members["frames.jsonl"] = "\n".join(json.dumps({k: r[k] for k in ("model_id", "video_id", "t", "wall")})
                                        for r in frame_rows).encode()
    members["frames.npy"] = _npy(np.stack([np.frombuffer(r["vector"], dtype=np.float32) for r in frame_rows])
                                 if frame_rows else np.zeros((0, 0), np.float32))
    counts = {"records": len(records), "people": len(people), "places": len(places), "tracks": len(tracks),
              "frames": len(frame_rows)}
    manifest = {"format": FORMAT, "version": VERSION, "namespace": namespace, "exported_at": _iso(datetime.now()),
                "memlens": memlens_version, "embedder": {"model_id": memory.embedder.model_id, "dim": dim},
                "counts": counts, "sha256": {name: hashlib.sha256(data).hexdigest() for name, data in members.items()}}
    path = Path(path)
    partial = path.with_name(path.name + ".part")
    with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("manifest.json", json.dumps(manifest, indent=1))
        for name, data in members.items():
            archive.writestr(name, data)
    partial.replace(path)  # a crash mid-way leaves no file that looks finished
    return Portable(namespace, path, counts)


def import_namespace(memory, path: Path, namespace: str | None = None) -> Portable:
    """Restore the archive at `path` into `memory`, as `namespace` (default: the one it was
    exported from), which must hold nothing yet. ArchiveError, with nothing written, for an
    archive that is damaged, cut short, of another format, or made with another embedder."""
    manifest, members = _read_checked(Path(path))
    namespace = namespace or manifest["namespace"]
    embedder = manifest.get("embedder", {})
    if embedder.get("model_id") != memory.embedder.model_id:
        raise ArchiveError(f"{Path(path).name} was exported with the embedder {embedder.get('model_id')!r}; this "
                           f"home uses {memory.embedder.model_id!r}: its vectors would not be comparable")
    if memory.db.read("SELECT 1 FROM records WHERE namespace=? LIMIT 1", (namespace,)):
        raise ArchiveError(f"namespace {namespace!r} already holds memories here: import into another "
                           "(--namespace) or forget it first")
    records = [_record(line, namespace) for line in members["records.jsonl"].decode().splitlines() if line]
    vectors = _array(members["vectors.npy"])
    if len(records) != len(vectors) or len(records) != manifest["counts"]["records"]:
        raise ArchiveError(f"{Path(path).name}: {len(records)} records but {len(vectors)} vectors")
    people = [_known(k) for k in json.loads(members["people.json"])]
    places = [_known(k) for k in json.loads(members["places.json"])]
    tracks = [json.loads(line) for line in members["tracks.jsonl"].decode().splitlines() if line]
    frames = [json.loads(line) for line in members["frames.jsonl"].decode().splitlines() if line]
    frame_vectors = _array(members["frames.npy"])
    with memory.db.batch():  # all of it or, should anything fail, none of it
        by_store: dict[str, list[int]] = defaultdict(list)
        for i, record in enumerate(records):
            by_store[record.store].append(i)
        for store, rows in by_store.items():
            for at in range(0, len(rows), _CHUNK):
                part = rows[at:at + _CHUNK]
                memory.store(store).add([records[i] for i in part], vectors[part])
        memory.people.save(namespace, people)
        memory.places.save(namespace, places)
        if "wearer.json" in members:  # archives from before enrollment have none
            memory.wearer.enroll(namespace, json.loads(members["wearer.json"]))
        for t in tracks:
            start, end = datetime.fromisoformat(t["wall_start"]), datetime.fromisoformat(t["wall_end"])
            memory.tracks.put(namespace, t["video_id"], t["kind"], start, (end - start).total_seconds(),
                              json.loads(t["payload"]))
        grouped: dict[tuple[str, str], list[int]] = defaultdict(list)
        for i, f in enumerate(frames):
            grouped[(f["video_id"], f["model_id"])].append(i)
        for (video_id, model_id), rows in grouped.items():
            memory.frames.add(namespace, video_id, model_id,
                              [(frames[i]["t"], datetime.fromisoformat(frames[i]["wall"])) for i in rows],
                              frame_vectors[rows])
    counts = {"records": len(records), "people": len(people), "places": len(places), "tracks": len(tracks),
              "frames": len(frames)}
    return Portable(namespace, Path(path), counts)


def _read_checked(path: Path) -> tuple[dict, dict[str, bytes]]:
    """The manifest and members, each member's sha256 checked against the manifest's."""
    try:
        with zipfile.ZipFile(path) as archive:
            manifest = json.loads(archive.read("manifest.json"))
            if manifest.get("format") != FORMAT:
                raise ArchiveError(f"{path.name} is not a memlens memory export")
            if manifest.get("version") != VERSION:
                raise ArchiveError(f"{path.name} is export format {manifest.get('version')}; this memlens reads {VERSION}")
            members = {name: archive.read(name) for name in manifest["sha256"]}
    except ArchiveError:
        raise
    except (OSError, zipfile.BadZipFile, KeyError, ValueError, EOFError) as exc:  # cut short, damaged, not a zip
        raise ArchiveError(f"{path.name} cannot be read as a memlens export: {exc}") from exc
    for name, expected in manifest["sha256"].items():
        if hashlib.sha256(members[name]).hexdigest() != expected:
            raise ArchiveError(f"{path.name}: {name} is damaged (its sha256 differs from the manifest's)")
    return manifest, members


def _record(line: str, namespace: str) -> MemoryRecord:
    data = json.loads(line)
    data["wall_start"], data["wall_end"] = (datetime.fromisoformat(data[k]) for k in ("wall_start", "wall_end"))
    return MemoryRecord(namespace=namespace, **data)


def _known(data: dict) -> Known:
    """A registry entry as exported (JSON keeps its descriptor as a list)."""
    return Known(**{**data, "descriptor": tuple(data["descriptor"])})


def _npy(array: np.ndarray) -> bytes:
    out = io.BytesIO()
    np.save(out, np.ascontiguousarray(array, dtype=np.float32), allow_pickle=False)
    return out.getvalue()


def _array(data: bytes) -> np.ndarray:
    try:
        return np.load(io.BytesIO(data), allow_pickle=False)
    except ValueError as exc:
        raise ArchiveError(f"an array in the archive cannot be read: {exc}") from exc


def _iso(value):
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON")
