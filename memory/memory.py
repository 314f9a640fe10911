"""The memory facade: the three stores, ingest of observations and cascading forget."""
from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta

import numpy as np

from memory.behaviors import aggregate_behaviors, behavior_gist, behavior_key, fold_behaviors
from memory.builder import RecordBuilder
from memory.captions import ClipCaptioner, Summarizer
from memory.config import MemoryConfig
from memory.dialogue_builder import build_dialogue
from memory.embedding import TextEmbedder
from memory.frames import ClipTextEncoder, FrameIndex, video_frames
from memory.kinds import Kinds
from memory.language import normalise
from memory.people import people_registry
from memory.recordings import DAY_SOURCE, day_summaries, remembered
from memory.records import (
    BEHAVIOR,
    DAY_SUMMARY,
    ENTITY_SIGHTING,
    PLACE_VISIT,
    RECORDING,
    STAY,
    STORE_NAMES,
    TEXT_SIGHTING,
    UTTERANCE,
    WEARER,
    MemoryRecord,
    RecordFilter,
    StoreName,
)
from memory.registry import Known
from memory.scene import StayPlace
from memory.sqlite_faiss import MemoryDatabase, SqliteFaissStore
from memory.store import RecordStore
from memory.text_embedders import text_embedder
from memory.tracks import TrackStore
from memory.wearer import VOICES_TRACK, WearerVoices, wearer_label
from memory.where import name_places, places_registry, stay_embeddings, video_stays
from memory.who import name_people, video_people
from perception.transcripts import Dialogue
from perception.types import VideoObservation


@dataclass(frozen=True)
class VideoSummary:
    video_id: str
    wall_start: datetime
    wall_end: datetime
    records: int
    origin: datetime  # the wearer's clock at source second 0, to map wall time to the source


