"""Phrasings of the demo morning's scripted questions (eval/synthetic/morning.py).

Questions the life suites also ask ("What did Bob ask me to buy?", "Where did I leave my
passport?") share those templates; the rest have their own. The morning's questions are a
script (no Item), so `morning_phrasings` looks a question up by its text.
"""
from __future__ import annotations

from eval.phrasings.bank import Bank, Template, dev, held, plural_forms
from eval.phrasings.supermemory import ASKED_TO_BUY, LEFT_MY_THING

PROMISE = Template("morning-promise", "What did I promise to do after work?", (
    dev("Hey glasses, what did I promise to do after work?"),
    dev("What did I say I'd do after work?"),
    dev("After work I promised to do something. What was it?"),
    held("do you remember what I promised to do after work?"),
    held("any idea what I said I would do after work?"),
    held("remind me what I promised I'd do after work"),
    held("what'd I promise to do after work?"),
    held("what was I supposed to do after work, like I promised?"),
    held("I made a promise about after work, what was it?"),
    held("Can you tell me what I agreed to do once I'm done with work?"),
))

DENTIST_WHEN = Template("morning-dentist", "When is the dentist appointment?", (
    dev("Hey glasses, when is the dentist appointment?"),
    dev("What time is the dentist appointment?"),
    dev("When's my dentist appointment?"),
    held("do you remember when the dentist appointment is?"),
    held("any idea when I'm seeing the dentist?"),
    held("remind me when the dentist appointment is"),
    held("what time's the dentist?"),
    held("the dentist appointment, when is it again?"),
    held("when am I supposed to be at the dentist?"),
    held("Can you tell me when my appointment with the dentist is?"),
))

WHO_ASKED_GROCERIES = Template("morning-who-asked", "Who asked me to buy groceries?", (
    dev("Hey glasses, who asked me to buy groceries?"),
    dev("Who was it that wanted me to buy groceries?"),
    dev("Someone asked me to buy groceries. Who?"),
    held("do you remember who asked me to pick up groceries?"),
    held("any idea who wanted me to buy groceries?"),
    held("remind me who asked me to get groceries"),
    held("who's the one who asked me to buy groceries?"),
    held("who asked me to grab some groceries?"),
    held("somebody wanted groceries from me, who was that?"),
    held("Can you tell me which person asked me to buy the groceries?"),
))

WIFI_NOTE = Template("morning-wifi", "What is the wifi password on the note?", (
    dev("Hey glasses, what's the wifi password on the note?"),
    dev("What did the note say the wifi password is?"),
    dev("Can you read me the wifi password from the note?"),
    held("what's the wifi password? it was on a note"),
    held("do you remember the wifi password written on the note?"),
    held("any idea what the wi-fi password on the note was?"),
    held("remind me of the wifi password on the note"),
    held("the note with the wifi password, what did it say?"),
    held("wifi password from the note, please"),
    held("I need the wifi password that's written on the note. What is it?"),
))

APARTMENT = Template("morning-apartment", "What apartment number is on the door?", (
    dev("Hey glasses, what apartment number is on the door?"),
    dev("What's the apartment number on the door?"),
    dev("Which apartment number did the door say?"),
    held("do you remember the apartment number on the door?"),
    held("any idea which apartment number was on the door?"),
    held("remind me what apartment number is on the door"),
    held("what number's the apartment on the door?"),
    held("the door had an apartment number on it, what was it?"),
    held("what flat number is on the door?"),
    held("Can you tell me the apartment number written on the door?"),
))

LEFT_THE_THING = Template("morning-left-the", "Where did I leave the {thing}?", (
    dev("Hey glasses, where did I leave the {thing}?"),
    dev("Where'd I put the {thing}?"),
    dev("Do you know where I left the {thing}?"),
    held("any idea where I left the {thing}?"),
    held("do you remember where the {thing} ended up?"),
    held("can you remind me where I left the {thing}?"),
    held("I can't find the {thing}. Where did I leave {it}?"),
    held("trace the {thing} for me, where did I leave {it}?"),
    held("the {thing}, where did I leave {it}?"),
    held("Where have I left the {thing}?"),
), derive=plural_forms)

