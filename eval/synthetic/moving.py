""""Moving day": a sixth labels-world day, written after the errands day's fixes and scored
once before anything was changed for it (its first figure is a held-out one).

Its own places (a lobby, a hallway, an attic, a garden shed, a lift), things, people (Jonas,
Mei), printed text (a box label, a lift notice, a door code), a request the wearer makes, one
made of them, someone else's promise, a correction of a day, and questions as people ask
them, some with no answer in the video.
"""
from __future__ import annotations

from .script import Question, Room, SceneObject, Script, Shot, TextArtifact
from .writing import cast, finished, row, said, shown, voiced, where_last

VOICES = {"Me": "en-us+klatt", "Jonas": "en-us+m3", "Mei": "en-us+f2"}
BOX_LABEL = TextArtifact("note", ("BOX 7", "BOOKS"), x=0.45, y=0.42)
LIFT_NOTICE = TextArtifact("sign", ("LIFT OUT OF ORDER", "USE STAIRS"), x=0.5, y=0.40)
DOOR_CODE = TextArtifact("screen", ("DOOR CODE", "2580"), x=0.5, y=0.42)

_say = voiced(VOICES)


def moving_day(seed: int = 0) -> Script:
    """The moving-day script; `seed` only changes camera jitter and noise."""
    rooms = (
        Room("lobby", (200, 190, 170)),
        Room("hallway", (185, 185, 185)),
        Room("attic", (210, 180, 150)),
        Room("shed", (160, 190, 150)),
        Room("elevator", (170, 170, 200)),
    )
    objects = (
        SceneObject("lamp", (230, 200, 60), "triangle"),
        SceneObject("drill", (200, 50, 50), "rect"),
        SceneObject("toolbox", (60, 60, 160), "square"),
        SceneObject("blanket", (120, 160, 200), "circle"),
    )
    people = cast(VOICES, {"Me": (90, 90, 90), "Jonas": (60, 90, 170), "Mei": (170, 60, 110)})
    shots = (
        Shot(0, 26, "lobby", row("lamp", "blanket"), DOOR_CODE, "Jonas", "meeting the movers"),
        Shot(26, 50, "elevator", (), LIFT_NOTICE, activity="finding the lift broken"),
        Shot(50, 76, "hallway", row("drill", "lamp"), BOX_LABEL, "Mei", "talking with Mei"),
        Shot(76, 100, "attic", row("lamp", "blanket"), activity="carrying boxes up"),
        Shot(100, 124, "shed", row("toolbox", "drill"), activity="putting the tools away"),
    )
    utterances = (
        _say(3, "Jonas", "Hi, I'm Jonas from the moving company."),
        _say(9, "Jonas", "We will be back at two to pick up the sofa."),
        _say(16, "Me", "Great. Can you take the lamp to the attic?"),
        _say(30, "Me", "The lift is broken again, we need the stairs."),
        _say(53, "Mei", "Hello, I'm Mei from number nine."),
        _say(58, "Mei", "The bins are collected on Thursday. No wait, on Friday this week."),
        _say(65, "Mei", "Could you lend me your drill this weekend?"),
        _say(70, "Me", "Sure, I'll drop it off on Saturday."),
        _say(104, "Me", "The toolbox goes in the shed."),
    )
    return finished(Script("Moving day", duration=124, fps=10, size=(960, 540),
                        start_datetime="2024-03-06T08:00:00Z", rooms=rooms, objects=objects,
                        people=people, shots=shots, utterances=utterances, seed=seed), _questions)


def _questions(s: Script) -> tuple[Question, ...]:
    def where(obj: str, text: str) -> Question:
        return where_last(s, obj, text)

    return (
        Question("movers", "when are the movers coming back?", "two", "speech", ("two", "2"),
                 (said(s, "back at two"),)),
        Question("borrow", "what did Mei want to borrow?", "my drill", "speech", ("drill",), (said(s, "lend me"),)),
        Question("bins", "which day are the bins collected this week?", "Friday", "speech", ("friday",),
                 (said(s, "bins"),)),
        Question("drop", "when did I say I'd drop it off?", "Saturday", "speech", ("saturday",),
                 (said(s, "drop it off"),)),
        Question("asked-jonas", "what did I ask Jonas to do?", "take the lamp to the attic", "speech",
                 ("lamp",), (said(s, "take the lamp"),)),
        Question("who-mei", "who lives at number nine?", "Mei", "person", ("mei",), (said(s, "number nine"),)),
        Question("code", "what's the door code?", "2580", "text", ("2580",), shown(s, "2580")),
        Question("box", "which box were the books in?", "7", "text", ("7",), shown(s, "BOX 7")),
        Question("lift", "what did the notice say about the lift?", "out of order", "text", ("out of order", "stairs"),
                 shown(s, "LIFT OUT OF ORDER")),
        where("lamp", "where's the lamp now?"),
        where("drill", "where did the drill end up?"),
        Question("mei-phone", "what's Mei's phone number?", "", "unanswerable"),
        Question("charge", "how much did the movers charge?", "", "unanswerable"),
        Question("kettle", "where did I put the kettle?", "", "unanswerable"),
    )
