"""Phrasings of the generated SuperMemory-VQA suite's questions (eval/life/supermemory.py).

Each template: its exact generator wording, then 3 dev and 7 held-out phrasings that ask
the same thing about the same slots and the same time ("today", "tonight", "last night",
"after work" survive every rewording), so the gold option stays gold.
"""
from __future__ import annotations

from eval.phrasings.bank import Bank, Template, dev, held, plural_forms

OBJECT_LOCATION = Template("olm-thing", "I can't find my {thing}. Where did I last see it?", (
    dev("Hey glasses, where did I last see my {thing}?"),
    dev("Do you remember where my {thing} {was} the last time I saw {it}?"),
    dev("I've lost my {thing} again. Where did you last spot {it}?"),
    held("hey glasses, where'd I put my {thing}?"),
    held("any idea where I left the {thing}?"),
    held("Can you remind me where I last saw my {thing}?"),
    held("last place I saw my {thing}?"),
    held("I'm looking for my {thing} and can't find {it} anywhere. Where {was} {they} when I last saw {it}?"),
    dev("trace my {thing} for me"),  # seen in agent/intent_bank.py (3b9aa87): dev
    held("my {thing} {is} gone again, where did I last see {it}?"),
    held("where did my {thing} end up the last time I had {it}?"),
), derive=plural_forms)

PAN_LOCATION = Template("olm-pan", "Where did I last see the pan?", (
    dev("Hey glasses, where did I last see the pan?"),
    dev("Do you remember where the pan was the last time I saw it?"),
    dev("Where was the pan when I saw it last?"),
    held("any idea where the pan ended up?"),
    held("Can you remind me where I last saw the pan?"),
    held("last place I saw the pan?"),
    held("I need the pan. Where was it the last time I saw it?"),
    held("where did I spot the pan most recently?"),
    held("hey glasses, where'd I leave the pan?"),
    held("the pan, where was it last?"),
))

SEND_DOC = Template("conv-send", "What did {who} ask me to send today?", (
    dev("Hey glasses, what did {who} ask me to send today?"),
    dev("What was it {who} wanted me to send today?"),
    dev("Today {who} asked me to send something. What was it?"),
    held("do you remember what {who} asked me to send over today?"),
    held("what'd {who} want me to send today?"),
    held("Can you remind me which thing {who} asked me to send today?"),
    held("any idea what {who} wanted sent today?"),
    held("{who} asked me to send something earlier today, what was it again?"),
    held("remind me, what did {who} need me to send today?"),
    held("What's the thing {who} asked me today to send?"),
))

LAST_BUY = Template("conv-last-buy", "What did {who} last ask me to buy?", (
    dev("Hey glasses, what did {who} last ask me to buy?"),
    dev("What's the last thing {who} asked me to buy?"),
    dev("What did {who} most recently ask me to pick up?"),
    held("what was the last thing {who} wanted me to buy?"),
    held("do you remember what {who} asked me to get from the store the last time?"),
    held("any idea what {who}'s latest shopping request was?"),
    held("can you remind me what {who} most recently asked me to buy?"),
    held("The last time {who} asked me to buy something, what was it?"),
    held("what'd {who} last want me to grab from the shop?"),
    held("what's the most recent thing {who} wanted me to buy?"),
))

MEET_TIME = Template("conv-corr-meet", "What time did {who} finally say we should meet at the {place}?", (
    dev("Hey glasses, what time did {who} finally say we should meet at the {place}?"),
    dev("{who} changed the time to meet at the {place}. What time did we end up with?"),
    dev("What's the final time {who} gave for meeting at the {place}?"),
    held("when are {who} and I meeting at the {place}? the final time, after the change"),
    held("what time did we settle on with {who} for the {place}?"),
    held("do you remember what time {who} said in the end for meeting at the {place}?"),
    held("any idea what time we're meeting at the {place}? {who} changed it at one point"),
    held("remind me, what time did {who} end up saying to meet at the {place}?"),
    held("{who} corrected the time for meeting at the {place}, what's the new time?"),
    held("so what time are we meeting at the {place} in the end, according to {who}?"),
))

REVIEW_TIME = Template("conv-corr-review", "What time did {who} finally say the {topic} review is?", (
    dev("Hey glasses, what time did {who} finally say the {topic} review is?"),
    dev("{who} changed the time of the {topic} review. What time is it now?"),
    dev("What's the final time {who} gave for the {topic} review?"),
    held("when's the {topic} review? {who} corrected it at some point"),
    held("what time did {who} end up saying the {topic} review is at?"),
    held("do you remember the final time {who} told me for the {topic} review?"),
    held("remind me what time the {topic} review is, going by what {who} said last"),
    held("any idea what time the {topic} review got moved to? {who} mentioned it"),
    held("{who} said one time for the {topic} review and then changed it, what's the new one?"),
    held("what time's the {topic} review, after {who}'s correction?"),
))

