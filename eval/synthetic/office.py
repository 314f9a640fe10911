""""A day at the office": a fourth labels-world day, written after the weekend's fixes and
scored once before anything was changed for it (its first figure is a held-out one).

Its own rooms (a reception, a meeting room, a kitchenette, a desk area, a car park), things,
people (Dmitri, Hannah), printed text (a visitor badge, a whiteboard, a parking bay), a
request, an offer, a correction of a day, and questions as people ask them, some with no
answer in the video.
"""
from __future__ import annotations

from .script import Question, Room, SceneObject, Script, Shot, TextArtifact
from .writing import cast, finished, row, said, shown, voiced, where_last

VOICES = {"Me": "en-us+klatt", "Dmitri": "en-us+m3", "Hannah": "en-us+f2"}
BADGE = TextArtifact("note", ("VISITOR BADGE", "NO 5521"), x=0.45, y=0.42)
WHITEBOARD = TextArtifact("screen", ("BUDGET REVIEW", "FRIDAY 3 PM"), x=0.5, y=0.42)
BAY_SIGN = TextArtifact("sign", ("PARKING BAY 47",), x=0.5, y=0.40)

_say = voiced(VOICES)


def office_day(seed: int = 0) -> Script:
    """The office script; `seed` only changes camera jitter and noise."""
    rooms = (
        Room("reception", (210, 200, 180)),
        Room("meeting room", (170, 190, 230)),
        Room("kitchenette", (236, 214, 140)),
        Room("desk area", (200, 220, 200)),
        Room("car park", (150, 150, 160)),
    )
    objects = (
        SceneObject("notebook", (40, 150, 80), "rect"),
        SceneObject("thermos", (200, 60, 60), "circle"),
        SceneObject("stapler", (60, 60, 60), "square"),
        SceneObject("calculator", (230, 230, 230), "diamond"),
    )
    people = cast(VOICES, {"Me": (90, 90, 90), "Dmitri": (60, 90, 170), "Hannah": (170, 60, 110)})
    shots = (
        Shot(0, 22, "reception", row("notebook"), BADGE, activity="signing in"),
        Shot(22, 54, "meeting room", row("calculator", "notebook"), WHITEBOARD, "Dmitri", "a meeting with Dmitri"),
        Shot(54, 80, "kitchenette", row("thermos"), speaker="Hannah", activity="coffee with Hannah"),
        Shot(80, 104, "desk area", row("stapler", "thermos"), activity="answering email"),
        Shot(104, 126, "car park", row("notebook"), BAY_SIGN, activity="walking to the car"),
    )
    utterances = (
        _say(4, "Me", "Morning. I have a visitor badge today."),
        _say(25, "Dmitri", "Hello, I'm Dmitri from finance."),
        _say(31, "Dmitri", "Would you send me the sales figures by Thursday?"),
        _say(40, "Me", "Of course, I'll email them tomorrow."),
        _say(57, "Hannah", "Hi, this is Hannah. Coffee?"),
        _say(62, "Hannah", "The team lunch is on Wednesday. Sorry, I mean Tuesday."),
        _say(72, "Me", "Tuesday it is."),
        _say(84, "Me", "I should book a room for the review."),
        _say(108, "Me", "Where did I park? Bay forty seven."),
    )
    return finished(Script("A day at the office", duration=126, fps=10, size=(960, 540),
                        start_datetime="2024-10-07T09:00:00Z", rooms=rooms, objects=objects,
                        people=people, shots=shots, utterances=utterances, seed=seed), _questions)


def _questions(s: Script) -> tuple[Question, ...]:
    def where(obj: str, text: str) -> Question:
        return where_last(s, obj, text)

    return (
        Question("figures", "what did Dmitri need from me?", "the sales figures", "speech", ("sales figures", "figures"),
                 (said(s, "sales figures"),)),
        Question("deadline", "by when does Dmitri want the figures?", "Thursday", "speech", ("thursday",),
                 (said(s, "sales figures"),)),
        Question("lunch", "which day is the team lunch?", "Tuesday", "speech", ("tuesday",), (said(s, "team lunch"),)),
        Question("who-figures", "who was asking for the sales figures?", "Dmitri", "person", ("dmitri",),
                 (said(s, "sales figures"),)),
        Question("badge", "what number was on my visitor badge?", "5521", "text", ("5521",), shown(s, "NO 5521")),
        Question("review", "when's the budget review?", "Friday 3 pm", "text", ("friday", "3 pm", "15:00"),
                 shown(s, "FRIDAY 3 PM")),
        Question("bay", "which bay is my car in?", "47", "text", ("47",), shown(s, "PARKING BAY 47")),
        where("thermos", "where did I leave my thermos?"),
        where("notebook", "where was my notebook last?"),
        Question("printer", "where's the printer?", "", "unanswerable"),
        Question("dmitri-phone", "what's Dmitri's phone number?", "", "unanswerable"),
        Question("hannah-holiday", "what did Hannah say about her holiday?", "", "unanswerable"),
    )
