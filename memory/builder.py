"""Turns one VideoObservation into memory records (a pure function: no store access).

Building everything before touching a store means a failure while building leaves
memory exactly as it was.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from memory.captions import ClipCaptioner, ClipFacts, ComposedCaptioner, Summarizer, roll_up
from memory.config import MemoryConfig
from memory.conversation import name_speakers, turn_acts
from memory.frames import ClipTextEncoder, video_frames
from memory.holding import held
from memory.kinds import Kinds
from memory.language import normalise, split_glued
from memory.recordings import recording_record
from memory.records import (
    CLIP_CAPTION,
    ENTITY_SIGHTING,
    HOUR_SUMMARY,
    PLACE_VISIT,
    STAY,
    TEXT_SIGHTING,
    UTTERANCE,
    WEARER,
    MemoryRecord,
)
from memory.registry import Known
from memory.scene import FrameText, PlaceTimeline, SceneReader, StayPlace
from memory.second_opinion import verdict
from memory.who import bodies_to_faces, faces_of, voices_to_faces
from memory.zero_shot import ZeroShot
from perception.clips import clip_index_at
from perception.objects import COCO_LABELS
from perception.types import ClipSpan, ObjectDetection, VideoObservation


@dataclass
class _Episode:
    """Consecutive keyframes showing the same thing in the same place."""

    key: str
    label: str
    place: str | None
    times: list[float]
    confidence: float
    block: list[str]


def _episodes(items, gap: float) -> list[_Episode]:
    """Merge (key, label, place, time, confidence, block) sightings closer than `gap`."""
    open_by_key: dict[tuple, _Episode] = {}
    done: list[_Episode] = []
    for key, label, place, t, conf, block in sorted(items, key=lambda x: x[3]):
        ep = open_by_key.get((key, place))
        if ep is not None and t - ep.times[-1] <= gap:
            ep.times.append(t)
            ep.confidence = max(ep.confidence, conf)
            continue
        if ep is not None:
            done.append(ep)
        open_by_key[(key, place)] = _Episode(key, label, place, [t], conf, block)
    return sorted(done + list(open_by_key.values()), key=lambda e: e.times[0])


def _thinned(times: list[float], step: float) -> list[float]:
    """The first and last time and those at least `step` apart between: a thing in view for
    an hour keeps a keyframe every few seconds, not every sampled frame."""
    kept = times[:1]
    for t in times[1:-1]:
        if t - kept[-1] >= step:
            kept.append(t)
    return kept + times[-1:] if len(times) > 1 else kept


def _held_attrs(holding, times: list[float]) -> dict:
    """`held_by`: who held the thing during this stay (memory.holding); `picked_up`: it was
    seen before it was held, so it was taken in hand in view."""
    if holding is None or not times or holding.since > times[-1]:
        return {}
    return {"held_by": holding.by, "picked_up": holding.since > times[0]}


def spelled_out(line: str, longest: int = 6) -> str | None:
    """The line with words OCR ran together split apart ("NEWYORKNEWYORK" -> "NEW YORK NEW
    YORK"), so it is found by its words; None when no token of `longest`+ characters splits."""
    parts = [split_glued(token) if len(token) >= longest else [token] for token in line.split()]
    if all(len(p) <= 1 for p in parts):
        return None
    return " ".join(piece for p in parts for piece in p)


class RecordBuilder:
    def __init__(self, config: MemoryConfig, captioner: ClipCaptioner | None = None,
                 summarize: Summarizer | None = None, kinds: Kinds | None = None,
                 clip_text: ClipTextEncoder | None = None):
        """`kinds`: WordNet, for telling a printed label from other text and weighing a
        classifier's names against the detector's; `clip_text`: the text side of the CLIP
        model that embeds keyframes, for zero-shot object tags and place kinds (without it
        keyframe vectors are only stored)."""
        self.config = config
        self.kinds = kinds
        self.scene = SceneReader(config, kinds)
        self.captioner = captioner or ComposedCaptioner()
        self.summarize = summarize
        self.zero_shot = ZeroShot(clip_text, config.clip_prompt) if clip_text is not None else None

    def zero_shot_for(self, video: VideoObservation) -> ZeroShot | None:
        """Zero-shot labelling for this video's keyframes: only when they were embedded by
        the model whose text side memory holds (other models' vectors live in other spaces)."""
        if self.zero_shot is None or video.clip_model != self.zero_shot.model_id:
            return None
        return self.zero_shot if any(c.clip_embeddings for c in video.clips) else None

    def build(self, video: VideoObservation, namespace: str, people: Mapping[str, Known] | None = None,
              stays: Sequence[StayPlace] = (), frames: list[FrameText] | None = None,
              wearer: str | None = None) -> list[MemoryRecord]:
        """`people`: the video's faces ("F1") as the namespace's people (memory.people), so
        sightings and the voices they speak with carry who they are; `stays`: where its views
        say the wearer was (memory.where), for the times no sign says it; `frames`: the
        video's `scene.frames`, when the caller already has them; `wearer`: the speaker label
        that is the wearer's enrolled voice (memory.wearer), whose turns are "me"'s."""
        if not video.clips:
            raise ValueError(f"video {video.video_id} has no clips: nothing can be placed on the clock")
        people = people or {}
        frames = self.scene.frames(video) if frames is None else frames
        places = PlaceTimeline(frames, self.config.place_persistence, stays)
        speaker_names = name_speakers(seg for clip in video.clips for seg in clip.asr)
        voice_people = {voice: people[face] for voice, face in voices_to_faces(video).items() if face in people}
        for voice, person in voice_people.items():  # the face seen speaking names the voice
            if person.name and (person.named_by == "user" or voice not in speaker_names):
                speaker_names[voice] = person.name
        if wearer is not None:  # the enrolled voice: the glasses' owner, never a face in view
            speaker_names[wearer] = WEARER
            voice_people.pop(wearer, None)
        spans = [c.span for c in video.clips]
        by_index = {span.index: span for span in spans}

        def span_of(t: float) -> ClipSpan:
            return by_index[clip_index_at(spans, t)]

        def record(store, kind, text, start, end, keyframes=(), **attrs) -> MemoryRecord:
            span = span_of(start)
            attrs.setdefault("place_id", places.place_id_at(start))  # naming that place re-writes this
            return MemoryRecord(
                store=store, kind=kind, namespace=namespace, text=text, video_id=video.video_id,
                start=start, end=end, wall_start=span.wall(start), wall_end=span.wall(end),
                keyframes=list(keyframes), attrs=attrs,
            )

        records: list[MemoryRecord] = []
        records += self._sightings(frames, places, record)
        bodies = {body: people[face] for body, face in bodies_to_faces(video).items() if face in people}
        records += self._detected(video, places, record, bodies)
        records += self._clip_tagged(video, places, record)
        records += self._faces(video, people, places, record, bodies)
        records += self._texts(frames, places, record)
        records += [  # a stay at a place nothing named yet is kept apart, for the user to name
            record("event", PLACE_VISIT, f"Was in the {place}", t0, t1, keyframes=[t0, t1], place=place, place_id=place_id)
            if place else record("event", STAY, f"Was at place {place_id}", t0, t1, keyframes=[t0, t1],
                                 place=None, place_id=place_id)
            for place, t0, t1, place_id in places.visits()
        ]
        segments = [seg for clip in video.clips for seg in clip.asr]
        for seg, acts in zip(segments, turn_acts(segments)):
            voice = seg.speaker or ""
            name = speaker_names.get(voice) or (voice_people[voice].label if voice in voice_people else voice or "someone")
            records.append(record(
                "event", UTTERANCE, f"{name}: {seg.text.strip()}", seg.start, seg.end,
                speaker=seg.speaker, speaker_name=name if seg.speaker in speaker_names else None,
                said=seg.text.strip(), acts=acts, confidence=seg.confidence,
                **({"is_wearer": True} if wearer is not None and seg.speaker == wearer else {}),
                place=places.at(seg.start), person_id=voice_people[seg.speaker].id if seg.speaker in voice_people else None,
            ))
        records_in: dict[int, list[MemoryRecord]] = defaultdict(list)  # grouped once, not rescanned per clip
        for r in records:
            if r.kind != PLACE_VISIT:
                records_in[clip_index_at(spans, r.start)].append(r)
        places_in: dict[int, list[str]] = defaultdict(list)
        for f in frames:
            if (place := places.at(f.time)) is not None:
                places_in[clip_index_at(spans, f.time)].append(place)
        clips = [self._clip_caption(clip, records_in[clip.span.index], places_in[clip.span.index], record)
                 for clip in video.clips]
        records += clips
        records += roll_up(clips, self.summarize, granularities=(HOUR_SUMMARY,))
        has_pictures = any(c.keyframe_times for c in video.clips)
        if (recording := recording_record(records, video.wall_start, video.duration, has_pictures,
                                          video.path, video.still)) is not None:
            records.append(recording)
        return records

    def _sightings(self, frames: list[FrameText], places: PlaceTimeline, record) -> list[MemoryRecord]:
        # The episode key keeps the state, so a pan seen dirty then clean is two sightings.
        items = [
            (normalise(line.text), line.text.strip(), places.at(f.time), f.time, line.confidence, [])
            for f in frames for line in self.scene.object_lines(f)
        ]
        out = []
        for ep in _episodes(items, self.config.sighting_gap):
            entity, state = self.scene.split_state(ep.key)
            label = re.sub(rf"[\s(\[:-]*{state}\W*$", "", ep.label, flags=re.I) if state else ep.label
            label = label.strip() or entity
            where = f" in the {ep.place}" if ep.place else ""
            condition = f" ({state})" if state else ""
            out.append(record(
                "entity", ENTITY_SIGHTING, f"{label}{condition} seen{where}", ep.times[0], ep.times[-1],
                keyframes=ep.times, entity=entity, label=label, place=ep.place, state=state,
                source="label", confidence=round(ep.confidence, 4),
            ))
        return out

    def _detected(self, video: VideoObservation, places: PlaceTimeline, record,
                  bodies: Mapping[int, Known] = {}) -> list[MemoryRecord]:
        """Things the detector followed: one sighting per instance and stay (episode), named
        by its class and colour; the instance id lets "how many" count things, not frames.
        A person whose face is known (`bodies`, memory.who.bodies_to_faces) is named by it."""
        things: dict[str, list[ObjectDetection]] = defaultdict(list)
        people_at: dict[float, list[ObjectDetection]] = defaultdict(list)
        for clip in video.clips:
            for d in clip.objects:
                if d.instance is not None:
                    things[f"{d.label}#{d.instance}"].append(d)
                if d.label == "person":
                    people_at[d.frame_time].append(d)
        # a classifier's second opinion, weighed over all of a thing's frames (memory.second_opinion)
        verdicts = {key: verdict(seen[0].label, seen, self.kinds) for key, seen in things.items()}
        in_hand = {key: held(seen, people_at) for key, seen in things.items()}  # memory.holding
        items = [(key, verdicts[key].label, places.at(d.frame_time), d.frame_time, d.confidence, [d.colour])
                 for key, seen in things.items() for d in seen]
        out = []
        for ep in _episodes(items, self.config.sighting_gap):
            colours = [c for c in ep.block if c]  # the first detection's colour stands for the stay
            colour = colours[0] if colours else None
            said = verdicts[ep.key]
            named = (f"person in {colour}" if ep.label == "person" else f"{colour} {said.name}") if colour else said.name
            body = bodies.get(int(ep.key.rsplit("#", 1)[1])) if ep.label == "person" else None
            if body is not None:  # "Tina Seelig in red": the face seen on this body names it
                named = f"{body.label} in {colour}" if colour else body.label
            where = f" in the {ep.place}" if ep.place else ""
            out.append(record(
                "entity", ENTITY_SIGHTING, f"{named} seen{where}", ep.times[0], ep.times[-1],
                keyframes=_thinned(ep.times, self.config.sighting_keyframe_step), entity=ep.label, label=ep.label,
                place=ep.place, state=None, colour=colour, name=named, instance=f"{video.video_id}:{ep.key}",
                source=said.by, fine=said.fine, confidence=round(ep.confidence, 4),
                **_held_attrs(in_hand[ep.key], ep.times), **({"person_id": body.id} if body is not None else {}),
            ))
        return out

    def _clip_tagged(self, video: VideoObservation, places: PlaceTimeline, record) -> list[MemoryRecord]:
        """Things CLIP sees on keyframes, zero-shot over the detector's label set and
        `clip_tags`: one sighting per label and stay, like the detector's, without an
        instance (CLIP says what is in view, not how many)."""
        zero_shot = self.zero_shot_for(video)
        if zero_shot is None:
            return []
        when, vectors = video_frames(video)
        tags = zero_shot.frame_tags(vectors, [*COCO_LABELS, *self.config.clip_tags],
                                    self.config.clip_tag_threshold, self.config.clip_tag_top)
        items = [(label, label, places.at(t), t, p, []) for (t, _), found in zip(when, tags) for label, p in found]
        out = []
        for ep in _episodes(items, self.config.sighting_gap):
            where = f" in the {ep.place}" if ep.place else ""
            out.append(record(
                "entity", ENTITY_SIGHTING, f"{ep.label} seen{where}", ep.times[0], ep.times[-1],
                keyframes=ep.times, entity=normalise(ep.label), label=ep.label, name=ep.label, place=ep.place,
                state=None, source="clip", confidence=round(ep.confidence, 4),
            ))
        return out

    def _faces(self, video: VideoObservation, people: Mapping[str, Known], places: PlaceTimeline,
               record, bodies: Mapping[int, Known] = {}) -> list[MemoryRecord]:
        """One sighting per person and stay, by name when they have one, with the colour of
        the clothes on the body the face was seen on (`bodies`) during that stay."""
        worn: dict[int, list[tuple[float, str]]] = defaultdict(list)  # person id -> (time, colour)
        for d in (d for clip in video.clips for d in clip.objects if d.label == "person" and d.colour):
            if d.instance in bodies:
                worn[bodies[d.instance].id].append((d.frame_time, d.colour))
        items = [(face.person, face.person, places.at(face.frame_time), face.frame_time, face.score, [])
                 for face in faces_of(video) if face.person in people]
        out = []
        for ep in _episodes(items, self.config.sighting_gap):
            person = people[ep.key]
            where = f" in the {ep.place}" if ep.place else ""
            colours = Counter(c for t, c in worn[person.id] if ep.times[0] <= t <= ep.times[-1])
            colour = colours.most_common(1)[0][0] if colours else None
            out.append(record(
                "entity", ENTITY_SIGHTING, f"{person.label}{f' in {colour}' if colour else ''} seen{where}",
                ep.times[0], ep.times[-1],
                keyframes=_thinned(ep.times, self.config.sighting_keyframe_step), entity=normalise(person.label),
                label=person.label, name=person.name, place=ep.place, state=None, person_id=person.id,
                colour=colour, source="face", confidence=round(ep.confidence, 4),
            ))
        return out

    def _texts(self, frames: list[FrameText], places: PlaceTimeline, record) -> list[MemoryRecord]:
        items = [
            (normalise(line.text), line.text.strip(), places.at(f.time), f.time, line.confidence, f.block_of(i))
            for f in frames for i, line in enumerate(f.lines)
        ]
        out = []
        for ep in _episodes(items, self.config.sighting_gap):
            words = spelled_out(ep.label)
            out.append(record(
                "event", TEXT_SIGHTING, f'Read "{ep.label}"' + (f" ({words})" if words else "")
                + (f" in the {ep.place}" if ep.place else ""),
                ep.times[0], ep.times[-1], keyframes=ep.times, line=ep.label, block=ep.block,
                place=ep.place, confidence=round(ep.confidence, 4),
            ))
        return out

    def _clip_caption(self, clip, inside: list[MemoryRecord], seen_places: list[str], record) -> MemoryRecord:
        span = clip.span
        clip_places = list(dict.fromkeys(seen_places))
        facts = ClipFacts(
            places=clip_places,
            objects=list(dict.fromkeys(r.attrs.get("name") or r.attrs["label"] for r in inside
                                       if r.kind == ENTITY_SIGHTING and r.attrs.get("source") != "face")),
            people=list(dict.fromkeys(r.attrs["label"] for r in inside
                                      if r.kind == ENTITY_SIGHTING and r.attrs.get("source") == "face")),
            texts=list(dict.fromkeys(r.attrs["line"] for r in inside if r.kind == TEXT_SIGHTING)),
            lines=[f'{r.text.split(":", 1)[0]} said "{r.attrs["said"]}"' for r in inside if r.kind == UTTERANCE],
            description=clip.description,
        )
        text = self.captioner.caption(clip, facts)
        described = {"description": clip.description} if clip.description else {}
        return record("event", CLIP_CAPTION, text, span.start, span.end,
                      keyframes=clip.keyframe_times, places=clip_places, clip_index=span.index, **described)