MEETING_LEADER = Template("conv-lead", "Who did {who} eventually say is leading the {topic} meeting?", (
    dev("Hey glasses, who did {who} eventually say is leading the {topic} meeting?"),
    dev("{who} got back to me about who's running the {topic} meeting. Who was it?"),
    dev("Who's leading the {topic} meeting, according to what {who} told me later?"),
    held("who's running the {topic} meeting? {who} found out and told me"),
    held("do you remember who {who} said would lead the {topic} meeting?"),
    held("any idea who's in charge of the {topic} meeting? {who} let me know"),
    held("remind me who {who} said is leading the {topic} meeting in the end"),
    held("{who} wasn't sure at first who leads the {topic} meeting, then told me. who was it?"),
    held("who did {who} say is chairing the {topic} meeting when they got back to me?"),
    held("What name did {who} finally give me for whoever is leading the {topic} meeting?"),
))

WIFI = Template("vis-wifi", "What is the wifi password on the kitchen note?", (
    dev("Hey glasses, what's the wifi password on the kitchen note?"),
    dev("What did the note in the kitchen say the wifi password is?"),
    dev("Can you read me the wifi password from the note in the kitchen?"),
    held("what's the wifi password? it was on a note in the kitchen"),
    held("do you remember the wifi password written on the kitchen note?"),
    held("any idea what the wi-fi password is, from that kitchen note?"),
    held("remind me of the wifi password on the note in the kitchen"),
    held("the kitchen note with the wifi password, what did it say?"),
    held("wifi password from the kitchen note, please"),
    held("I need the wifi password that's written on the note in the kitchen. What is it?"),
))

DENTIST_DAY = Template("vis-dentist", "Which day is the dentist appointment on the note?", (
    dev("Hey glasses, which day is the dentist appointment on the note?"),
    dev("What day did the note say the dentist appointment is?"),
    dev("The note about the dentist: which day was it for?"),
    held("when's my dentist appointment? what day did the note say"),
    held("do you remember which day the dentist note said?"),
    held("any idea what day the dentist appointment is? it was on a note"),
    held("remind me what day the dentist appointment on that note is"),
    held("which day am I seeing the dentist, according to the note?"),
    held("dentist appointment from the note, which day?"),
    held("I saw a note about a dentist appointment. What day was written on it?"),
))

SCREEN_MEETING = Template("vis-screen", "What time was the {topic} meeting on the office screen today?", (
    dev("Hey glasses, what time was the {topic} meeting on the office screen today?"),
    dev("What time did the office screen say the {topic} meeting is today?"),
    dev("Today the office screen showed the {topic} meeting. At what time?"),
    held("when's the {topic} meeting? it was up on the office screen today"),
    held("do you remember what time the {topic} meeting was on the screen at the office today?"),
    held("any idea what time the office screen gave for today's {topic} meeting?"),
    held("remind me of the {topic} meeting time I saw on the office screen today"),
    held("what time's the {topic} meeting, going by the office screen today?"),
    held("{topic} meeting time from the office screen today?"),
    held("I glanced at the screen in the office today and it listed the {topic} meeting. What time did it say?"),
))

RECEIPT = Template("vis-receipt", "What was the total on my {where} receipt today?", (
    dev("Hey glasses, what was the total on my {where} receipt today?"),
    dev("How much did the {where} receipt come to today?"),
    dev("What did today's {where} receipt say the total was?"),
    held("how much did I spend at the {where} today, according to the receipt?"),
    held("do you remember the total on the {where} receipt from today?"),
    held("any idea what my {where} receipt added up to today?"),
    held("remind me what the total was on the {where} receipt today"),
    held("what'd the {where} bill come to today? the receipt total"),
    held("{where} receipt today, what was the total?"),
    held("I got a receipt at the {where} today. What was the total amount on it?"),
))

MOVIE = Template("vis-movie", "Which movie was on the TV screen tonight?", (
    dev("Hey glasses, which movie was on the TV screen tonight?"),
    dev("What film was showing on the TV tonight?"),
    dev("Tonight's movie on the TV, which one was it?"),
    held("what movie was on TV tonight?"),
    held("do you remember which movie we had on the TV tonight?"),
    held("any idea what film was on the TV screen tonight?"),
    held("remind me which movie was playing on the telly tonight"),
    held("what was the movie on the TV tonight, the title?"),
    held("which film did the TV show tonight?"),
    held("I forgot the name of the movie that was on the TV tonight. What was it?"),
))

