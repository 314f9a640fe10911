"""What an answer cites (agent.citing): the records it rests on first, then the records
looked at that hold most of the question's words, first-hand only, up to a limit."""
from datetime import datetime, timedelta

from agent.citing import CITED, cited
from agent.reader import EvidenceReader
from agent.state import Evidence
from memory.records import CLIP_CAPTION, HOUR_SUMMARY, TEXT_SIGHTING, UTTERANCE, MemoryRecord

T0 = datetime(2026, 3, 2, 9, 0)


def _line(n: int, text: str, kind: str = UTTERANCE, speaker: str = "Melanie") -> Evidence:
    record = MemoryRecord("event", kind, "me", text, T0 + timedelta(minutes=n), T0 + timedelta(minutes=n, seconds=5),
                          attrs={"said": text, "speaker_name": speaker} if kind == UTTERANCE else {}, id=n)
    return Evidence(record, 0.5, "search")


def _cite(question, support, looked_at, limit=CITED):
    reader = EvidenceReader()
    want = reader.wanted(question)
    return cited(support, looked_at, lambda records: reader.alignments(want, records), limit)


def test_lines_about_the_question_follow_the_one_it_rests_on_best_aligned_first():
    own = _line(1, "I went camping with the kids last weekend.")
    pottery = _line(2, "I signed up for a pottery class, it's my new hobby.")
    weather = _line(3, "The weather was lovely today.")
    activities = _line(4, "Painting and swimming are the activities I love most.")
    out = _cite("What activities does Melanie partake in?", [own], [own, pottery, weather, activities])
    assert out[0] is own
    assert [e.record.id for e in out[1:]] == [4]  # "activities" and Melanie: 2 of her 2 words; pottery holds 1 of 2
    assert out[1].why == "related (search)"


def test_second_hand_records_are_not_cited_and_the_limit_holds():
    own = _line(1, "Melanie: I love painting sunsets.")
    caption = _line(2, "Melanie talks about painting sunsets.", kind=CLIP_CAPTION)
    hour = _line(3, "09:00 Melanie said she loves painting.", kind=HOUR_SUMMARY)
    sign = _line(4, "SUNSET PAINTING CLASS BY MELANIE", kind=TEXT_SIGHTING)
    more = [_line(10 + n, f"Melanie painting sunsets again, take {n}.") for n in range(6)]
    out = _cite("Which sunsets does Melanie love?", [own], [caption, hour, sign, *more], limit=3)
    assert len(out) == 3 and out[0] is own
    assert {e.record.kind for e in out[1:]} <= {UTTERANCE, TEXT_SIGHTING}
    assert all(e.record.id not in (2, 3) for e in out)


def test_an_answer_resting_on_many_records_cites_them_as_they_are():
    support = [_line(n, f"line {n} about painting") for n in range(CITED + 2)]
    extra = _line(99, "Melanie loves painting.")
    assert _cite("Which sunsets does Melanie love?", support, [extra]) == support
    assert _cite("Which sunsets does Melanie love?", [], []) == []


def test_only_the_first_records_looked_at_are_weighed():
    from agent.citing import CONSIDERED

    own = _line(1, "Melanie loves sunsets.")
    unrelated = [_line(10 + n, f"Nothing to see here, part {n}.") for n in range(CONSIDERED)]
    late = _line(99, "Melanie paints sunsets every evening.")
    assert _cite("Which sunsets does Melanie love?", [own], [*unrelated, late]) == [own]
    assert _cite("Which sunsets does Melanie love?", [own], [late, *unrelated])[1].record.id == 99


def test_a_line_that_asks_is_cited_with_its_reply_as_one_passage():
    own = _line(1, "Tim: I just signed with a new team!", speaker="Tim")
    asked = _line(2, "What position are you playing for the team?", speaker="Melanie")
    reply = _line(3, "I'm a shooting guard, our season opener is next week.", speaker="Tim")
    other = _line(4, "The team trains on Mondays at the position drills.", speaker="Tim")
    replies = {2: reply.record}
    reader = EvidenceReader()
    want = reader.wanted("What position does Tim play on the team?")
    out = cited([own], [asked, other], lambda records: reader.alignments(want, records), limit=2,
                reply_to=lambda record: replies.get(record.id))
    assert [e.record.id for e in out] == [1, 2, 3]  # the exchange is one passage: "other" has no room
    assert out[2].related and "reply" in out[2].why
    no_reply = cited([own], [asked, other], lambda records: reader.alignments(want, records), limit=2)
    assert [e.record.id for e in no_reply] == [1, 2]


def test_a_reply_that_holds_nothing_of_the_question_is_not_cited():
    asked = _line(2, "Is the plumber bringing the new tap?", speaker="Bob")
    aside = _line(3, "Let's have dinner.", speaker="Alice")
    reader = EvidenceReader()
    want = reader.wanted("When is the plumber coming?")
    out = cited([], [asked], lambda records: reader.alignments(want, records), reply_to=lambda record: aside.record)
    assert [e.record.id for e in out] == [2]
