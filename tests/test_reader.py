"""The evidence reader (agent/reader.py) with spaCy's real English pipeline: the kind of
answer a question wants, and the short answer read out of remembered lines. The lines are
of the kinds real footage gives (speech turns, run-together OCR, captions), written here."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from agent.question_nlp import SpacyPipeline
from agent.reader import EvidenceReader
from agent.state import Evidence
from agent.told import sentence_of
from memory.records import CLIP_CAPTION, TEXT_SIGHTING, UTTERANCE, MemoryRecord

T0 = datetime(2026, 11, 20, 9, 0)


@pytest.fixture(scope="module")
def reader() -> EvidenceReader:
    return EvidenceReader(SpacyPipeline())


def turn(n: int, speaker: str, said: str, at: datetime = T0, video: str = "call") -> Evidence:
    record = MemoryRecord("event", UTTERANCE, "ns", f"{speaker}: {said}", at + timedelta(seconds=n),
                          at + timedelta(seconds=n + 2), video, attrs={"said": said, "speaker_name": speaker}, id=n)
    return Evidence(record, 0.5, "search")


def sign(n: int, line: str, at: datetime = T0) -> Evidence:
    record = MemoryRecord("event", TEXT_SIGHTING, "ns", f'Read "{line}"', at + timedelta(seconds=n),
                          at + timedelta(seconds=n + 1), "talk", attrs={"line": line, "block": [line]}, id=100 + n)
    return Evidence(record, 0.5, "search")


@pytest.mark.parametrize("question, kind", [
    ("where is she originally from?", "place"),
    ("what city was the talk in?", "place"),
    ("when was the talk recorded?", "date"),
    ("what year did they move?", "date"),
    ("how long has she worked there?", "duration"),
    ("how long ago did he leave?", "date"),
    ("how many puppies were there?", "number"),
    ("how often does she swim?", "frequency"),
    ("how did she feel after the interview?", "quality"),
    ("how was the concert?", "quality"),
    ("how did the meeting go?", "quality"),
    ("how is the new shop doing?", "quality"),
    ("how did he fix the bike?", "quote"),
    ("how do I get to the station?", "quote"),
    ("how do I do a backflip?", "quote"),
    ("which key was for a sales partnership?", "code"),
    ("what's the voicemail extension?", "code"),
    ("what apartment number is on the door?", "code"),
    ("what number did she press?", "number"),
    ("how much did the lamp cost?", "money"),
    ("who presented the cartoon?", "person"),
    ("what was the name of the woman on stage?", "person"),
    ("what colour was the van?", "colour"),
    ("which company does he work for?", "organisation"),
    ("why did she leave early?", "reason"),
    ("what did the screen say?", "quote"),
    ("what does the speaker teach?", "thing"),
    ("did I see a dog?", "yes_no"),
])
def test_wanted_reads_the_kind_of_answer_from_the_grammar(reader, question, kind):
    assert reader.wanted(question).kind == kind


def test_a_copula_subject_names_the_kind_but_a_doer_does_not(reader):
    assert reader.wanted("what is her name?").kind == "person"
    teach = reader.wanted("what does the speaker teach?")  # the speaker does the teaching; a thing is asked
    assert (teach.kind, teach.verb) == ("thing", "teach")
    assert reader.wanted("what kind of bread did he buy?").hint == "bread"


def test_the_place_is_the_object_of_the_questions_preposition_not_the_nearest_name(reader):
    evidence = [turn(1, "Sheila", "And I'm Sheila and Texas originally from Chicago. Oh"),
                turn(5, "Diane", "I live in New Jersey now.")]
    reading = reader.read("where is Sheila originally from?", evidence)
    assert reading is not None and reading.answer == "Chicago"
    assert reading.evidence.record.id == 1
    assert reader.read("where does Diane live now?", evidence).answer == "New Jersey"


def test_where_an_act_was_done_is_the_place_its_preposition_names_though_no_entity_names_it(reader):
    """"We camped at the beach": a beach is a place spaCy tags as no location; the question's
    own act ("camp") locates it. A time after "in" is no place, and another act's place is not
    where this one was done."""
    evidence = [turn(1, "Mel", "We went to the museum in the morning and then we camped at the beach."),
                turn(3, "Caroline", "That sounds lovely!")]
    reading = reader.read("where has Mel camped?", evidence)
    assert reading is not None and reading.answer == "the beach"
    hid = [turn(5, "Mel", "Oliver once hid his bone in my slipper, so funny.")]
    assert reader.read("where did Oliver hide his bone?", hid).answer == "Mel's slipper"
    assert reader.read("where did Mel have lunch?", evidence) is None


def test_a_shared_pictures_frame_is_not_what_it_shows(reader):
    """A chat turn carries a shared picture as "[shared an image: a photo of ...]": the
    frame says a picture was shared, the rest is what it shows."""
    cake = [turn(1, "Nate", "Made this last night! [shared an image: a photo of a chocolate cake with raspberries]")]
    assert reader.read("What dessert did Nate share a photo of?", cake).answer == "chocolate cake"
    tart = [turn(2, "Nate", "Look what I baked! [shared an image: a picture of a lemon tart on a table]")]
    assert reader.read("What did Nate share a picture of?", tart).answer == "lemon tart"


def test_every_one_of_the_kind_asked_is_listed_though_said_further_down(reader):
    """"What shelters does she volunteer at?": each line naming a shelter she volunteers at,
    the one read fourth too; a food bank someone else volunteered at, and "my place" near the
    shelter, are no shelters."""
    evidence = [turn(1, "Maria", "I volunteer at the homeless shelter on Saturdays, serving breakfast."),
                turn(2, "John", "I volunteered at a food bank once with my church."),
                turn(3, "Maria", "The weather has been awful this week."),
                turn(4, "John", "How is your sister doing?"),
                turn(5, "Maria", "I also started volunteering at a dog shelter near my place, walking the dogs.")]
    reading = reader.read("What shelters does Maria volunteer at?", evidence)
    assert reading is not None and reading.answer == "homeless shelter, dog shelter"
    assert {e.record.id for e in reading.records} == {1, 5}


def test_the_object_of_the_questions_verb_is_the_thing_asked(reader):
    evidence = [turn(1, "Tina", "You see, I teach entrepreneurship, and I've studied luck.")]
    assert reader.read("what does the speaker teach?", evidence).answer == "entrepreneurship"


def test_a_kind_of_thing_names_it_and_a_preposition_belongs_to_the_questions_verb(reader):
    evidence = [turn(1, "Jon", "I'm on the hunt for the ideal spot for my dance studio!"),
                turn(2, "Jon", "Yeah, good flooring's crucial. I'm after Marley flooring, which studios use.")]
    # "for the ideal spot" hangs off "hunt", not off the question's "looking for"
    assert reader.read("what kind of flooring is Jon looking for in his dance studio?", evidence).answer \
        == "Marley flooring"
    assert reader.wanted("what is John's position on the team?").defines is None  # a particular, not a definition
    assert reader.wanted("what is luck?").defines == "luck"


def test_a_length_of_time_and_a_relative_date_are_read_as_such(reader):
    evidence = [turn(1, "Tina", "I've spent nearly two decades observing what makes people luckier than others.")]
    assert "two decades" in reader.read("how long has she been observing what makes people lucky?", evidence).answer
    said = turn(2, "Melanie", "I painted that lake sunrise last year.", at=datetime(2023, 5, 8, 13, 56))
    assert reader.read("when did Melanie paint a sunrise?", [said]).answer == "2022"


def test_run_together_capitals_on_a_sign_are_read_as_words(reader):
    reading = reader.read("what city was the talk in?", [sign(1, "TEDSALON TALK"), sign(2, "NEWYORKNEWYORK")],
                          around=lambda record: [])
    assert reading is None  # the city is on another line, and no neighbour reader was given
    lines = {101: [sign(2, "NEWYORKNEWYORK").record]}
    reading = reader.read("what city was the talk in?", [sign(1, "TEDSALON TALK")],
                          around=lambda record: lines.get(record.id, []))
    assert reading is not None and "New York" in reading.answer


def test_a_word_of_the_question_is_never_its_answer_and_nothing_unrelated_is_read(reader):
    evidence = [turn(1, "Sheila", "Sheila is here."), turn(2, "Diane", "The weather was lovely.")]
    assert reader.read("where is Sheila from?", evidence) is None
    assert reader.read("what city is Bob from?", [turn(3, "Ann", "We baked bread all morning.")]) is None


def test_records_about_another_person_weigh_less(reader):
    evidence = [turn(1, "Diane", "I'm from Dallas."), turn(2, "Sheila", "Me, I'm from Chicago.")]
    assert reader.read("where is Sheila from?", evidence).answer == "Chicago"


def test_a_caption_repeating_a_line_does_not_count_as_a_second_witness(reader):
    line = turn(1, "Sheila", "I grew up in Chicago.")
    caption = MemoryRecord("event", CLIP_CAPTION, "ns", 'heard: Sheila said "I grew up in Chicago."', T0, T0, "call",
                           id=50)
    reading = reader.read("where did Sheila grow up?", [line, Evidence(caption, 0.5, "search")])
    assert reading.answer == "Chicago" and reading.agreeing == 1
    assert 1 in {e.record.id for e in reading.records}  # the line itself is cited, whichever read best


def test_an_answer_said_twice_is_cited_where_it_was_said_both_times(reader):
    lines = [turn(1, "Sheila", "I grew up in Chicago."), turn(7, "Diane", "The weather was nice today."),
             turn(30, "Sheila", "Back home in Chicago the winters were brutal.")]
    reading = reader.read("where is Sheila from?", lines)
    assert reading.answer == "Chicago" and reading.agreeing == 2
    assert {e.record.id for e in reading.records} == {1, 30}  # not the line that did not say it


def test_a_quote_is_the_sentence_that_meets_the_question(reader):
    evidence = [turn(1, "Tina", "Hello everyone. Luck is defined as success or failure apparently caused by chance.")]
    reading = reader.read("how did she define luck?", evidence)
    assert reading.kind == "quote" and reading.answer.startswith("Luck is defined as success or failure")


def test_a_name_only_called_out_to_is_the_listener_not_who_the_line_is_about():
    from agent.attribution import about

    line = turn(1, "John", "Hey Tim, I scored 40 points last night!").record
    assert not about(line, ["tim"]) and about(line, ["john"])
    assert about(turn(2, "John", "Tim scored 40 points last night.").record, ["tim"])
    assert not about(turn(3, "Nate", "That's great, Joanna! I dyed my hair purple.").record, ["joanna"])


def test_a_sentence_speaks_of_whom_its_turn_resolves_its_pronoun_to():
    """"You" is the one the turn calls out when it says what they did; "he" / "they" the one
    the turn named before; a question put to someone, "your trip", or "thank you" says
    nothing of what they did."""
    from agent.attribution import line_about

    said = "Wow, Gina! You found the perfect spot for your store."
    assert line_about(turn(1, "Jon", said).record, "You found the perfect spot for your store.", ["gina"])
    assert not line_about(turn(1, "Jon", said).record, "You found the perfect spot for your store.", ["maria"])
    trip = "Hey Maria, thanks for your kind words. Wow, your camping trip sounds awesome!"
    assert not line_about(turn(2, "John", trip).record, "Wow, your camping trip sounds awesome!", ["maria"])
    asked = "Thanks, Joanna! Did you find any cool books there?"
    assert not line_about(turn(3, "Nate", asked).record, "Did you find any cool books there?", ["joanna"])
    thanked = "Gina, thank you so much."
    assert not line_about(turn(4, "Jon", thanked).record, "Gina, thank you so much.", ["gina"])
    max_ = "We had to say goodbye to Max. He was part of our family for 10 years."
    assert line_about(turn(5, "John", max_).record, "He was part of our family for 10 years.", ["max"])
    assert not line_about(turn(6, "John", "He was part of our family for 10 years.").record,
                          "He was part of our family for 10 years.", ["max"])  # no one named before it


def test_a_name_called_out_to_is_the_listener_not_the_person_asked_for(reader):
    assert reader.read("who loved the park?", [turn(1, "Maria", "Thanks, John, Kyle loved the park.")]).answer == "Kyle"
    thanks = [turn(1, "Maria", "Thanks for your support, John.")]
    assert reader.read("who did Maria thank?", thanks).answer == "John"  # there the listener is asked


def test_inside_a_caption_of_turns_a_sentence_is_by_the_turn_it_sits_in():
    from agent.attribution import sentence_speaker

    caption = MemoryRecord("event", CLIP_CAPTION, "ns", "Conversation 3 between John and Tim on Sunday, 16:21: "
                           "John: Hey Tim! I scored 40 points. Tim: Congrats on your win!", T0, T0, "chat", id=51)
    assert sentence_speaker(caption, "I scored 40 points.") == "John"
    assert sentence_speaker(caption, "Congrats on your win!") == "Tim"
    shared = MemoryRecord("event", CLIP_CAPTION, "ns", "Conversation 4 between John and Tim on Monday, 10:02: John: "
                          "Look! [shared an image: a photo of a trophy] Tim: I just adopted a pup last week.", T0, T0,
                          "chat", id=52)
    assert sentence_speaker(shared, "I just adopted a pup last week.") == "Tim"  # a turn after a shared image
    # a sentence read with its turn's head is that turn's, not the one before it
    assert sentence_speaker(caption, "Tim: Congrats on your win!") == "Tim"


def test_a_reading_is_answered_as_a_span_or_as_a_quoted_line_with_its_source(reader):
    place = reader.read("where does Diane live now?", [turn(5, "Diane", "I live in New Jersey now.")])
    assert place.as_answer() == "New Jersey"
    assert place.statement().startswith('New Jersey (Diane said "I live in New Jersey now."')
    quote = reader.read("how did she define luck?", [sign(1, "LUCK IS SUCCESS OR FAILURE CAUSED BY CHANCE")])
    assert quote.kind == "quote" and quote.as_answer().startswith('"') and "(read at 09:00)" in quote.as_answer()


def test_a_line_asking_the_question_back_is_not_its_answer(reader):
    evidence = [turn(1, "Tina", "So what is luck?"), turn(2, "Tina", "Luck is defined as success or failure.")]
    reading = reader.read("how would she put what luck is?", evidence)
    assert reading is not None and reading.answer.startswith("Luck is defined")
    asked = reader.read("what did Tina ask about luck?", evidence)  # unless what was asked is wanted
    assert asked is not None and asked.sentence == "So what is luck?"


def test_within_a_named_recording_its_records_meet_the_question_whatever_their_words(reader):
    third = sign(3, "NEWYORKNEWYORK")
    want = reader.wanted("which city was the talk recorded in?")
    assert reader.read("which city was the talk recorded in?", [third], want) is None  # shares no word with it
    inside = reader.within(want, "talk", third.record.video_id)
    assert "talk" not in inside.words
    reading = reader.read("which city was the talk recorded in?", [third], inside)
    assert reading is not None and reading.answer.startswith("New York")
    elsewhere = reader.within(want, "talk", "another recording")
    assert reader.read("which city was the talk recorded in?", [third], elsewhere) is None


def test_a_question_without_content_words_aligns_with_nothing(reader):
    from agent.wanted import Wanted

    assert reader.alignment(Wanted("thing"), turn(1, "Ann", "It was there.").record) == 0.0


def _neighbours(evidence):
    """`around` over a handful of turns: the others of the same recording within 10 s."""
    records = [e.record for e in evidence]
    return lambda record: [r for r in records if r.id != record.id and r.video_id == record.video_id
                           and abs((r.wall_start - record.wall_start).total_seconds()) <= 10]


def test_a_bare_spoken_number_is_read_and_the_noun_naming_it_picks_it(reader):
    menu = [turn(0, "S1", "To establish a sales partnership, press one."),
            turn(3, "S1", "To speak with a customer advocate, press two.")]
    assert reader.read("which key was for a sales partnership?", menu).answer == "one"
    user = [turn(0, "S1", "The sample configuration also has a single user"),
            turn(3, "S1", "with extension 1234 and password 4242."),
            turn(6, "S1", "That user rings the console.")]
    assert reader.read("what was the password for the sample user?", user, around=_neighbours(user)).answer == "4242"
    assert reader.read("what extension does the sample user have?", user, around=_neighbours(user)).answer == "1234"


def test_a_sentence_cut_at_a_pause_is_read_whole_but_only_within_one_voice(reader):
    cut = [turn(0, "Tina", "I've spent nearly two decades observing"),
           turn(3, "Tina", "what makes people luckier than others,"),
           turn(5, "Tina", "and trying to help people increase their luck.")]
    reading = reader.read("how long has she been trying to help people increase their luck?", cut[2:],
                          around=_neighbours(cut))
    assert reading is not None and "two decades" in reading.answer
    assert reading.sentence.startswith("I've spent") and reading.sentence.endswith("their luck.")
    # diarisation gave the sentence's halves to two voices: the lower case says it goes on
    two_voices = [turn(0, "Ann", "Yeah, we had a long discussion about how easy"),
                  turn(3, "Bob", "we want to make it for people to bleep things out.")]
    assert sentence_of(two_voices[0].record, _neighbours(two_voices)).endswith("bleep things out.")
    assert sentence_of(two_voices[1].record, _neighbours(two_voices)).startswith("Yeah, we had")
    answered = [turn(0, "Ann", "Where were you"), turn(3, "Bob", "At home, all day.")]  # a new sentence, a new voice
    assert sentence_of(answered[0].record, _neighbours(answered)) == "Where were you"
    apart = [turn(0, "Tina", "I've spent nearly two decades observing"),
             turn(30, "Tina", "and trying to help people increase their luck.")]  # a long pause ends a sentence
    assert sentence_of(apart[1].record, lambda record: [apart[0].record]) == \
        "and trying to help people increase their luck."


def test_a_logo_read_on_every_frame_is_one_witness(reader):
    frames = [sign(n, "Walt Disney presents") for n in range(3)]
    reading = reader.read("who presented the cartoon?", frames)
    assert reading is not None and reading.agreeing == 1


def test_a_line_that_does_not_hold_the_kind_asked_leaves_it_unmet(reader):
    from agent.reader import unmet

    assert unmet(reader.wanted("what's the voicemail extension?"), read=False) == 1.0
    assert unmet(reader.wanted("what's the voicemail extension?"), read=True) == 0.0
    assert unmet(reader.wanted("what does the speaker teach?"), read=False) == 0.5
    assert unmet(reader.wanted("what did the screen say?"), read=False) == 0.0
    assert unmet(None, read=False) == 0.0


@pytest.mark.parametrize("question, verb, said, chosen, not_said", [
    # reflect returns its turns in time order and answers with the best of them: whether that
    # answer asks the question back is read from it, not from the first turn
    ("how does she define luck?", "define", ["I teach entrepreneurship.", "So what is luck?",
                                             "Luck is defined as success or failure apparently caused by chance."],
     1, "So what is luck"),
    # its best is the turn nearest the question in meaning; a turn the reader reads clearly as the answer answers
    ("what is luck, according to Tina?", "be",
     ["I've spent two decades observing what makes people luckier than others.",
      "Luck is defined as success or failure apparently caused by chance."], 0, "two decades"),
])
def test_a_reflective_question_is_answered_by_what_is_read_out_of_its_turns(reader, question, verb, said, chosen,
                                                                             not_said):
    from agent.compose import draft
    from agent.plan import QueryPlan
    from agent.tools.base import ToolResult

    lines = [turn(3 * n, "Tina", text) for n, text in enumerate(said)]
    found = ToolResult("reflect", lines[chosen].record.text, lines, True)
    reading = reader.read(question, lines)
    assert reading is not None and reading.answer.startswith("Luck is defined")
    answered = draft(QueryPlan("reflect", verb=verb), [found], reading)
    assert "Luck is defined" in answered.answer and not_said not in answered.answer


def test_a_line_naming_all_the_question_is_about_counts_as_read_when_no_tool_found_it(reader):
    from agent.compose import draft
    from agent.plan import QueryPlan
    from agent.tools.base import ToolResult

    menu = [turn(0, "S1", "For a company directory, press four."), turn(3, "S1", "To leave a message, press five.")]
    never = ToolResult("locate", "", [], False, note="'company directory' was never seen")
    reading = reader.read("how do I reach the company directory?", menu)
    assert reading is not None and "press four" in reading.answer
    plan = QueryPlan("locate", objects=["company directory"], verb="reach")
    assert draft(plan, [never], reading).reading == reading.score  # a strength for the sufficiency
    elsewhere = QueryPlan("locate", objects=["company directory", "lobby"], verb="reach")
    assert draft(elsewhere, [never], reading).reading == 0.0  # the line says nothing of the lobby


def test_a_preposition_with_its_object_in_the_question_asks_nothing_of_its_own(reader):
    assert reader.wanted("where is Sheila originally from?").preps == {"from"}
    assert reader.wanted("what do I dial for voicemail?").preps == frozenset()
    said = [turn(0, "S1", "To check voicemail for the user, dial extension 8500 to enter the voicemail system.")]
    assert "8500" in reader.read("what do I dial for voicemail?", said).answer


def test_whoever_says_the_lines_of_a_named_talk_gave_it(reader):
    talk = [turn(0, "Tina Seelig", "I teach entrepreneurship.", video="talk"),
            turn(3, "Tina Seelig", "So what is luck?", video="talk")]
    want = reader.within(reader.wanted("who gave the talk?"), "talk", "talk")
    reading = reader.read("who gave the talk?", [sign(9, "TED")] + talk, want)  # the logo read first
    assert reading is not None and reading.answer == "Tina Seelig"


def test_a_day_or_a_count_is_not_the_thing_asked(reader):
    said = [turn(0, "John", "I signed with the team on Sunday and I'll play shooting guard.")]
    reading = reader.read("what is John's position on the team he signed with?", said)
    assert reading is None or reading.answer != "Sunday"


def test_a_plural_kind_asks_for_every_one_and_each_is_cited(reader):
    assert reader.wanted("which cities has she lived in?").many and reader.wanted("what are Ana's hobbies?").many
    assert not reader.wanted("which city does she live in?").many
    flavors = reader.wanted("which dairy-free dessert flavors does Nate enjoy?")  # the noun "which" determines
    assert (flavors.hint, flavors.many) == ("flavor", True)
    assert reader.wanted("what books has Leo read?").kind == "thing"  # the books, not a line read out
    lines = [turn(1, "Ana", "I grow tomatoes in the garden."), turn(9, "Ben", "Nice! What else?"),
             turn(20, "Ana", "I also grow basil and mint on the balcony.")]
    several = reader.read("what plants does Ana grow?", lines)
    named = [a.strip() for a in several.answer.split(",")]
    assert {"tomatoes", "basil"} <= set(named) and len(named) == len(set(named)), several.answer
    assert [e.record.id for e in several.records] == [several.evidence.record.id] + [
        e.record.id for e in several.also] and {e.record.id for e in several.records} == {1, 20}
    single = reader.read("what plant does Ana grow on the balcony?", lines)
    assert "," not in single.answer and single.also == ()


@pytest.mark.parametrize("question, said, answer", [
    ("what did Melanie realize after the race?", "I'm starting to realize that self-care is really important.",
     "self-care is really important"),
    ("what did Jon decide after losing his job?", "So I decided to open my own dance studio downtown.",
     "open my own dance studio downtown"),
])
def test_what_the_questions_verb_states_is_read_as_a_clause_not_the_whole_line(reader, question, said, answer):
    speaker = question.split()[2]
    lines = [turn(1, speaker, "Thanks for asking, it was a long day."), turn(2, speaker, said)]
    reading = reader.read(question, lines)
    assert reading is not None and reading.answer == answer
    assert reading.as_answer() == answer  # the clause itself, not a quoted line with its speaker and time


def test_a_clause_too_long_to_be_an_answer_is_not_read_out(reader):
    said = ("I realized that the people who run the little bakery on the corner near the station have been "
            "baking every single loaf by hand since nineteen eighty.")
    reading = reader.read("what did he realize?", [turn(1, "Bob", said)])
    assert reading is None or reading.answer != said.removeprefix("I realized that ").rstrip(".")


def test_a_spoken_cause_gives_the_reason(reader):
    said = "I chose them 'cause they help LGBTQ+ folks with adoption."
    reading = reader.read("why did Caroline choose the agency?", [turn(1, "Caroline", said)])
    assert reading is not None and reading.kind == "reason"
    assert reading.answer == "they help LGBTQ+ folks with adoption"


def test_a_conversations_pattern_is_not_read_for_its_session_numbers(reader):
    from memory.records import PATTERN

    text = ('Nate said things like this in 7 conversations (sessions 5, 24, 25, 26, 27, 28, 29): '
            '"I\'m drawn to turtles." / "My turtles are the best."')
    pattern = MemoryRecord("event", PATTERN, "ns", text, T0, T0 + timedelta(minutes=1), "chat",
                           attrs={"person": "Nate", "pattern": "repeated", "turns": [3, 9]}, id=7)
    reading = reader.read("when did Nate get his first turtles?", [Evidence(pattern, 0.9, "search")])
    assert reading is None  # "29" is a session's number, not when


def _replies(lines: list[Evidence]):
    """The next line by another voice, as memory's operators give it."""
    def reply_to(record):
        later = [e.record for e in lines if e.record.wall_start > record.wall_start]
        nxt = min(later, key=lambda r: r.wall_start, default=None)
        return nxt if nxt is not None and nxt.attrs["speaker_name"] != record.attrs["speaker_name"] else None
    return reply_to