class Memory:
    def __init__(self, config: MemoryConfig, embedder: TextEmbedder | None = None,
                 captioner: ClipCaptioner | None = None, summarize: Summarizer | None = None,
                 clip_text: ClipTextEncoder | None = None):
        """`clip_text`: the text side of the model that embeds keyframes (CLIP), for
        zero-shot place kinds and object tags at ingest; keyframe vectors are kept either way."""
        self.config = config
        self.embedder = embedder or text_embedder(config.embedding_model, config.embedding_device,
                                                   config.embedding_runtime, config.embedding_export_dir)
        self.db = MemoryDatabase(config.root, self.embedder)
        self.kinds = Kinds(config.lexicon_dir)
        self.builder = RecordBuilder(config, captioner=captioner, summarize=summarize, kinds=self.kinds,
                                     clip_text=clip_text)
        self.tracks = TrackStore(self.db)
        self.frames = FrameIndex(self.db)
        self.people = people_registry(self.db)
        self.places = places_registry(self.db)
        self.wearer = WearerVoices(self.db)

    @property
    def stores(self) -> dict[StoreName, SqliteFaissStore]:
        """The stores with their own API (writes, counts, aggregates, indexes), for the memory itself."""
        return self.db.stores

    def store(self, name: StoreName) -> RecordStore:
        """One store as retrieval reads it."""
        return self.db.stores[name]

    def pinned(self) -> AbstractContextManager[None]:
        """Reads inside see one commit, whatever ingest commits meanwhile (one per question)."""
        return self.db.pinned()

    def ingest(self, video: VideoObservation, namespace: str) -> dict[str, int]:
        """Replace whatever this namespace remembered of this video; returns counts per kind."""
        frames = self.builder.scene.frames(video)
        people = name_people(video, self.people.match(namespace, video_people(video)), frames)
        stays = video_stays(video, [frame.time for frame in frames if frame.place])
        when, vectors = video_frames(video)
        clip_kinds = {}
        if (zero_shot := self.builder.zero_shot_for(video)) is not None:
            means = stay_embeddings(stays, {t: v for (t, _), v in zip(when, vectors)})
            clip_kinds = zero_shot.place_kinds(means, list(self.config.place_kinds), self.config.clip_place_threshold)
        places = name_places(stays, self.places.match(namespace, {s.key: (s.descriptor, len(s.times)) for s in stays}),
                             self.config.place_kinds, clip_kinds)
        stay_places = [StayPlace(s.start, s.end, places[s.key].id, places[s.key].name) for s in stays]
        wearer = wearer_label(video.voices, self.wearer.enrolled(namespace))
        # fails before any store is touched
        records = self.builder.build(video, namespace, people, stay_places, frames, wearer)
        tracks = [(kind, video.wall_start, video.duration, track.to_dict()) for kind, track in video.tracks.items()]
        if video.voices:  # kept so that an enrollment made later can find the wearer here too
            tracks.append((VOICES_TRACK, video.wall_start, video.duration, {k: list(v) for k, v in video.voices.items()}))
        frames = (video.clip_model, when, vectors) if video.clip_model and when else None
        return self._replace(namespace, video.video_id, records, tracks, list(people.values()), list(places.values()),
                             frames)

    def ingest_dialogue(self, dialogue: Dialogue, namespace: str) -> dict[str, int]:
        """Replace whatever this namespace remembered of this conversation (a transcript not
        inside a video): its turns become utterances beside the ones heard in video."""
        records = build_dialogue(dialogue, namespace, self.builder.summarize, self.embedder.embed)
        return self._replace(namespace, dialogue.dialogue_id, records)

    def _replace(self, namespace: str, video_id: str, records: list[MemoryRecord],
                 tracks: Sequence[tuple[str, datetime, float, dict]] = (), people: Sequence[Known] = (),
                 places: Sequence[Known] = (), frames: tuple[str, list, np.ndarray] | None = None) -> dict[str, int]:
        """One source's records, tracks and keyframe vectors ((model id, (time, wall time)
        per frame, vectors)), in place of what was remembered of it, atomically."""
        by_store = {name: [r for r in records if r.store == name] for name in STORE_NAMES}
        # embedded before the write transaction, which other writers wait for
        vectors = {name: self.embedder.embed([r.text for r in rs]) for name, rs in by_store.items()}
        days = self._recording_days(RecordFilter(namespace=namespace, video_ids=(video_id,)))
        days |= {r.wall_start.date() for r in records if r.kind == RECORDING}
        summarize = remembered(self.builder.summarize)  # a model summarises each day once, not twice
        summaries = [r.text for fresh, _ in self._day_summaries(namespace, days, video_id, records, summarize)
                     for r in fresh]
        summary_vectors = dict(zip(summaries, self.embedder.embed(summaries))) if summaries else {}
        with self.db.batch():  # the old memories go only when the new ones are all in
            since = self.db.newest_id()
            replaced = self._delete(RecordFilter(namespace=namespace, video_ids=(video_id,)))
            self.tracks.delete(namespace, video_id=video_id)
            self.frames.delete(namespace, video_id=video_id)
            if frames is not None:
                self.frames.add(namespace, video_id, *frames)
            for name, store_records in by_store.items():
                self.stores[name].add(store_records, vectors[name])
            for kind, wall_start, duration, payload in tracks:
                self.tracks.put(namespace, video_id, kind, wall_start, duration, payload)
            self.people.save(namespace, list({p.id: p for p in people}.values()))
            self.places.save(namespace, list({p.id: p for p in places}.values()))
            self.refresh_days(namespace, days, summary_vectors, summarize)
            self.refresh_behaviors(namespace, since=None if replaced else since)
        return dict(Counter(r.kind for r in records))

    def name_person(self, namespace: str, who: str, name: str) -> tuple[Known, int]:
        """The user names a person ("person 3", or their current name): every sighting of
        them and every turn in their voice is re-written and re-embedded under the new name,
        and later footage keeps it. Returns the person and how many records changed."""
        with self.db.batch():
            old = self.people.find(namespace, who).label
            person = self.people.rename(namespace, who, name)
            return person, self._rewrite(namespace, "person_id", person.id, lambda r: _renamed(r, old, person.label))

    def enroll_wearer(self, namespace: str, voice: Sequence[float]) -> int:
        """Take `voice` (a print of the wearer speaking, perception.speakers) as the wearer's:
        in every remembered recording the voice closest to it becomes "me" (memory.wearer),
        and a voice taken for the wearer before that no longer is goes back to its label.
        Returns how many turns changed."""
        with self.db.batch():
            self.wearer.enroll(namespace, voice)
            enrolled = self.wearer.enrolled(namespace)
            theirs = {t.video_id: wearer_label(t.payload, enrolled) for t in self.tracks.get(namespace, VOICES_TRACK)}
            turns = self.store("event").query(RecordFilter(namespace=namespace, kinds=(UTTERANCE,)))
            changed = [r for r in turns if bool(r.attrs.get("is_wearer")) != (
                r.attrs.get("speaker") is not None and r.attrs.get("speaker") == theirs.get(r.video_id))]
            if changed:
                self.stores["event"].delete(RecordFilter(namespace=namespace, ids=tuple(r.id for r in changed)))
                self.stores["event"].add([replace(_as_wearer(r, not r.attrs.get("is_wearer")), id=None)
                                          for r in changed])
            self.refresh_behaviors(namespace)
        return len(changed)

    def name_place(self, namespace: str, which: str, name: str) -> tuple[Known, int]:
        """The user names a place ("place 3", or its current name): every visit to it and
        everything seen or heard there that no sign placed is re-written under the name."""
        with self.db.batch():
            old = self.places.find(namespace, which).name
            place = self.places.rename(namespace, which, name)
            return place, self._rewrite(namespace, "place_id", place.id, lambda r: _placed(r, old, place.label))

    def _rewrite(self, namespace: str, key: str, value: int, change) -> int:
        """Replace (re-embedding) every record whose attrs[key] is value by change(record)."""
        changed = [r for store in ("entity", "event")
                   for r in self.store(store).query(RecordFilter(namespace=namespace, attrs=((key, value),)))]
        for store in ("entity", "event"):
            mine = [r for r in changed if r.store == store]
            if mine:
                self.stores[store].delete(RecordFilter(namespace=namespace, ids=tuple(r.id for r in mine)))
                self.stores[store].add([replace(change(r), id=None) for r in mine])
        return len(changed)

    def forget(self, namespace: str, video_id: str | None = None,
               between: tuple[datetime, datetime] | None = None) -> int:
        """Delete every record of a video and/or overlapping a wall-clock range."""
        if video_id is None and between is None:
            raise ValueError("forget needs a video id, a time range, or both")
        if video_id is not None and not video_id.strip():
            raise ValueError("video id is empty")
        flt = RecordFilter(
            namespace=namespace, video_ids=(video_id,) if video_id is not None else None, overlaps=between
        )
        with self.db.batch():
            days = self._recording_days(flt)
            removed = self._delete(flt)
            removed += self.tracks.delete(namespace, video_id=video_id, between=between)
            self.frames.delete(namespace, video_id=video_id, between=between)  # vectors, not records: not counted
            seen = self.store("entity").query(RecordFilter(namespace=namespace, kinds=(ENTITY_SIGHTING,),
                                                           attrs=(("source", "face"),)))
            self.people.prune(namespace, {r.attrs["person_id"] for r in seen})
            placed = self.store("event").query(RecordFilter(namespace=namespace, kinds=(PLACE_VISIT, STAY)))
            self.places.prune(namespace, {r.attrs["place_id"] for r in placed if r.attrs.get("place_id") is not None})
            self.refresh_days(namespace, days)
            self.refresh_behaviors(namespace)
        self.db.scrub()  # forgotten means gone from the file too
        return removed

    def forget_person(self, namespace: str, who: str) -> tuple[Known, list[str], int]:
        """Forget a person ("person 3" or their name): the face descriptor that recognises
        them, every sighting of their face, and their name wherever memory wrote it. A body
        they were seen in is "a person" again, a turn in their voice is "someone"'s, and a
        caption or summary that named them says "someone": what was said and seen that day
        stays, without who they were. KeyError for a person memory does not know. Returns the
        person, the videos they were seen or named in (whose cached observations must go too:
        a face's descriptor, a caption read with their name) and how many records went or changed.
        Records naming them are found by reading the namespace's records (a forget is rare)."""
        person = self.people.find(namespace, who)
        # as written, and run together as OCR reads a letter-spaced caption ("TINASEELIG")
        names = sorted({v for n in (person.label, person.name) if n for v in (n, n.replace(" ", ""))})
        mine = RecordFilter(namespace=namespace, attrs=(("person_id", person.id),))
        with self.db.batch():
            theirs = [r for store in ("entity", "event") for r in self.store(store).query(mine)]
            faces = [r for r in theirs if r.attrs.get("source") == "face"]
            videos = {r.video_id for r in theirs}
            self.stores["entity"].delete(RecordFilter(namespace=namespace, ids=tuple(r.id for r in faces)))
            changed = len(faces) + self._rewrite(namespace, "person_id", person.id, lambda r: _unnamed(r, names))
            for store in ("entity", "event"):
                naming = [r for r in self.store(store).query(RecordFilter(namespace=namespace))
                          if any(_mentions(r, name) for name in names)]
                if naming:
                    self.stores[store].delete(RecordFilter(namespace=namespace, ids=tuple(r.id for r in naming)))
                    self.stores[store].add([replace(_unnamed(r, names), id=None) for r in naming])
                    changed += len(naming)
                    videos |= {r.video_id for r in naming}
            seen = self.store("entity").query(RecordFilter(namespace=namespace, kinds=(ENTITY_SIGHTING,),
                                                           attrs=(("source", "face"),)))
            self.people.prune(namespace, {r.attrs["person_id"] for r in seen} - {person.id})
            self.refresh_days(namespace, self._recording_days(RecordFilter(namespace=namespace)))
            self.refresh_behaviors(namespace)
        self.db.scrub()
        return person, sorted(v for v in videos if v), changed

    def _delete(self, flt: RecordFilter) -> int:
        return sum(self.stores[name].delete(flt) for name in ("entity", "event"))

    def _recording_days(self, flt: RecordFilter) -> set[date]:
        """The days whose summaries a change to the records `flt` keeps must refresh."""
        return {r.wall_start.date() for r in self.store("event").query(replace(flt, kinds=(RECORDING, DAY_SUMMARY)))}

    def _day_summaries(self, namespace: str, days: set[date], source: str | None = None,
                       new: Sequence[MemoryRecord] = (), summarize: Summarizer | None = None,
                       ) -> list[tuple[list[MemoryRecord], list[MemoryRecord]]]:
        """(to add, to delete) for each day's summaries, over the recordings memory holds, with
        `source`'s replaced by `new` ones (what an ingest is about to write)."""
        event, out = self.stores["event"], []
        for day in sorted(days):
            midnight = datetime.combine(day, datetime.min.time())
            within = RecordFilter(namespace=namespace, overlaps=(midnight, midnight + timedelta(days=1)))
            recordings = [r for r in event.query(replace(within, kinds=(RECORDING,)))
                          if r.wall_start.date() == day and (source is None or r.video_id != source)]
            recordings += [r for r in new if r.kind == RECORDING and r.wall_start.date() == day]
            held = event.query(RecordFilter(namespace=namespace, kinds=(DAY_SUMMARY,),
                                            video_ids=(DAY_SOURCE + day.isoformat(),)))
            out.append(day_summaries(recordings, summarize or self.builder.summarize, held))
        return out

    def refresh_days(self, namespace: str, days: set[date], embedded: Mapping[str, np.ndarray] | None = None,
                     summarize: Summarizer | None = None) -> list[MemoryRecord]:
        """The day-so-far summaries of these days brought up to the recordings memory holds
        (memory.recordings.day_summaries); only those that changed are written (and returned).
        `embedded`: vectors by text, worked out before the write transaction."""
        event, embedded, written = self.stores["event"], embedded or {}, []
        for fresh, stale in self._day_summaries(namespace, days, summarize=summarize):
            if stale:
                event.delete(RecordFilter(namespace=namespace, ids=tuple(r.id for r in stale)))
            if fresh:
                missing = [r.text for r in fresh if r.text not in embedded]
                vectors = dict(zip(missing, self.embedder.embed(missing))) if missing else {}
                event.add(fresh, np.stack([embedded.get(r.text, vectors.get(r.text)) for r in fresh]))
            written += fresh
        return written

    def refresh_behaviors(self, namespace: str, since: int | None = None) -> None:
        """Behaviors brought up to the stores: the records added after id `since` folded in
        when that is all that changed (memory.behaviors), else recomputed. Only those that
        changed are written again (and embedded), so a refresh after a day of video rewrites
        that day's regularities, not every one."""
        behaviors = self.stores["behavior"]
        held = behaviors.query(RecordFilter(namespace=namespace, kinds=(BEHAVIOR,)))
        entity, event = self.stores["entity"], self.stores["event"]
        folded = fold_behaviors(held, entity, event, namespace, since) if since is not None else None
        fresh = {behavior_key(b): b for b in (folded if folded is not None else
                                                aggregate_behaviors(entity, event, namespace))}
        stale = []
        for old in held:
            new = fresh.get(behavior_key(old))
            if new is not None and (new.text, new.attrs, new.wall_start, new.wall_end) == \
                    (old.text, old.attrs, old.wall_start, old.wall_end):
                del fresh[behavior_key(old)]
            else:
                stale.append(old.id)
        if stale:
            behaviors.delete(RecordFilter(namespace=namespace, ids=tuple(stale)))
        written = list(fresh.values())
        behaviors.add(written, self.embedder.embed([behavior_gist(b) for b in written]) if written else None)

    def videos(self, namespace: str) -> list[VideoSummary]:
        by_video: dict[str, list[MemoryRecord]] = {}
        for record in self.store("event").query(RecordFilter(namespace=namespace, kinds=("clip",))):
            by_video.setdefault(record.video_id or "", []).append(record)
        return [
            VideoSummary(vid, min(r.wall_start for r in rs), max(r.wall_end for r in rs), len(rs),
                         origin=rs[0].wall_start - timedelta(seconds=rs[0].start))
            for vid, rs in by_video.items()
        ]

    def load(self, namespace: str) -> None:
        """Read one namespace's indexes in every store now (what its first question would)."""
        for store in self.stores.values():
            store.load(namespace)

    def index_footprint(self, namespace: str) -> tuple[int, float]:
        """(bytes, last written as a POSIX time) of one namespace's vector indexes, over every store."""
        parts = [store.index_footprint(namespace) for store in self.stores.values()]
        return sum(size for size, _ in parts), max(written for _, written in parts)

    def close(self) -> None:
        self.db.close()


