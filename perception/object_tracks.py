"""One thing followed across frames, and recognised again later.

Detections of each class are tracked with ByteTrack (roboflow `trackers`) over every sampled
frame, so a thing that stays in view is one track and a class seen on a single frame (the
detector's typical false positive) never becomes a track. Tracks of one class are then
linked into instances by look: a track that begins after another ended, with a colour
histogram alike enough, is the same thing seen again; tracks that overlap in time are
always different things (two people walking side by side are two). A single picture (a
photo) has nothing to follow and no second frame to confirm a find: each detection in it is
a thing of its own.
"""
from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from .appearance import appearance_similarity
from .types import ObjectDetection

TRACKS_ID = "bytetrack-v1"  # how tracks and instances are assigned (part of a memory's provenance)


@dataclasses.dataclass
class _Track:
    label: str
    detections: list[ObjectDetection]

    @property
    def start(self) -> float:
        return self.detections[0].frame_time

    @property
    def end(self) -> float:
        return self.detections[-1].frame_time

    def appearance(self) -> tuple[float, ...]:
        rows = [d.appearance for d in self.detections if d.appearance]
        if not rows or len({len(r) for r in rows}) != 1:
            return ()
        return tuple(np.mean(np.asarray(rows), axis=0).tolist())


def _continues(earlier: _Track, later: _Track) -> bool:
    """Whether `later` begins about where `earlier` was last seen (within one box size)."""
    a, b = earlier.detections[-1].box, later.detections[0].box
    size = max(a[2] - a[0], a[3] - a[1], b[2] - b[0], b[3] - b[1], 1.0)
    return float(np.hypot((a[0] + a[2] - b[0] - b[2]) / 2, (a[1] + a[3] - b[1] - b[3]) / 2)) <= size


def _track_one_class(detections: list[ObjectDetection], frame_times: Sequence[float], fps: float,
                     lost_seconds: float, min_frames: int) -> list[_Track]:
    import supervision as sv
    from trackers import ByteTrackTracker

    threshold = min(d.confidence for d in detections)
    tracker = ByteTrackTracker(
        lost_track_buffer=max(1, round(lost_seconds * 30)), frame_rate=fps, minimum_consecutive_frames=min_frames,
        track_activation_threshold=threshold, high_conf_det_threshold=threshold, minimum_iou_threshold=0.1)
    at: dict[float, list[ObjectDetection]] = defaultdict(list)
    for d in detections:
        at[d.frame_time].append(d)
    tracks: dict[int, _Track] = {}
    for t in sorted(set(frame_times) | set(at)):
        here = at.get(t, [])
        boxes = np.array([d.box for d in here], dtype=np.float64).reshape(-1, 4)
        scores = np.array([d.confidence for d in here], dtype=np.float64)
        frame = sv.Detections(xyxy=boxes, confidence=scores, data={"row": np.arange(len(here))})
        result = tracker.update(frame, timestamp=t)
        for row, track_id in zip(result.data.get("row", []), result.tracker_id if result.tracker_id is not None else []):
            if track_id < 0:
                continue
            tracks.setdefault(int(track_id), _Track(here[0].label, [])).detections.append(here[int(row)])
    return sorted(tracks.values(), key=lambda tr: tr.start)


def track_objects(detections: Sequence[ObjectDetection], frame_times: Sequence[float], fps: float,
                  lost_seconds: float = 3.0, min_frames: int = 2, same_look: float = 0.6,
                  revisit_seconds: float = 10.0) -> list[ObjectDetection]:
    """The detections that belong to a track, with `track` (unique in the video) and
    `instance` (per label, from 1) set, in time order. `frame_times` are every sampled
    frame's time, so a frame where nothing was found ends a run of sightings. A track that
    begins within `revisit_seconds` of another's end is the same thing only where that one
    left off (a track broken by occlusion); later, the look alone decides (seen again)."""
    by_label: dict[str, list[ObjectDetection]] = defaultdict(list)
    for d in detections:
        by_label[d.label].append(d)
    if len(set(frame_times) | {d.frame_time for d in detections}) == 1:  # one picture
        numbered: list[ObjectDetection] = []
        for label in sorted(by_label):
            for instance, d in enumerate(by_label[label], 1):
                numbered.append(dataclasses.replace(d, track=len(numbered) + 1, instance=instance))
        return numbered
    out: list[ObjectDetection] = []
    next_track = 1
    for label in sorted(by_label):
        instances: list[list[_Track]] = []
        for track in _track_one_class(by_label[label], frame_times, fps, lost_seconds, min_frames):
            if len(track.detections) < min_frames:
                continue  # confirmed on its last frame: too brief to trust
            look = track.appearance()
            best, best_score = None, same_look
            for members in instances:
                last = members[-1]
                if last.end >= track.start:
                    continue  # in view together: two things
                if track.start - last.end < revisit_seconds and not _continues(last, track):
                    continue  # soon after, elsewhere in the picture: another thing
                score = appearance_similarity(last.appearance(), look)
                if score >= best_score:
                    best, best_score = members, score
            if best is None:
                instances.append([track])
            else:
                best.append(track)
            instance = next(i for i, members in enumerate(instances, 1) if members[-1] is track)
            out += [dataclasses.replace(d, track=next_track, instance=instance) for d in track.detections]
            next_track += 1
    return sorted(out, key=lambda d: (d.frame_time, d.label, d.instance or 0))