def test_a_question_put_in_the_conversation_is_answered_by_its_reply(reader):
    lines = [turn(1, "Tim", "Woohoo! Congrats on the new team. Which team did you sign with?"),
             turn(31, "John", "The Minnesota Wolves! I can't wait to play with them!"),
             turn(61, "Tim", "Cool! What position are you playing for the team?"),
             turn(91, "John", "I'm a shooting guard for the team and our opener is next week.")]
    asked = [lines[0], lines[2]]  # what a search for the question finds: the lines that ask it
    team = reader.read("which team did John sign with?", asked, reply_to=_replies(lines))
    assert team is not None and team.answer == "Minnesota Wolves"
    assert [e.record.id for e in team.records][:2] == [31, 1]  # the reply, then the line it answers
    position = reader.read("what is John's position on the team he signed with?", asked, reply_to=_replies(lines))
    assert position is not None and position.answer == "shooting guard"
    assert reader.read("which team did John sign with?", asked) is None  # without the replies nothing says it


def test_a_reply_of_courtesy_is_no_answer(reader):
    lines = [turn(1, "Tim", "Congrats on the new team! Which team did you sign with?"), turn(31, "John", "Thanks, Tim!")]
    reading = reader.read("which team did John sign with?", [lines[0]], reply_to=_replies(lines))
    assert reading is None or "thanks" not in reading.answer.lower()


