"""The generated RefMem-style suite (eval/refmem/world.py): threads the transcript reader
accepts, evidence anchors that are verbatim lines and images of the right speaker, every
dimension x format x phrasing per context, well-formed answers, a trait library that can make
contexts differ, small talk that gives no trait away, and byte-identical output per seed."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest

from eval.refmem.dataset import DIMENSIONS, FORMATS, read_suite
from eval.refmem.world import (
    CLOSINGS,
    FOLLOW_UPS,
    FRIEND_OPENS,
    FRIEND_STYLES,
    GENERIC_SHARES,
    GREETINGS,
    GROUP_CHIMES,
    PERSON_OPENS,
    PHRASINGS,
    REACTIONS,
    SIZES,
    TRAITS,
    generate_contexts,
    generate_suite,
)
from perception.transcripts import read_transcript


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    root = tmp_path_factory.mktemp("refmem") / "smoke"
    suite = generate_suite(root, "smoke", 0)
    return suite, {c.context_id: c for c in generate_contexts("smoke", 0)}


def _owners(suite, context):
    (dialogue,) = read_transcript(suite.thread(context))
    return dialogue, {t.image_index: t.speaker for t in dialogue.turns if t.image_index is not None}


def test_the_smoke_suite_reads_back_with_every_cell_per_context(smoke):
    suite, contexts = smoke
    again = read_suite(suite.root)
    assert again.items == suite.items and len(suite.items) == 96 and suite.contexts == ["ctx01", "ctx02"]
    for context in suite.contexts:
        items = [i for i in suite.items if i.context_id == context]
        cells = [(i.dimension, i.format, i.phrasing) for i in items]
        assert sorted(cells) == sorted((d, f, p) for d in DIMENSIONS for f in FORMATS for p in PHRASINGS)
        assert all(i.id == f"{context}:{i.dimension}:{i.format}:{i.phrasing}" for i in items)
        assert {i.dimension for i in items} == {t.dimension for t in contexts[context].traits}


def test_threads_parse_with_their_sessions_images_and_times(smoke):
    suite, contexts = smoke
    for context, planted in contexts.items():
        text = suite.thread(context).read_text()
        assert text == planted.text
        dialogue, owners = _owners(suite, context)
        assert len(dialogue.sessions) == planted.sessions == 10
        assert len(dialogue.turns) == planted.turns
        assert len(owners) == planted.images == text.count("[Image #") and sorted(owners) == list(range(len(owners)))
        for before, after in zip(dialogue.sessions, dialogue.sessions[1:]):
            assert timedelta(days=1) < after.start - before.start < timedelta(days=5)
        assert all(8 <= len(s.turns) <= 24 for s in dialogue.sessions)
        speakers = {t.speaker for t in dialogue.turns}
        assert speakers == {planted.person, *planted.friends}
        assert not any(set(":[]") & set(s) for s in speakers)


def test_evidence_lines_and_images_are_the_threads_own(smoke):
    suite, contexts = smoke
    for context, planted in contexts.items():
        lines = suite.thread(context).read_text().splitlines()
        dialogue, owners = _owners(suite, context)
        for item in (i for i in suite.items if i.context_id == context):
            assert item.evidence.text and set(item.evidence.text) <= set(lines), item.id
            assert [lines.index(t) for t in item.evidence.text] == sorted(lines.index(t) for t in item.evidence.text)
            if item.visual:
                assert item.evidence.images and all(owners[n] == planted.person for n in item.evidence.images)
                # the text that goes with each image is its sharer's line just above it
                for n in item.evidence.images:
                    above = lines[lines.index(next(x for x in lines if x.startswith(f"[Image #{n} "))) - 1]
                    assert above in item.evidence.text
            else:
                assert not item.evidence.images
            if item.dimension == "IBM":  # the friend's trigger and the protagonist's deflection
                speakers = [t.split(":")[0] for t in item.evidence.text]
                assert planted.person in speakers and set(speakers) - {planted.person}
            if item.dimension in ("PVB", "TSVP"):
                assert item.evidence.text[-1].split(":")[0] == planted.person
            trait = next(t for t in planted.traits if t.dimension == item.dimension)
            decoys = {line.text for cue in trait.decoys for line in cue}
            assert not any(t.split(": ", 1)[1] in decoys for t in item.evidence.text)  # a decoy is never evidence


def test_pvb_is_speaker_specific_and_cues_are_scattered(smoke):
    suite, contexts = smoke
    for context, planted in contexts.items():
        dialogue, owners = _owners(suite, context)
        friend_images = {t.image for t in dialogue.turns if t.image and t.speaker != planted.person}
        pvb = next(i for i in suite.items if i.context_id == context and i.dimension == "PVB")
        own = {t.image for t in dialogue.turns if t.image_index in pvb.evidence.images}
        assert len(own) >= 4 and len(friend_images) >= 3 and not own & friend_images
        session_of = {f"{t.speaker}: {t.text}": n for n, s in enumerate(dialogue.sessions) for t in s.turns}
        for item in (i for i in suite.items if i.context_id == context and i.format == "SC"):
            sessions = [session_of[t] for t in item.evidence.text]
            assert len(set(sessions)) >= 3, item.id  # a trait shows across sessions, never in one go
            if item.dimension == "TD":  # the change unfolds in order, its last mention late
                assert sessions == sorted(sessions) and sessions[-1] >= 0.6 * len(dialogue.sessions)


def test_answers_are_well_formed_and_letters_move(smoke):
    suite, _ = smoke
    for item in suite.items:
        if item.format == "DA":
            assert not item.options and 2 <= len(item.answer) <= 4
            assert all(1 <= len(r.split()) <= 4 for r in item.answer)
        else:
            assert len(item.options) == 4 and len(set(item.options)) == 4
            assert (len(item.answer) == 1) if item.format == "SC" else (1 <= len(item.answer) <= 4)
            assert "(a friend's habit)" not in item.options
    for fmt in ("SC", "MC"):
        assert len({i.answer for i in suite.items if i.format == fmt}) >= 3
    by_cell = {}
    for item in suite.items:
        by_cell.setdefault((item.context_id, item.dimension, item.format), {})[item.phrasing] = item.question
    assert all(q["template"] != q["held-out"] for q in by_cell.values())


def test_generation_is_deterministic_for_a_seed(smoke, tmp_path):
    suite, _ = smoke
    again = generate_suite(tmp_path / "again", "smoke", 0)
    for name in ["items.jsonl", *(f"threads/{c}.txt" for c in suite.contexts)]:
        assert (again.root / name).read_bytes() == (suite.root / name).read_bytes()
    other = generate_suite(tmp_path / "other", "smoke", 1)
    assert (other.root / "items.jsonl").read_bytes() != (suite.root / "items.jsonl").read_bytes()
    with pytest.raises(ValueError, match="unknown RefMem suite size"):
        generate_contexts("huge")


def test_the_full_size_has_six_varied_contexts():
    contexts = generate_contexts("full", 0)
    assert len(contexts) == SIZES["full"].contexts == 6 and len({c.person for c in contexts}) == 6
    assert all(16 <= c.sessions <= 20 and len(c.items) == 48 for c in contexts)
    for n, dimension in enumerate(DIMENSIONS):
        assert len({c.traits[n].key for c in contexts}) >= 3, dimension


def test_the_trait_library_is_complete_and_consistent():
    keys = [t.key for ts in TRAITS.values() for t in ts]
    assert len(keys) == len(set(keys))
    for dimension, traits in TRAITS.items():
        assert len(traits) >= 3
        for t in traits:
            assert t.dimension == dimension and set(t.conflicts) <= set(keys)
            assert 3 <= len(t.cues) <= 5 and all(any(line.anchor for line in cue) for cue in t.cues)
            assert len(t.held_out) >= 3 and t.question not in t.held_out
            assert len({t.right, *t.wrong}) == 4 and len(t.true) >= 3 and len(t.false) >= 2
            assert not set(t.true) & set(t.false) and 2 <= len(t.references) <= 4
            assert all(1 <= len(r.split()) <= 4 for r in t.references)
            images = [line for cue in t.cues for line in cue if line.image]
            if dimension in ("PVB", "TSVP", "CMLI"):
                assert len(images) >= (4 if dimension == "PVB" else 2) and all(line.who == "p" for line in images)
                if dimension == "CMLI":  # the text alone must be there too
                    assert any(not line.image for cue in t.cues for line in cue if line.who == "p")
            else:
                assert not images


TRAIT_WORDS = re.compile(
    r"\b(run|running|jog|marathon|race|fly|flying|flight|plane|dad|father|rory|money|rent|overdraft|milk|cheese|"
    r"cream|dairy|mornings?|breakfast|plants?|leaf|sunsets?|balcony|noodles?|ramen|coffee|latte|tram|commute|lake|"
    r"trail|surf\w*|cast|crutches|bake|baking|cake|croissants?|guitar|cats?|kids?|baby|sorry|blame|fault|cancel\w*|"
    r"bail|volunteer\w*|offered|hobby|pottery|flatmate|agency|notice|quit|second hand|cheap|price|spend|insurance|"
    r"reviews?|whim|approve|books?|library|lessons?)\b", re.IGNORECASE)


def test_small_talk_gives_no_trait_away():
    pools = [*FRIEND_OPENS, *PERSON_OPENS, *GREETINGS, *CLOSINGS, FOLLOW_UPS, GROUP_CHIMES, REACTIONS,
             *GENERIC_SHARES, *(share for style in FRIEND_STYLES for share in style.shares)]
    leaks = [text for pool in pools for text in pool if TRAIT_WORDS.search(text)]
    assert not leaks
    assert len(FRIEND_OPENS) + len(PERSON_OPENS) >= 50
