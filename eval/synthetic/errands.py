""""Saturday errands": a fifth labels-world day, written after the office day's fixes and
scored once before anything was changed for it (its first figure is a held-out one).

Its own places (a bakery, a pharmacy, a post office, a bus stop, a laundry room), things (one
of them full, then empty), people (Lena, Omar), printed text (a queue ticket, a timetable, a
price board), a price said aloud, a correction of an hour, a request, a commitment, a visit to
be timed, and questions as people ask them, some with no answer in the video.
"""
from __future__ import annotations

from .script import Placement, Question, Room, SceneObject, Script, Shot, TextArtifact
from .writing import cast, finished, row, said, shown, voiced, where_last

VOICES = {"Me": "en-us+klatt", "Lena": "en-us+f2", "Omar": "en-us+m3"}
TICKET = TextArtifact("note", ("NOW SERVING", "TICKET 38"), x=0.45, y=0.42)
TIMETABLE = TextArtifact("sign", ("ROUTE 12", "EVERY 15 MIN"), x=0.5, y=0.40)
PRICES = TextArtifact("screen", ("SOURDOUGH 4.20", "CROISSANT 2.10"), x=0.5, y=0.42)

_say = voiced(VOICES)


def errands_day(seed: int = 0) -> Script:
    """The errands script; `seed` only changes camera jitter and noise."""
    rooms = (
        Room("bakery", (236, 214, 170)),
        Room("pharmacy", (200, 230, 210)),
        Room("post office", (230, 200, 160)),
        Room("bus stop", (170, 180, 200)),
        Room("laundry room", (210, 210, 235)),
    )
    objects = (
        SceneObject("sunglasses", (30, 30, 40), "diamond"),
        SceneObject("bottle", (40, 120, 200), "rect"),
        SceneObject("bag", (200, 120, 40), "square"),
        SceneObject("scarf", (120, 40, 160), "circle"),
    )
    people = cast(VOICES, {"Me": (90, 90, 90), "Lena": (170, 60, 110), "Omar": (60, 90, 170)})
    shots = (
        Shot(0, 26, "bakery", (Placement("bag", 0.12, 0.76, "empty"),), PRICES, "Lena", "buying bread from Lena"),
        Shot(26, 52, "pharmacy", row("bottle"), speaker="Omar", activity="at the pharmacy counter"),
        Shot(52, 76, "post office", row("scarf", "sunglasses"), TICKET, activity="posting a parcel"),
        Shot(76, 98, "bus stop", row("bottle"), TIMETABLE, activity="waiting for the bus"),
        Shot(98, 120, "laundry room", (Placement("bag", 0.12, 0.76, "full"), Placement("scarf", 0.40, 0.76)),
             activity="doing the laundry"),
    )
    utterances = (
        _say(3, "Me", "A sourdough loaf and two croissants, please."),
        _say(9, "Lena", "That comes to eight fifty."),
        _say(15, "Lena", "We close at six today. No, sorry, at five on Saturdays."),
        _say(29, "Omar", "Hello, I'm Omar, the pharmacist."),
        _say(34, "Omar", "Your prescription will be ready on Monday. Please bring your insurance card."),
        _say(44, "Me", "Great, I'll come back for it on Monday afternoon."),
        _say(56, "Me", "This parcel is for my sister in Lisbon."),
        _say(80, "Me", "The next bus is in ten minutes."),
        _say(102, "Me", "I have to fold the towels tonight."),
    )
    return finished(Script("Saturday errands", duration=120, fps=10, size=(960, 540),
                        start_datetime="2024-11-16T10:00:00Z", rooms=rooms, objects=objects,
                        people=people, shots=shots, utterances=utterances, seed=seed), _questions)


def _questions(s: Script) -> tuple[Question, ...]:
    def where(obj: str, text: str) -> Question:
        return where_last(s, obj, text)

    return (
        Question("price", "how much did I pay at the bakery?", "8.50", "speech",
                 ("8.50", "8,50", "eight fifty", "850"), (said(s, "eight fifty"),)),
        Question("closing", "what time does the bakery close today?", "five", "speech",
                 ("five", "5"), (said(s, "close at six"),)),
        Question("ready", "when can I pick up my prescription?", "Monday", "speech", ("monday",),
                 (said(s, "prescription"),)),
        Question("bring", "what do I need to bring to the pharmacy?", "my insurance card", "speech",
                 ("insurance",), (said(s, "prescription"),)),
        Question("who-card", "who told me to bring my insurance card?", "Omar", "person", ("omar",),
                 (said(s, "prescription"),)),
        Question("sister", "where's my sister's parcel going?", "Lisbon", "speech", ("lisbon",),
                 (said(s, "Lisbon"),)),
        Question("ticket", "what was my ticket number at the post office?", "38", "text", ("38",),
                 shown(s, "TICKET 38")),
        Question("bus", "how often does the route 12 bus come?", "every 15 minutes", "text", ("15",),
                 shown(s, "EVERY 15 MIN")),
        Question("croissant", "how much is a croissant?", "2.10", "text", ("2.10", "2,10", "210"),
                 shown(s, "CROISSANT 2.10")),
        where("sunglasses", "where did I put my sunglasses?"),
        where("bottle", "have you seen my bottle?"),
        Question("bag", "was my bag full or empty in the laundry room?", "full", "text", ("full",),
                 ((98, 120),)),
        Question("omar-surname", "what's Omar's last name?", "", "unanswerable"),
        Question("car", "where did I park the car?", "", "unanswerable"),
    )