def test_the_degree_of_how_and_a_talker_noun_are_no_words_to_find(reader):
    want = reader.wanted("how long has the speaker been looking at luck?")
    assert want.kind == "duration" and want.words == {"look", "luck"}
    said = turn(1, "Tina", "I've spent nearly two decades observing what makes people luckier and increasing their luck.")
    reading = reader.read("how long has the speaker been looking at luck?", [said])
    assert reading is not None and reading.answer == "nearly two decades"
    # "the speaker" is no word a line must hold, nor does any line hold it by being said:
    # a menu's "to speak with an advocate, press two" does not tell what the speaker teaches
    menu = turn(2, "S1", "To speak with a customer advocate, press two.")
    assert reader.wanted("what does the speaker teach?").words == {"teach"}
    assert reader.read("what does the speaker teach?", [menu]) is None
    assert reader.wanted("who was the speaker?").words == {"speaker"}  # nothing else to find: it stays


def test_the_noun_naming_the_kind_outweighs_another_record_repeating_a_number(reader):
    lines = [turn(1, "S1", "The sample configuration has a single user with extension 1234 and password 4242."),
             turn(5, "S1", "If you dial 1234, you can try to ring the console.")]
    reading = reader.read("what was the password for the sample user?", lines)
    assert reading is not None and reading.answer == "4242"


