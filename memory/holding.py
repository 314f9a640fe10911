"""Which remembered things were in someone's hand, from where the detector's boxes lie.

No hand model runs: a thing is in a hand on a frame when most of its box lies on a person's
box and it is the smaller of the two (a cup in front of the arm that holds it). Whose hand:
a person box cut off by the left, right or bottom edge of the frame is the wearer's own arm
reaching into view (glasses see their wearer's hands from above and the sides); a person
wholly in view is someone else. A thing that fills the lower centre of the frame with no arm
found is in the wearer's hands too (a phone or a book held up to read). One frame is not
enough: the thing must be held on HELD_MIN_FRAMES frames and on HELD_MIN_SHARE of those it
was seen on, so a cup on a table a person walks past is not "held".

Known limits: a person standing at the edge of the frame holding something reads as the
wearer; a thing at the lower centre that is not held (a plate on the table right in front)
reads as held when it is small enough.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from memory.records import WEARER
from perception.types import ObjectDetection

ON_PERSON = 0.6  # share of the thing's box lying on the person's box
EDGE = 0.02  # a box this close to a frame edge (share of the frame's size) is cut off by it
HELD_MIN_FRAMES = 2
HELD_MIN_SHARE = 0.5
LOWER_CENTRE_MAX_AREA = 0.15  # a thing held up in front of the wearer covers at most this share of the frame


@dataclass(frozen=True)
class Held:
    by: str  # WEARER, or the holder as memory names them ("person in red")
    since: float  # the first frame it was held on (source seconds)
    frames: int


def _area(box: Sequence[float]) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _overlap(inner: Sequence[float], outer: Sequence[float]) -> float:
    """The share of `inner`'s box lying inside `outer`'s."""
    box = (max(inner[0], outer[0]), max(inner[1], outer[1]), min(inner[2], outer[2]), min(inner[3], outer[3]))
    return _area(box) / max(_area(inner), 1e-9)


def _cut_off(box: Sequence[float], size: tuple[int, int]) -> bool:
    width, height = size
    return box[0] <= EDGE * width or box[2] >= (1 - EDGE) * width or box[3] >= (1 - EDGE) * height


def _in_lower_centre(box: Sequence[float], size: tuple[int, int]) -> bool:
    width, height = size
    centre_x = (box[0] + box[2]) / 2
    return (width / 3 <= centre_x <= 2 * width / 3 and box[3] >= (1 - EDGE) * height
            and _area(box) <= LOWER_CENTRE_MAX_AREA * width * height)


def holder_on_frame(thing: ObjectDetection, people: Sequence[ObjectDetection],
                    name_of=lambda person: f"person in {person.colour}" if person.colour else "person") -> str | None:
    """Who holds `thing` on its frame, given the people detected on that frame."""
    if thing.label == "person" or not all(thing.frame_size):
        return None
    holding = [p for p in people if _overlap(thing.box, p.box) >= ON_PERSON and _area(thing.box) < _area(p.box)]
    if holding:
        arm = min(holding, key=lambda p: _area(p.box))  # the tightest box: the arm, not the crowd behind
        return WEARER if _cut_off(arm.box, arm.frame_size) else name_of(arm)
    return WEARER if _in_lower_centre(thing.box, thing.frame_size) else None


def held(seen: Sequence[ObjectDetection], people_at: dict[float, list[ObjectDetection]]) -> Held | None:
    """Whether one thing, seen on `seen` frames, was held over enough of them, and by whom."""
    holders = [(d.frame_time, holder_on_frame(d, people_at.get(d.frame_time, []))) for d in seen]
    by_frame = [(t, who) for t, who in holders if who]
    if len(by_frame) < HELD_MIN_FRAMES or len(by_frame) < HELD_MIN_SHARE * len(seen):
        return None
    who, frames = Counter(who for _, who in by_frame).most_common(1)[0]
    return Held(who, min(t for t, w in by_frame if w == who), frames)
