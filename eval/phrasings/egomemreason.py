"""Phrasings of the generated EgoMemReason suite's questions (eval/life/egomemreason.py).

Each template: its exact generator wording, then 3 dev and 7 held-out phrasings with the
same slots and the same span ("over the last days", "so far", "usually", "the last time");
ordering questions keep their (a)/(b)/(c) events verbatim, since the options quote them.
"""
from __future__ import annotations

from eval.phrasings.bank import Bank, Template, dev, held, plural_forms

TRACKING = Template("track", "Where {have} my {thing} been over the last days, from earliest to latest?", (
    dev("Hey glasses, where {have} my {thing} been over the last days, from earliest to latest?"),
    dev("Can you list the places my {thing} {have} been over the last days, earliest first?"),
    dev("Over the last few days, where {have} my {thing} been? Earliest to latest, please."),
    held("trace my {thing} for me over the last days, from the first place to the most recent"),
    held("do you remember everywhere my {thing} {have} been the past few days, in order from earliest?"),
    held("any idea where my {thing} {have} been these last days? give me the order, earliest to latest"),
    held("remind me of the places my {thing} went through over the last days, earliest first"),
    held("{where_have} my {thing} been over the past days? list the places from earliest to latest"),
    held("walk me through where my {thing} {have} been over the last few days, in order, earliest to latest"),
    held("My {thing}: which places {have} {they} been in over the last days, from the earliest one to the latest one?"),
), derive=plural_forms)

PAN_STATE = Template("pan-state", "What condition was the pan in, and where, the last time I saw it?", (
    dev("Hey glasses, what condition was the pan in, and where, the last time I saw it?"),
    dev("The last time I saw the pan, what state was it in and where was it?"),
    dev("Where was the pan last time I saw it, and in what condition?"),
    held("do you remember where the pan was and what state it was in when I last saw it?"),
    held("any idea what condition the pan was in and where it was when I last saw it?"),
    held("remind me of the pan's condition and location the last time I saw it"),
    held("last time I saw the pan, where was it and what condition was it in?"),
    held("the pan: where was it and in what state, when I saw it last?"),
    held("what was the state of the pan last time I saw it, and where was it?"),
    held("Can you tell me both where the pan was and what condition it was in, the most recent time I saw it?"),
))

DISTINCT_COUNT = Template("count-distinct", "How many different {category}s have I seen so far?", (
    dev("Hey glasses, how many different {category}s have I seen so far?"),
    dev("So far, how many distinct {category}s have I come across?"),
    dev("How many different {category}s have I seen up to now?"),
    held("do you know how many different {category}s I've seen so far?"),
    held("any idea how many separate {category}s I've seen up to now?"),
    held("count the different {category}s I've seen so far for me"),
    held("how many {category}s have I seen so far, counting each one only once?"),
    held("remind me how many different {category}s I've laid eyes on so far"),
    held("what's the number of different {category}s I've seen till now?"),
    held("I keep seeing {category}s around. How many different ones have I seen so far?"),
))

VISIT_COUNT = Template("count-visits", "How many times have I been to the {place} so far?", (
    dev("Hey glasses, how many times have I been to the {place} so far?"),
    dev("So far, how many times have I gone to the {place}?"),
    dev("How many visits to the {place} have I made up to now?"),
    held("do you know how many times I've been to the {place} so far?"),
    held("any idea how many times I've visited the {place} up to now?"),
    held("count my trips to the {place} so far"),
    held("how many times've I been to the {place} so far?"),
    held("remind me how many times I've been at the {place} so far"),
    held("what's my number of visits to the {place} so far?"),
    held("I've been going to the {place} a bit. How many times so far?"),
))

EVENT_ORDER = Template("order-events", "In what order did these happen: (a) {a}, (b) {b}, (c) {c}?", (
    dev("Hey glasses, in what order did these happen: (a) {a}, (b) {b}, (c) {c}?"),
    dev("Put these in the order they happened: (a) {a}, (b) {b}, (c) {c}."),
    dev("What order did these happen in? (a) {a}, (b) {b}, (c) {c}"),
    held("can you sort these by when they happened: (a) {a}, (b) {b}, (c) {c}?"),
    held("do you remember the order of these: (a) {a}, (b) {b}, (c) {c}?"),
    held("which happened first, second and third: (a) {a}, (b) {b}, (c) {c}?"),
    held("help me get the order right, earliest first: (a) {a}, (b) {b}, (c) {c}"),
    held("remind me in which sequence these happened: (a) {a}, (b) {b}, (c) {c}"),
    held("(a) {a}, (b) {b}, (c) {c}: what order did they happen in?"),
    held("Thinking back, could you tell me the order in which these things happened? (a) {a}, (b) {b}, (c) {c}"),
))