def test_a_captions_heading_and_a_line_meeting_only_the_names_are_not_quoted(reader):
    caption = MemoryRecord("event", CLIP_CAPTION, "ns", "Conversation 27 between John and Maria on Thursday, 18:20: "
                           "John: Maria, that's great! Maria: Thanks, John.", T0, T0, "chat", id=52)
    assert reader.read("What did John and Maria talk about at the shelter?", [Evidence(caption, 0.5, "search")]) is None
    shelter = turn(3, "Maria", "I volunteer at the homeless shelter on weekends.")
    quote = reader.read("What did Maria say about the shelter?", [Evidence(caption, 0.5, "search"), shelter])
    assert quote is not None and "shelter" in quote.answer


def test_how_long_it_took_is_not_answered_with_when(reader):
    line = [turn(1, "Jon", "I finally opened my studio last week, it took six months of work.")]
    assert reader.read("How long did it take for Jon to open his studio?", line).answer == "six months"
    assert reader.read("How long did it take for Jon to open his studio?", line[:0] + [
        turn(2, "Jon", "I finally opened my studio last week!")]) is None
    surfing = [turn(3, "John", "I started surfing five years ago and it's been great.")]
    assert reader.read("How long has John been surfing?", surfing).answer == "five years"


def test_how_long_ago_is_answered_as_the_line_says_it(reader):
    line = [turn(1, "Caroline", "A friend made it for my 18th birthday ten years ago.")]
    assert reader.read("How long ago was Caroline's 18th birthday?", line).answer == "ten years ago"
    assert reader.read("When was Caroline's 18th birthday?", line).answer == "2016"  # T0 is in 2026


