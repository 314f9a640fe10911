"""Training phrasings for the intent classifier: many ways people ask each kind of question.

Written for the classifier alone and kept apart from every evaluation phrasing (eval/ owns
those; nothing here is copied from them). The things, people and places in these lines
are deliberately varied and not the ones our generated worlds use: the classifier must
learn the shape of a question, not its nouns.
"""
from __future__ import annotations

INTENT_BANK: dict[str, tuple[str, ...]] = {
    "locate": (
        "where did I put my wallet", "where are my glasses", "where's the remote", "where did I leave the charger",
        "have you seen my headphones", "where did my umbrella end up", "when did I last see my passport",
        "where was the stapler last", "hey glasses, where'd I leave my sunglasses?", "any idea where my notebook is",
        "do you remember where I put the tape measure", "I can't find my badge, where is it",
        "where did I drop the car key", "find my water bottle", "where is the blue folder now",
        "where did I set down my coffee cup", "where was my jacket the last time you saw it",
        "help me find my earbuds", "which room did I leave the laptop in", "where might my ring be",
        "locate my bike helmet", "where did I stash the receipts", "last place I had my phone?",
    ),
    "trajectory": (
        "where has my backpack been today", "trace my wallet for me", "track where the laptop went",
        "where has the red box been over the last few days", "show me everywhere my keys have been",
        "list the places my umbrella has been, oldest first", "how did the camera move around the house",
        "follow my charger's path this week", "what places has my bag passed through",
        "where all has the toolbox been since monday", "give me the history of where my glasses were",
        "trace the journey of my notebook from first to last",
    ),
    "count": (
        "how many cups of coffee did I have", "how many different dogs did I see", "how many times did I go to the bank",
        "how often have I been to the pharmacy so far", "count the bikes I saw today",
        "how many people did I talk to this morning", "number of visits to the bakery this week",
        "how many distinct chairs were in the room", "how many trips to the gym have I made",
        "how many calls did I take yesterday", "how many books have I seen so far",
        "how many times did I open the fridge", "how many different cars did I walk past",
        "what's the count of meetings I had", "how many visits to the post office have I made up to now",
    ),
    "when": (
        "when did I call the plumber", "what time did I leave home", "what day did I buy the printer ink",
        "on which day did I eat pancakes", "when was I last at the dentist", "what time did the train leave",
        "when did I take my medication", "at what time did I feed the cat", "which day did I go swimming",
        "when did I see the doctor", "what time was it when I got to work", "hey, what day was it that I had ramen",
        "when did I water the plants", "remind me when I last went running", "on what date did I visit the museum",
        "which day did I have curry for dinner at home", "on what day was I at the museum with the kids",
        "what day did I bake bread in the kitchen", "which morning did I go jogging by the river",
        "when is the vet appointment", "what time is the meeting", "when is the party supposed to start",
    ),
    "duration": (
        "how long was I at the gym", "how long did I spend in the kitchen", "how much time did I spend at the park",
        "for how long did I talk to my sister", "how long did the meeting last", "how long was I out this afternoon",
        "how many minutes did I spend cooking", "how long did I stay at the library",
        "how much time did lunch take", "how long have I been at my desk today",
    ),
    "order": (
        "in what order did I visit the shops", "which came first, the call or the walk",
        "what order did these happen in", "did I go to the bank before or after the bakery",
        "put these in order: breakfast, emails, the gym", "what was the sequence of places I went to",
        "which did I do first, laundry or dishes", "order the rooms I was in this morning",
        "list what I did today in order", "what happened first and what happened next",
    ),
    "activity": (
        "what did I do once dinner was over", "what was I doing before the meeting", "what happened this morning",
        "what did I do yesterday evening", "what did I get up to after the gym", "what happened after I got home",
        "what was going on around 3pm", "what did I do right before I left the office",
        "summarise my afternoon", "what have I been doing today", "what happened at the park",
        "what did I do on saturday", "what did I eat for breakfast", "what did I have for dinner yesterday",
        "what was I working on this morning", "tell me about my day",
    ),
    "speech": (
        "what did Maria say about the budget", "what did my boss tell me", "who said the store closes at nine",
        "what did Tom mention about the trip", "what was the time Priya said for the meeting",
        "who told me about the road closure", "what did my mom say on the phone",
        "what did we talk about at dinner", "what did the speaker say about climate", "who was giving the talk",
        "what did I tell Sam", "what did Lee finally decide about the venue", "who mentioned the concert",
        "what was said about the deadline", "what did the doctor say", "who was leading the workshop",
        "what did the guy at the counter say", "what did they say the password was",
    ),
    "people": (
        "who did I chat with earlier", "who did I meet today", "who was at the meeting",
        "who was with me at lunch", "who did I run into at the store", "who came over yesterday",
        "who have I spoken with today", "who was in the room", "which people did I see at the party",
        "did I talk to anyone after work", "who visited me this week", "who was I chatting with",
    ),
    "read": (
        "what was written on the whiteboard", "what did the sign say", "what's the wifi password",
        "what was the number on the door", "what did the note on the fridge say", "what was the price of the lamp",
        "how much did I spend at the pharmacy", "what was the total on the receipt", "what was on the screen",
        "what did the poster say", "what was the title of the book I was reading", "what's the code on the label",
        "what time did the board say", "what did I read this morning", "what was on the menu",
        "what was the flight number on the ticket", "what did the text on the box say", "how much was the bill",
        "what was the name on the badge", "what did the slide say",
        "the leaflet about the sale, what date did it give", "which day was the invitation for",
        "that card from the vet: what time was printed on it", "the ticket for the show, which date was on it",
    ),
    "requests": (
        "did somebody need something from me", "what did Jo ask me to buy", "what was I asked to do",
        "what did my manager want me to send", "did someone ask me to pick something up",
        "what favors did people ask of me", "what did my partner ask me to get",
        "is there anything people need from me", "what did Ken want me to bring",
        "who asked me to call them back", "what did she ask me to send over", "any requests for me today",
    ),
    "commitments": (
        "anything I said I'd take care of", "what did I promise to do after work", "what did I say I would buy",
        "what did I agree to do", "what was I planning to do tonight", "what did I intend to do tomorrow",
        "did I commit to anything today", "what did I tell Ana I would do", "what am I supposed to do later",
        "what did I say I needed to do", "remind me what I said I'd get", "what did I plan to do this weekend",
        "what did I offer to help with", "what do I still owe people", "yesterday I said there was a chore I had to do, which one",
        "what was that errand I told myself I needed to run", "the other day I mentioned a task for this week, what was it",
    ),
    "habit": (
        "where do I usually eat lunch", "what do I normally do after dinner", "where do I typically go after the gym",
        "where do I usually work", "what's my morning routine", "where do I tend to put my keys",
        "where do I generally have breakfast", "what do I usually do on sunday mornings",
        "where do I most often use my tablet", "after work, where do I usually head",
        "what's my usual spot for coffee", "where do I usually go next after the bank",
    ),
    "state": (
        "what condition was the bike in", "what colour was the car", "was the window open or closed",
        "what state was the kitchen in when I left", "was the pan clean or dirty", "what colour is my umbrella",
        "was the bottle full", "how did the flowers look last time", "what shape was the table",
        "was the door locked", "what was the person holding",
    ),
    "sources": (
        "which video showed the dog", "in which clip did the chef appear", "was the cake in the left or right video",
        "which screen half showed the beach", "which recording had the song", "which of the two videos had the fire",
        "in which stream did the man cook", "which segment showed the car",
    ),
    "verify": (
        "did I lock the door", "did I take my pills this morning", "did I call mom yesterday", "was there a van",
        "did anyone mention the party", "did I see a cat today", "did I turn off the stove",
        "was Maria at the meeting", "did I buy milk", "have I been to the gym this week", "did it rain today",
        "did I reply to the landlord", "is it true that I met Omar", "did I leave the lights on",
    ),
    "search": (
        "tell me about the garden", "anything about the neighbours", "what do you know about the project",
        "show me memories of the beach", "what about the cat", "everything about the renovation",
        "remind me about the thing with the car", "what's going on with the leak",
    ),
}
