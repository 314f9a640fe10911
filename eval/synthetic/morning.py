""""Morning at home": a 3.5-minute scripted morning, the end-to-end demo of memlens.

It packs the wearer's core question types into one short video: a request and a
commitment (Bob), a spoken correction (Alice: 3 pm, no, 4:30), text to read (a fridge
note, a screen, a door sign), objects that move between rooms (the answer is where they
were LAST seen), and questions whose answer is nowhere in the video (must abstain).
Answers about objects are derived from the shots, so editing the plot keeps them true.
"""

from __future__ import annotations

from .script import CANNOT_ANSWER, Question, Room, SceneObject, Script, Shot, TextArtifact
from .writing import cast, finished, row, said, shown, voiced, where_last

# chosen among espeak-ng voices for being told apart and transcribed well by Whisper base
VOICES = {"Me": "en-us+klatt", "Bob": "en-us+m3", "Alice": "en-us+f2"}
WIFI_NOTE = TextArtifact("note", ("WIFI PASSWORD", "BLUEFOX42"), x=0.45, y=0.42)
OFFICE_SCREEN = TextArtifact("screen", ("TEAM MEETING", "10:00 AM"), x=0.5, y=0.42)
DOOR_SIGN = TextArtifact("sign", ("APARTMENT 4B",), x=0.5, y=0.40)


_say = voiced(VOICES)


def morning_at_home(seed: int = 0) -> Script:
    """The morning script; `seed` only changes camera jitter and noise, never content."""
    rooms = (
        Room("bedroom", (170, 170, 225)),
        Room("kitchen", (236, 214, 140)),
        Room("living room", (150, 200, 160)),
        Room("office", (205, 170, 140)),
        Room("hallway", (185, 185, 185)),
    )
    objects = (
        SceneObject("scissors", (45, 45, 50), "diamond"),
        SceneObject("keys", (230, 190, 40), "circle"),
        SceneObject("mug", (40, 110, 220), "square"),
        SceneObject("book", (40, 150, 80), "rect"),
    )
    people = cast(VOICES, {"Me": (90, 90, 90), "Bob": (60, 90, 170), "Alice": (170, 60, 110)})
    shots = (
        Shot(0, 22, "bedroom", row("keys", "book"), activity="waking up"),
        Shot(22, 50, "kitchen", row("scissors", "mug"), WIFI_NOTE, "Bob",
             "talking with Bob over breakfast"),
        Shot(50, 78, "living room", row("scissors"), speaker="Alice",
             activity="talking with Alice"),
        Shot(78, 104, "office", row("mug"), OFFICE_SCREEN, activity="checking email"),
        Shot(104, 126, "bedroom", row("book", "keys"), activity="getting dressed"),
        Shot(126, 150, "kitchen", (), WIFI_NOTE, "Bob", "saying goodbye to Bob"),
        Shot(150, 172, "living room", row("scissors"), speaker="Alice",
             activity="saying goodbye to Alice"),
        Shot(172, 194, "hallway", row("keys"), DOOR_SIGN, activity="putting on shoes"),
        Shot(194, 210, "hallway", (), DOOR_SIGN, activity="leaving the apartment"),
    )
    utterances = (
        _say(3, "Me", "Good morning. Time to get up."),
        _say(11, "Me", "I should not be late today."),
        _say(24, "Bob", "Hi, it's Bob. Good morning."),
        _say(30, "Bob", "Can you please buy oat milk and eggs on your way home?"),
        _say(37, "Me", "Sure, I will pick them up after work."),
        _say(44, "Bob", "Thanks. The wifi password is on the fridge."),
        _say(52, "Alice", "Good morning, I am Alice."),
        _say(57, "Me", "Hi Alice, how are you?"),
        _say(61, "Alice", "The dentist appointment is at three pm. Actually no, it moved to four thirty."),
        _say(71, "Me", "Four thirty, got it. Thanks."),
        _say(81, "Me", "Let me check my email before I go."),
        _say(90, "Me", "The team meeting is at ten."),
        _say(107, "Me", "Where are my keys? Oh, here they are."),
        _say(129, "Bob", "I am leaving now. See you tonight."),
        _say(136, "Me", "Bye Bob, see you later."),
        _say(155, "Alice", "Have a good day at work."),
        _say(161, "Me", "Thanks, you too."),
        _say(180, "Me", "Keys, phone, wallet. Okay, let's go."),
        _say(197, "Me", "The door is locked. Time to go to work."),
    )
    return finished(Script("Morning at home", duration=210, fps=10, size=(960, 540),
                        start_datetime="2024-05-14T07:30:00Z", rooms=rooms, objects=objects,
                        people=people, shots=shots, utterances=utterances, seed=seed), _questions)


def _questions(s: Script) -> tuple[Question, ...]:
    synonyms = {"living room": ("lounge",), "hallway": ("hall", "entrance"), "office": ("study",)}

    def where(obj: str, text: str) -> Question:
        return where_last(s, obj, text, synonyms)

    dentist = ("4:30", "four thirty", "4.30", "430", "16:30", "half past four")
    return (
        Question("buy", "What did Bob ask me to buy?", "oat milk and eggs", "speech",
                 ("oat milk", "eggs"), (said(s, "oat milk"),)),
        Question("promise", "What did I promise to do after work?",
                 "pick up oat milk and eggs", "speech",
                 ("oat milk", "eggs", "pick them up", "pick up"), (said(s, "pick them up"),)),
        Question("dentist", "When is the dentist appointment?", "4:30 pm", "speech",
                 dentist, (said(s, "dentist"),)),
        Question("who-asked", "Who asked me to buy groceries?", "Bob", "person", ("bob",),
                 (said(s, "oat milk"),)),
        Question("wifi", "What is the wifi password on the note?", "BLUEFOX42", "text",
                 ("bluefox42",), shown(s, "BLUEFOX42")),
        Question("apartment", "What apartment number is on the door?", "4B", "text",
                 ("4b",), shown(s, "APARTMENT 4B")),
        where("scissors", "Where did I leave the scissors?"),
        where("keys", "Where did I last see my keys?"),
        where("mug", "Where is my mug?"),
        Question("car", "What colour is my car?", "", "unanswerable"),
        Question("carol", "What did Carol say about the trip?", "", "unanswerable"),
        Question("passport", "Where did I leave my passport?", "", "unanswerable"),
        Question("dentist-mc", "When is the dentist appointment?", "4:30 pm", "speech",
                 dentist, (said(s, "dentist"),),
                 options=("3:00 pm", "4:30 pm", "10:00 am", CANNOT_ANSWER)),
        Question("flight-mc", "What time does my flight leave?", CANNOT_ANSWER,
                 "unanswerable", options=("7:30 am", "4:30 pm", "10:00 am", CANNOT_ANSWER)),
    )