def test_a_captions_heading_gives_no_number_or_name_but_still_says_when(reader):
    caption = MemoryRecord("event", CLIP_CAPTION, "ns", "Conversation 11 between Melanie and Caroline on Monday 14 "
                           "August 2023, 14:24: Melanie: We celebrated my daughter's birthday last night!", T0, T0,
                           "chat", id=53)
    assert reader.read("How many children does Melanie have?", [Evidence(caption, 0.5, "search")]) is None
    when = reader.read("When did Melanie and Caroline talk about the birthday?", [Evidence(caption, 0.5, "search")])
    assert when is not None and "2023" in when.answer


def test_the_noun_a_kind_question_names_is_no_word_to_find_and_a_gerund_meets_its_verb(reader):
    want = reader.wanted("What type of workout class did Maria start doing?")
    assert "type" not in want.words and want.hint == "class"
    assert reader.wanted("What type of volunteering has Maria done?").words == {"maria"}
    assert reader.alignment(reader.wanted("Where does Maria do her volunteering?"),
                            turn(4, "Maria", "I volunteered at the shelter.").record) == 1.0


def test_a_span_across_a_bracket_is_no_answer(reader):
    shared = turn(6, "Gina", "[shared an image: a man in a suit is performing a dance] Gina: Wow!")
    reading = reader.read("What kind of dance piece did Jon's team perform?", [shared])
    assert reading is None or "]" not in reading.answer and reading.answer != "Gina"


@pytest.mark.parametrize("said, answer", [
    ("I love talking to people about my sneaker collection.", "sneaker"),
    ("Dad left me a collection of old stamps.", "old stamps"),
])
def test_a_noun_made_of_the_questions_verb_gives_what_it_is_of(reader, said, answer):
    reading = reader.read("What does John collect?", [turn(1, "John", said)])
    assert reading is not None and reading.answer == answer


def test_a_sign_labels_its_value_in_another_line_with_a_noun_of_the_kind_asked(reader):
    note = sign(0, "WIFI PASSWORD")
    note.record.attrs["block"] = ["KITCHEN", "WIFI PASSWORD", "BLUEFOX42", "MILK"]
    reading = reader.read("what's the code on that note on the fridge?", [note])
    assert reading is not None and reading.answer == "BLUEFOX42"  # "password" names the code asked for
    plain = sign(1, "KITCHEN")
    plain.record.attrs["block"] = ["KITCHEN", "OPEN 9 TO 5", "BLUEFOX42"]
    assert reader.read("what's the code on that note on the fridge?", [plain]) is None  # nothing names a code


def test_what_a_thing_is_is_the_line_that_says_it_is(reader):
    talk = [turn(0, "Tina", "I've spent two decades trying to help people increase their luck.", video="talk"),
            turn(4, "Tina", "So what is luck?", video="talk"),
            turn(6, "Tina", "Luck is defined as success or failure apparently caused by chance.", video="talk"),
            turn(9, "Tina", "But I've realized that luck is rarely a lightning strike.", video="talk")]
    assert reader.wanted("what is luck, according to the talk?").defines == "luck"
    assert reader.wanted("what was on the monitor?").defines is None  # a place asked, no definition
    reading = reader.read("what is luck, according to the talk?", talk)
    assert reading is not None and reading.answer.startswith("Luck is defined as"), reading


def test_who_is_read_from_a_role_noun_told_from_outside(kinds):
    reader = EvidenceReader(SpacyPipeline(), kinds=kinds)
    evidence = [turn(1, "Maria", "I started volunteering to help. My aunt believed in volunteering, so I'm "
                                 "inspired by her."), turn(2, "John", "Thanks, Maria! That's great.")]
    assert reader.read("who inspired Maria to start volunteering?", evidence).answer == "Maria's aunt"
    assert EvidenceReader(SpacyPipeline()).read("who inspired Maria to start volunteering?", evidence) is None  # names only
    moved = [turn(3, "Caroline", "It's been four years since I moved from my home country.")]
    assert reader.read("where did Caroline move from?", moved).answer == "Caroline's home country"  # a place, too
    assert reader.read("who did Caroline move from?", moved) is None  # a country is no one


