"""Where the wearer was when no sign says so: one video's keyframes grouped into stays (runs
of alike views, perception.views), each a place of the namespace (memory.registry), typed by
the things the detector saw there (or, failing those, by what CLIP sees in its keyframes)
and named by that type or by the user.

A sign stays the first cue: a stay only speaks for the times no sign place covers
(memory.scene.PlaceTimeline).
"""
from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np

from memory.database import Database
from memory.registry import Known, Registry
from perception.types import VideoObservation

# Views of one fixed scene measured 0.92-0.99 alike, different scenes 0.50-0.57 (perception.views).
SAME_PLACE = 0.8
# The things that type a place must be seen repeatedly across it: on two frames at least,
# spread over at least this share of the stay. A "toilet" flickering on two frames of a face close-up
# once made a bathroom (and a habit kept there); a bed in a bedroom is in view for much of it.
KIND_MIN_FRAMES = 2
KIND_MIN_SHARE = 0.25
# A new view is a new place only when it lasts this long or a sign naming a place is read in
# it; shorter runs are camera cuts or glances within the place before them (a 62 s talk cut
# between a close-up, a wide shot and the title cards is one place, not thirteen).
MIN_PLACE_SECONDS = 15.0


@dataclasses.dataclass
class Stay:
    """Consecutive keyframes with alike views: the wearer stayed in one place."""

    key: str  # "V1", "V2"... in this video
    times: list[float]
    descriptor: np.ndarray  # mean view
    things: Counter[str] = dataclasses.field(default_factory=Counter)  # detector class -> frames seen on
    seen_at: dict[str, list[float]] = dataclasses.field(default_factory=dict)  # detector class -> frame times
    until: float = 0.0  # when the next stay (or the video) begins

    @property
    def seconds(self) -> float:
        return max(self.until - self.start, 0.0)

    @property
    def start(self) -> float:
        return self.times[0]

    @property
    def end(self) -> float:
        return self.times[-1]


def places_registry(db: Database) -> Registry:
    def cosine(a: np.ndarray, b: np.ndarray) -> float:
        return float(a @ b / max(np.linalg.norm(a) * np.linalg.norm(b), 1e-9))

    return Registry(db, "known_places", "place", alike=lambda a, b: cosine(a, b) >= SAME_PLACE, closeness=cosine)


def video_stays(video: VideoObservation, signs: Sequence[float] = ()) -> list[Stay]:
    """The video's keyframes in runs of views alike enough to be one place, with runs too
    short to be a place (`_places_across_cuts`) joined to the one before; `signs`: when a
    sign naming a place was read."""
    views = sorted(((t, np.asarray(v)) for clip in video.clips for t, v in zip(clip.keyframe_times, clip.views) if v),
                   key=lambda tv: tv[0])
    stays: list[Stay] = []
    for t, view in views:
        last = stays[-1] if stays else None
        mean = last.descriptor / max(np.linalg.norm(last.descriptor), 1e-9) if last else None
        if last is not None and float(view @ mean) >= SAME_PLACE:
            n = len(last.times)
            last.descriptor = (last.descriptor * n + view) / (n + 1)
            last.times.append(t)
        else:
            stays.append(Stay(f"V{len(stays) + 1}", [t], view.copy()))
    sampled = sorted({d.frame_time for clip in video.clips for d in clip.objects})
    for stay in stays:  # a stay lasts until the next one starts
        nxt = next((s.start for s in stays if s.start > stay.start), float("inf"))
        stay.until = min(nxt, video.duration) if not video.still else stay.start
        seen = sorted({(d.label, d.frame_time) for clip in video.clips for d in clip.objects
                       if stay.start <= d.frame_time < nxt})
        stay.things = Counter(label for label, _ in seen)
        for label, t in seen:
            stay.seen_at.setdefault(label, []).append(t)
        last_sampled = max([t for t in sampled if t < nxt], default=stay.end)
        if last_sampled > stay.end:  # in view until the next stay begins, as far as frames show
            stay.times.append(last_sampled)
    return _places_across_cuts(stays, signs)


def _places_across_cuts(stays: list[Stay], signs: Sequence[float]) -> list[Stay]:
    """Each run shorter than MIN_PLACE_SECONDS without a sign read in it joins the stay
    before it; a joined stay keeps the look of its longest run (what the place looks like
    most of the time, for matching it in other videos)."""
    joined: list[tuple[Stay, Stay]] = []  # (the stay, its longest run)
    for stay in stays:
        signed = any(stay.start <= t < max(stay.until, stay.start + 1e-6) for t in signs)
        if joined and stay.seconds < MIN_PLACE_SECONDS and not signed:
            into, longest = joined[-1]
            into.times.extend(stay.times)
            into.things.update(stay.things)
            for label, times in stay.seen_at.items():
                into.seen_at.setdefault(label, []).extend(times)
            joined[-1] = (dataclasses.replace(into, until=stay.until), stay if stay.seconds > longest.seconds else longest)
        else:
            joined.append((stay, stay))
    return [dataclasses.replace(stay, key=f"V{i}", descriptor=longest.descriptor)
            for i, (stay, longest) in enumerate(joined, 1)]


def kind_of(stay: Stay, kinds: Mapping[str, tuple[str, ...]]) -> str | None:
    """The kind of place the things seen in it say (a bed: a bedroom), or None: the kind seen
    on the most frames, if those frames span KIND_MIN_SHARE of the stay. A photo, or one
    moment of a long stay, never types a place."""
    def support(classes: tuple[str, ...]) -> tuple[int, float]:
        times = [t for c in classes for t in stay.seen_at.get(c, ())]
        return sum(stay.things[c] for c in classes), (max(times) - min(times) if times else 0.0)

    scored = {kind: support(classes) for kind, classes in kinds.items()}
    best = max(scored, key=lambda kind: scored[kind][0], default=None)
    if best is None:
        return None
    frames, spread = scored[best]
    return best if frames >= KIND_MIN_FRAMES and spread >= KIND_MIN_SHARE * stay.seconds > 0 else None


def stay_embeddings(stays: list[Stay], frames: Mapping[float, np.ndarray]) -> dict[str, np.ndarray]:
    """Stay key -> the mean of its keyframes' CLIP vectors (`frames`: keyframe time -> vector),
    for the stays with any."""
    out = {}
    for stay in stays:
        seen = [frames[t] for t in stay.times if t in frames]
        if seen:
            out[stay.key] = np.mean(seen, axis=0)
    return out


def name_places(stays: list[Stay], places: Mapping[str, Known], kinds: Mapping[str, tuple[str, ...]],
                clip_kinds: Mapping[str, str] | None = None) -> dict[str, Known]:
    """Each stay's place with the name this footage gives it: the kind the things seen
    there say, else the kind CLIP sees in its keyframes (`clip_kinds`, stay key -> kind);
    a name the user gave is kept. A sign names the time it is read (the sign timeline)
    but not the view: colours alone are too weak to carry it to other stays."""
    named = {}
    clip_kinds = clip_kinds or {}
    for stay in stays:
        place = places[stay.key]
        kind = kind_of(stay, kinds)
        if kind and place.named_by in (None, "objects", "clip"):  # what the detector saw outranks CLIP
            named[stay.key] = dataclasses.replace(place, name=kind, named_by="objects")
        elif not kind and stay.key in clip_kinds and place.named_by in (None, "clip"):
            named[stay.key] = dataclasses.replace(place, name=clip_kinds[stay.key], named_by="clip")
        else:
            named[stay.key] = place
    return named