LOCKER = Template("vis-locker", "What was my locker number at the gym today?", (
    dev("Hey glasses, what was my locker number at the gym today?"),
    dev("Which locker did I have at the gym today?"),
    dev("What number was my gym locker today?"),
    held("what locker was I using at the gym today?"),
    held("do you remember my locker number at the gym today?"),
    held("any idea which locker number I had at the gym today?"),
    held("remind me what my gym locker number was today"),
    held("locker number at the gym today?"),
    held("I need my locker number from the gym today, what was it?"),
    held("which number was on my locker at the gym today?"),
))

LUNCH_ON_REQUEST_DAY = Template("ic-lunch", "Where did I have lunch on the day {who} asked me for the {doc}?", (
    dev("Hey glasses, where did I have lunch on the day {who} asked me for the {doc}?"),
    dev("On the day {who} asked me for the {doc}, where did I eat lunch?"),
    dev("Where'd I have lunch the day {who} wanted the {doc}?"),
    held("do you remember where I ate lunch the day {who} asked for the {doc}?"),
    held("any idea where I had lunch on the day {who} asked me for the {doc}?"),
    held("remind me where I went for lunch on the day {who} asked me for the {doc}"),
    held("{who} asked me for the {doc} one day. Where did I have lunch that day?"),
    held("where was lunch on the day {who} requested the {doc}?"),
    held("the day {who} asked me for the {doc}, where'd I have lunch?"),
    held("Can you tell me where I had my lunch on the same day that {who} asked me for the {doc}?"),
))

BREAKFAST_ON_GYM_DAY = Template("ic-gym", "What did I eat for breakfast on the day I went to the gym?", (
    dev("Hey glasses, what did I eat for breakfast on the day I went to the gym?"),
    dev("On the day I went to the gym, what did I have for breakfast?"),
    dev("What was breakfast on my gym day?"),
    held("do you remember what I had for breakfast the day I went to the gym?"),
    held("any idea what I ate for breakfast on the day I hit the gym?"),
    held("remind me what my breakfast was on the day I went to the gym"),
    held("I went to the gym one day. What did I eat for breakfast that day?"),
    held("what'd I have for breakfast the day I worked out at the gym?"),
    held("the day I went to the gym, what was breakfast?"),
    held("Can you tell me what I had for breakfast that morning, on the same day I went to the gym?"),
))

VISIT_ORDER = Template("tl-order", "In what order did I go to the {a}, the {b} and the {c} today?", (
    dev("Hey glasses, in what order did I go to the {a}, the {b} and the {c} today?"),
    dev("Today I went to the {a}, the {b} and the {c}. In what order?"),
    dev("What order did I visit the {a}, the {b} and the {c} in today?"),
    held("which order did I hit the {a}, the {b} and the {c} in today?"),
    held("do you remember the order I went to the {a}, the {b} and the {c} today?"),
    held("can you put today's stops at the {a}, the {b} and the {c} in order for me?"),
    held("remind me what order I was at the {a}, the {b} and the {c} today"),
    held("the {a}, the {b}, the {c}: what order did I go to them today?"),
    held("any idea which came first, second and third today: the {a}, the {b} or the {c}?"),
    held("I went to the {a}, the {b} and the {c} today, but in what sequence?"),
))

LAST_NIGHT_INTENT = Template("int-last-night", "Last night, what did I say I need to do today?", (
    dev("Hey glasses, last night what did I say I need to do today?"),
    dev("What did I say last night that I need to do today?"),
    dev("Last night I mentioned something I have to do today. What was it?"),
    held("do you remember what I said last night I had to do today?"),
    held("any idea what I said last night I needed to get done today?"),
    held("remind me what I said last night I'm supposed to do today"),
    held("what was that thing I said last night I need to do today?"),
    held("what'd I say last night about what I need to do today?"),
    held("last night I said I had to do something today, what?"),
    held("Can you tell me which task I said last night that I need to take care of today?"),
))