def test_a_first_person_span_is_told_from_outside_but_a_quote_stays_as_said(kinds):
    reader = EvidenceReader(SpacyPipeline(), kinds=kinds)
    mine = turn(1, "me", "My brother gave me the keys this morning.")
    assert reader.read("who gave me the keys?", [mine]).answer == "your brother"
    line = reader.read("what did Maria say about volunteering?",
                       [turn(2, "Maria", "My aunt believed in volunteering.")])
    assert (line.kind, line.answer) == ("quote", "My aunt believed in volunteering")


def test_a_verb_naming_the_same_act_meets_the_questions_verb(kinds):
    reader = EvidenceReader(SpacyPipeline(), kinds=kinds)
    assert "call" in kinds.same_acts("ring") and "purchase" in kinds.same_acts("buy")
    assert "eat" not in kinds.same_acts("ring")
    menu = [turn(1, "S1", "Thank you for calling Acme Insurance."), turn(2, "S1", "For billing, press one.")]
    assert reader.read("who did I ring?", menu).answer == "Acme Insurance"  # "calling" is ringing
    assert EvidenceReader(SpacyPipeline()).read("who did I ring?", menu) is None  # without WordNet: no word met
    # "call" is a word of the question, though spaCy's stop list holds it
    assert EvidenceReader(SpacyPipeline()).read("which company did I just call?", menu).answer == "Acme Insurance"


def test_a_phrasal_verb_naming_the_same_act_finds_what_it_acts_on(kinds):
    reader = EvidenceReader(SpacyPipeline(), kinds=kinds)
    assert "stand_for" in kinds.same_acts("symbolize") and "stand_for_a" not in kinds.same_acts("symbolize")
    said = [turn(1, "Ann", "My grandma gave me this ring years ago."),
            turn(2, "Ann", "The ring stands for courage, it was made by a jeweller in Leeds.")]
    reading = reader.read("What does Ann's ring symbolize?", said)
    assert reading is not None and reading.answer == "courage"


def test_things_said_together_are_read_together_and_a_word_read_weakly_elsewhere_bears_nothing_out(kinds):
    reader = EvidenceReader(SpacyPipeline(), kinds=kinds)
    said = [turn(1, "Ann", "This necklace is from my grandma, and it stands for love, faith and strength."),
            turn(2, "Ann", "The eagle on my jacket symbolizes freedom and pride."),
            turn(3, "Ann", "My sketch? It stands for freedom, I guess.")]
    reading = reader.read("What does Ann's necklace symbolize?", said)
    assert reading is not None and reading.answer == "love, faith and strength"
    assert reading.evidence.record.id == 1
    # two clauses joined by "and" are two things, not one list
    cooked = reader.read("what did Ann cook?", [turn(1, "Ann", "I cooked a curry and Ben made the rice.")])
    assert cooked is not None and cooked.answer == "curry"


def test_of_a_replys_sentences_the_thanks_is_none_and_the_one_meeting_the_question_is_first(reader):
    lines = [turn(1, "Caroline", "Sorry about your injury. What are you doing to keep busy during the pottery break?"),
             turn(31, "Melanie", "Thanks, Caroline. It was tough, but I'm doing ok. "
                                 "Been reading that book you recommended and painting to keep busy.")]
    reading = reader.read("What does Melanie do to keep busy during her pottery break?", [lines[0]],
                          reply_to=_replies(lines))
    assert reading is not None and "painting to keep busy" in reading.answer, reading.answer
    assert reading.asked == lines[0].record.attrs["said"]  # it meets the question with the line it answers
    summer = [turn(1, "Melanie", "We're going camping this summer. What about you? Any summer plans?"),
              turn(31, "Caroline", "Researching adoption agencies, it has been a dream of mine.")]
    plans = reader.read("What are Caroline's plans for the summer?", [summer[0]], reply_to=_replies(summer))
    assert plans is not None and "adoption agencies" in plans.answer and plans.evidence.record.id == 31


def test_the_title_a_line_gives_names_the_work_asked_for_not_a_person(kinds):
    reader = EvidenceReader(SpacyPipeline(), kinds=kinds)
    lines = [turn(1, "Caroline", 'I loved "Becoming Nicole" by Amy Ellis Nutt. Highly recommend it for sure.'),
             turn(2, "Melanie", "I got a new bookcase for the living room, it holds all my books.")]
    assert reader.read("What book did Caroline recommend?", lines).answer == "Becoming Nicole"
    # a quotation of a whole line is said, not a title
    said = [turn(4, "Tim", 'He told me "we should all go to the lake together next summer with the kids and dogs".')]
    trip = reader.read("What book did Tim mention?", said)
    assert trip is None or trip.kind != "thing", trip.answer  # no span named a book: at most the line is quoted
    music = [turn(5, "Melanie", 'I like classical like Bach and Mozart, and modern songs like Ed Sheeran\'s "Perfect".')]
    musicians = reader.read("Which classical musicians does Melanie enjoy?", music)
    assert musicians is None or musicians.answer != "Perfect"  # a song's title names no musician


@pytest.mark.parametrize("question, answer", [
    ("Why did Maria join a nearby church?", "I wanted to feel closer to a community and my faith"),
    ("What did Maria do to feel closer to a community and her faith?", "Just yesterday I joined a nearby church"),
])
def test_a_sentence_saying_only_what_the_question_says_gives_way_to_the_one_beside_it(reader, question, answer):
    said = "Just yesterday I joined a nearby church. I wanted to feel closer to a community and my faith. " \
           "So far it has been great."
    reading = reader.read(question, [turn(1, "Maria", said)])
    assert reading is not None and reading.answer == answer and reading.sentence.rstrip(".") == answer
    # a sentence that says one thing more is its own answer
    bike = reader.read("How did John get to work?", [turn(2, "John", "I got to work by bike. It was raining.")])
    assert bike is not None and bike.answer == "I got to work by bike"


def test_a_numbered_item_is_what_the_line_saying_its_number_pairs_it_with(reader):
    menu = [turn(1, "S1", "For a company directory, press four."),
            turn(2, "S1", "To speak with a customer advocate, press two."),
            turn(3, "S1", "For an operator, press zero.")]
    assert reader.wanted("what was option 2?").numbered == 2 and reader.wanted("what was option 2?").defines is None
    assert reader.read("what was option two on the phone menu?", menu).answer == "customer advocate"
    assert reader.read("what was option four?", menu).answer == "company directory"
    assert reader.read("what was option seven?", menu) is None  # no line says seven



