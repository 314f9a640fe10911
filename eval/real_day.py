"""A real day in one memory: twelve recordings nobody here made (eval/media.py), laid on one
wearer's Tuesday from breakfast to the evening, and questions asked at their own times the way
the wearer would ask them (`memlens bench real-day`).

This is EVALUATION MATERIAL: agent, memory, retrieval and perception code must never import
it or learn from it (tests/test_open_questions.py guards that). Expected answers come from
listening to and watching the media (transcripts by ear, frames by eye), never from what
memlens answers. Some questions are asked before the recording they need: memory at that time
does not hold the answer, so the only right reply is to abstain; others ask what no recording
holds. Questions about what perception is known not to see yet (a cyclist, a tumbler in a
hand, towers at night) are here so the score says so.
"""
from __future__ import annotations

from datetime import datetime

from eval.media import (
    AUDIOBOOK_LINE,
    BOX_CLIP,
    BUNNY_TRAILER,
    CALL_AUDIO,
    CAMPUS_CLIP,
    CITY_NIGHT,
    CUP_CLIP,
    MEETING_AUDIO,
    PHONE_DEMO,
    PHONE_MENU,
    STREET_CLIP,
    TED_CLIP,
    Media,
)
from eval.real_questions import RealQuestion


def _t(clock: str) -> datetime:
    hours, minutes = clock.split(":")
    return datetime(2026, 11, 24, int(hours), int(minutes))


# What the wearer recorded, when (a Tuesday).
DAY: dict[str, tuple[Media, datetime]] = {
    "cup": (CUP_CLIP, _t("07:45")),  # a black lidded tumbler turned in a hand
    "audiobook": (AUDIOBOOK_LINE, _t("08:10")),  # Sense and Sensibility: Mr. John Dashwood
    "street": (STREET_CLIP, _t("08:40")),  # a man in a suit cycling past cars, a grey van, bikes
    "meeting": (MEETING_AUDIO, _t("09:30")),  # "Morgan wants to make it hard" to bleep things out
    "menu": (PHONE_MENU, _t("10:15")),  # Super Awesome Company's phone menu
    "ted": (TED_CLIP, _t("11:00")),  # Tina Seelig on luck, TEDSalon New York, June 2018
    "call": (CALL_AUDIO, _t("12:30")),  # Sheila (Texas, from Chicago) and Diane (New Jersey)
    "box": (BOX_CLIP, _t("13:30")),  # a hand holding a box over a table
    "voicemail": (PHONE_DEMO, _t("14:00")),  # a phone system's walkthrough: echo test 600, voicemail 8500
    "campus": (CAMPUS_CLIP, _t("15:30")),  # pedestrians, a white van and a car parked
    "city": (CITY_NIGHT, _t("19:00")),  # lit glass towers at night, no sound
    "bunny": (BUNNY_TRAILER, _t("20:30")),  # the Big Buck Bunny trailer's title cards
}
NAMESPACE = "day"


def _q(media: str, at: str, question: str, *accepted: str | tuple[str, ...], channel: str) -> RealQuestion:
    return RealQuestion(media, question, tuple(accepted), channel=channel, at=_t(at))


def _before(media: str, at: str, question: str) -> RealQuestion:
    """Asked before the recording that holds its answer: right only when memlens abstains."""
    assert _t(at) < DAY[media][1], (media, at)
    return RealQuestion(media, question, abstain=True, channel="before", at=_t(at))


def _none(media: str, at: str, question: str) -> RealQuestion:
    """Nothing recorded holds the answer: right only when memlens abstains."""
    return RealQuestion(media, question, abstain=True, channel="unanswerable", at=_t(at))