LAST_SAW_MY = Template("morning-last-saw", "Where did I last see my {thing}?", (
    dev("Hey glasses, where did I last see my {thing}?"),
    dev("Where did I see my {thing} last?"),
    dev("Do you remember where my {thing} {was} the last time I saw {it}?"),
    held("hey glasses, where'd I put my {thing}?"),
    held("do you remember where my {thing} ended up?"),
    held("any idea where I left the {thing}?"),
    held("can you remind me where I last saw my {thing}?"),
    dev("trace my {thing} for me"),  # seen in agent/intent_bank.py (3b9aa87): dev
    held("my {thing} {is} missing, where did I see {it} last?"),
    held("last place I saw my {thing}?"),
    held("I'm looking for my {thing}. Where {was} {they} when I last saw {it}?"),
), derive=plural_forms)

WHERE_IS_MY = Template("morning-where-is", "Where is my {thing}?", (
    dev("Hey glasses, where is my {thing}?"),
    dev("Where's my {thing}?"),
    dev("Do you know where my {thing} {is}?"),
    dev("any idea where my {thing} {is}?"),  # seen in agent/intent_bank.py (3b9aa87): dev
    dev("I can't find my {thing}. Where {is} {they}?"),  # seen in agent/intent_bank.py (3b9aa87): dev
    dev("help me find my {thing}"),  # seen in agent/intent_bank.py (3b9aa87): dev
    dev("where did my {thing} end up?"),  # seen in agent/intent_bank.py (3b9aa87): dev
    held("where'd my {thing} go?"),
    held("can you tell me where my {thing} {is} right now?"),
    held("Have you seen where my {thing} {is}?"),
    held("hey glasses, where's my {thing} at?"),
    held("could you check where my {thing} {is}?"),
    held("my {thing}, where {is} {they} now?"),
    held("which room is my {thing} in right now?"),
), derive=plural_forms)

CAR_COLOUR = Template("morning-car", "What colour is my car?", (
    dev("Hey glasses, what colour is my car?"),
    dev("What's the colour of my car?"),
    dev("What color is my car?"),
    held("do you remember what colour my car is?"),
    held("any idea what color my car is?"),
    held("remind me what colour my car is"),
    held("my car, what colour is it?"),
    held("what colour's my car?"),
    held("which colour is my car again?"),
    held("Can you tell me the colour of the car I drive?"),
))

SAID_ABOUT = Template("morning-said-about", "What did {who} say about the {topic}?", (
    dev("Hey glasses, what did {who} say about the {topic}?"),
    dev("What did {who} tell me about the {topic}?"),
    dev("What was {who}'s take on the {topic}?"),
    held("do you remember what {who} said about the {topic}?"),
    held("any idea what {who} mentioned about the {topic}?"),
    held("remind me what {who} said regarding the {topic}"),
    held("what'd {who} say about the {topic}?"),
    held("{who} talked about the {topic}. What was said?"),
    held("what was {who} saying about the {topic}?"),
    held("Can you tell me what {who} had to say about the {topic}?"),
))

FLIGHT = Template("morning-flight", "What time does my flight leave?", (
    dev("Hey glasses, what time does my flight leave?"),
    dev("When does my flight leave?"),
    dev("What time is my flight?"),
    held("do you remember what time my flight leaves?"),
    held("any idea when my flight departs?"),
    held("remind me what time my flight takes off"),
    held("when's my flight leaving?"),
    held("my flight, what time does it leave?"),
    held("what time am I flying out?"),
    held("Can you tell me the departure time of my flight?"),
))

MORNING = Bank("morning", (
    ASKED_TO_BUY, PROMISE, DENTIST_WHEN, WHO_ASKED_GROCERIES, WIFI_NOTE, APARTMENT, LEFT_THE_THING,
    LAST_SAW_MY, WHERE_IS_MY, CAR_COLOUR, SAID_ABOUT, FLIGHT, LEFT_MY_THING,
))


def morning_phrasings(question: str) -> dict | None:
    """{"template", "slots", "dev", "heldout"} for one of the morning's question texts."""
    return MORNING.phrasings_for(question)
