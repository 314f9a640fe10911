""""Evening at home": a second labels-world day, written apart from the morning so that
nothing tuned on the morning's words, rooms, things or people carries it.

Other rooms (a garage, a dining room, a study, a porch, a bathroom), other things, other
people (Priya and Tom), other printed text (a parcel locker's code, a whiteboard, a unit
sign), a request, a promise, a spoken correction, and questions asked as people ask them,
some with no answer in the video. Answers about things follow from the shots.
"""
from __future__ import annotations

from .script import Question, Room, SceneObject, Script, Shot, TextArtifact
from .writing import cast, finished, row, said, shown, voiced, where_last

VOICES = {"Me": "en-us+klatt", "Priya": "en-us+f2", "Tom": "en-us+m3"}
LOCKER_NOTE = TextArtifact("note", ("PARCEL LOCKER", "CODE 7319"), x=0.45, y=0.42)
WHITEBOARD = TextArtifact("screen", ("BOOK CLUB", "THURSDAY 7 PM"), x=0.5, y=0.42)
UNIT_SIGN = TextArtifact("sign", ("STORAGE UNIT 12",), x=0.5, y=0.40)


_say = voiced(VOICES)


def evening_at_home(seed: int = 0) -> Script:
    """The evening script; `seed` only changes camera jitter and noise."""
    rooms = (
        Room("porch", (200, 190, 150)),
        Room("garage", (160, 160, 170)),
        Room("dining room", (230, 180, 160)),
        Room("study", (170, 200, 220)),
        Room("bathroom", (190, 225, 225)),
    )
    objects = (
        SceneObject("umbrella", (200, 40, 40), "triangle"),
        SceneObject("wallet", (110, 70, 40), "rect"),
        SceneObject("laptop", (60, 60, 70), "square"),
        SceneObject("backpack", (40, 120, 60), "circle"),
    )
    people = cast(VOICES, {"Me": (90, 90, 90), "Priya": (170, 60, 110), "Tom": (60, 90, 170)})
    shots = (
        Shot(0, 24, "porch", row("umbrella", "backpack"), LOCKER_NOTE, activity="coming home"),
        Shot(24, 52, "garage", row("wallet"), UNIT_SIGN, "Tom", "talking with Tom in the garage"),
        Shot(52, 82, "dining room", row("laptop", "umbrella"), speaker="Priya",
             activity="having dinner with Priya"),
        Shot(82, 108, "study", row("wallet", "laptop"), WHITEBOARD, activity="planning the week"),
        Shot(108, 128, "bathroom", row("backpack"), activity="brushing teeth"),
        Shot(128, 150, "garage", row("umbrella"), activity="putting the bins out"),
        Shot(150, 170, "dining room", (), speaker="Priya", activity="saying good night to Priya"),
    )
    utterances = (
        _say(4, "Me", "Home at last. What a long day."),
        _say(12, "Me", "There is a parcel for me at the locker."),
        _say(27, "Tom", "Hey, it's Tom from next door."),
        _say(33, "Tom", "Could you call the plumber tomorrow morning? The sink is leaking again."),
        _say(43, "Me", "Sure, I will call him before nine."),
        _say(55, "Priya", "Hi, I am Priya. Dinner is ready."),
        _say(62, "Priya", "My parents are visiting on Friday. Sorry, I mean Saturday."),
        _say(72, "Me", "Saturday works for me."),
        _say(86, "Me", "Let me write the book club on the board."),
        _say(96, "Me", "I still have to finish chapter six."),
        _say(112, "Me", "I need new toothpaste."),
        _say(133, "Me", "The bins go out on Tuesday night."),
        _say(153, "Priya", "Good night. Do not forget the plumber."),
        _say(160, "Me", "I won't. Good night."),
    )
    return finished(Script("Evening at home", duration=170, fps=10, size=(960, 540),
                        start_datetime="2024-09-03T18:30:00Z", rooms=rooms, objects=objects,
                        people=people, shots=shots, utterances=utterances, seed=seed), _questions)


def _questions(s: Script) -> tuple[Question, ...]:
    def where(obj: str, text: str) -> Question:
        return where_last(s, obj, text)

    return (
        Question("asked", "what did Tom want me to do?", "call the plumber", "speech",
                 ("plumber",), (said(s, "plumber tomorrow"),)),
        Question("promise", "when did I say I'd call him?", "before nine", "speech",
                 ("before nine", "nine", "9"), (said(s, "before nine"),)),
        Question("visit", "so when are Priya's parents coming?", "Saturday", "speech",
                 ("saturday",), (said(s, "Saturday"),)),
        Question("who-plumber", "who asked me to call the plumber?", "Tom", "person", ("tom",),
                 (said(s, "plumber tomorrow"),)),
        Question("code", "what's the code for the parcel locker?", "7319", "text", ("7319",),
                 shown(s, "CODE 7319")),
        Question("book-club", "book club is on which day?", "Thursday", "text", ("thursday",),
                 shown(s, "THURSDAY 7 PM")),
        Question("unit", "which storage unit number was on the sign?", "12", "text", ("12",),
                 shown(s, "STORAGE UNIT 12")),
        where("umbrella", "where did I leave my umbrella?"),
        where("wallet", "I can't find my wallet, where was it last?"),
        Question("passport", "where's my passport?", "", "unanswerable"),
        Question("phone", "what's Priya's phone number?", "", "unanswerable"),
        Question("concert", "what did Tom say about the concert?", "", "unanswerable"),
    )