PROMISED_PURCHASE = Template("int-promise-buy", "What did I tell {who} I would buy after work?", (
    dev("Hey glasses, what did I tell {who} I would buy after work?"),
    dev("What did I promise {who} I'd buy after work?"),
    dev("I told {who} I'd buy something after work. What was it?"),
    held("do you remember what I told {who} I'd pick up after work?"),
    held("any idea what I said to {who} I'd buy after work?"),
    held("remind me what I promised {who} I'd get after work"),
    held("what was I going to buy after work, like I told {who}?"),
    held("what'd I tell {who} I'd grab after work?"),
    held("after work I'm meant to buy something I mentioned to {who}. what is it?"),
    held("Can you tell me what I agreed with {who} to buy after work?"),
))

ASKED_TO_BUY = Template("ask-buy", "What did {who} ask me to buy?", (
    dev("Hey glasses, what did {who} ask me to buy?"),
    dev("What was it {who} wanted me to buy?"),
    dev("{who} asked me to buy something. What was it?"),
    held("do you remember what {who} asked me to buy?"),
    held("any idea what {who} wanted me to pick up at the store?"),
    held("remind me what {who} asked me to buy"),
    held("what'd {who} ask me to grab from the shop?"),
    held("what did {who} need me to buy?"),
    held("what's the shopping {who} asked me to do?"),
    held("Can you tell me what it was that {who} asked me to go and buy?"),
))

LEFT_MY_THING = Template("left-my", "Where did I leave my {thing}?", (
    dev("Hey glasses, where did I leave my {thing}?"),
    dev("Where'd I put my {thing}?"),
    dev("Do you know where I left my {thing}?"),
    held("any idea where I left my {thing}?"),
    held("do you remember where my {thing} ended up?"),
    held("can you remind me where I left my {thing}?"),
    held("I can't find my {thing}. Where did I leave {it}?"),
    held("trace my {thing} for me, where did I leave {it}?"),
    held("my {thing}, where did I leave {it}?"),
    held("Where have I left my {thing}?"),
), derive=plural_forms)

PHARMACY_RECEIPT = Template("vis-pharmacy", "What was the total on the pharmacy receipt?", (
    dev("Hey glasses, what was the total on the pharmacy receipt?"),
    dev("How much did the pharmacy receipt come to?"),
    dev("What did the pharmacy receipt say the total was?"),
    held("how much did I spend at the pharmacy, going by the receipt?"),
    held("do you remember the total on the pharmacy receipt?"),
    held("any idea what the pharmacy receipt added up to?"),
    held("remind me of the total on the receipt from the pharmacy"),
    held("pharmacy receipt, what was the total?"),
    held("what'd the pharmacy bill come to on the receipt?"),
    held("I had a receipt from the pharmacy. What was the total amount on it?"),
))

REMINDED_TO = Template("int-reminded", "What did {who} remind me to do?", (
    dev("Hey glasses, what did {who} remind me to do?"),
    dev("What was it {who} reminded me to do?"),
    dev("{who} reminded me to do something. What was it?"),
    held("do you remember what {who} reminded me to do?"),
    held("any idea what {who} told me not to forget to do?"),
    held("can you remind me what {who} reminded me to do?"),
    held("what'd {who} remind me to do?"),
    held("what was the thing {who} reminded me I had to do?"),
    held("{who} gave me a reminder to do something, what?"),
    held("Can you tell me which task {who} reminded me to take care of?"),
))

LUNCH_ON_VISIT_DAY = Template("ic-visit", "Where did I have lunch on the day {who} visited?", (
    dev("Hey glasses, where did I have lunch on the day {who} visited?"),
    dev("On the day {who} visited, where did I eat lunch?"),
    dev("Where'd I have lunch the day {who} came to visit?"),
    held("do you remember where I ate lunch the day {who} visited?"),
    held("any idea where I had lunch on the day {who} came by?"),
    held("remind me where I went for lunch on the day {who} visited"),
    held("{who} visited one day. Where did I have lunch that day?"),
    held("where was lunch on the day of {who}'s visit?"),
    held("the day {who} visited, where'd I have lunch?"),
    held("Can you tell me where I had my lunch on the same day that {who} visited?"),
))

SUPERMEMORY = Bank("supermemory", (
    OBJECT_LOCATION, PAN_LOCATION, SEND_DOC, LAST_BUY, MEET_TIME, REVIEW_TIME, MEETING_LEADER, WIFI,
    DENTIST_DAY, SCREEN_MEETING, RECEIPT, MOVIE, LOCKER, LUNCH_ON_REQUEST_DAY, BREAKFAST_ON_GYM_DAY,
    VISIT_ORDER, LAST_NIGHT_INTENT, PROMISED_PURCHASE, ASKED_TO_BUY, LEFT_MY_THING, PHARMACY_RECEIPT,
    REMINDED_TO, LUNCH_ON_VISIT_DAY,
))
