"""What memory calls a detected thing when a classifier also looked at it (perception.classifier).

The detector's COCO class and the classifier's ImageNet names are weighed over every frame
of the thing (one instance across the video), with WordNet saying whether they agree:
- they agree (a "truck" the classifier calls a "moving van"): the class stays, and a
  narrower name the classifier is sure of joins it, so "the van" is found by its word;
- they disagree and the classifier is sure (a "suitcase" it calls a "crate" on most
  frames): the classifier's name replaces the class, which COCO lacked;
- otherwise (no opinion, or an unsure one) the detector's class stands.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from memory.kinds import Kinds
from perception.types import ObjectDetection

SURE = 0.3  # mean probability over the classified frames for a name to stand on its own
HEARD = 0.1  # a name this likely takes part in agreeing


@dataclass(frozen=True)
class Verdict:
    label: str  # what the thing is called (the detector's class, or the classifier's name)
    fine: str | None = None  # a narrower name both agree on ("moving van" for a truck)
    by: str = "detector"  # "detector" or "classifier": whose word `label` is

    @property
    def name(self) -> str:
        return self.fine or self.label


def opinions(detections: Sequence[ObjectDetection]) -> dict[str, float]:
    """The classifier's names over the frames it looked at, each its mean probability
    (a name missing from a frame's top names counts as 0 there), most likely first."""
    looked = [d.seen_as for d in detections if d.seen_as]
    if not looked:
        return {}
    total: dict[str, float] = defaultdict(float)
    for names in looked:
        for name, p in names:
            total[name] += p
    return dict(sorted(((name, p / len(looked)) for name, p in total.items()), key=lambda kv: -kv[1]))


@lru_cache(maxsize=1)
def _wnids() -> dict[str, str]:
    from perception.classifier import imagenet_wnids

    return imagenet_wnids()


def _sense(name: str) -> str:
    """The WordNet id of an ImageNet class name (its very sense), else the name itself."""
    return _wnids().get(name, name)


def verdict(label: str, detections: Sequence[ObjectDetection], kinds: Kinds | None) -> Verdict:
    """What to call one thing the detector named `label` on `detections`."""
    names = opinions(detections)
    if not names or kinds is None or not kinds.available:
        return Verdict(label)
    heard = [name for name, p in names.items() if p >= HEARD]
    agreeing = [name for name in heard if kinds.related(_sense(name), label)]
    top, top_p = next(iter(names.items()))
    if agreeing:
        best = agreeing[0]
        narrower = names[best] >= SURE and best != label and kinds.is_a(_sense(best), label)
        return Verdict(label, best if narrower else None)
    if top_p >= SURE:
        return Verdict(top, by="classifier")
    return Verdict(label)
