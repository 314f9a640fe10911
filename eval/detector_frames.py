"""Frames of real footage and photos, labelled by eye with the COCO things a person would
name in them: what an object detector should find, and what it may find without being wrong.

This is EVALUATION MATERIAL (benchmarks/detector_recall.py reads it); perception code never
imports it. Labels were written by looking at each frame before any detector ran on it:
`must` lists the things clearly in view (a group of alternatives where COCO has two fair
names for one thing: a van is a car or a truck, a flask a bottle or a cup); `may` lists
things a detector is not wrong to name (a partly visible arm is a person, a cloth-covered
table a dining table). Anything else it names is a false label. Frames with nothing COCO
names (towers at night, a title card, a black frame, a cartoon rabbit's face) count only
false labels.
"""
from __future__ import annotations

from dataclasses import dataclass

from eval.media import (
    BOOKS_PHOTO,
    BOX_CLIP,
    BUNNY_TRAILER,
    CALIBRATION_PHOTOS,
    CAMPUS_CLIP,
    CITY_NIGHT,
    CUP_CLIP,
    PEOPLE_PHOTO,
    PHONE_PHOTO,
    STREET_CLIP,
    TED_CLIP,
    Media,
)


def _photo(name: str) -> Media:
    return next(media for media in CALIBRATION_PHOTOS if media.member.endswith("/" + name))


@dataclass(frozen=True)
class LabelledFrame:
    media: Media
    seconds: float | None  # None: a photo
    must: tuple[tuple[str, ...], ...]  # each: any one of these names counts as found
    may: tuple[str, ...] = ()
    note: str = ""

    @property
    def key(self) -> str:
        return f"{self.media.name}@{self.seconds:g}s" if self.seconds is not None else self.media.name

    def allowed(self) -> set[str]:
        return {name for group in self.must for name in group} | set(self.may)

    def found(self, labels: set[str]) -> int:
        return sum(bool(labels & set(group)) for group in self.must)

    def false_labels(self, labels: set[str]) -> set[str]:
        return labels - self.allowed()


CAR = ("car",)
CAR_OR_TRUCK = ("car", "truck")
FLASK = ("bottle", "cup", "vase")

FRAMES = (
    LabelledFrame(STREET_CLIP, 1, (CAR,), ("bus", "truck"), "a red car beside a vehicle's roof, from above"),
    LabelledFrame(STREET_CLIP, 3, (CAR,), ("truck",), "a taxi's roof sign, blurred cars behind"),
    LabelledFrame(STREET_CLIP, 5, (("person",), ("bicycle",), CAR_OR_TRUCK, ("motorcycle",)), ("traffic light",),
                  "a cyclist in a helmet waiting, a van's back, a parked motorbike"),
    LabelledFrame(STREET_CLIP, 7, (CAR, ("bicycle",)), ("traffic light", "truck", "person"),
                  "a bicycle locked to a railing, cars on the road, a traffic light"),
    LabelledFrame(STREET_CLIP, 9, (("bicycle",),), (), "a bicycle against a wall, a bollard"),
    LabelledFrame(CITY_NIGHT, 1, (), (), "glass towers at night"),
    LabelledFrame(CITY_NIGHT, 4, (), (), "glass towers at night"),
    LabelledFrame(CAMPUS_CLIP, 10, (("person",), CAR_OR_TRUCK), ("umbrella", "handbag", "stop sign"),
                  "people walking across a campus, a white van and a car parked"),
    LabelledFrame(CAMPUS_CLIP, 40, (("person",), CAR_OR_TRUCK), ("handbag", "stop sign")),
    LabelledFrame(CAMPUS_CLIP, 70, (("person",), CAR_OR_TRUCK), ("handbag", "backpack", "stop sign")),
    LabelledFrame(BOX_CLIP, 3, (("dining table",),), ("person", "chair", "couch", "book", "suitcase"),
                  "a printed box held over a cloth-covered table, a pen"),
    LabelledFrame(BOX_CLIP, 10, (("dining table",),), ("person", "chair", "couch", "book", "suitcase"),
                  "the box set down on the table, chairs behind"),
    LabelledFrame(CUP_CLIP, 2, (FLASK,), ("person",), "a hand holding a dark flask against a wall"),
    LabelledFrame(CUP_CLIP, 6, (FLASK,), ("person",)),
    LabelledFrame(TED_CLIP, 5, (), (), "the title card"),
    LabelledFrame(TED_CLIP, 30, (("person",),), (), "the speaker on stage, close"),
    LabelledFrame(TED_CLIP, 55, (("person",),), ("tv", "chair"), "the stage from the back: speaker, screen, audience"),
    LabelledFrame(BUNNY_TRAILER, 30, (), ("teddy bear",), "a cartoon rabbit on a grassy hill, rocks"),
    LabelledFrame(BUNNY_TRAILER, 50, (), ("teddy bear",), "a cartoon rabbit's face, close, with a title"),
    LabelledFrame(PEOPLE_PHOTO, None, (("person",), ("sports ball",)), ("chair",), "two men throwing a basketball"),
    LabelledFrame(BOOKS_PHOTO, None, (("book",),), ("chair", "bicycle", "suitcase"), "two books on a floor"),
    LabelledFrame(PHONE_PHOTO, None, (), ("book",), "a notebook's corner with an elastic band, close"),
    LabelledFrame(_photo("messi5.jpg"), None, (("person",), ("sports ball",)), (), "a footballer kicking, a crowd"),
    LabelledFrame(_photo("fruits.jpg"), None, (("orange",), ("banana",)), ("apple",),
                  "orange, banana, lime, lemon, kiwi, red cabbage"),
    LabelledFrame(_photo("home.jpg"), None, (("bird",),), (), "birds flying over an ornate tower"),
    LabelledFrame(_photo("licenseplate_motion.jpg"), None, (CAR,), (), "a car's back, motion-blurred"),
    LabelledFrame(_photo("building.jpg"), None, (), ("car", "potted plant", "stop sign"),
                  "an office building, hedges, planters"),
)
