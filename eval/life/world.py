"""The seeded world a simulated life happens in: places, things (with look-alike
instances and states), the people the wearer talks to, and the vocabulary of the days.

Everything the renderer shows and everything a question asks comes from here, so a
benchmark item's answer is a fact of this world, never a guess about pixels.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from eval.synthetic.script import RGB

WEARER = "Me"
WEARER_VOICE = "en-us+klatt"
# espeak-ng voices that Resemblyzer tells apart from each other and from the wearer's
# (checked for the morning demo: en-us+m3 vs en-us+f2 vs en-us+klatt)
COMPANION_VOICES = ("en-us+m3", "en-us+f2")
# Pairs of companions per wearer: a colleague (office) and a housemate (home).
COMPANION_NAMES = (("Bob", "Alice"), ("Tom", "Nina"), ("Sam", "Lucy"))
NEVER_MET = ("Carol", "David", "Grace")  # names for questions about people nobody met

HOME_PLACES = ("kitchen", "dining room", "living room", "bedroom", "hallway")
OUTSIDE_PLACES = ("office", "cafe", "park", "library", "grocery store", "gym")
PLACE_COLOURS: dict[str, RGB] = {
    "kitchen": (236, 214, 140), "dining room": (222, 190, 160), "living room": (150, 200, 160),
    "bedroom": (170, 170, 225), "hallway": (185, 185, 185), "office": (205, 170, 140),
    "cafe": (214, 160, 110), "park": (120, 190, 110), "library": (160, 140, 200),
    "grocery store": (140, 200, 210), "gym": (210, 140, 150),
}


@dataclass(frozen=True)
class Thing:
    """One physical instance. Look-alikes share a category and shape and differ in colour
    (and in the colour word printed on their label), as mugs in a real kitchen do."""

    name: str
    category: str
    rgb: RGB
    shape: str


_COLOURS: dict[str, RGB] = {"blue": (40, 90, 210), "red": (200, 50, 50), "green": (50, 150, 70),
                            "yellow": (230, 200, 40), "black": (40, 40, 45), "white": (235, 235, 235)}


def _instances(category: str, colours: tuple[str, ...], shape: str) -> tuple[Thing, ...]:
    return tuple(Thing(f"{c} {category}", category, _COLOURS[c], shape) for c in colours)


MUGS = _instances("mug", ("blue", "red", "green", "yellow"), "square")
BOOKS = _instances("book", ("blue", "red", "green", "black"), "rect")
SINGLES = (
    Thing("keys", "keys", (230, 190, 40), "circle"),
    Thing("laptop", "laptop", (120, 120, 130), "rect"),
    Thing("umbrella", "umbrella", (90, 40, 140), "triangle"),
    Thing("phone", "phone", (30, 30, 35), "rect"),
    Thing("pan", "pan", (70, 70, 75), "circle"),
    Thing("bottle", "bottle", (60, 160, 220), "diamond"),
)
FOODS = {  # meal -> (food, weight): the weights make habits that behavior questions ask about
    "breakfast": (("oatmeal", 6), ("toast", 3), ("eggs", 2)),
    "lunch": (("sandwich", 5), ("salad", 3), ("soup", 2)),
}
FOOD_THINGS = tuple(Thing(f, "food", (225, 215, 190), "circle")
                    for f in ("oatmeal", "toast", "eggs", "sandwich", "salad", "soup"))
GROCERIES = ("milk", "batteries", "bread", "apples", "rice", "coffee")
GROCERY_THINGS = tuple(Thing(g, "grocery", (250, 250, 250), "square") for g in GROCERIES)
DOCUMENTS = ("slides", "budget", "report", "contract", "schedule")
WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MEETING_TOPICS = ("BUDGET", "DESIGN", "HIRING", "SALES", "PLANNING")
LEADERS = ("Maria", "Peter", "Linda", "Oscar", "Julia")
MEET_PLACES = ("cafe", "park", "library")
TIMES = ("three", "four thirty", "five", "six", "two")  # spoken; written forms below
TIME_TEXT = {"two": "2:00 PM", "three": "3:00 PM", "four thirty": "4:30 PM", "five": "5:00 PM",
             "six": "6:00 PM"}
TASKS = ("call the dentist", "water the plants", "return the library book", "book a haircut",
         "pay the rent", "fix the bike")
MOVIES = ("CASABLANCA", "JAWS", "ROCKY", "VERTIGO", "ALIENS", "HEAT")
PASSWORDS = ("BLUEFOX42", "REDOWL17", "TIGER88", "MAPLE55")


@dataclass(frozen=True)
class World:
    """One wearer's world: who they meet and which instances exist."""

    person: str  # id of the wearer, e.g. "p1"
    colleague: str
    housemate: str
    seed: int
    start_date: str  # ISO date of day 1

    @property
    def things(self) -> tuple[Thing, ...]:
        return MUGS + BOOKS + SINGLES + FOOD_THINGS + GROCERY_THINGS

    def thing(self, name: str) -> Thing:
        return next(t for t in self.things if t.name == name)

    def voice_of(self, speaker: str) -> str:
        if speaker == WEARER:
            return WEARER_VOICE
        return COMPANION_VOICES[0] if speaker == self.colleague else COMPANION_VOICES[1]


def make_world(seed: int, person_index: int, start_date: str = "2024-06-03") -> World:
    colleague, housemate = COMPANION_NAMES[person_index % len(COMPANION_NAMES)]
    return World(f"p{person_index + 1}", colleague, housemate, seed, start_date)


def weighted(rng: random.Random, choices: tuple[tuple[str, int], ...]) -> str:
    names, weights = zip(*choices)
    return rng.choices(names, weights=weights, k=1)[0]
