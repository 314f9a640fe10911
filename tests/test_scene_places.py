"""Where a sign says the wearer is: the configured places, and, with WordNet, any sign that is
itself a room or an area, not a thing, a club or a gate."""
from __future__ import annotations

import pytest

from memory.config import MemoryConfig
from memory.scene import SceneReader


@pytest.mark.parametrize("sign, place", [
    ("KITCHEN", "kitchen"),
    ("THE KITCHEN", "kitchen"),  # a configured place inside a sign's words
    ("MEETING ROOM", "meeting room"),  # rooms and areas WordNet knows, configured or not
    ("KITCHENETTE", "kitchenette"),
    ("DESK AREA", "desk area"),
    ("CAR PARK", "car park"),  # one noun to WordNet: not the configured "park"
    ("BUS STOP", "bus stop"),  # a spot of several words
    ("OPEN", None),  # a word alone of an area's kind is no place (a shop's door sign)
    ("CORNER", None),
    ("BOOK CLUB", None),  # a club is no place one stands in
    ("GATE", None),
    ("EXIT", None),
    ("STORAGE UNIT 12", None),
])
def test_a_sign_names_a_place_when_it_is_one(kinds, sign, place):
    assert SceneReader(MemoryConfig(), kinds).place_named(sign) == place


def test_without_wordnet_only_the_configured_places_are_named():
    assert SceneReader(MemoryConfig()).place_named("DESK AREA") is None
    assert SceneReader(MemoryConfig()).place_named("CAR PARK") == "park"
