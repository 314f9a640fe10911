"""Everyday wording for the scale bench's synthetic memories: what a wearer sees, reads and
hears, and the questions they later ask.

Bench code, not system code: the synthetic records must read like real ingest (varied
sentences over an everyday vocabulary, in the shapes memory/builder.py writes) so that the
lexical index and the agent meet realistic text, never one repeated string.
"""
from __future__ import annotations

import random

PLACES = ("kitchen", "living room", "bedroom", "bathroom", "hallway", "office", "garage", "garden",
          "dining room", "balcony", "supermarket", "cafe", "restaurant", "gym", "station", "library",
          "pharmacy", "bank", "bakery", "park", "street", "lobby", "elevator", "school", "post office")
OBJECTS = ("keys", "wallet", "phone", "mug", "scissors", "laptop", "umbrella", "charger", "glasses",
           "book", "backpack", "water bottle", "headphones", "remote", "passport", "notebook", "pen",
           "tablet", "jacket", "shoes", "hat", "scarf", "camera", "watch", "ring", "bag", "toolbox",
           "hammer", "screwdriver", "tape", "batteries", "lamp", "plant", "vase", "bowl", "plate",
           "frying pan", "kettle", "toaster", "blender", "cutting board", "knife", "spoon", "towel",
           "toothbrush", "shampoo", "medicine", "vitamins", "receipt", "ticket", "envelope", "letter",
           "package", "bike helmet", "bicycle", "car keys", "sunglasses", "gloves", "dog leash",
           "cat food", "coffee beans", "milk", "bread", "eggs", "apples", "bananas", "cheese", "rice")
DETECTED = ("person", "chair", "cup", "bottle", "laptop", "cell phone", "book", "tv", "couch", "bed",
            "dining table", "car", "bicycle", "backpack", "handbag", "umbrella", "clock", "potted plant",
            "refrigerator", "microwave", "oven", "sink", "keyboard", "mouse", "bowl", "dog", "cat")
COLOURS = ("black", "white", "red", "blue", "green", "yellow", "grey", "brown", "orange", "pink", "silver")
STATES = (None, None, None, None, "dirty", "clean", "open", "closed", "full", "empty", "broken")
PEOPLE = ("Bob", "Alice", "Maya", "Tom", "Priya", "Lena", "Omar", "Grace", "Diego", "Sara", "Ken",
          "Nina", "Jonas", "Fatima", "Luis", "Hana", "Victor", "Chloe", "Sam", "Ivy", "Mum", "Dad",
          "the doctor", "the cashier", "the neighbour", "the barista")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
EVENTS = ("meeting", "dentist appointment", "birthday party", "dinner", "gym class", "flight", "interview",
          "parent evening", "book club", "football match", "haircut", "yoga class", "delivery")
SHOPS = ("supermarket", "pharmacy", "bakery", "hardware store", "market", "corner shop")
STREETS = ("MAIN ST", "OAK AVENUE", "HIGH STREET", "PARK ROAD", "ELM ST", "STATION ROAD", "KING ST")

