"""The M3Eval phrasing bank (eval/phrasings/m3eval.py) covers every question form the
generator writes (every topic, every stream name, every N-Back (N, K)), keeps the stream
name, the verb and N-Back's numbers in every phrasing, and the suite builder attaches the
phrasings to its items. Questions are drafted from scripts; no video is rendered."""
from __future__ import annotations

import random
import re

import pytest

from eval.m3eval import questions as qs
from eval.m3eval import suite as m3suite
from eval.m3eval.nback import NK_FULL, make_instance
from eval.m3eval.stories import TOPICS, make_pair
from eval.phrasings import BANKS, DEV, HELDOUT, META_KEY, with_phrasings
from eval.schema import Item, Option


def norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s']", " ", text.lower()).split())


@pytest.fixture(scope="module")
def questions() -> list[str]:
    """Every question form over every topic and stream name, and N-Back over the full (N, K) set."""
    out: set[str] = set()
    for topic in sorted(TOPICS):
        pair = make_pair(topic, random.Random(f"t:{topic}"), f"t-{topic}")
        rng = random.Random(topic)
        names = [n for pair_names in qs.NAMES.values() for n in pair_names]
        for target, other in ((pair.a, pair.b), (pair.b, pair.a)):
            for name in names:
                out.add(qs.si(target, other, name, rng).question)
                out.add(qs.cr(target, other, name, rng).question)
                out.add(qs.ou(target, name, rng).question)
                for verb in qs.mi_verbs(target, other)[:3]:
                    out.add(qs.mi(target, other, verb, rng).named(name).question)
                for verb in qs.absent_verbs(target, other, pair.unused_verbs)[:2]:
                    out.add(qs.fmd(target, other, name, verb, rng).question)
    for attribute in ("scene", "action"):
        inst = make_instance(f"t-{attribute}", attribute, random.Random(attribute), NK_FULL)
        out |= {qs.nback_q(inst, n, k).question for n, k in NK_FULL}
    return sorted(out)


def test_every_generated_question_has_one_template_and_every_template_is_used(questions):
    bank, used = BANKS["m3eval"], set()
    for question in questions:
        hit = bank.match(question)  # raises when two templates match
        assert hit is not None, f"no template renders {question!r}"
        template, slots = hit
        assert template.text.format(**slots) == question
        used.add(template.id)
    assert used == {t.id for t in bank.templates}


def test_phrasings_keep_stream_verb_and_numbers(questions):
    for question in questions:
        found = BANKS["m3eval"].phrasings_for(question)
        rendered = found[DEV] + found[HELDOUT]
        assert len({norm(r) for r in rendered}) == len(rendered) >= 8 and len(found[HELDOUT]) >= 5, question
        for text in rendered:
            assert "{" not in text and "}" not in text, text
            for name, value in found["slots"].items():
                if name in ("k", "n"):  # numbers as whole words: "1" must not be found inside "10"
                    assert re.search(rf"(?<!\d){value}(?!\d)", text), (question, text, name)
                else:
                    assert value in text, f"{question!r} -> {text!r} lost {name}={value!r}"
            if found["slots"].get("n") == "1":
                assert not re.search(r"\b1 (clips|positions)\b", text), text


def test_the_builder_attaches_phrasings_and_leaves_the_item_alone():
    q = qs.Q("YN", "This video is a sequence of 6 clips. Does the last clip show the same scene as the clip 2 "
                   "positions before it?", (Option("Yes", "correct"), Option("No", "distractor")), 0)
    b = m3suite._Builder(None)
    ref = m3suite.VideoRef("v", "/x/v.mp4", m3suite.START, person="v", duration=12.0)
    b.add(q, ref, "N-Back", "nback")
    item = b.items[0]
    assert item.meta[META_KEY]["template"] == "nback" and len(item.meta[META_KEY][HELDOUT]) >= 5
    bare = Item(item.id, item.suite, item.task, item.question, item.options, item.answer, item.asked_at,
                person=item.person, videos=item.videos, meta={k: v for k, v in item.meta.items() if k != META_KEY})
    assert with_phrasings(bare, BANKS["m3eval"]) == item