def _renamed(record: MemoryRecord, old: str, new: str) -> MemoryRecord:
    """A sighting or turn of a person, under their new name."""
    attrs = dict(record.attrs)
    if record.kind == ENTITY_SIGHTING and attrs.get("source") == "face":
        attrs.update(name=new, label=new, entity=normalise(new))
    elif record.kind == ENTITY_SIGHTING:  # a body their face was seen on: still a person, by their name
        attrs["name"] = f"{new} in {attrs['colour']}" if attrs.get("colour") else new
    if record.kind == UTTERANCE:
        attrs["speaker_name"] = new
    text = new + record.text[len(old):] if record.text.startswith(old) else record.text
    return replace(record, text=text, attrs=attrs)


def _as_wearer(turn: MemoryRecord, wearer: bool) -> MemoryRecord:
    """A turn in the wearer's voice ("me: ..."), or one that is not after all (its voice label)."""
    attrs = {k: v for k, v in turn.attrs.items() if k != "is_wearer"}
    name = WEARER if wearer else attrs.get("speaker") or "someone"
    attrs["speaker_name"] = WEARER if wearer else None
    if wearer:
        attrs["is_wearer"] = True
        attrs.pop("person_id", None)
    return replace(turn, text=f"{name}: {attrs.get('said', turn.text.split(': ', 1)[-1])}", attrs=attrs)