def test_a_reported_act_is_what_is_asked_and_a_chosen_promise_is_read_for_its_object(reader):
    assert reader.wanted("what did I say I'd bring to the party?").verb == "bring"
    assert reader.wanted("what did she promise to send?").verb == "send"
    assert reader.wanted("what did Marcus want to borrow?").verb == "borrow"  # what he wanted is the thing borrowed
    assert reader.wanted("what did Bob ask me to buy?").verb == "buy"
    assert reader.wanted("what did she ask about?").verb == "ask"  # asked of no one: what she asked
    borrow = [turn(5, "Marcus", "Can I borrow your ladder on Sunday?")]
    assert reader.read("what did Marcus want to borrow?", borrow).answer == "ladder"  # a request says what it wants
    # a light act: whatever the promise the tool chose undertakes, not the line that makes it
    assert reader.wanted("what did I say I'd do?").kind == "act"
    undertaking = [turn(4, "me", "Sure, I will send the report on Friday.")]
    assert reader.read("what did I say I'd do?", undertaking, chosen=True).answer == "send the report on Friday"
    party = [turn(1, "me", "I'll bring a big salad to the party on Saturday."), turn(2, "Ann", "The party starts at eight.")]
    assert reader.read("what did I say I'd bring to the party?", party).answer == "big salad"
    # "get it over to Bob": the promise the tool chose by whom it was made to, read for what it sends
    promise = [turn(3, "me", "I will send the schedule tomorrow morning.")]
    question = "which document did I say I'd get over to Bob?"
    assert reader.read(question, promise) is None  # by its words alone it does not meet the question
    assert reader.read(question, promise, chosen=True).answer == "schedule"


@pytest.mark.parametrize("said, answer", [
    ("We go to the park a few times a week, the kids love it.", "a few times a week"),
    ("I take them to the park every other Sunday.", "every other Sunday"),
    ("Honestly, we only get to the park once or twice a year.", "once or twice a year"),
    ("John says the park bus runs every 15 min on weekdays.", "every 15 min"),  # as a timetable writes it
])
def test_how_often_is_read_as_english_says_a_frequency_not_a_number_in_a_date(reader, said, answer):
    lines = [turn(0, "John", "Conversation 8 on Monday 06 March, we talked about the park."), turn(1, "John", said)]
    reading = reader.read("how often does John go to the park?", lines)
    assert reading is not None and reading.answer == answer
    assert reader.read("how often does John go to the park?", lines[:1]) is None  # "06" is a day, no frequency


def test_words_that_only_point_at_a_name_are_not_the_name(kinds):
    # WordNet counts "name" among people ("a big name"): "his name" would read as someone
    reader = EvidenceReader(SpacyPipeline(), kinds=kinds)
    said = [turn(0, "John", "Our one-year-old is so cute, his name is Kyle!")]
    reading = reader.read("what is the name of John's one-year-old child?", said)
    assert reading is not None and reading.answer == "Kyle"


def test_the_date_a_question_names_says_when_and_is_no_word_to_find(reader):
    want = reader.wanted("What is the name of Maria's puppy she got two weeks before August 11, 2023?")
    assert {"puppy", "maria"} <= want.words and not {"august", "11", "2023"} & want.words
    assert want.people == {"maria"}
    header = Evidence(MemoryRecord("event", CLIP_CAPTION, "ns", "Conversation 30 between Maria and John on Friday 11 "
                                   "August 2023.", T0, T0, "chat", id=50), 0.5, "search")
    reading = reader.read("What is the name of Maria's puppy she got two weeks before August 11, 2023?",
                          [header, turn(1, "Maria", "I got a puppy, her name's Coco!")])
    assert reading is not None and reading.answer == "Coco"


@pytest.mark.parametrize("lines, question, answer", [
    ([("Ann", "We drove along the coast road last weekend with the kids."),
      ("Ann", "The views along the coast were spectacular and peaceful, we stopped every mile."),
      ("Ben", "The traffic on my way home was terrible.")],
     "How did Ann describe the views along the coast?", "spectacular and peaceful"),
    # a description of the thing asked about outranks one of something else
    ([("Sam", "It felt great being out there with my team."),
      ("Sam", "The atmosphere in the hall was electric and loud all night.")],
     "How did Sam feel about the atmosphere in the hall?", "electric and loud"),
])
def test_what_something_was_like_is_read_as_the_words_that_describe_it(reader, lines, question, answer):
    reading = reader.read(question, [turn(n, who, said) for n, (who, said) in enumerate(lines)])
    assert reading is not None and reading.answer == answer


def test_with_nothing_said_of_what_it_was_like_the_line_is_quoted(reader):
    # her drive is another thing; "able to sing" says what one could do, not what anything was like
    plain = [turn(3, "Ann", "We saw the views along the coast on Sunday."), turn(4, "Ann", "My drive home was terrible.")]
    reading = reader.read("How did Ann describe the views along the coast?", plain)
    assert reading is not None and reading.kind == "quote" and "views" in reading.answer
    reading = reader.read("How did Sam feel about singing along?", [turn(5, "Sam", "I was able to sing along.")])
    assert reading is None or reading.answer != "able"


def test_a_quoted_title_in_a_question_names_no_one(reader):
    from agent.question_nlp import parse_question

    question = 'What is "Little Women" about according to Joanna?'
    assert reader.wanted(question).people == {"joanna"}
    assert parse_question(reader.nlp, question, None).people == ["Joanna"]


def test_only_a_sentence_of_thanks_or_assent_is_courtesy_and_a_caption_quotes_no_title(reader):
    from agent.verb_spans import courtesy

    def said(text):
        return next(reader.nlp(text).sents)
    assert courtesy(said("Thanks, Melanie!")) and courtesy(said("Yeah, I get it.")) and courtesy(said("Cool, Gina!"))
    assert not courtesy(said("Living Room.")) and not courtesy(said("Thanks for the book, I loved it."))
    assert courtesy(said("Wow, Melanie!")) and not courtesy(said("Rob!"))  # an exclamation; a name may answer who
    shown = MemoryRecord("event", CLIP_CAPTION, "ns", 'shown: "DINING ROOM"; "ALICE"; "RED MUG".', T0,
                         T0 + timedelta(seconds=5), "home", attrs={}, id=50)
    reading = reader.read("which book did Alice recommend?", [Evidence(shown, 0.5, "search")])
    assert reading is None or reading.answer not in ("DINING ROOM", "RED MUG")  # words read on screen, not titles


def test_what_a_line_equates_with_the_thing_the_question_describes_answers_it(reader):
    """"What was grandma's gift?": a copula's other side ("this necklace is ... a gift from my
    grandma"), when the sentence says all the question describes and is by or of whom it names."""
    gift = [turn(1, "Caroline", "Thanks, Melanie! This necklace is super special to me - a gift from my grandma "
                                "in my home country. She gave it to me when I was young.")]
    assert reader.wanted("What was grandma's gift to Caroline?").equated == ("gift",)
    assert reader.wanted("What is Nate's favorite video game?").equated == ("game", "favorite", "video")
    assert reader.wanted("What is one of Joanna's favorite movies?").equated == ("movie", "favorite")
    assert reader.wanted("What is luck?").equated == ()  # a definition is asked, not a particular
    reading = reader.read("What was grandma's gift to Caroline?", gift)
    assert reading is not None and reading.answer == "necklace"
    # the line does not say it was grandpa's, nor is it by or of Melanie
    for other in ("What was grandpa's gift to Caroline?", "What was grandma's gift to Melanie?"):
        wrong = reader.read(other, gift)
        assert wrong is None or wrong.answer != "necklace", other
    book = reader.read("What is John's favorite book?",
                       [turn(2, "John", "Harry Potter is my favorite book. It's so immersive!")])
    assert book is not None and book.answer == "Harry Potter"
    hero = reader.read("What is John's favorite character?",
                       [turn(3, "John", "I've watched them all. My favorite character is Aragorn, he grows so much.")])
    assert hero is not None and hero.answer == "Aragorn"
    # "it" names nothing: the line is quoted, no pronoun read out as the thing
    vague = reader.read("What is John's favorite book?", [turn(4, "John", "I love this series. It is one of my favorites.")])
    assert vague is None or vague.kind == "quote"


