"""Kinds of things from WordNet (memory.kinds): a question's "woman" or "van" finds what the
detector called a person or a truck, and an event ("the talk") is not taken for a thing."""
from __future__ import annotations

from datetime import datetime

from memory.kinds import Kinds
from memory.records import ENTITY_SIGHTING, RecordFilter
from perception.types import ClipObservation, ClipSpan, ObjectDetection, OcrLine, VideoObservation
from retrieval.operators import MemoryOperators

T0 = datetime(2026, 3, 2, 9, 0)


def test_a_kind_of_thing_lies_under_the_broader_one(kinds):
    assert kinds.is_a("woman", "person") and kinds.is_a("women", "person") and kinds.is_a("puppy", "dog")
    assert kinds.steps_up("van", "truck") == 1
    assert not kinds.is_a("van", "car")  # a detector's car is an automobile, not a railway car
    assert not kinds.is_a("person", "woman") and not kinds.is_a("cup", "dog")


def test_two_names_of_one_kind_of_thing_are_related_and_a_wordnet_id_means_its_own_sense(kinds):
    assert kinds.related("lemon", "orange") and kinds.related("moving van", "truck")  # siblings; a kind of
    assert not kinds.related("crate", "suitcase") and not kinds.related("dumbbell", "airplane")
    assert kinds.related("n02930766", "car") and not kinds.related("cab", "car")  # ImageNet's cab is a taxi
    assert kinds.is_a("n02930766", "car") and not kinds.related("n99999999", "car")


def test_things_one_could_see_and_events_one_could_not(kinds):
    assert kinds.visible("cup") and kinds.visible("woman") and kinds.visible("dog")
    assert kinds.visible("passport") and kinds.visible("note")  # written: read off paper
    assert kinds.visible("talk") is False and kinds.visible("meeting") is False and kinds.visible("lecture") is False
    assert kinds.compound("phone call")
    assert not kinds.compound("phone charger") and kinds.visible("xqzzy") is None


def test_a_verb_s_forms_are_regular_and_wordnet_s_irregular_ones(kinds):
    assert set(kinds.verb_forms("realize")) == {"realize", "realizes", "realized", "realizing"}
    assert {"tried", "tries", "trying"} <= set(kinds.verb_forms("try"))
    assert "felt" in kinds.verb_forms("feel") and "taught" in kinds.verb_forms("teach")


def test_without_wordnet_nothing_is_known(tmp_path):
    empty = Kinds(tmp_path)
    assert not empty.available and empty.visible("cup") is None and not empty.is_a("woman", "person")
    assert Kinds(None).senses("woman") == []
    assert Kinds(None).verb_forms("feel") == ("feel", "feels", "feeled", "feeling")  # the regular forms only


def _seen(label: str, t: float, colour: str) -> ObjectDetection:
    return ObjectDetection(label, 0.7, t, (100.0, 100.0, 300.0, 300.0), (640, 480), colour, (), 1, 1)


def test_a_question_word_finds_the_detector_s_coarser_label(memory):
    things = [_seen(label, t, colour) for label, colour in (("person", "red"), ("truck", "white"), ("car", "blue"))
              for t in (1.0, 2.0, 3.0)]
    span = ClipSpan("v", 0, 0.0, 10.0, T0)
    memory.ingest(VideoObservation("v", "/v.mp4", 10.0, T0, False, [ClipObservation(span, objects=things)]), "me")
    operators = MemoryOperators(memory)
    assert operators.resolve_entity("woman", "me", None).entity == "person"
    assert operators.resolve_entity("van", "me", None).entity == "truck"
    assert operators.resolve_entity("sedan", "me", None).entity == "car"
    assert operators.resolve_entity("mug", "me", None) is None  # WordNet's slang "mug" (a face) is too far in meaning
    assert operators.resolve_entity("giraffe", "me", None) is None


def test_a_printed_word_is_a_thing_only_when_it_names_something(memory):
    lines = [OcrLine(text, 0.95, t, (20.0 + 400 * i, 100.0, 220.0 + 400 * i, 140.0), (1920, 1080))
             for t in (1.0, 2.0) for i, text in enumerate(("CUP", "SAMSUNG", "TINASEELIG", "PAN (dirty)"))]
    span = ClipSpan("v", 0, 0.0, 10.0, T0)
    memory.ingest(VideoObservation("v", "/v.mp4", 10.0, T0, False, [ClipObservation(span, ocr=lines)]), "me")
    things = memory.store("entity").query(RecordFilter(namespace="me", kinds=(ENTITY_SIGHTING,)))
    assert sorted({r.attrs["entity"] for r in things}) == ["cup", "pan"]  # a brand and a name are text, not things


def test_an_activity_names_the_things_used_to_do_it(kinds):
    assert "bicycle" in kinds.things_used_to("cycle") and "bicycle" in kinds.things_used_to("cycling")
    assert kinds.things_used_to("ski") == ["ski"] and "skateboard" in kinds.things_used_to("skateboard")
    assert kinds.things_used_to("talk") == [] and kinds.things_used_to("walk") == []  # nothing in hand