MEAL_DAY = Template("link-meal", "On which day did I have {food} for {meal} in the {place}?", (
    dev("Hey glasses, on which day did I have {food} for {meal} in the {place}?"),
    dev("Which day was it that I had {food} for {meal} in the {place}?"),
    dev("What day did I eat {food} for {meal} in the {place}?"),
    held("do you remember which day I had {food} for {meal} in the {place}?"),
    held("any idea what day I ate {food} for {meal} in the {place}?"),
    held("remind me which day I had {meal} in the {place} and it was {food}"),
    held("when did I have {food} for {meal} in the {place}? which day?"),
    held("I had {food} for {meal} in the {place} once. Which day was that?"),
    held("which day did I eat {food} for {meal} in the {place}?"),
    held("Can you tell me on which day I had {food} as my {meal} in the {place}?"),
))

BREAKFAST_ON_MOVIE_DAY = Template("link-movie", "What did I have for breakfast on the day I watched {movie}?", (
    dev("Hey glasses, what did I have for breakfast on the day I watched {movie}?"),
    dev("On the day I watched {movie}, what did I have for breakfast?"),
    dev("What was breakfast the day I watched {movie}?"),
    held("do you remember what I ate for breakfast the day I watched {movie}?"),
    held("any idea what I had for breakfast on the day I saw {movie}?"),
    held("remind me what breakfast was on the day I watched {movie}"),
    held("I watched {movie} one day. What did I eat for breakfast that day?"),
    held("the day I watched {movie}, what'd I have for breakfast?"),
    held("what was my breakfast on the day we had {movie} on?"),
    held("Can you tell me what I had for breakfast that morning, on the same day that I watched {movie}?"),
))

USUAL_MEAL_PLACE = Template("spatial-meal", "Where do I usually have {meal}?", (
    dev("Hey glasses, where do I usually have {meal}?"),
    dev("Where do I normally eat {meal}?"),
    dev("Where do I tend to have {meal}?"),
    held("where do I usually eat my {meal}?"),
    held("do you know where I usually have {meal}?"),
    held("any idea where I have {meal} most of the time?"),
    dev("what's my usual spot for {meal}?"),  # seen in agent/intent_bank.py (3b9aa87): dev
    held("where's my regular place to have {meal}?"),
    held("remind me where I typically have {meal}"),
    held("where do I mostly have {meal}?"),
    held("I have {meal} in different places. Where do I usually have it?"),
))

USUAL_THING_PLACE = Template("spatial-thing", "Where do I usually use my {thing}?", (
    dev("Hey glasses, where do I usually use my {thing}?"),
    dev("Where do I normally use my {thing}?"),
    dev("Where do I tend to be when I use my {thing}?"),
    held("where do I mostly use my {thing}?"),
    held("do you know where I usually use the {thing}?"),
    held("any idea where I use my {thing} most of the time?"),
    held("what's my usual spot for using my {thing}?"),
    held("remind me where I typically use my {thing}"),
    held("where am I usually when I'm on my {thing}?"),
    held("I use my {thing} in a few places. Where do I usually use {it}?"),
), derive=plural_forms)

AFTER_LUNCH = Template("activity-lunch", "Where am I most likely to go after lunch?", (
    dev("Hey glasses, where am I most likely to go after lunch?"),
    dev("After lunch, where do I usually head?"),
    dev("Where do I tend to go after lunch?"),
    held("where do I usually go after lunch?"),
    held("do you know where I'm most likely to head after lunch?"),
    held("any idea where I normally go once lunch is over?"),
    held("what's my usual next stop after lunch?"),
    held("based on my habits, where will I probably go after lunch?"),
    held("remind me where I most often go after lunch"),
    held("Once I've had lunch, where am I most likely to go next?"),
))

AFTER_OFFICE = Template("activity-office", "Where am I most likely to go after the office in the afternoon?", (
    dev("Hey glasses, where am I most likely to go after the office in the afternoon?"),
    dev("In the afternoon, after the office, where do I usually go?"),
    dev("Where do I tend to go after the office in the afternoon?"),
    held("where do I usually head after the office in the afternoon?"),
    held("do you know where I'm most likely to go after leaving the office in the afternoon?"),
    held("any idea where I normally go after the office in the afternoons?"),
    held("what's my usual next stop after the office in the afternoon?"),
    held("based on my habits, where will I probably go after the office in the afternoon?"),
    held("remind me where I most often go after the office in the afternoon"),
    held("Once I'm done at the office in the afternoon, where am I most likely to go next?"),
))

EGOMEMREASON = Bank("egomemreason", (
    TRACKING, PAN_STATE, DISTINCT_COUNT, VISIT_COUNT, EVENT_ORDER, MEAL_DAY, BREAKFAST_ON_MOVIE_DAY,
    USUAL_MEAL_PLACE, USUAL_THING_PLACE, AFTER_LUNCH, AFTER_OFFICE,
))