DAY_QUESTIONS: tuple[RealQuestion, ...] = (
    _q("cup", "08:05", "what was I drinking out of this morning?", "cup", "tumbler", "flask", "bottle", "mug",
       channel="objects"),
    _before("call", "08:05", "who was on the phone call?"),
    _q("audiobook", "08:30", "who was the audiobook talking about?", "Dashwood", channel="speech"),
    _q("audiobook", "08:30", "what did Mr Dashwood have leisure to consider?", "power", channel="speech"),
    _q("street", "09:00", "did I see anyone cycling on my way in?", "yes", channel="objects"),
    _q("street", "09:00", "what colour was the van on my way in?", "grey", "gray", "silver", channel="objects"),
    _before("meeting", "09:15", "what did Morgan want?"),
    _before("ted", "09:20", "what did the talk say about luck?"),
    _q("meeting", "10:00", "what does Morgan want to make hard?", "bleep", channel="speech"),
    _q("meeting", "10:00", "what did we have a long discussion about?", "bleep", channel="speech"),
    _q("meeting", "10:00", "who wants to make it hard?", "Morgan", channel="speech"),
    _before("menu", "10:10", "which company did I call?"),
    _q("menu", "10:30", "which company did I just call?", "Super Awesome", channel="speech"),
    _q("menu", "10:30", "what number do I press for the company directory?", "four", "4", channel="speech"),
    _q("menu", "10:30", "how do I get an operator on that line?", "zero", "0", channel="speech"),
    _q("menu", "10:30", "what was option two on the phone menu?", "customer advocate", channel="speech"),
    _q("menu", "10:30", "which key was for a sales partnership?", "one", "1", channel="speech"),
    _before("ted", "10:45", "what does the speaker teach?"),
    _q("ted", "11:30", "who gave the talk?", "Tina Seelig", channel="faces+text"),
    _q("ted", "11:30", "what does she teach?", "entrepreneurship", channel="speech"),
    _q("ted", "11:30", "how long has the speaker been looking at luck?", "two decades", "20 years", channel="speech"),
    _q("ted", "11:30", "which city was the talk recorded in?", "New York", channel="text"),
    _q("ted", "11:30", "what does she say most new ventures do?", "fail", channel="speech"),
    _q("ted", "11:30", "what is luck, according to the talk?", "success or failure", "chance", channel="speech"),
    _before("call", "12:15", "where does Diane live?"),
    _q("call", "13:00", "where does Diane live?", "New Jersey", channel="voices+speech"),
    _q("call", "13:00", "who was on the call at lunchtime?", ("Sheila", "Diane"), channel="voices"),
    _q("call", "13:00", "which city is Sheila originally from?", "Chicago", channel="voices+speech"),
    _q("call", "13:00", "what did Sheila say she needs?", "design", channel="voices+speech"),
    _q("call", "13:00", "how many people were on that call?", "two", "2", channel="voices"),
    _q("call", "13:00", "what do they call Sheila down there?", "Yankee", channel="speech"),
    _before("voicemail", "13:50", "what's the voicemail extension?"),
    _q("box", "14:00", "what was I holding over the table?", "box", "package", "carton", channel="objects"),
    _q("voicemail", "14:30", "what extension do I dial to check voicemail?", "8500", channel="speech"),
    _q("voicemail", "14:30", "what number runs the echo test?", "600", "6 0 0", "six hundred", channel="speech"),
    _q("voicemail", "14:30", "what was the password for the sample user?", "4242", "42 42", channel="speech"),
    _q("campus", "16:00", "was there a white van parked outside this afternoon?", "yes", channel="objects"),
    _q("campus", "16:00", "were lots of people walking about this afternoon?", "yes", channel="objects"),
    _none("campus", "16:00", "did I see a dog today?"),
    _none("call", "16:00", "what did Bob say on the call?"),
    _q("city", "19:30", "what was I looking at this evening?", "building", "tower", "skyscraper", "city",
       channel="objects"),
    _before("bunny", "20:00", "what was the trailer for?"),
    _q("bunny", "21:00", "who presented the cartoon?", "Blender Foundation", "Peach Project", channel="text"),
    _q("bunny", "21:00", "how did the trailer describe the bunny?", "overweight", channel="text"),
    _q("bunny", "21:00", "what did the trailer say was coming?", "revenge", channel="text"),
    _q("call", "21:30", "who did I talk to on the phone today?", ("Sheila", "Diane"), channel="voices"),
    _none("ted", "21:30", "what's Tina Seelig's phone number?"),
    _none("meeting", "21:30", "what did Morgan decide about the budget?"),
    _q("ted", "21:30", "what time did I watch the talk?", "11:00", "11 am", "11am", channel="time"),
    _q("menu", "21:30", "who did I ring this morning?", "Super Awesome", channel="speech"),
)

# The same day asked in other words: questions about what the day's questions ask, phrased
# the way a person might put them on another occasion (written after the first run of
# DAY_QUESTIONS, to tell a general fix from one that fits a phrasing).
DAY_REWORDED: tuple[RealQuestion, ...] = (
    _q("menu", "10:30", "what button do I press for accounting?", "three", "3", channel="speech"),
    _q("menu", "10:30", "which number gets me the customer advocate?", "two", "2", channel="speech"),
    _q("menu", "10:30", "how do I reach the company directory?", "four", "4", channel="speech"),
    _q("voicemail", "14:30", "what's the sample user's password?", "4242", channel="speech"),
    _q("voicemail", "14:30", "which extension does the sample user have?", "1234", channel="speech"),
    _q("voicemail", "14:30", "what do I dial for voicemail?", "8500", channel="speech"),
    _q("menu", "21:30", "when did I hear the phone menu?", "10:15", channel="time"),
    _q("call", "21:30", "what time was the call with Sheila?", "12:30", channel="time"),
    _q("ted", "11:30", "who was the speaker at the talk?", "Tina Seelig", channel="voices+speech"),
    _q("ted", "11:30", "for how long has she studied luck?", "two decades", "20 years", channel="speech"),
    _q("ted", "11:30", "what subject does Tina Seelig teach?", "entrepreneurship", channel="speech"),
    _q("ted", "11:30", "how does the talk define luck?", "success or failure", "chance", channel="speech"),
    _q("call", "13:00", "where is Diane now?", "New Jersey", channel="speech"),
    _q("call", "13:00", "where did Sheila grow up?", "Chicago", channel="speech"),
    _q("bunny", "21:00", "who made the bunny cartoon?", "Peach Project", "Blender Foundation", channel="text"),
    _q("ted", "11:30", "what year was the talk recorded?", "2018", channel="text"),
)
