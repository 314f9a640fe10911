"""Who is who in one video: its faces as people, the voice each face speaks with, and the
names the footage gives them.

Cues, weakest first: a self-introduction in the voice seen speaking ("I'm Tina Seelig"), a
caption under the face (a lower third), and the user's own naming, which always wins. A
capitalised word alone never names anyone: a name is what spaCy reads as a PERSON, in a
place where names are given.
"""
from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from collections.abc import Mapping

import numpy as np

from memory.conversation import name_speakers
from memory.language import person_names, split_glued
from memory.registry import Known
from memory.scene import FrameText
from perception.types import FaceSighting, VideoObservation

CAPTION_WINDOW = 1.0  # seconds between a face and a caption read under it
LOWER_BAND = 0.55  # a lower third starts below this fraction of the frame height


def faces_of(video: VideoObservation) -> list[FaceSighting]:
    return [f for clip in video.clips for f in clip.faces if f.person]


def video_people(video: VideoObservation) -> dict[str, tuple[np.ndarray, int]]:
    """Each person of the video ("F1") -> (mean face descriptor, number of sightings)."""
    grouped: dict[str, list[tuple[float, ...]]] = defaultdict(list)
    for face in faces_of(video):
        grouped[face.person].append(face.descriptor)  # type: ignore[index]
    return {label: (np.mean(np.asarray(rows), axis=0), len(rows)) for label, rows in grouped.items()}


def voices_to_faces(video: VideoObservation) -> dict[str, str]:
    """Speaker label ("S1") -> the face seen most while that voice speaks (two sightings at
    least); a face goes to the one voice it was seen with most."""
    faces = faces_of(video)
    together: Counter[tuple[str, str]] = Counter()
    for seg in (seg for clip in video.clips for seg in clip.asr if seg.speaker):
        for face in faces:
            if seg.start <= face.frame_time <= seg.end:
                together[(seg.speaker, face.person)] += 1  # type: ignore[index]
    return _one_to_one(together)


def _one_to_one(together: Counter, at_least: int = 2) -> dict:
    """Pairs (a, face) seen together -> each a linked to one face and each face to one a,
    the pairs seen together most first, `at_least` times."""
    links: dict = {}
    taken: set[str] = set()
    for (key, face), n in together.most_common():
        if n >= at_least and key not in links and face not in taken:
            links[key] = face
            taken.add(face)
    return links


def bodies_to_faces(video: VideoObservation) -> dict[int, str]:
    """A detected person (their `instance`) -> the face ("F1") seen on their body most: a
    face whose centre lies in the upper half of the person's box on the same frame, on two
    frames at least. A face goes to the one body it was seen on most (a crowd's boxes
    overlap), so a named face names that body and the body's clothes colour that face."""
    faces_at: dict[float, list[FaceSighting]] = defaultdict(list)
    for face in faces_of(video):
        faces_at[face.frame_time].append(face)
    together: Counter[tuple[int, str]] = Counter()
    for d in (d for clip in video.clips for d in clip.objects if d.label == "person" and d.instance is not None):
        x0, y0, x1, y1 = d.box
        for face in faces_at.get(d.frame_time, []):
            cx, cy = (face.box[0] + face.box[2]) / 2, (face.box[1] + face.box[3]) / 2
            if x0 <= cx <= x1 and y0 <= cy <= (y0 + y1) / 2:
                together[(d.instance, face.person)] += 1  # type: ignore[index]
    return _one_to_one(together)


def _as_name(line: str) -> str | None:
    """The person a caption line names, or None. Captions are often set in capitals and
    letter-spaced, so OCR runs a name together ("TINASEELIG"): such a token is split after
    its first dictionary word, the way names are written (first name, surname)."""
    words = line.split()
    candidates = [line.title()]
    if len(words) == 1 and len(line) >= 6 and line.isalpha():
        first = split_glued(line)[0]
        candidates.append(f"{first} {line[len(first):]}".title())
    for text in candidates:
        for name, at in person_names(text):
            if at == 0 and len(name.split()) >= 2 and len(name) >= len(text) * 0.6:
                return name
    return None


def caption_names(video: VideoObservation, frames: list[FrameText]) -> dict[str, str]:
    """Face ("F1") -> the name in a lower third read under it within `CAPTION_WINDOW`."""
    votes: dict[str, Counter[str]] = defaultdict(Counter)
    for face in faces_of(video):
        height = face.frame_size[1] or 1
        for frame in frames:
            if abs(frame.time - face.frame_time) > CAPTION_WINDOW:
                continue
            for line in frame.lines:
                if line.box[1] >= face.box[3] and line.box[1] >= LOWER_BAND * height and (name := _as_name(line.text)):
                    votes[face.person][name] += 1  # type: ignore[index]
    return {face: counter.most_common(1)[0][0] for face, counter in votes.items()}


def name_people(video: VideoObservation, people: Mapping[str, Known], frames: list[FrameText]) -> dict[str, Known]:
    """The video's people with the names this footage gives them; a user's name is kept."""
    introduced = name_speakers(seg for clip in video.clips for seg in clip.asr)
    by_voice = {face: introduced[voice] for voice, face in voices_to_faces(video).items() if voice in introduced}
    captions = caption_names(video, frames)
    named = {}
    for label, person in people.items():
        if person.named_by == "user":
            named[label] = person
        elif label in captions:
            named[label] = dataclasses.replace(person, name=captions[label], named_by="lower third")
        elif label in by_voice:
            named[label] = dataclasses.replace(person, name=by_voice[label], named_by="introduction")
        else:
            named[label] = person
    return named