def _naming(name: str) -> re.Pattern:
    """A name as a whole word ("person 3" is not inside "person 33"), in any case."""
    return re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE)


def _mentions(record: MemoryRecord, name: str) -> bool:
    pattern = _naming(name)
    return bool(pattern.search(record.text) or pattern.search(json.dumps(record.attrs, ensure_ascii=False)))


def _unnamed(record: MemoryRecord, names: Sequence[str]) -> MemoryRecord:
    """A record without a forgotten person's name: their sighting is a person's, their turn
    someone's, and a line that named them says "someone" instead."""
    attrs = {k: v for k, v in record.attrs.items() if k != "person_id"}
    text, theirs = record.text, record.attrs.get("person_id") is not None
    if record.kind == ENTITY_SIGHTING and theirs:  # a body their face was on (their face sightings are deleted)
        attrs["name"] = f"person in {attrs['colour']}" if attrs.get("colour") else "person"
        text = attrs["name"] + text[text.find(" seen"):] if " seen" in text else attrs["name"]
    if record.kind == UTTERANCE and theirs:
        attrs["speaker_name"] = None
    blob = json.dumps(attrs, ensure_ascii=False)
    for name in sorted(names, key=len, reverse=True):
        pattern = _naming(name)
        text, blob = pattern.sub("someone", text), pattern.sub("someone", blob)
    return replace(record, text=text, attrs=json.loads(blob))


def _placed(record: MemoryRecord, old: str | None, new: str) -> MemoryRecord:
    """A visit, or a thing seen or heard at a place, under the place's new name."""
    attrs = {**record.attrs, "place": new}
    if record.kind in (PLACE_VISIT, STAY):  # a stay at a place with a name is a visit
        return replace(record, kind=PLACE_VISIT, text=f"Was in the {new}", attrs=attrs)
    if old and f" in the {old}" in record.text:
        text = record.text.replace(f" in the {old}", f" in the {new}")
    elif record.kind in (ENTITY_SIGHTING, TEXT_SIGHTING):
        text = f"{record.text} in the {new}"
    else:
        text = record.text
    return replace(record, text=text, attrs=attrs)