def test_a_noun_naming_the_same_thing_meets_the_questions_noun(kinds):
    """"How did Melanie's children handle it?" meets a line about her kids (WordNet: the first
    sense of one is among the other's two most frequent), not one about her dogs."""
    assert "kid" in kinds.same_things("child") and "child" in kinds.same_things("kid")
    assert "film" in kinds.same_things("movie") and "store" in kinds.same_things("shop")
    assert not kinds.same_things("dog") & {"child", "kid", "cat"}
    reader = EvidenceReader(SpacyPipeline(), kinds=kinds)
    want = reader.wanted("How did Melanie's children handle the accident?")
    assert want.met_in({"kid", "accident"}) == {"child", "accident"}
    lines = [turn(1, "Caroline", "The kids look so cute, Mel! How did they handle the accident?"),
             turn(2, "Melanie", "They were scared but we reassured them. They're tough kids."),
             turn(3, "Caroline", "The dogs look so cute, Mel! How did they handle the move?"),
             turn(4, "Melanie", "They barked all night.")]
    reading = reader.read("How did Melanie's children handle the accident?", [lines[0], lines[2]],
                          reply_to=_replies(lines))
    assert reading is not None and reading.evidence.record.id == 2
    without = EvidenceReader(SpacyPipeline()).read(  # without WordNet the kids are not her children
        "How did Melanie's children handle the accident?", [lines[0]], reply_to=_replies(lines))
    assert without is None or without.score < reading.score


def test_a_span_meets_the_question_by_the_words_around_it_not_by_repeating_them(kinds):
    """"A dance studio location" repeats "dance studio" from the question; it is not what Jon's
    dance studio needs: "Marley flooring", said of dance studios, is."""
    reader = EvidenceReader(SpacyPipeline(), kinds=kinds)
    lines = [turn(2, "Jon", "Yeah, good flooring's crucial. I'm after Marley flooring, which is what dance studios use."),
             turn(1, "Jon", "Searching for a dance studio location has been tricky, but I'm determined to find the right place.")]
    reading = reader.read("What kind of flooring is Jon looking for in his dance studio?", lines)
    assert reading is not None and reading.answer == "Marley flooring"
    movie = reader.read("What movie has Nate recently seen that blew his mind?",
                        [turn(3, "Nate", "I love action and sci-fi movies, the effects are so cool."),
                         turn(4, "Nate", "I just saw Inception last night and it totally blew my mind!")])
    assert movie is not None and movie.answer == "Inception"


@pytest.mark.parametrize("said, times", [
    ("Sure, I will call him before 9.", ["before 9"]),  # an hour said bare, which the model calls a number
    ("Back after 2 weeks.", []),  # a count of something is no hour
    ("I have 9 cats.", []),
    ("Actually no, it moved to 4.30.", ["4.30"]),  # a clock reading, which the model calls a number
    ("Prices went up to 4.30 pounds.", []),  # a count of pounds
    ("Actually, no, it moved to 5.", ["5"]),  # an hour a plan was moved to
    ("We went up to 5 floors.", []),
])
def test_a_clock_hour_said_bare_after_a_time_preposition(said, times):
    from agent.span_kinds import clock_times
    from memory.language import english

    assert [s.text for s in clock_times(next(english()(said).sents))] == times


def test_a_part_of_the_day_is_a_time_only_of_what_is_to_come():
    from agent.span_kinds import clock_times
    from memory.language import english

    sent = next(english()("Okay, I'll bring the ladder back in the evening.").sents)
    assert [s.text for s in clock_times(sent, parts=True)] == ["the evening"]
    assert clock_times(sent) == []  # "when did ...?" asks a day or a clock time, not "the evening"


def test_which_one_of_a_kind_is_the_number_or_code_it_goes_by(reader):
    assert reader.read("which bay is my car in?", [sign(1, "PARKING BAY 47")]).answer == "47"
    gate = [turn(1, "me", "My flight leaves from gate 12 at noon.")]
    assert reader.read("which gate does my flight leave from?", gate).answer == "12"


def test_a_value_corrected_in_the_next_sentence_is_read_as_it_became(reader):
    lunch = [turn(1, "Hannah", "The team lunch is on Wednesday. Sorry. I mean Tuesday.")]
    assert reader.read("which day is the team lunch?", lunch).answer == "Tuesday"


def test_no_code_is_read_from_a_clock_time_or_a_share(reader):
    board = [sign(1, "BUDGET REVIEW / FRIDAY 3 PM")]
    assert reader.read("what's the code for the review?", board) is None


def test_a_code_labelled_by_another_kind_is_not_the_one_asked_even_said_twice(reader):
    """"extension 1234 and password 4242": the password is the value "password" labels, though
    the extension is said again in the next line (two lines agreeing on it, both read past 1)."""
    lines = [turn(0, "S1", "The sample configuration has a single user with extension 1234 and password 4242."),
             turn(5, "S1", "If you dial 1234, you can try to ring the console.")]
    around = _neighbours(lines)  # the next line is read as the first one's context
    assert reader.read("what's the sample user's password?", lines[:1], around=around).answer == "4242"
    assert reader.read("which extension does the sample user have?", lines[:1], around=around).answer == "1234"


def test_an_order_after_a_purpose_clause_is_read_with_its_verb(reader):
    """"To check voicemail, dial extension 8500": the small English model reads "dial" as a noun
    (a modifier of "extension", or a root of its own); the order's verb is put right, and the
    thing dialled keeps the number it goes by."""
    for line, verb in (("To check voicemail for the user, dial extension 8500 to enter the voicemail system.", "dial"),
                       ("To execute an echo test, dial 600.", "dial"), ("To be honest, phone calls are tiring.", "be")):
        root = next(s.root for s in reader.nlp(line).sents)
        assert root.lemma_ == verb and root.pos_ in ("VERB", "AUX"), (line, root.text, root.pos_)
    lines = [turn(0, "S1", "To check voicemail for the user, dial extension 8500 to enter the voicemail system."),
             turn(5, "S1", "That user is configured to ring the console when their extension is dialed.")]
    assert reader.read("what do I dial for voicemail?", lines).answer == "extension 8500"
