"""The language toolkit (memory.language): word forms, numbers, clock times and dates; and
the one option scorer, abstain test and record ordering the layers share."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from memory.language import (
    STOP,
    content_words,
    date_phrase,
    digital_times,
    first_number,
    mm_ss,
    normalise,
    number_of,
    ordinal_of,
    parse_date,
    plural,
    s_forms,
    s_stem,
    seconds_of,
    singular,
    singular_words,
    stated_dates,
    states_a_time,
    stem,
    term,
    terms,
    words,
)


# ---- words ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text, expected", [
    ("  The Coffee-Mug! ", "the coffee mug"),
    ("KITCHEN\tExit\n", "kitchen exit"),
    ("Room 4B, floor 2.", "room 4b floor 2"),
    ("Don't", "don t"),  # an apostrophe splits: memory keys names by this form
    ("Café Crème", "caf cr me"),  # a letter outside [a-z] is a separator, accents are not folded
    ("¡¿…!?", ""),
])
def test_normalise_keeps_lower_case_ascii_letters_and_digits_only(text, expected):
    assert normalise(text) == expected
    assert words(text) == expected.split()


def test_content_words_drop_filler_but_keep_numbers_order_and_inner_apostrophes():
    assert content_words("What did Bob say about the E-mail at four thirty? Bob's e-mail!") == [
        "bob", "e-mail", "four", "thirty", "bob's"]
    assert content_words("the first and the last") == ["first", "last"]  # an order is not filler
    assert "four" not in STOP and "the" in STOP
    assert content_words("a b 7") == ["7"]  # single letters go, a single digit stays


def test_each_reduction_serves_its_purpose():
    assert singular("knives") == "knife" and singular("people") == "person" and singular("glass") == "glass"
    assert plural("person", 3) == "people" and plural("cup", 1) == "cup"
    assert singular_words("Kitchen Knives") == {"kitchen", "knife"}
    assert stem("walking") == stem("walked") == stem("walks") == "walk"
    assert stem("sing") == "sing"  # too short to lose an ending
    assert stem("luckier") == stem("luckiest") == stem("lucky") == "lucky"  # a comparative is its adjective
    assert stem("cashier") == stem("cashiers") and stem("tier") == "tier"
    assert s_stem("books") == "book" and s_stem("glass") == "gla"
    assert all(s_stem(form) == "book" for form in s_forms("book"))


def test_terms_compare_a_time_said_in_words_with_its_digits():
    assert terms("four thirty") == terms("4:30") == {"4", "30"}
    assert terms("half past four") >= {"30", "4"}
    assert term("Quarter") == "15" and term("Meetings") == "meeting"


# ---- numbers --------------------------------------------------------------------------------
def test_numbers_in_words_and_digits():
    assert number_of("7") == number_of("seven") == 7
    assert number_of("sevens") is None and number_of("") is None
    assert first_number("Three people") == 3
    assert first_number("maybe two, or 12 of them") == 12  # digits first
    assert first_number("two or three") == 2  # words in the order said
    assert first_number("seventeen") == 17 and first_number("nobody") is None
    assert first_number("the 3rd one") == 1  # "3rd" is an ordinal, not a count


def test_ordinals_in_words_and_digits():
    assert ordinal_of("Third") == ordinal_of("3rd") == 3
    assert ordinal_of("21st") == 21 and ordinal_of("first") == 1
    assert ordinal_of("thirdly") is None and ordinal_of("3") is None


# ---- clock and dates ------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["4:30 pm", "at 4:30", "four thirty pm", "five o'clock", "meet at noon",
                                  "make it 4.30", "back by ten"])
def test_states_a_time(text):
    assert states_a_time(text)


@pytest.mark.parametrize("text", ["it cost $4.30", "version 1.25.3", "I bought 3 apples", "four thirty", "", None])
def test_states_no_time(text):
    assert not states_a_time(text)


def test_digital_readings_read_and_print():
    assert digital_times("from 4:30 to 12:05, not 123:456") == ["04:30", "12:05"]
    assert seconds_of("01:05") == 65 and seconds_of("0:07") == 7
    assert mm_ss(65.4) == "01:05" and mm_ss(59.6) == "01:00"
    assert mm_ss(seconds_of("09:59")) == "09:59"


def test_dates_resolve_against_the_moment_said():
    said = datetime(2023, 5, 8, 14, 0)
    assert parse_date("yesterday", said).date() == (said - timedelta(days=1)).date()
    assert parse_date("not a date at all", said) is None
    assert date_phrase("last year", datetime(2022, 5, 8)) == "2022"
    assert date_phrase("next month", datetime(2023, 6, 8)) == "June 2023"
    assert date_phrase("last week", datetime(2023, 5, 1)) == "the week of 1 May 2023"
    assert date_phrase("last week", datetime(2023, 6, 2), said_at=datetime(2023, 6, 9, 14)) == "the week before 9 June 2023"
    assert date_phrase("next weekend", datetime(2023, 6, 17), said_at=datetime(2023, 6, 9)) == "the weekend after 9 June 2023"
    assert date_phrase("that week", datetime(2023, 6, 2), said_at=datetime(2023, 6, 9)) == "the week of 2 June 2023"
    assert date_phrase("yesterday", datetime(2023, 5, 7)) == "7 May 2023"
    # a weekday of a week said by its side of this one, which dateparser does not read (a Monday)
    assert parse_date("Friday this week", said) == datetime(2023, 5, 12)
    assert parse_date("Monday next week", said) == datetime(2023, 5, 15)
    assert date_phrase("Friday this week", datetime(2023, 5, 12), said_at=said) == "Friday 12 May 2023"


def test_stated_dates_skip_lengths_of_time():
    from memory.language import english

    said = datetime(2023, 5, 8, 14, 0)
    doc = english()("I went to the support group yesterday and have been going for 4 years.")
    assert [(text, when.date()) for text, when in stated_dates(doc, said)] == [("yesterday", datetime(2023, 5, 7).date())]


def test_a_weekday_or_weekend_said_short_or_tagged_otherwise_is_still_a_date():
    """"Last Fri" (which spaCy's model tags a person), "last Tues", "last weekend" (which
    dateparser does not read) said on Monday 17 July 2023."""
    from memory.language import english

    said = datetime(2023, 7, 17, 14, 31)
    found = {text: when.date() for text, when in stated_dates(english()(
        "Last Fri I took my kids to a pottery workshop, and last weekend I joined a group. See you next Thurs!"), said)}
    assert found == {"Last Fri": datetime(2023, 7, 14).date(), "last weekend": datetime(2023, 7, 15).date(),
                     "next Thurs": datetime(2023, 7, 20).date()}
    assert date_phrase("Last Fri", datetime(2023, 7, 14), said) == "the Friday before 17 July 2023"
    assert date_phrase("on Fri", datetime(2023, 7, 14), said) == "Friday 14 July 2023"
    assert date_phrase("last weekend", datetime(2023, 7, 15), said) == "the weekend before 17 July 2023"
    assert parse_date("this weekend", said).date() == datetime(2023, 7, 22).date()
    assert parse_date("this past weekend", said).date() == datetime(2023, 7, 15).date()
    assert parse_date("last weekend", datetime(2023, 7, 16)).date() == datetime(2023, 7, 8).date()  # said on a Sunday
    assert not stated_dates(english()("We sat in the sun for a while."), said)  # "sat", "sun": no days
    # a weekday named whole on a whiteboard, which the model tags no date
    assert [text for text, _ in stated_dates(english()("BOOK CLUB / THURSDAY 7 PM"), said)] == ["THURSDAY"]


# ---- the one option scorer, abstain test and ordering ---------------------------------------
def test_option_probabilities_share_the_mass_and_hand_weak_evidence_to_abstain():
    from agent.reasoning import EvidenceReasoner, option_probabilities

    assert EvidenceReasoner.distribute is option_probabilities
    strong = option_probabilities([0.9, 0.1, 0.0], [2], sufficiency=0.9, threshold=0.5)
    weak = option_probabilities([0.9, 0.1, 0.0], [2], sufficiency=0.1, threshold=0.5)
    assert sum(strong) == pytest.approx(1.0, abs=1e-3) and strong[0] > 0.9 > strong[2]
    assert weak[2] > 0.5 and weak[0] > weak[1]
    assert option_probabilities([0.5, 0.5], [], 0.0, 0.5) == [0.5, 0.5]  # no abstain option: never abstains


def test_one_abstain_test_for_the_agent_and_the_skills():
    from agent.compose import abstain_options

    options = ["the pear", "Not in either video", "Cannot be answered", "N/A", "none of the above", "Paris"]
    assert abstain_options(options) == [1, 2, 3, 4]


def test_one_order_in_time():
    from memory.records import MemoryRecord, order_by_time

    t0 = datetime(2024, 5, 14, 7, 30)

    def rec(start: int, end: int, i: int) -> MemoryRecord:
        return MemoryRecord(store="event", kind="utterance", namespace="n", text=str(i),
                            wall_start=t0 + timedelta(seconds=start), wall_end=t0 + timedelta(seconds=end), id=i)

    records = [rec(5, 9, 1), rec(0, 4, 4), rec(5, 6, 3), rec(5, 6, 2)]
    assert [r.id for r in order_by_time(records)] == [4, 2, 3, 1]  # start, then end, then id


@pytest.mark.parametrize("said, day", [
    ("The plumber is coming on Thursday.", 12),  # a plan: the coming Thursday
    ("I'll call you on Thursday.", 12),
    ("The plumber came on Thursday.", 5),  # what happened: the last one
    ("I was waiting for him on Thursday.", 5),
    ("Could you send me the slides by Thursday?", 12),  # a request, an order, an obligation: still to do
    ("Send me the slides by Thursday.", 12),
    ("I need to call the plumber on Thursday.", 12),
    ("I had to call the plumber on Thursday.", 5),
])
def test_a_weekday_said_of_what_is_to_come_is_the_next_one(said, day):
    from memory.language import english

    monday = datetime(2026, 3, 9, 18, 0)
    (text, when), = stated_dates(english()(said), monday)
    assert text == "Thursday" and when.date() == datetime(2026, 3, day).date()
    assert date_phrase(text, when, monday) == f"Thursday {day} March 2026"


@pytest.mark.parametrize("said, names", [
    ("I went to the support group yesterday.", True), ("See you on the 5th!", True), ("We met in May.", True),
    ("Two weeks ago I started surfing.", True), ("The plumber is coming on Thursday.", True),
    ("Let me check my email before I go.", False), ("That was a great flight!", False),
])
def test_a_line_with_no_word_a_date_is_said_with_is_not_parsed_for_one(said, names):
    from memory.language import english, may_name_a_date

    assert may_name_a_date(said) is names
    if not names:  # what the cheap test skips, the parse would not have found
        assert stated_dates(english()(said), datetime(2026, 3, 9, 18, 0)) == []


def test_a_clipped_word_is_compared_whole():
    """Chat and speech clip words ("my fave", "the fam"); a question asks with the whole word."""
    from agent.wanted import word_stem
    from memory.language import term, unclipped

    assert unclipped("Fave") == "favorite" and unclipped("faves") == "favorite" and unclipped("pizza") == "pizza"
    assert word_stem("fave") == word_stem("favorite") and word_stem("fam") == word_stem("family")
    assert term("biz") == term("business") and term("four") == "4"
