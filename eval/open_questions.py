"""Forty open questions (no options) over the demo morning and the smoke two-day life, asked
the way a glasses wearer talks, with their accepted answers.

This is EVALUATION MATERIAL. Agent, memory, retrieval and perception code must never
import it, copy its sentences or learn from them: it measures how the system does on
wording nobody tuned it on (tests/test_open_questions.py guards both).

The sentences are written fresh: they are not the generators' templates
(eval/life/supermemory.py, egomemreason.py, eval/synthetic/morning.py), not the phrasing
banks (eval/phrasings/) and not the intent examples (agent/intent_bank.py). Every
expected answer comes from the script of the morning (eval/synthetic/morning.py) or the
log of the smoke life (`eval.life` world, seed 0, 1 wearer x 2 days: Monday 3 and
Tuesday 4 June 2024), never from what memlens answers; `basis` says which fact, and the
fast tests re-derive them from the script and the simulation.

Scoring is by normalised containment (eval.scoring.mentions): an answer is right when it
mentions one accepted alternative. An alternative is a string, a tuple of strings (all of
them must be mentioned) or `InOrder` (all mentioned, in that order). Questions marked
`abstain` (things never seen, false premises) are right only when the system abstains.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from eval.scoring import mentions

MORNING, LIFE = "morning", "life"


@dataclass(frozen=True)
class InOrder:
    """Every part mentioned, in this order (other words may come between)."""

    parts: tuple[str, ...]


Accepted = str | tuple[str, ...] | InOrder


@dataclass(frozen=True)
class OpenQuestion:
    id: str
    memory: str  # MORNING | LIFE: which rendered memory it is asked of
    text: str
    asked_at: str  # ISO, naive, on the wearer's clock
    intent: str  # what kind of question it is, for reading results
    basis: str  # the fact of the script / log the answer rests on
    accepted: tuple[Accepted, ...] = ()
    abstain: bool = False

    @property
    def asked_time(self) -> datetime:
        return datetime.fromisoformat(self.asked_at)

    @property
    def expected(self) -> str:
        """The accepted answers in one line, for tables."""
        if self.abstain:
            return "(abstain)"
        return " | ".join(_show(a) for a in self.accepted)


def _show(a: Accepted) -> str:
    if isinstance(a, InOrder):
        return " -> ".join(a.parts)
    return " + ".join(a) if isinstance(a, tuple) else a


def _clock(hour: int, minute: int) -> tuple[str, ...]:
    """A time of day as people and systems write it: 5:31, 05:31, 17:31."""
    twelve = hour % 12 or 12
    forms = [f"{twelve}:{minute:02d}", f"{twelve:02d}:{minute:02d}", f"{hour}:{minute:02d}"]
    return tuple(dict.fromkeys(forms))


def _seconds(low: int, high: int) -> tuple[str, ...]:
    """A duration in whole seconds within [low, high]: a stay measured from what was seen
    can be off by a second or two at either end."""
    return tuple(f"{n} {unit}" for n in range(low, high + 1) for unit in ("seconds", "s", "sec", "secs"))


DENTIST_FINAL = ("4:30", "four thirty", "16:30", "half past four", "430")
FIVE_PM = ("five", "5", "5 pm", "5pm", "5:00", "17:00", "5 o clock")

QUESTIONS: tuple[OpenQuestion, ...] = (
    # ---- the demo morning: 2024-05-14 07:30:00 to 07:33:30 -----------------------------------
    OpenQuestion(
        "m01", MORNING, "hey glasses, which room were the scissors in when I last saw them?",
        "2024-05-14T07:45:00", "last seen", "scissors: kitchen 22-50 s, living room 50-78 s and 150-172 s",
        ("living room", "lounge")),
    OpenQuestion(
        "m02", MORNING, "quick one: where's my mug at the moment?",
        "2024-05-14T07:31:10", "last seen, cut at the question time",
        "mug in the kitchen 22-50 s; it is next seen in the office from 78 s (07:31:18), after t_q",
        ("kitchen",)),
    OpenQuestion(
        "m03", MORNING, "do you remember every room my keys showed up in this morning?",
        "2024-05-14T07:45:00", "where has X been", "keys: bedroom 0-22 s and 104-126 s, hallway 172-194 s",
        (("bedroom", "hallway"), ("bedroom", "hall"))),
    OpenQuestion(
        "m04", MORNING, "all told, how many different rooms was I in before I left?",
        "2024-05-14T07:45:00", "count distinct", "bedroom, kitchen, living room, office, hallway",
        ("5", "five")),
    OpenQuestion(
        "m05", MORNING, "is anybody counting on me to bring something home later?",
        "2024-05-14T07:45:00", "did anyone ask me for anything",
        "Bob at 30 s: 'Can you please buy oat milk and eggs on your way home?'",
        (("oat milk", "eggs"),)),
    OpenQuestion(
        "m06", MORNING, "Alice changed the dentist time, didn't she? what's it now?",
        "2024-05-14T07:45:00", "what did X say (a correction)",
        "Alice at 61 s: 'at three pm. Actually no, it moved to four thirty.'", DENTIST_FINAL),
    OpenQuestion(
        "m07", MORNING, "this morning, did I actually speak to anyone? who?",
        "2024-05-14T07:45:00", "who did I talk to", "Bob in the kitchen, Alice in the living room",
        (("bob", "alice"),)),
    OpenQuestion(
        "m08", MORNING, "I said yes to something Bob needed. what exactly did I sign up for?",
        "2024-05-14T07:45:00", "what did I promise", "me at 37 s: 'Sure, I will pick them up after work.'",
        ("pick them up", "pick up", "oat milk", "eggs")),
    OpenQuestion(
        "m09", MORNING, "I need to get my laptop online, what's the code on that fridge note?",
        "2024-05-14T07:45:00", "what did I read (a note)", "kitchen note 'WIFI PASSWORD / BLUEFOX42'",
        ("bluefox42", "bluefox 42")),
    OpenQuestion(
        "m10", MORNING, "what was on the monitor when I was checking my email?",
        "2024-05-14T07:45:00", "what did I read (a screen)",
        "me at 81 s in the office: 'Let me check my email'; the office screen reads 'TEAM MEETING / 10:00 AM'",
        ("team meeting",)),
    OpenQuestion(
        "m11", MORNING, "after I left the office, where'd I head next?",
        "2024-05-14T07:45:00", "what after a place", "office 78-104 s, then bedroom 104-126 s",
        ("bedroom",)),
    OpenQuestion(
        "m12", MORNING, "what did Bob say on his way out?",
        "2024-05-14T07:45:00", "what did X say", "Bob at 129 s: 'I am leaving now. See you tonight.'",
        ("see you tonight", "leaving now")),
    OpenQuestion(
        "m13", MORNING, "I popped into the office earlier, for how long?",
        "2024-05-14T07:45:00", "how long", "office shot 78-104 s: 26 s",
        _seconds(24, 28)),
    OpenQuestion(
        "m14", MORNING, "hey glasses, any sign of my sunglasses this morning?",
        "2024-05-14T07:45:00", "never seen", "no sunglasses in any shot or line", abstain=True),
    OpenQuestion(
        "m15", MORNING, "what did Alice tell me while we were in the kitchen?",
        "2024-05-14T07:45:00", "false premise", "Alice is only ever in the living room", abstain=True),
    # ---- the smoke life: Monday 2024-06-03 and Tuesday 2024-06-04 ------------------------------
    OpenQuestion(
        "l01", LIFE, "heading out in a minute. where did the keys get left last night?",
        "2024-06-04T07:00:00", "last seen", "Monday evening 21:08: keys in the hallway (not in the bedroom)",
        ("hallway", "hall")),
    OpenQuestion(
        "l02", LIFE, "the red mug keeps wandering off, where all has it been?",
        "2024-06-04T22:30:00", "where has X been",
        "red mug: Monday dinner in the kitchen, Tuesday dinner in the dining room",
        (("kitchen", "dining room"),)),
    OpenQuestion(
        "l03", LIFE, "I feel like we own too many mugs, how many different ones have you spotted?",
        "2024-06-04T22:30:00", "count distinct", "blue (Mon breakfast, both afternoons), red (dinners), green (Tue breakfast)",
        ("3", "three")),
    OpenQuestion(
        "l04", LIFE, "the library, I keep going back there. how many visits is that now?",
        "2024-06-04T22:30:00", "count visits", "library after lunch on Monday 13:03 and Tuesday 13:04",
        ("2", "two", "twice")),
    OpenQuestion(
        "l05", LIFE, "what time did I get to the gym today?",
        "2024-06-04T22:30:00", "when did", "Tuesday's errand: gym from 17:31:39",
        _clock(17, 31) + _clock(17, 32)),
    OpenQuestion(
        "l06", LIFE, "soup at the cafe, which day was that again?",
        "2024-06-05T08:00:00", "which day", "Tuesday lunch at the cafe: soup (Monday was salad in the park)",
        ("tuesday", "yesterday", "june 4", "4 june", "june 4th", "4th of june", "2024-06-04")),
    OpenQuestion(
        "l07", LIFE, "this morning's office stint lasted how long?",
        "2024-06-04T22:30:00", "how long", "Tuesday work episode in the office: 25.1 s from 09:10:49",
        _seconds(23, 27)),
    OpenQuestion(
        "l08", LIFE, "once I'd finished lunch today, where did I go?",
        "2024-06-03T22:30:00", "what after (lunch)", "Monday lunch in the park 12:19, then the library 13:03",
        ("library",)),
    OpenQuestion(
        "l09", LIFE, "where was I right before I went to the gym?",
        "2024-06-04T22:30:00", "what before (a place)", "Tuesday: office 14:44, then the gym 17:31",
        ("office",)),
    OpenQuestion(
        "l10", LIFE, "put today's stops in order for me: the gym, the cafe and the library",
        "2024-06-04T22:30:00", "in what order", "Tuesday: cafe 12:07, library 13:04, gym 17:31",
        (InOrder(("cafe", "library", "gym")),)),
    OpenQuestion(
        "l11", LIFE, "yesterday, which people did I have conversations with?",
        "2024-06-05T08:00:00", "who did I talk to", "Tuesday: Bob at work (twice), Alice at dinner",
        (("bob", "alice"),)),
    OpenQuestion(
        "l12", LIFE, "who was with me in the dining room this evening?",
        "2024-06-04T22:30:00", "who was there", "Tuesday 19:14 in the dining room with Alice",
        ("alice",)),
    OpenQuestion(
        "l13", LIFE, "Bob wanted something from me this morning, what was it?",
        "2024-06-04T12:00:00", "what did X ask me", "Bob on Tuesday 09:10: 'Could you send me the report by Wednesday?'",
        ("report",)),
    OpenQuestion(
        "l14", LIFE, "so who's going to lead the budget meeting, did we ever hear?",
        "2024-06-04T22:30:00", "what did X say (a deferred answer)",
        "Tuesday 09:11 'I will tell you later'; 14:45 'Peter is leading the budget meeting.'",
        ("peter",)),
    OpenQuestion(
        "l15", LIFE, "Bob moved the budget review yesterday, what time did it end up at?",
        "2024-06-04T08:00:00", "what did X say (a correction)",
        "Bob on Monday 14:39: 'The budget review is at two. Actually, no, it moved to five.'", FIVE_PM),
    OpenQuestion(
        "l16", LIFE, "what's Alice expecting me to pick up tomorrow?",
        "2024-06-04T22:30:00", "what did X ask me (the latest)",
        "Alice on Tuesday 19:14: 'Could you buy batteries tomorrow?' (Monday's request was apples)",
        ("batteries",)),
    OpenQuestion(
        "l17", LIFE, "before bed I mentioned a to-do for tomorrow, what was it?",
        "2024-06-04T22:30:00", "what did I plan", "me on Tuesday 21:10: 'Tomorrow I need to return the library book.'",
        ("library book",)),
    OpenQuestion(
        "l18", LIFE, "which document did I say I'd get over to Bob?",
        "2024-06-04T07:00:00", "what did I promise (cut at the question time)",
        "me on Monday 09:00: 'I will send the schedule tomorrow morning' (the report comes on Tuesday, after t_q)",
        ("schedule",)),
    OpenQuestion(
        "l19", LIFE, "what did the cafe charge me for lunch?",
        "2024-06-04T22:30:00", "what did I read (a receipt)", "Tuesday cafe receipt 'TOTAL $13.25'",
        ("13.25",)),
    OpenQuestion(
        "l20", LIFE, "I've forgotten which locker I used earlier, what number was it?",
        "2024-06-04T18:00:00", "what did I read (a sign)", "Tuesday gym sign 'LOCKER / 49'",
        ("49", "forty nine")),
    OpenQuestion(
        "l21", LIFE, "we watched something tonight, what was the film called?",
        "2024-06-04T23:00:00", "what did I read (a screen)", "Tuesday 21:10 living room TV 'MOVIE NIGHT / ROCKY'",
        ("rocky",)),
    OpenQuestion(
        "l22", LIFE, "is there somewhere I always end up once lunch is over?",
        "2024-06-04T22:30:00", "habit", "both days: lunch, then the library (13:03, 13:04)",
        ("library",)),
    OpenQuestion(
        "l23", LIFE, "can't find my wallet anywhere, did you catch where I put it down?",
        "2024-06-04T22:30:00", "never seen", "no wallet in any episode", abstain=True),
    OpenQuestion(
        "l24", LIFE, "when I was at the gym, what was Alice saying to me?",
        "2024-06-04T22:30:00", "false premise", "Alice is only at dinner; the gym visit has no one else", abstain=True),
    OpenQuestion(
        "l25", LIFE, "do you remember Peter talking to me at the office? what did he say?",
        "2024-06-04T22:30:00", "false premise", "Peter is only named by Bob; he never speaks or appears", abstain=True),
)


def open_questions(memory: str | None = None) -> tuple[OpenQuestion, ...]:
    """All forty, or those of one memory (MORNING or LIFE)."""
    if memory not in (None, MORNING, LIFE):
        raise ValueError(f"unknown memory {memory!r}; memories: {MORNING}, {LIFE}")
    return tuple(q for q in QUESTIONS if memory is None or q.memory == memory)


def _matches(answer: str, accepted: Accepted) -> bool:
    if isinstance(accepted, str):
        return mentions(answer, accepted)
    if isinstance(accepted, tuple):
        return all(mentions(answer, part) for part in accepted)
    rest = answer
    for part in accepted.parts:  # each part after the previous one
        words = rest.split()
        found = next((k for k in range(len(words)) if mentions(" ".join(words[: k + 1]), part)), None)
        if found is None:
            return False
        rest = " ".join(words[found + 1:])
    return True


def is_right(question: OpenQuestion, answer: str, abstained: bool) -> bool:
    """Abstain items: the system abstained. Others: it answered and mentioned an accepted
    alternative."""
    if question.abstain:
        return abstained
    return not abstained and any(_matches(answer, a) for a in question.accepted)


def score(results: Iterable[tuple[OpenQuestion, str, bool]]) -> tuple[int, int]:
    """(right, asked) over (question, answer, abstained) triples."""
    marks = [is_right(q, a, abstained) for q, a, abstained in results]
    return sum(marks), len(marks)