_SAID = (
    "we should buy {obj} at the {shop}", "can you call {person} about the {event} on {day}",
    "I left my {obj} in the {place}", "the {event} moved to {time}", "did you see my {obj} anywhere",
    "let's meet at the {place} at {time}", "don't forget the {obj} for {person}",
    "{person} said the {event} is on {day}", "I'll bring the {obj} back on {day}",
    "the {obj} is in the {place} next to the {obj2}", "remind me to pay the {bill} bill",
    "how much was the {obj} at the {shop}", "it was {price} for two", "we're out of {food}",
    "{person} is coming over on {day} at {time}", "I think the {obj} is broken",
    "could you put the {obj} back in the {place}", "the {shop} closes at {time} today",
    "my {obj} needs charging", "I'm heading to the {place} now", "that was a great {event}",
    "can you pick up {food} on the way home", "the password is on the note in the {place}",
    "I promised {person} I'd help with the {obj}", "traffic on {street} was terrible",
    "the {event} starts at {time}, not {time2}", "I lent my {obj} to {person}",
    "we need to book the {event} before {day}", "where did you put the {obj}",
    "the {obj} goes in the {place}", "I'm not sure, maybe {person} knows", "thanks, see you {day}",
)
_READ = (
    "{street}", "{street} {num}", "APARTMENT {num}{letter}", "OPEN 9AM - {hour}PM", "EXIT",
    "PLATFORM {num}", "TEAM {EVENT} {time}", "SALE {pct}% OFF", "{FOOD} {price}", "WIFI PASSWORD {code}",
    "GATE {letter}{num}", "NO PARKING", "ROOM {num}", "{SHOP}", "CLOSED ON {DAY}", "TOTAL {price}",
    "BEST BEFORE {num}/{month}", "CALL {person_up} {phone}", "{EVENT} AT {time}", "PUSH", "PULL",
    "FLOOR {num}", "TAKE 1 TABLET DAILY", "BUS {num} TO {STREET2}", "CHECK-IN {time}",
)
QUESTIONS = (
    "Where did I leave my keys?", "Where did I last see my wallet?", "What did Bob say we should buy?",
    "When is the dentist appointment?", "What was the apartment number on that door?",
    "What is the wifi password?", "Who did I talk to at the cafe?", "How many times did I go to the gym?",
    "What did Alice say about the meeting?", "When did I last see my glasses?",
    "Where is the umbrella?", "What time does the bakery close?", "Did I take my medicine this morning?",
    "What did I read at the station?", "Who said the birthday party is on Saturday?",
    "How much was the coffee at the cafe?", "Where did I put the scissors?",
    "What did Maya ask me to bring?", "When did I leave the office yesterday?", "Was the frying pan dirty?",
    "Where do I usually keep my headphones?", "What did the doctor say?", "Which bus did I take?",
    "What did I promise Tom?", "How long was I in the supermarket?", "Who did I lend my book to?",
    "Where was I at 3 pm yesterday?", "What was on sale at the supermarket?",
    "Did anyone mention the flight?", "What did I do after lunch?",
)
FOODS = ("milk", "bread", "eggs", "coffee", "apples", "rice", "pasta", "cheese", "tomatoes", "butter")
BILLS = ("electricity", "water", "phone", "internet", "gas")


class Sentences:
    """Seeded sentence maker over the vocabulary above: one method per record kind."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def _pick(self, items):
        return items[self.rng.randrange(len(items))]

    def _time(self) -> str:
        return f"{self.rng.randint(1, 12)}:{self._pick(('00', '15', '30', '45'))} {self._pick(('am', 'pm'))}"

    def _fill(self, template: str) -> str:
        r, pick = self.rng, self._pick
        return template.format(
            obj=pick(OBJECTS), obj2=pick(OBJECTS), shop=pick(SHOPS), person=pick(PEOPLE), event=pick(EVENTS),
            day=pick(WEEKDAYS), place=pick(PLACES), time=self._time(), time2=self._time(), bill=pick(BILLS),
            price=f"${r.randint(1, 60)}.{r.randint(0, 99):02d}", food=pick(FOODS), street=pick(STREETS),
            STREET2=pick(STREETS), num=r.randint(1, 120), letter=pick("ABCDEFGH"), hour=r.randint(5, 11),
            EVENT=pick(EVENTS).upper(), pct=pick((10, 20, 25, 30, 50)), FOOD=pick(FOODS).upper(),
            code=f"{pick(COLOURS).upper()}{pick(('FOX', 'CAT', 'OWL', 'BEE'))}{r.randint(10, 99)}",
            SHOP=pick(SHOPS).upper(), DAY=pick(WEEKDAYS).upper(), month=r.randint(1, 12),
            person_up=pick(PEOPLE[:20]).upper(), phone=f"0{r.randint(100, 999)} {r.randint(100000, 999999)}",
        )

    def said(self) -> str:
        line = self._fill(self._pick(_SAID))
        return line[0].upper() + line[1:] + self._pick((".", ".", "?", "!"))

    def read(self) -> str:
        return self._fill(self._pick(_READ))

    def thing(self) -> tuple[str, str | None]:
        """An object a label names, and its state when one is printed after it."""
        return self._pick(OBJECTS), self._pick(STATES)

    def detected(self) -> tuple[str, str]:
        return self._pick(DETECTED), self._pick(COLOURS)

    def place(self) -> str:
        return self._pick(PLACES)

    def person(self) -> str:
        return self._pick(PEOPLE)
