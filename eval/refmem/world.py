"""A generated RefMem-Bench-style suite: weeks of chat between a protagonist and one or two
friends, with one latent trait planted per dimension (TD PI BM EGP IBM CMLI PVB TSVP) and
everyday talk around it, and items in MC / SC / DA with exact evidence anchors.

A trait is never named in the dialogue: it shows only through 3-5 cue exchanges spread over
different sessions (plus decoys that make the easy reading wrong: a latest-mention trap for
TD, an apology inside a blame-shift for PI, a friend's look-alike photos for PVB/TSVP, a
topic the protagonist happily discusses beside the one they dodge for IBM). Every (trait,
format) is asked twice: in a fixed template wording and in one of several held-out,
person-style wordings. Deterministic for a seed, and a world of its own, so the video
suites' worlds and results stay as they were.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from eval.refmem.dataset import DIMENSIONS, FORMATS, LETTERS, Evidence, RefMemItem, Suite, write_suite

PHRASINGS = ("template", "held-out")


# ---- the trait library ----------------------------------------------------------------------
@dataclass(frozen=True)
class Line:
    """One turn of a cue: said by the protagonist ("p") or a friend ("f"), optionally with a
    shared image's caption; `anchor` turns are the item's gold evidence."""

    who: str
    text: str
    image: str | None = None
    anchor: bool = False


def _p(text: str, image: str | None = None, anchor: bool = True) -> Line:
    return Line("p", text, image, anchor)


def _f(text: str, image: str | None = None, anchor: bool = False) -> Line:
    return Line("f", text, image, anchor)


Cue = tuple[Line, ...]  # a short exchange, written as one block inside a session


@dataclass(frozen=True)
class Trait:
    """One latent trait and everything asked about it. Options carry no subject, so they
    read as claims about the protagonist; `{p}` / `{f}` in wordings are the protagonist and
    the first friend."""

    dimension: str
    key: str
    cues: tuple[Cue, ...]  # anchored exchanges, each in its own session
    question: str  # the template wording
    held_out: tuple[str, ...]  # person-style wordings, one drawn per (trait, format)
    right: str  # SC's answer
    wrong: tuple[str, str, str]  # SC's distractors; the first is the trap (PVB: replaced by a friend's habit)
    true: tuple[str, ...]  # MC: true claims (2-3 are drawn)
    false: tuple[str, ...]  # MC: false claims that fill the four options
    references: tuple[str, ...]  # DA: acceptable 1-4 word answers
    decoys: tuple[Cue, ...] = ()  # unanchored exchanges that make the shallow reading wrong
    ordered: bool = False  # the cues must come in the listed order (TD always)
    conflicts: tuple[str, ...] = ()  # keys of traits that cannot share a context with this one


TD = (
    Trait("TD", "running", (
        (_p("ugh, work signed the whole team up for a charity 5k. I genuinely can't stand running"),
         _f("haha can't you just walk it?"),
         _p("that's literally the plan. I'd rather do all the paperwork than run a single step")),
        (_p("did a little jog after work today. it was less miserable than I expected tbh"),
         _f("wait, YOU went for a jog?"), _p("I know I know. don't make it a thing")),
        (_p("did 8k on sunday without stopping. I kind of look forward to it now, which is weird"),),
        (_f("how did the 5k go in the end?", anchor=True),
         _p("finished it! and then went home and entered a half marathon in april")),
    ), "How has {p}'s attitude toward running changed over time?",
        ("is {p} still hating on running or what?", "did {p} ever come around on the running thing?",
         "what's the story with {p} and running, from the start till now?",
         "so how does {p} feel about running these days compared to before?"),
        "went from dreading running to enjoying it and entering a race",
        ("has always been a keen runner", "started out keen on running and then gave it up",
         "still avoids running whenever possible"),
        ("disliked running at first", "started jogging on their own", "now looks forward to running",
         "entered a half marathon"),
        ("has always loved running", "stopped running after the 5k", "only runs because work makes them"),
        ("grew to love running", "came around to running", "hating to loving running", "dread to enjoyment"),
        ordered=True),
    Trait("TD", "job", (
        (_p("first week at the agency done and honestly? I love it. everyone's so sharp"),
         _f("see, told you it'd be a good move")),
        (_p("third weekend in a row answering client emails. it's starting to wear me down"),
         _f("that's not ok. do they at least pay you extra?"), _p("ha. no.", anchor=False)),
        (_p("my manager moved the deadline again and then blamed the team for it. I'm so done with this place"),),
        (_p("handed in my notice today. feels like a weight's come off"),
         _f("whoa!! what are you going to do next?"), _p("freelance for a bit maybe. I just needed out")),
    ), "How did {p}'s feelings about the agency job change over time?",
        ("so is {p} happy at the agency or not anymore?", "how's {p} been feeling about work lately vs when they started?",
         "what happened with {p} and that agency job?", "did {p} ever actually like the agency?"),
        "went from loving the job to burning out and quitting",
        ("never liked the agency job from the start", "disliked the job at first but grew to like it",
         "loves the job more than ever after a promotion"),
        ("was excited about the job at first", "was worn down by weekend work", "got fed up with the manager",
         "resigned from the agency"),
        ("never liked the job from day one", "got promoted at the agency", "is still happily at the agency"),
        ("burned out and quit", "loved it then quit", "grew disillusioned", "from love to quitting"),
        ordered=True, conflicts=("cautious",)),
    Trait("TD", "city", (
        (_p("this city is so loud. I miss how quiet it was back home"),
         _f("give it time, it's only been a few weeks")),
        (_p("found a tiny cafe by the canal, it's sort of becoming my spot"),),
        (_p("joined a climbing gym and I actually know people's names now"),
         _f("look at you, a local!")),
        (_f("so are you still moving back home next year like you said?", anchor=True),
         _p("honestly? I don't think so. this place feels like home now")),
    ), "How has {p}'s view of living in the city changed?",
        ("does {p} still want to move back home?", "is {p} settling into the city or still homesick?",
         "how does {p} feel about the city now compared to when they moved?",
         "has {p} made peace with the big city yet?"),
        "went from homesick to feeling at home in the city",
        ("has always felt at home in the city", "liked the city at first but now wants to leave",
         "is still planning to move back home"),
        ("felt homesick at first", "found favourite places in the city", "made friends at a climbing gym",
         "now feels at home in the city"),
        ("has always loved the city", "is moving back home next year", "never left their home town"),
        ("feels at home now", "homesick to settled", "settled in", "came to love it"),
        ordered=True, conflicts=("cast",)),
    Trait("TD", "flatmate", (
        (_p("the new flatmate leaves dishes on every surface. I'm losing my mind"),
         _f("have you said anything?"), _p("passive aggressive post-it. very mature of me")),
        (_p("ok the flatmate made me soup when I had that headache. maybe they're not the worst"),),
        (_p("stayed up till 2 with the flatmate watching {show}, it was honestly so fun"),),
        (_f("are you still thinking of moving out because of the flatmate?", anchor=True),
         _p("moving out?? no way, we're doing a quiz team together now")),
    ), "How has {p}'s relationship with the flatmate changed?",
        ("do {p} and the flatmate get along now?", "is {p} still fed up with the flatmate?",
         "what's the deal between {p} and the flatmate these days?",
         "how are things with {p}'s flatmate compared to at first?"),
        "went from irritation to friendship with the flatmate",
        ("has always got on well with the flatmate", "got on at first but then fell out",
         "is moving out because of the flatmate"),
        ("was annoyed by the flatmate's mess at first", "warmed up after a kind gesture",
         "now spends evenings with the flatmate", "joined a quiz team with the flatmate"),
        ("has always been close to the flatmate", "is moving out soon", "never talks to the flatmate"),
        ("became friends", "irritation to friendship", "warmed to them", "annoyed then friends"),
        ordered=True),
)

PI = (
    Trait("PI", "blame", (
        (_p("sorry I'm late!! the bus driver took the longest route possible, unbelievable"),),
        (_p("the report's late because IT messed up the shared drive. not my fault"),
         _f("did you tell your boss that?"), _p("obviously. it's their mess, not mine")),
        (_p("burnt the stir fry. I should've watched it, but honestly that recipe was useless, "
            "the timings were all wrong"),),
        (_p("got a parking fine because the sign was basically hidden. who puts a sign behind a tree?"),
         _f("ouch, are you going to appeal?")),
    ), "What does {p} usually do when something goes wrong?",
        ("how does {p} handle it when stuff goes sideways?", "when {p} messes something up, what's the usual reaction?",
         "what's {p}'s go-to move when things don't work out?", "does {p} ever own it when things go wrong?"),
        "blames someone or something else",
        ("apologises and owns the mistake", "laughs it off and moves on", "asks friends to help fix it"),
        ("points at other people", "blames tools or circumstances", "rarely admits fault"),
        ("takes full responsibility", "apologises and fixes it", "keeps problems to themselves"),
        ("blames others", "shifts the blame", "blames circumstances", "not their fault")),
    Trait("PI", "cancel", (
        (_p("ahh so sorry, something's come up. can we do dinner another time?"),
         _f("sure, no worries")),
        (_f("still on for saturday?"), _p("I know we said saturday but I'm wiped. rain check?")),
        (_p("the gig next week, I'll definitely be there this time, promise"),),
        (_p("ugh, can't make the gig tomorrow after all. next time for sure!"),
         _f("seriously? I got you a ticket")),
        (_p("I have to bail on the film tonight, you go without me"),),
    ), "What pattern is there in how {p} handles plans with friends?",
        ("is {p} reliable when it comes to plans?", "what does {p} tend to do with plans at the last minute?",
         "can you count on {p} to show up when you make plans?", "what's {p} like once a plan is made?"),
        "cancels at the last minute",
        ("always keeps promises once made", "is the one who organises everything", "never makes plans at all"),
        ("backs out of plans", "apologises and promises a next time", "cancels close to the day"),
        ("always shows up early", "plans trips months ahead", "never apologises"),
        ("cancels last minute", "bails on plans", "flakes on plans", "cancels plans"),
        ordered=True),
    Trait("PI", "volunteer", (
        (_p("said I'd do the raffle at the school fair, how hard can it be"),),
        (_p("I'm trying to say no to things more, honestly"), _f("good! you take on way too much")),
        (_p("also said yes to coaching the under-9s football on saturdays"),
         _f("I thought you were saying no to things??")),
        (_p("offered to organise the office party since nobody else would"),),
        (_p("told the neighbours I'd feed their fish while they're away, it's fine"),),
    ), "What does {p} tend to do when someone needs a hand?",
        ("is {p} the type to say no to extra stuff?", "what does {p} keep doing with extra jobs?",
         "what's {p} like when people are looking for volunteers?",
         "does {p} ever turn anything down?"),
        "offers to take it on, every time",
        ("has learned to say no to extra jobs", "avoids extra responsibility", "waits until asked twice"),
        ("volunteers for extra tasks", "takes on things nobody else wants", "keeps saying yes"),
        ("turns down requests for help", "only helps when paid", "has cut back on commitments"),
        ("volunteers for everything", "always says yes", "takes on too much", "volunteers"),
        ordered=True, conflicts=("cast",)),
    Trait("PI", "hobbies", (
        (_p("got a pottery wheel off marketplace! this is my thing now, I can feel it"),),
        (_p("the pottery wheel's in the cupboard for now. I've got really into birdwatching though"),
         _f("since when??")),
        (_p("birdwatching's a bit slow honestly. but I just got a sewing machine!!"),),
        (_f("how's the sewing going?"),
         _p("haha, about that. I've started learning italian instead, this one's going to stick")),
    ), "What does {p} tend to do with new hobbies?",
        ("does {p} ever stick with a hobby?", "what happens with {p}'s hobbies after a few weeks?",
         "what's {p} like with hobbies?", "how long does a new hobby last with {p}?"),
        "drops each one within weeks for the next",
        ("has finally found a hobby that sticks", "has no hobbies at all", "turns every hobby into a business"),
        ("starts hobbies enthusiastically", "abandons them quickly", "moves from one hobby to the next"),
        ("has done pottery for years", "never tries anything new", "sticks with one hobby"),
        ("drops hobbies quickly", "loses interest fast", "hobby hopping", "starts and quits"),
        ordered=True, conflicts=("frugal",)),
)

BM = (
    Trait("BM", "cautious", (
        (_p("read about forty reviews before I bought the kettle. you can't be too careful"),),
        (_f("why don't you just quit and find something better?"),
         _p("not without a signed offer in hand. no way")),
        (_p("my savings are in the most boring account possible and that's exactly how I like it"),),
        (_p("got the travel insurance. even for a weekend in Bath"), _f("you're so sensible it hurts")),
    ), "What kind of decision-maker is {p}?",
        ("would you call {p} a risk taker?", "how does {p} usually go about big choices?",
         "what's {p}'s attitude to taking chances?", "is {p} a leap-first kind of person?"),
        "careful and risk-averse",
        ("impulsive and spontaneous", "leaves decisions to other people", "chases big risky opportunities"),
        ("researches before buying", "prefers safe options", "plans for things going wrong"),
        ("makes snap decisions", "invests in risky schemes", "lets friends decide"),
        ("cautious", "risk-averse", "plays it safe", "careful")),
    Trait("BM", "approval", (
        (_p("is this jacket ok? I've sent a pic to my sister and my mum too before I decide"),),
        (_p("asked the whole group chat which flat to go for. I can't pick by myself"),),
        (_p("posted my drawing and then deleted it when it only got three likes"),),
        (_f("just pick whichever one you like!"), _p("but what would you pick? honestly, tell me")),
        (_p("was my email to my boss too much? be honest, I keep rereading it"),),
    ), "What seems to drive {p}'s decisions?",
        ("why does {p} always run things past everyone first?", "what does {p} need before making up their mind?",
         "what matters most to {p} when choosing something?", "how does {p} end up deciding stuff?"),
        "other people's approval",
        ("careful research of the facts", "saving money", "gut instinct"),
        ("checks with others before deciding", "worries about what people think", "seeks reassurance"),
        ("never asks for advice", "decides alone and fast", "ignores what others say"),
        ("others' approval", "reassurance", "validation", "what others think")),
    Trait("BM", "frugal", (
        (_p("found the exact same jacket second hand for a fifth of the price. why would anyone pay full"),),
        (_p("I cut my own hair now. saves a fortune"), _f("and it looks good?"), _p("it looks... free", anchor=False)),
        (_f("you should just get a new sofa"),
         _p("no way, I fixed the wobbly leg with some glue, it's basically new")),
        (_p("made a spreadsheet of everything I spent this month, very enlightening"),),
    ), "What does {p} value when it comes to spending?",
        ("is {p} a big spender?", "how does {p} feel about buying new stuff?", "what's {p} like with money?",
         "would {p} splash out on something new?"),
        "not wasting money",
        ("treating themselves to luxury", "buying the newest things", "never thinking about prices"),
        ("buys second hand", "repairs things instead of replacing them", "tracks spending closely"),
        ("splurges on designer clothes", "never checks prices", "replaces things at the first flaw"),
        ("frugal", "saving money", "thrifty", "not wasting money"),
        conflicts=("money", "hobbies")),
    Trait("BM", "impulsive", (
        (_p("booked a weekend at the coast an hour ago. it just felt right"),),
        (_p("dyed my hair blue last night. no plan, just did it"), _f("pics or it didn't happen")),
        (_f("did you at least compare a few?"), _p("nah, I don't do pros and cons lists. I just know")),
        (_p("went into the pet shop for fish food and came out with a hamster"),),
    ), "What kind of decision-maker is {p}?",
        ("does {p} think things through or just go for it?", "how does {p} usually make big choices?",
         "is {p} a planner?", "what's {p}'s style when a decision comes up?"),
        "spontaneous and goes with their gut",
        ("careful and risk-averse", "asks everyone before choosing", "sleeps on every decision"),
        ("makes snap decisions", "acts on a whim", "trusts gut feeling"),
        ("researches for weeks", "needs others' approval", "avoids any risk"),
        ("impulsive", "spontaneous", "on a whim", "goes with gut")),
)

EGP = (
    Trait("EGP", "flying", (
        (_p("took the train up to Edinburgh again. nine hours, but I'm not getting on a plane"),
         _f("nine hours!! you're dedicated")),
        (_f("did you see that turbulence video going round?"),
         _p("my hands went clammy just watching it. never, ever")),
        (_p("{f} you know me, I'd rather drive for two days than fly for two hours"),),
        (_p("the overnight ferry was actually kind of fun, I had a little cabin"),),
    ), "{p} has been invited to a wedding in Lisbon. How will {p} most likely get there?",
        ("if {p} gets asked to a wedding abroad, how would they travel?",
         "{p} needs to get to Lisbon for a wedding, what would they probably do?",
         "what travel plan would suit {p} for a trip to Lisbon?", "how's {p} getting to that Lisbon wedding?"),
        "by train or ferry, not by plane",
        ("on a short flight with friends for moral support", "on the cheapest direct flight",
         "skip the wedding altogether"),
        ("travel overland", "accept a much longer journey", "avoid flying"),
        ("take a short flight", "fly business class to be comfortable", "charter a small plane"),
        ("by train", "overland", "avoid flying", "train or ferry")),
    Trait("EGP", "lactose", (
        (_p("had a milkshake at the fair and regretted it for the rest of the day"),
         _f("oh no, what happened?"), _p("you don't want to know. never again")),
        (_p("oat milk in everything now, my stomach's never been happier"),),
        (_f("you didn't touch the cheese board at all on saturday!"),
         _p("yeah, you know how I get. wasn't worth it")),
        (_p("asked the waiter three times if the sauce had cream in it, he must hate me"),),
    ), "{f} is planning a dinner party and {p} is coming. What should be left off {p}'s plate?",
        ("what shouldn't I cook if {p}'s coming over?", "anything to avoid when feeding {p}?",
         "if we take {p} out to eat, what should we steer clear of?", "what can't {p} eat, going by the chats?"),
        "dairy, like cheese and cream",
        ("anything spicy", "gluten", "seafood"),
        ("milk", "cheese", "cream sauces"),
        ("rice", "vegetables", "spicy curry"),
        ("dairy", "milk products", "cheese and cream", "anything dairy")),
    Trait("EGP", "mornings", (
        (_p("8am meeting today. I was a zombie, couldn't string a sentence together"),),
        (_p("tried that sunrise yoga everyone raves about. slept through two alarms"),
         _f("haha how many did you set?"), _p("four. I need a better system or a different body")),
        (_p("I do my best work after dinner honestly. mornings are a write-off"),),
        (_f("want to grab breakfast before work on friday?", anchor=True),
         _p("can we make it lunch? you'd get a much nicer version of me")),
    ), "{p} gets to choose the time of an important job interview. When should it be?",
        ("when's the best time to schedule something big with {p}?", "what time of day would suit {p} for an interview?",
         "should I book {p}'s interview first thing?", "if {p} picks the interview slot, which one?"),
        "in the afternoon",
        ("at 8am to get it over with", "over an early breakfast", "it makes no difference to {p}"),
        ("in the afternoon", "later in the day rather than early", "after lunch"),
        ("at 8am sharp", "over breakfast", "at sunrise"),
        ("afternoon", "later in the day", "not early", "after lunch")),
    Trait("EGP", "cats", (
        (_p("spent the whole evening at my cousin's sneezing. their cat decided I was its favourite person"),),
        (_p("had to leave the housewarming early, my eyes were streaming. they've got two cats"),
         _f("oh no! didn't you take anything?"), _p("nothing with me. rookie mistake", anchor=False)),
        (_p("I always take an antihistamine before I visit my aunt now. her cats are lovely from a distance"),),
    ), "{p} has found a great, affordable room in a shared flat with two cats. What will {p} most likely do?",
        ("would {p} take a room in a flat with cats?", "{p} found a cheap room but there are cats, what happens?",
         "what should {p} do about the room with the two cats?", "is the cat flat a good fit for {p}?"),
        "turn the room down",
        ("take it straight away because it's cheap", "take it and offer to look after the cats",
         "take it and hope for the best"),
        ("turn the room down", "keep looking for a pet-free place", "expect sneezing and streaming eyes there"),
        ("move in straight away", "adopt a third cat", "ask the cats to move out"),
        ("turn it down", "decline the room", "keep looking", "avoid the cats")),
)

IBM = (
    Trait("IBM", "father", (
        (_f("how's your dad doing these days?", anchor=True),
         _p("fine I think. anyway! did you see the new quiz show?"),
         _f("no? is it any good?")),
        (_f("have you talked to your dad lately?", anchor=True), _p("let's not. what are you up to this weekend?"),
         _f("oh. ok. not much, my sister's visiting")),
        (_f("is your dad coming to your birthday?", anchor=True), _p("can we talk about literally anything else"),
         _f("sure, of course")),
        (_f("my mum asked after your dad, by the way", anchor=True), _p("mm. how's work been?"), _f("busy! ok so, you'll never guess")),
    ), "What topic does {p} keep steering away from?",
        ("what does {p} never want to talk about?", "is there something {p} always dodges when it comes up?",
         "what subject makes {p} change the conversation?", "what's the one thing {p} won't get into?"),
        "their father",
        ("their family in general", "their birthday", "weekend plans"),
        ("questions about their dad", "how their dad is doing", "their dad coming to events"),
        ("their mum", "work", "TV shows"),
        ("their father", "their dad", "dad", "relationship with dad"),
        decoys=((_p("mum came over on sunday and we made her chicken stew, so good"),
                 _f("aw, your mum's the best")),)),
    Trait("IBM", "ex", (
        (_f("guess who's back in town. Rory!", anchor=True), _p("mm. so how's the new flat coming along?"),
         _f("slowly! the kitchen's still in boxes")),
        (_f("are you and Rory still in touch at all?", anchor=True), _p("don't know, don't care. curry tonight?"),
         _f("ha ok. yes to curry")),
        (_f("Rory asked about you, by the way", anchor=True), _p("I'd rather not go there. tell me about your trip"),
         _f("ok ok. it was amazing actually")),
        (_f("do you think you and Rory will ever be friends again?", anchor=True),
         _p("anyway. did you end up getting those shoes?"), _f("...yes. they're great")),
    ), "Which subject does {p} avoid?",
        ("what happens when someone brings up Rory with {p}?", "what's off limits with {p}?",
         "what does {p} change the subject away from?", "who does {p} never want to hear about?"),
        "their ex, Rory",
        ("dating in general", "their friends' trips", "food plans"),
        ("news about Rory", "staying in touch with Rory", "Rory asking after them"),
        ("dating someone new", "their new flat", "dinner plans"),
        ("Rory", "their ex", "the ex", "the breakup"),
        decoys=((_p("went on a date with someone from the quiz night, it was actually really fun"),
                 _f("ooh! details please")),), ordered=True),
    Trait("IBM", "money", (
        (_f("how are you managing this month, money-wise?", anchor=True), _p("it's fine, it's handled. how's your mum?"),
         _f("she's good, she asks after you")),
        (_f("did the bank ever sort out that overdraft?", anchor=True), _p("eh, whatever. did you finish that book?"), _f("nearly!")),
        (_f("how much is the new place costing you, if you don't mind me asking?", anchor=True),
         _p("I'd rather not get into it. so what's new with you?"),
         _f("fair. not much!")),
    ), "What does {p} shut down whenever it comes up?",
        ("what topic makes {p} clam up?", "what won't {p} discuss with friends?",
         "is there anything {p} always deflects questions about?", "what should you not ask {p} about?"),
        "their finances",
        ("their new place", "their friends' mums", "books"),
        ("questions about money", "the overdraft", "what the new place costs"),
        ("books", "friends' families", "the new place's location"),
        ("money", "finances", "money problems", "their finances"),
        decoys=((_p("the new place has a tiny balcony, I'm obsessed"), _f("jealous!")),)),
    Trait("IBM", "kids", (
        (_f("so are you two thinking about kids at some point?", anchor=True),
         _p("ha. anyway, did you book the holiday yet?"),
         _f("not yet, still deciding")),
        (_f("you'd be such a good parent, you know", anchor=True), _p("ok, moving on. how's work?"), _f("haha ok. work's fine")),
        (_f("everyone at the christening kept asking when you'd have one", anchor=True),
         _p("can we not do this today"), _f("sure, sorry")),
    ), "What question does {p} always dodge?",
        ("what do people need to stop asking {p}?", "which topic makes {p} change the subject fast?",
         "what does {p} not want to discuss with friends?", "what's the question {p} never answers?"),
        "whether they want kids",
        ("anything about children", "holiday plans", "work"),
        ("plans to have children", "being a parent one day", "people asking when they'll have a baby"),
        ("their nephew", "their holidays", "their job"),
        ("having kids", "wanting children", "starting a family", "kids"),
        decoys=((_p("took my nephew to the aquarium, he was obsessed with the sharks"),
                 _f("aww, you're the fun relative")),), ordered=True),
)

CMLI = (
    Trait("CMLI", "surf", (
        (_p("lesson four tomorrow, wish me luck"),),
        (_p("finally managed it today!!", "a photo of a person standing up on a surfboard riding a small wave"),
         _f("WAIT is that you??"), _p("it is!! only for about three seconds but still")),
        (_p("my arms are dead but I'm going back on saturday", "a photo of a surfboard leaning against a car at the beach"),),
    ), "What has {p} been learning to do?",
        ("what's {p} been learning lately?", "what can {p} do now that they couldn't before?",
         "what was {p} so proud of managing?", "what new thing has {p} got into?"),
        "to surf",
        ("to drive", "to swim", "to sail"),
        ("took surfing lessons", "stood up on a surfboard", "plans to go back out surfing"),
        ("passed a driving test", "only watches other people surf", "learned to sail"),
        ("surfing", "to surf", "riding waves", "surf"),
        ordered=True, conflicts=("cast",)),
    Trait("CMLI", "cast", (
        (_p("well, that's the ski trip off then", "a photo of a leg in a white plaster cast propped up on a sofa"),),
        (_p("the stairs to my flat are an adventure now"),),
        (_p("six more weeks of this apparently", "a photo of a pair of crutches leaning against a hallway wall"),),
        (_f("how are you even getting to work?"), _p("taxis, and a lot of patience")),
    ), "What is going on with {p} at the moment?",
        ("why is {p} missing the ski trip?", "what's {p} dealing with right now?",
         "why is getting around so hard for {p} lately?", "what happened to {p}?"),
        "has a broken leg",
        ("the ski trip was called off for bad snow", "is looking after someone who got hurt", "has the flu"),
        ("has a leg in a cast", "is using crutches", "had to drop the ski trip"),
        ("sprained a wrist", "is recovering from flu", "went skiing anyway"),
        ("broken leg", "leg in a cast", "on crutches", "injured leg"),
        ordered=True, conflicts=("running", "city", "surf", "volunteer", "trail")),
    Trait("CMLI", "bake", (
        (_p("third attempt. I think I've finally cracked it", "a photo of a tall layered chocolate cake on a cake stand"),),
        (_p("the neighbours keep knocking to ask if there's more"),),
        (_p("weekend project", "a photo of a tray of golden croissants on a cooling rack"),
         _f("ok you HAVE to bring some on friday")),
    ), "What is {p} clearly good at?",
        ("what's {p}'s hidden talent?", "what does {p} make that people love?", "what has {p} got really good at?",
         "what's {p} always turning out at the weekend?"),
        "baking",
        ("fixing things around the house", "picking good bakeries", "painting"),
        ("bakes layered cakes", "makes pastries", "shares bakes with the neighbours"),
        ("runs a bakery", "paints still lifes", "buys cakes from a shop"),
        ("baking", "making cakes", "pastry", "baking cakes"),
        ordered=True, conflicts=("lactose",)),
    Trait("CMLI", "guitar", (
        (_p("my fingertips are absolutely killing me"),),
        (_p("got through a whole song without stopping!!",
            "a photo of a hand pressing strings on the neck of an acoustic guitar"),),
        (_p("practice corner", "a photo of an acoustic guitar on a stand next to a music stand with chord sheets"),
         _f("look at you, proper setup")),
    ), "What has {p} been learning?",
        ("what's {p} practising these days?", "why are {p}'s fingertips so sore?", "what's {p} picked up lately?",
         "what is {p} teaching themselves?"),
        "to play the guitar",
        ("to sing", "to play the piano", "to repair guitars"),
        ("plays acoustic guitar", "practises regularly", "can play a whole song"),
        ("takes singing lessons", "plays the piano", "repairs instruments"),
        ("guitar", "playing guitar", "the guitar", "acoustic guitar"),
        ordered=True),
)

PVB = (
    Trait("PVB", "plants", (
        (_p("new leaf, finally", "a close-up photo of a monstera leaf unfurling"),),
        (_p("look at this little guy", "a close-up photo of a small succulent in a terracotta pot"),),
        (_p("after the rain", "a close-up photo of a green fern leaf with water droplets"), _f("so pretty")),
        (_p("smells amazing", "a close-up photo of basil leaves on a windowsill"),),
        (_p("found this on my way home", "a close-up photo of moss growing on a stone wall"),),
    ), "What kind of photos does {p} usually share?",
        ("what's {p}'s usual photo style?", "what do {p}'s pictures tend to look like?",
         "if {p} sends a pic, what's it probably of?", "what's in most of {p}'s photos?"),
        "close-ups of plants",
        ("(a friend's habit)", "selfies with friends", "wide landscape shots"),
        ("close-up shots", "plants and leaves", "small natural details"),
        ("wide landscape shots", "selfies", "group photos at parties"),
        ("plant close-ups", "close-ups of plants", "leaves", "plants")),
    Trait("PVB", "mono", (
        (_p("saw this on the way home", "a black and white photo of a man walking under a railway bridge"),),
        (_p("rainy tuesday", "a black and white photo of umbrellas on a crowded street"),),
        (_p("market day", "a black and white photo of an old woman at a fruit stall"), _f("this is gorgeous")),
        (_p("right place, right time", "a black and white photo of a cyclist passing a cafe window"),),
        (_p("quiet today", "a black and white photo of pigeons on an empty square"),),
    ), "What's distinctive about the pictures {p} shares?",
        ("what's {p}'s photography style?", "how do {p}'s photos usually look?", "what's {p}'s thing with photos?",
         "how would you spot a photo {p} took?"),
        "black and white street scenes",
        ("(a friend's habit)", "bright colourful food shots", "posed portraits of friends"),
        ("black and white", "street scenes", "strangers in public places"),
        ("studio portraits", "colourful close-ups", "holiday selfies"),
        ("black and white", "street photography", "monochrome street scenes", "street scenes")),
    Trait("PVB", "sunsets", (
        (_p("tonight's show", "a photo of an orange sunset over rooftops seen from a balcony"),),
        (_p("never gets old", "a photo of a pink sky at dusk above a balcony railing"),),
        (_p("same spot, different sky", "a photo of a purple sunset behind a city skyline from a balcony"),
         _f("wow")),
        (_p("not bad for a tuesday", "a photo of a red sun setting behind chimneys from a balcony"),),
    ), "What does {p} tend to photograph?",
        ("what are {p}'s photos always of?", "describe {p}'s typical picture", "what's the usual thing in {p}'s pics?",
         "what keeps showing up in {p}'s photos?"),
        "sunsets from their balcony",
        ("(a friend's habit)", "meals at restaurants", "selfies with friends"),
        ("the evening sky", "views from the same balcony", "colourful dusk skies"),
        ("beach holidays", "indoor close-ups", "crowds at concerts"),
        ("sunsets", "balcony sunsets", "evening sky", "the sunset")),
    Trait("PVB", "books", (
        (_p("current situation", "an overhead photo of an open paperback next to a mug of tea on a wooden table"),),
        (_p("weekend sorted", "an overhead photo of a stack of library books on a bed"),),
        (_p("can't put this down", "an overhead photo of a novel with a bookmark on a knitted blanket"),
         _f("ooh what is it?")),
        (_p("new pile", "an overhead photo of three hardback books and reading glasses on a desk"),),
    ), "What kind of pictures does {p} usually send?",
        ("what's always in {p}'s photos?", "if {p} sends a photo, what will it show?",
         "what's {p}'s signature kind of pic?", "what do {p}'s pictures have in common?"),
        "overhead shots of the books they're reading",
        ("(a friend's habit)", "selfies in the mirror", "photos of the view outside"),
        ("taken from above", "books", "cosy reading setups"),
        ("mirror selfies", "street scenes", "landscapes"),
        ("books from above", "book photos", "overhead book shots", "books")),
)

TSVP = (
    Trait("TSVP", "noodles", (
        (_f("what did you end up having for lunch?", anchor=True),
         _p("the usual, obviously", "a photo of a bowl of ramen with a soft boiled egg on a wooden table")),
        (_f("dinner plans?", anchor=True),
         _p("already sorted", "a photo of a bowl of pho with fresh herbs and lime wedges")),
        (_f("did you try the new place near work?", anchor=True),
         _p("yes and I'm obsessed", "a photo of a bowl of udon noodle soup with tempura on a tray")),
    ), "When {p} shares a meal, what does it usually look like?",
        ("what does {p} usually have when they post their food?", "what's always in {p}'s food pics?",
         "if {p} sends a lunch photo, what's it going to be?", "what does {p}'s food look like in the pics?"),
        "a bowl of noodle soup",
        ("a burger and fries", "a plate of pasta", "a salad in a takeaway box"),
        ("served in a bowl", "noodles in broth", "asian-style noodle dishes"),
        ("burgers", "sandwiches", "pizza"),
        ("noodle soup", "bowls of noodles", "ramen", "noodles"),
        decoys=((_f("I went for the burger, no regrets", "a photo of a cheeseburger with fries on a wooden board"),
                 _p("respect")),)),
    Trait("TSVP", "trail", (
        (_f("what did you get up to on sunday?", anchor=True),
         _p("my usual walk, needed it", "a photo of a dirt trail along a lake with pine trees")),
        (_f("do anything fun this weekend?", anchor=True),
         _p("out again, cold but worth it", "a photo of a wooden boardwalk by a lake in a forest")),
        (_f("busy weekend?", anchor=True),
         _p("nope, just my loop. best way to clear my head", "a photo of a lakeside path with mist over the water")),
    ), "When {p} goes out at the weekend, what do the photos usually show?",
        ("where does {p} go on weekends, from the pics?", "what's the usual scene when {p} goes out for a walk?",
         "what do {p}'s weekend photos always show?", "where are {p}'s weekend pics taken?"),
        "a trail by a lake in a forest",
        ("a crowded beach", "a busy city centre", "a mountain summit"),
        ("a lake", "trees and forest paths", "a quiet walking trail"),
        ("a crowded beach", "shops and cafes", "a mountain summit"),
        ("lakeside trail", "forest lake path", "lake walks", "woodland trail"),
        decoys=((_f("we did the beach, freezing but fun", "a photo of a crowded sandy beach with windbreakers"),
                 _p("brave")),)),
    Trait("TSVP", "coffee", (
        (_f("how's the day going?", anchor=True),
         _p("third coffee, send help", "a photo of a latte with leaf art in a white cup on a saucer")),
        (_p("new cafe by work, they know what they're doing",
            "a photo of a flat white with a heart in the foam on a marble table"),),
        (_f("surviving the afternoon?", anchor=True),
         _p("barely. fuel", "a photo of a cappuccino with fern latte art next to a laptop")),
    ), "When {p} takes a coffee break, what does the photo usually show?",
        ("what do {p}'s coffee pics look like?", "what's in {p}'s cafe photos?", "how does {p}'s coffee usually look?",
         "what kind of coffee shows up in {p}'s pictures?"),
        "a milky coffee with latte art",
        ("an iced coffee in a plastic cup", "a black filter coffee in a mug", "a coffee machine"),
        ("latte art", "a milk-based coffee", "a cup in a cafe"),
        ("iced coffee", "takeaway cups", "an espresso machine"),
        ("latte art", "lattes", "milky coffee", "coffee with art"),
        decoys=((_f("my kind of coffee", "a photo of an iced coffee in a plastic cup with a straw"), _p("in winter??")),),
        conflicts=("lactose",)),
    Trait("TSVP", "commute", (
        (_f("how's the new commute treating you?", anchor=True),
         _p("honestly not bad, look", "a photo of a river seen through a tram window on a grey day")),
        (_p("tram's late again but the view helps", "a photo of a bridge over a river from inside a tram"),),
        (_f("on your way home?", anchor=True),
         _p("yep, almost there", "a photo of a river at dusk through a tram window with reflections")),
    ), "What does {p}'s commute look like in their photos?",
        ("what does {p} see on the way to work?", "what's the view on {p}'s commute?",
         "what do {p}'s commute pics show?", "how does {p} get to work, going by the photos?"),
        "a river seen from a tram window",
        ("a traffic jam on a motorway", "a packed underground train", "a cycle lane"),
        ("a tram window view", "a river", "bridges over the river"),
        ("motorway traffic", "a bike ride", "an underground platform"),
        ("river from tram", "tram window view", "the river", "tram by river"),
        decoys=((_f("my commute, kill me", "a photo of a traffic jam on a motorway in the rain"), _p("oof")),), ordered=True),
)

TRAITS: dict[str, tuple[Trait, ...]] = dict(zip(DIMENSIONS, (TD, PI, BM, EGP, IBM, CMLI, PVB, TSVP), strict=True))


# ---- friends' images and everyday talk -----------------------------------------------------
@dataclass(frozen=True)
class FriendStyle:
    """A friend's own photo habit, so the protagonist's visual norm is theirs alone (and a
    PVB trap: the friend's habit offered as the protagonist's)."""

    key: str
    label: str
    shares: tuple[tuple[str, str], ...]  # (line, caption)


FRIEND_STYLES = (
    FriendStyle("dog", "photos of a golden retriever", (
        ("he's decided the sofa is his now", "a photo of a golden retriever sleeping on a blue sofa"),
        ("look at this idiot", "a photo of a golden retriever with a tennis ball in its mouth in a park"),
        ("walk time, he's thrilled", "a photo of a golden retriever in a yellow raincoat on a pavement"),
        ("caught him being good for once", "a photo of a golden retriever lying on a kitchen floor"))),
    FriendStyle("gym", "gym selfies", (
        ("leg day survived", "a selfie of a person in a gym mirror holding a water bottle"),
        ("new personal best!!", "a selfie of a person next to a loaded barbell in a gym"),
        ("post workout face", "a sweaty selfie of a person in a gym with weights behind"))),
    FriendStyle("car", "photos of an old blue car", (
        ("she starts first time now!", "a photo of a vintage blue car parked on a gravel driveway"),
        ("saturday project", "a photo of the engine of an old car with the bonnet open"),
        ("took her out for a spin", "a photo of a vintage blue car on a country road"))),
    FriendStyle("diy", "home renovation progress shots", (
        ("wall one of four", "a photo of a half painted living room wall with a roller on a tray"),
        ("I built a shelf!!", "a photo of a new wooden shelf with jars on a kitchen wall"),
        ("the tiles are in", "a photo of new white tiles in a bathroom with tools on the floor"))),
    FriendStyle("drawings", "a child's crayon drawings", (
        ("new masterpiece for the fridge", "a child's crayon drawing of a house and a sun on a fridge door"),
        ("apparently this is me", "a child's crayon drawing of a person with very long arms"),
        ("the artist has been busy", "a child's drawing of a dinosaur in green crayon on paper"))),
)
GENERIC_SHARES = (  # a friend's one-off photos that bear on nothing
    ("my new favourite mug", "a photo of a mug shaped like a frog on a desk"),
    ("the queue for the gig, send help", "a photo of a long queue of people outside a concert venue at night"),
    ("museum day", "a photo of a museum hall with a large dinosaur skeleton"),
    ("who designed this", "a photo of a very narrow staircase in an old building"),
    ("the view from my desk today", "a photo of an open plan office with rows of desks and monitors"),
    ("found this in a drawer", "a photo of an old film camera on a wooden desk"),
    ("the match, what an atmosphere", "a photo of a crowded football stadium at night"),
    ("the board game shelf at the cafe is dangerous", "a photo of a shelf full of board games"),
)
REACTIONS = ("haha love it", "omg", "amazing", "ok that's brilliant", "stop it", "ha!", "love this", "no way")

# Everyday exchanges, turns alternating from the opener. Nothing here bears on any trait
# (tests/test_refmem_world.py keeps trait words out). Slots: {show} {relative} {day} {street}.
FRIEND_OPENS = (
    ("how was your weekend?", "quiet, mostly. cleaned the flat and watched way too much telly",
     "sounds perfect honestly", "it was. zero regrets"),
    ("did you end up watching {show}?", "yes!! I'm on episode five, no spoilers",
     "I won't, but episode six... just wait", "stop it, now I have to watch it tonight"),
    ("it's meant to chuck it down all weekend apparently", "of course it is, the one weekend I wanted to go out",
     "what were you going to do?", "just wander round the market, nothing big"),
    ("work's been mental today", "same, back to back calls since lunch", "ugh. anything good at least?",
     "one of them finished early so I actually got to eat"),
    ("what are you up to tonight?", "laundry and a film probably, living the dream", "which film?",
     "haven't picked yet. something with no thinking required"),
    ("my {relative}'s staying with us next week", "oh nice, for how long?",
     "five days. I've got no idea what to do with them", "the old town? everyone likes the old town"),
    ("have you been to that new place on {street}?", "not yet, is it good?", "the dumplings are unreal",
     "ok it's on the list"),
    ("the traffic on the way in was insane", "I heard, roadworks by the bridge?",
     "forty minutes to go two miles", "nightmare"),
    ("did you see the match last night?", "only the second half, what a mess", "that last goal though",
     "ok that was pretty special"),
    ("my neighbour's learning the trumpet", "oh no. at what hours??", "all of them. all the hours",
     "you need earplugs. industrial ones"),
    ("I think I'm coming down with something", "noo. tea, honey, bed",
     "that's the plan. blanket and {show} lined up", "perfect recovery setup"),
    ("any plans for the long weekend?", "not really, maybe see my {relative}", "where are they now?",
     "about an hour away, so not too bad"),
    ("I finally sorted out the spare room", "impressive! that's been on your list for ages",
     "found three phone chargers and a single glove", "classic"),
    ("it's so warm today, finally", "I know, I ate lunch outside for the first time this year", "where?",
     "the little square behind the office"),
    ("how's your {relative} doing after the move?", "settling in, slowly. boxes everywhere still",
     "moving is the worst", "the absolute worst"),
    ("have you started {show} yet?", "not yet, is it worth it?", "the first episode's slow but stick with it",
     "ok I'll give it till episode three"),
    ("what did you have for dinner last night?", "leftover curry, it's always better the next day",
     "fact", "is it weird that I like it cold too"),
    ("my boss just asked me to present on {day}", "you'll be fine, you're good at that",
     "I'm not, I just hide it well", "well you hide it VERY well"),
    ("the heating in my building's broken again", "again?? that's the third time",
     "they say it'll be fixed next week", "I'll believe it when I see it"),
    ("do you know a good dentist?", "mine's alright, I'll send you the number", "thanks, this tooth is killing me",
     "go soon, don't leave it"),
    ("guess who I bumped into at the supermarket", "who?", "Mrs Patel from school!", "no way, is she still teaching?"),
    ("I've been sleeping terribly", "stress or noise?", "both? the neighbours and work",
     "try the white noise app, it helped me loads"),
    ("the wind is something else today", "I saw a bin go past my window", "a whole bin?",
     "a whole bin. with purpose"),
    ("are you around on {day}?", "should be, why?", "my {relative} gave me two tickets to the comedy club",
     "ooh go on then, who's on?"),
    ("I'm so tired of this grey weather", "same, I've forgotten what blue sky looks like",
     "supposedly it clears up on {day}", "I'll believe it when I see it"),
    ("quick question, what's that show with the lighthouse?", "{show}?", "yes! thank you, it was driving me mad",
     "it's so good, you'll love it"),
    ("my {relative} just got engaged!", "oh that's lovely! did you know it was coming?",
     "not a clue. they kept it very quiet", "the sneaky ones always do"),
    ("the new manager at work is actually nice", "that's rare, hold on to that one", "right? she said thank you today",
     "a miracle"),
    ("how's the week treating you?", "slowly. it feels like it should be friday already", "it's {day}",
     "exactly my point"),
    ("have you been following the news about the bridge?", "the closure? yeah, it's a mess",
     "they're saying three months now", "three months of that traffic, no thanks"),
)
PERSON_OPENS = (
    ("just finished the last episode of {show}", "and??", "I need a week to recover", "that good huh"),
    ("my {relative} just sent me forty photos of their holiday", "haha where did they go?",
     "somewhere in Croatia, lots of boats", "jealous"),
    ("I made that curry you sent me", "oh yay, how'd it turn out?", "honestly great, a bit too spicy",
     "more rice next time"),
    ("can't believe it's {day} already", "this week has flown", "I've done nothing on my list",
     "same, the list just grows"),
    ("there's a new quiz night at the pub on {street}", "ooh, what night?", "thursdays. we'd win, obviously",
     "obviously"),
    ("my {relative}'s birthday is next week and I have no idea what to get", "what do they like?",
     "crosswords and complaining", "a giant crossword puzzle then"),
    ("I reorganised my whole wardrobe last night", "why at night??", "couldn't sleep. very productive insomnia",
     "share that energy please"),
    ("the office moved us to hot desks", "ugh, do you have to fight for a spot?",
     "sort of. I get the window seat if I'm quick", "at least there's a view"),
    ("watched a documentary about octopuses and now I'm emotional", "they're so clever right?",
     "one of them escaped its tank at night to eat crabs", "legend"),
    ("grey again today", "it's been grey for about a month", "I've forgotten what the sun looks like", "same"),
    ("my {relative} wants to do a family lunch on {day}", "that's nice! whose place?",
     "theirs, thankfully. no washing up for me", "the dream"),
    ("the new season of {show} comes out on friday", "finally! are you staying up for it?",
     "obviously not, I'll watch it saturday like an adult", "so midnight then"),
    ("had the longest meeting of my life today", "about what?", "honestly I'm still not sure", "the best kind"),
    ("my phone autocorrected my boss's name to 'bones'", "did you send it??", "I did. he replied 'ha'",
     "that's either very good or very bad"),
    ("I think the couple downstairs got a parrot", "how can you tell?",
     "something keeps saying hello in a really creepy voice", "amazing"),
    ("I need a new podcast for doing chores", "try the one about shipwrecks, it's weirdly gripping",
     "shipwrecks. ok. sold"),
    ("my {relative} has started sending me ten minute voice notes", "haha do you listen to them?",
     "at double speed", "smart"),
    ("just realised I've been wearing my jumper inside out all day", "and no one said anything??",
     "not a single person", "that's a team failure"),
    ("the supermarket's moved everything around again", "why do they do that",
     "spent ten minutes looking for the rice", "so you buy more stuff, it's a trick"),
    ("so the washing machine flooded the kitchen", "noooo. how bad?", "towels everywhere, but it's under control",
     "that's the worst"),
    ("what are you doing on {day}?", "nothing planned yet, why?", "there's a street food thing on {street}",
     "oh I'm in. what time?"),
    ("do you remember the name of that place we went for your birthday?", "the Greek one on {street}?",
     "yes!! my {relative} wants to go", "tell them to get the lamb"),
    ("I've started {show} on your recommendation", "YES. where are you up to?", "episode two, the wedding",
     "oh you're in for it"),
    ("the bins didn't get collected again", "again? that's two weeks", "the whole street smells like a festival",
     "lovely"),
    ("just had the weirdest dream that I was back at school", "the exam one?",
     "worse, the one where you turn up in pyjamas", "classic stress dream"),
)
GREETINGS = (  # (opener, reply): either side may open
    ("hey!", "hey! all good, you?"), ("heyy how's it going", "not bad, busy. you?"), ("you around?", "here! what's up"),
    ("hiya", "hiii"), ("ok what a day", "uh oh. what happened?"), ("are you alive?", "barely, but yes"),
    ("evening!", "evening! how was your day?"), ("hey you", "hey! I was just about to message you"),
    ("ok I need a distraction", "happy to help. what's up?"), ("how's your week going?", "long. very long. yours?"),
    ("hello hello", "hi! perfect timing, I'm on a break"), ("you free for a chat?", "always. what's happening?"),
)
FOLLOW_UPS = ("wait, really?", "haha", "ha, fair enough", "oh wow", "lol", "hm, ok", "ha, noted", "huh", "ok wow",
              "haha what", "fair")
GROUP_CHIMES = ("haha same", "ok I need to hear more about this", "lol", "wait what", "agreed", "this chat is chaos")
CLOSINGS = (("ok I need to go make dinner", "go go, talk soon"), ("right, bed. night!", "night!"),
            ("gotta go, chat later", "later!"), ("ok back to it", "good luck x"),
            ("my phone's about to die, talk tomorrow", "ok!"), ("right, the washing machine's calling me", "glamorous"),
            ("I should actually do some work now", "same. bye!"), ("ok, off to the shop before it shuts", "go!"))
SHOWS = ("Harbour Lane", "Night Shift", "The Quiet Village", "Salt and Iron", "Dead Reckoning", "Greyhound Hill",
         "The Lighthouse Keeper")
RELATIVES = ("sister", "brother", "cousin", "aunt", "nan", "uncle")
DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
STREETS = ("Elm Street", "the high street", "Mill Road", "Church Lane", "Station Road")

PEOPLE = ("Maya", "Priya", "Leo", "Nadia", "Tomas", "Ines", "Kofi", "Hana", "Elena", "Ravi", "Zoe", "Malik",
          "Grace", "Daniel", "Sara", "Owen", "Lena", "Marcus", "Aisha", "Jonas")
FRIENDS = ("Jon", "Ana", "Dev", "Lucia", "Ben", "Mei", "Omar", "Sofie", "Yusuf", "Clara", "Tess", "Noah",
           "Imogen", "Felix", "Rosa", "Sam")


# ---- sizes and the generated contexts --------------------------------------------------------
@dataclass(frozen=True)
class Size:
    contexts: int
    sessions: tuple[int, int]  # per context, inclusive
    turns: tuple[int, int]  # per session, the target (a cue-heavy session may run a little over)
    gap_days: tuple[int, int]  # between sessions


SIZES = {"smoke": Size(2, (10, 10), (10, 18), (2, 4)), "full": Size(6, (16, 20), (10, 18), (2, 3))}


@dataclass(frozen=True)
class Context:
    """One generated dialogue and what was planted in it (tests check the thread against it)."""

    context_id: str
    person: str
    friends: tuple[str, ...]
    traits: tuple[Trait, ...]
    text: str  # the thread file
    sessions: int
    turns: int
    images: int
    items: tuple[RefMemItem, ...]


Unit = tuple[Trait, Cue, bool]  # a cue or decoy placed in a session; bool: anchored


def _choose_traits(rng: random.Random, used: dict[str, int]) -> tuple[Trait, ...]:
    """One variant per dimension, the least used so far across contexts first (so contexts
    differ), never two that contradict each other."""
    chosen: list[Trait] = []
    for dimension in DIMENSIONS:
        keys = {t.key for t in chosen}
        fits = [t for t in TRAITS[dimension]
                if not keys & set(t.conflicts) and not any(t.key in c.conflicts for c in chosen)]
        pick = min(fits, key=lambda t: (used.get(t.key, 0), rng.random()))
        used[pick.key] = used.get(pick.key, 0) + 1
        chosen.append(pick)
    return tuple(chosen)


def _least_loaded(rng: random.Random, load: list[int], candidates, k: int) -> list[int]:
    return sorted(sorted(candidates, key=lambda s: (load[s], rng.random()))[:k])


def _schedule(rng: random.Random, traits: tuple[Trait, ...], sessions: int) -> list[list[Unit]]:
    """Which cue goes in which session: a trait's cues in separate sessions; TD's in order,
    one per stretch of the weeks, so the last mention comes late; decoys anywhere else."""
    plan: list[list[Unit]] = [[] for _ in range(sessions)]
    load = [0] * sessions
    for trait in traits:
        k = len(trait.cues)
        if trait.dimension == "TD":
            slots = [_least_loaded(rng, load, range(j * sessions // k, (j + 1) * sessions // k), 1)[0]
                     for j in range(k)]
        else:
            slots = _least_loaded(rng, load, range(sessions), k)
        cues = list(trait.cues) if trait.ordered else rng.sample(trait.cues, k)
        for s, cue in zip(slots, cues, strict=True):
            plan[s].append((trait, cue, True))
            load[s] += len(cue)
        for decoy in trait.decoys:
            (s,) = _least_loaded(rng, load, [s for s in range(sessions) if s not in slots], 1)
            plan[s].append((trait, decoy, False))
            load[s] += len(decoy)
    return plan


class _Thread:
    """The thread being written: its lines, who shared each image, and the evidence
    gathered per trait (lines and image indices, in thread order)."""

    def __init__(self, traits: tuple[Trait, ...]):
        self.lines: list[str] = []
        self.turns = 0
        self.owners: list[str] = []
        self.evidence: dict[str, tuple[list[str], list[int]]] = {t.key: ([], []) for t in traits}

    def turn(self, speaker: str, text: str, image: str | None = None, anchor: str | None = None) -> None:
        line = f"{speaker}: {text}"
        self.lines.append(line)
        self.turns += 1
        if anchor:
            self.evidence[anchor][0].append(line)
        if image is not None:
            if anchor:
                self.evidence[anchor][1].append(len(self.owners))
            self.lines.append(f"[Image #{len(self.owners)} {image}]")
            self.owners.append(speaker)


class _Deck:
    """Draws without replacement and reshuffles when empty, so a context repeats a line as
    seldom as it can."""

    def __init__(self, rng: random.Random, items):
        self.rng, self.items, self.left = rng, tuple(items), []

    def draw(self):
        if not self.left:
            self.left = self.rng.sample(self.items, len(self.items))
        return self.left.pop()


class _Cast:
    """Who is in a context, and its pools, drawn down as the thread is written."""

    def __init__(self, rng: random.Random, person: str, friends: tuple[str, ...], sessions: int):
        self.person, self.friends = person, friends
        self.styles = dict(zip(friends, rng.sample(FRIEND_STYLES, len(friends)), strict=True))
        self.shares = {f: rng.sample(s.shares, len(s.shares)) for f, s in self.styles.items()}
        self.generic = rng.sample(GENERIC_SHARES, min(len(GENERIC_SHARES), 2 + sessions // 5))
        self.talk = _Deck(rng, [(True, e) for e in FRIEND_OPENS] + [(False, e) for e in PERSON_OPENS])
        self.greetings, self.closings = _Deck(rng, GREETINGS), _Deck(rng, CLOSINGS)
        self.follow_ups, self.reactions = _Deck(rng, FOLLOW_UPS), _Deck(rng, REACTIONS)


def _slots(rng: random.Random) -> dict[str, str]:
    return {"show": rng.choice(SHOWS), "relative": rng.choice(RELATIVES), "day": rng.choice(DAYS),
            "street": rng.choice(STREETS)}


def _fill(text: str, values: dict[str, str]) -> str:
    for name, value in values.items():
        text = text.replace("{" + name + "}", value)
    return text


Block = list[tuple[str, str, str | None, str | None]]  # (speaker, text, image, trait key when anchored)


def _cue_block(rng: random.Random, cast: _Cast, unit: Unit, present: list[str]) -> Block:
    """A cue as said in this session; a one-line cue usually gets a friend's reaction, so the
    protagonist is not talking to a wall."""
    trait, cue, anchored = unit
    friend = rng.choice(present)
    values = {"f": friend, "p": cast.person, "show": rng.choice(SHOWS)}
    block: Block = [(cast.person if line.who == "p" else friend, _fill(line.text, values), line.image,
                     trait.key if anchored and line.anchor else None) for line in cue]
    if len(cue) == 1 and cue[0].who == "p" and rng.random() < 0.7:
        block.append((friend, (cast.reactions if cue[0].image else cast.follow_ups).draw(), None, None))
    return block


def _talk_block(rng: random.Random, cast: _Cast, present: list[str]) -> Block:
    """Small talk, a friend's habitual photo, or a one-off photo; in a group chat the other
    friend sometimes chimes in."""
    friend = rng.choice(present)
    roll = rng.random()
    if roll < 0.25 and cast.shares[friend]:
        line, caption = cast.shares[friend].pop()
        block: Block = [(friend, line, caption, None), (cast.person, cast.reactions.draw(), None, None)]
    elif roll < 0.35 and cast.generic:
        line, caption = cast.generic.pop()
        block = [(friend, line, caption, None), (cast.person, cast.reactions.draw(), None, None)]
    else:
        friend_opens, exchange = cast.talk.draw()
        values = _slots(rng)
        speakers = [friend, cast.person] if friend_opens else [cast.person, friend]
        block = [(speakers[n % 2], _fill(text, values), None, None) for n, text in enumerate(exchange)]
    others = [f for f in present if f != friend]
    if others and rng.random() < 0.3:
        block.insert(rng.randint(1, len(block)), (others[0], rng.choice(GROUP_CHIMES), None, None))
    return block


def _present(rng: random.Random, friends: tuple[str, ...]) -> list[str]:
    """Who the protagonist talks with this session: one friend, or both in a group chat."""
    if len(friends) == 1:
        return list(friends)
    roll = rng.random()
    return [friends[0]] if roll < 0.4 else [friends[1]] if roll < 0.75 else list(friends)


def _pair(rng: random.Random, cast: _Cast, present: list[str], lines: tuple[str, str]) -> Block:
    first = rng.choice([cast.person, *present])
    second = rng.choice(present) if first == cast.person else cast.person
    return [(first, lines[0], None, None), (second, lines[1], None, None)]


def _session(rng: random.Random, cast: _Cast, units: list[Unit], size: Size) -> list[Block]:
    """One session's blocks: a greeting, the cues among small talk up to the turn target,
    and often a goodbye."""
    present = _present(rng, cast.friends)
    middle = [_cue_block(rng, cast, unit, present) for unit in units]
    target, most = rng.randint(*size.turns), size.turns[1]
    closing = rng.random() < 0.6
    count, talk = 2 + sum(len(b) for b in middle) + (2 if closing else 0), 0
    while count < target:
        block = _talk_block(rng, cast, present)
        if talk and count + len(block) > most:
            break
        middle.insert(rng.randint(0, len(middle)), block)
        count, talk = count + len(block), talk + 1
    blocks = [_pair(rng, cast, present, cast.greetings.draw()), *middle]
    return blocks + [_pair(rng, cast, present, cast.closings.draw())] if closing else blocks


def _context(rng: random.Random, context_id: str, person: str, size: Size, used: dict[str, int]) -> Context:
    friends = tuple(rng.sample([f for f in FRIENDS if f != person], rng.choice((1, 2))))
    traits = _choose_traits(rng, used)
    sessions = rng.randint(*size.sessions)
    cast = _Cast(rng, person, friends, sessions)
    plan = _schedule(rng, traits, sessions)
    thread = _Thread(traits)
    clock = datetime(2026, 1, 5) + timedelta(days=rng.randrange(0, 90))
    for s in range(sessions):
        clock = (clock + timedelta(days=rng.randint(*size.gap_days))).replace(hour=rng.randint(12, 21),
                                                                            minute=rng.randrange(0, 60, 5))
        thread.lines.append(f"## Session {s + 1} | {clock.isoformat(timespec='minutes')}")
        for block in _session(rng, cast, rng.sample(plan[s], len(plan[s])), size):
            for speaker, text, image, anchor in block:
                thread.turn(speaker, text, image, anchor)
    items = tuple(item for trait in traits
                  for item in _items(rng, context_id, trait, cast, thread.evidence[trait.key]))
    return Context(context_id, person, friends, traits, "\n".join(thread.lines) + "\n", sessions, thread.turns,
                   len(thread.owners), items)


def _ask(wording: str, person: str, friend: str) -> str:
    return _fill(wording, {"p": person, "f": friend})


def _items(rng: random.Random, context_id: str, trait: Trait, cast: _Cast,
           evidence: tuple[list[str], list[int]]) -> list[RefMemItem]:
    """The six items of one trait: MC, SC and DA, each in the template wording and in a
    held-out one. PVB's trap is the first friend's own photo habit."""
    person, friend = cast.person, cast.friends[0]
    wrong, false = trait.wrong, trait.false
    if trait.dimension == "PVB":
        label = cast.styles[friend].label
        wrong, false = (label, *trait.wrong[1:]), (label, *trait.false)
    anchors = Evidence(tuple(evidence[0]), tuple(evidence[1]))
    items = []
    for fmt in FORMATS:
        for phrasing in PHRASINGS:
            wording = trait.question if phrasing == "template" else rng.choice(trait.held_out)
            question = _ask(wording, person, friend)
            options: tuple[str, ...] = ()
            if fmt == "DA":
                answer = trait.references
            else:
                right = [trait.right] if fmt == "SC" else rng.sample(trait.true, rng.randint(2, 3))
                chosen = right + (list(wrong) if fmt == "SC" else rng.sample(false, 4 - len(right)))
                options = tuple(_ask(o, person, friend) for o in rng.sample(chosen, len(chosen)))
                answer = tuple(sorted(LETTERS[options.index(_ask(o, person, friend))] for o in right))
            items.append(RefMemItem(f"{context_id}:{trait.dimension}:{fmt}:{phrasing}", context_id, trait.dimension,
                                    fmt, question, options, answer, anchors, phrasing))
    return items


def generate_contexts(size: str = "smoke", seed: int = 0) -> list[Context]:
    """The contexts of a suite, in memory; the same size and seed give the same contexts."""
    if size not in SIZES:
        raise ValueError(f"unknown RefMem suite size {size!r} (known: {', '.join(SIZES)})")
    rng = random.Random(f"refmem:{size}:{seed}")
    used: dict[str, int] = {}
    people = rng.sample(PEOPLE, SIZES[size].contexts)
    return [_context(rng, f"ctx{n + 1:02d}", person, SIZES[size], used) for n, person in enumerate(people)]


def generate_suite(root: str | Path, size: str = "smoke", seed: int = 0) -> Suite:
    """Write (or rewrite, identically) the suite for this size and seed under `root`."""
    contexts = generate_contexts(size, seed)
    return write_suite(root, {c.context_id: c.text for c in contexts}, [i for c in contexts for i in c.items])
