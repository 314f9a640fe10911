""""A weekend afternoon": a third labels-world day, written after the evening's fixes and
scored once before anything was changed for it, so that its first figure is a held-out one.

Its own rooms, things, people (Marcus, Elena) and printed text (a parcel slip, a calendar, a
flat's door), a request, a promise, a spoken correction of a time, and questions asked in
the loose way people ask them, some with no answer in the video.
"""
from __future__ import annotations

from .script import Question, Room, SceneObject, Script, Shot, TextArtifact
from .writing import cast, finished, row, said, shown, voiced, where_last

VOICES = {"Me": "en-us+klatt", "Marcus": "en-us+m3", "Elena": "en-us+f2"}
PARCEL_SLIP = TextArtifact("note", ("TRACKING NO", "88412"), x=0.45, y=0.42)
CALENDAR = TextArtifact("screen", ("PIANO LESSON", "WEDNESDAY"), x=0.5, y=0.42)
FLAT_DOOR = TextArtifact("sign", ("FLAT 21C",), x=0.5, y=0.40)


_say = voiced(VOICES)


def weekend_afternoon(seed: int = 0) -> Script:
    """The weekend script; `seed` only changes camera jitter and noise."""
    rooms = (
        Room("balcony", (180, 210, 170)),
        Room("laundry room", (215, 215, 235)),
        Room("kitchen", (236, 214, 140)),
        Room("hallway", (185, 185, 185)),
    )
    objects = (
        SceneObject("headphones", (30, 30, 30), "circle"),
        SceneObject("sunglasses", (120, 40, 160), "rect"),
        SceneObject("charger", (230, 230, 230), "square"),
        SceneObject("ladder", (200, 140, 60), "triangle"),
    )
    people = cast(VOICES, {"Me": (90, 90, 90), "Marcus": (60, 90, 170), "Elena": (170, 60, 110)})
    shots = (
        Shot(0, 26, "balcony", row("sunglasses", "headphones"), activity="reading in the sun"),
        Shot(26, 56, "hallway", row("ladder"), FLAT_DOOR, "Marcus", "talking with Marcus at the door"),
        Shot(56, 84, "kitchen", row("charger", "sunglasses"), CALENDAR, "Elena", "making tea with Elena"),
        Shot(84, 108, "laundry room", row("headphones"), PARCEL_SLIP, activity="sorting laundry"),
        Shot(108, 130, "kitchen", row("charger"), speaker="Elena", activity="clearing up with Elena"),
        Shot(130, 150, "hallway", row("sunglasses"), FLAT_DOOR, activity="heading out"),
    )
    utterances = (
        _say(5, "Me", "Finally some sun on the balcony."),
        _say(29, "Marcus", "Hi there, I'm Marcus from the flat upstairs."),
        _say(36, "Marcus", "Can I borrow your ladder on Sunday? I need to fix the gutter."),
        _say(46, "Me", "No problem, I'll bring it up in the morning."),
        _say(59, "Elena", "Hey, it's Elena. The kettle is on."),
        _say(65, "Elena", "The party starts at six. Oh wait, it's at seven now."),
        _say(76, "Me", "Seven is better for me anyway."),
        _say(88, "Me", "The parcel slip says it was left with the neighbours."),
        _say(111, "Elena", "Please remember to buy birthday candles."),
        _say(119, "Me", "Okay, candles and a card."),
        _say(134, "Me", "Sunglasses, keys. Time to head out."),
    )
    return finished(Script("A weekend afternoon", duration=150, fps=10, size=(960, 540),
                        start_datetime="2024-06-15T14:00:00Z", rooms=rooms, objects=objects,
                        people=people, shots=shots, utterances=utterances, seed=seed), _questions)


def _questions(s: Script) -> tuple[Question, ...]:
    def where(obj: str, text: str) -> Question:
        return where_last(s, obj, text)

    seven = ("7", "seven", "19:00")
    return (
        Question("borrow", "what did Marcus want to borrow?", "the ladder", "speech", ("ladder",),
                 (said(s, "borrow"),)),
        Question("bring", "when am I bringing it up to him?", "in the morning", "speech", ("morning",),
                 (said(s, "bring it up"),)),
        Question("party", "what time's the party now?", "seven", "speech", seven, (said(s, "party"),)),
        Question("candles", "Elena reminded me to get something, what was it?", "birthday candles", "speech",
                 ("candles",), (said(s, "candles"),)),
        Question("who-ladder", "who needed the ladder?", "Marcus", "person", ("marcus",), (said(s, "borrow"),)),
        Question("tracking", "what was the tracking number on the slip?", "88412", "text", ("88412",),
                 shown(s, "88412")),
        Question("lesson", "which day is the piano lesson?", "Wednesday", "text", ("wednesday",),
                 shown(s, "WEDNESDAY")),
        Question("flat", "what flat is it on the door?", "21C", "text", ("21c",), shown(s, "FLAT 21C")),
        where("headphones", "where are my headphones?"),
        where("sunglasses", "where did I see my sunglasses last?"),
        Question("dog", "what did Elena say about the dog?", "", "unanswerable"),
        Question("helmet", "where did I put my bike helmet?", "", "unanswerable"),
        Question("surname", "what's Marcus's last name?", "", "unanswerable"),
    )
