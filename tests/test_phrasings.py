"""Phrasing banks (eval/phrasings): every generated template has at least 8 natural
phrasings with a fixed dev / held-out split, they keep the slots and the time asked about,
items keep their id, options and times, the runner asks another wording without ingesting
again, and the report puts held-out beside template. No video is rendered."""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import replace

import numpy as np
import pytest

from eval.life import suites
from eval.life.egomemreason import EgoMemReasonQuestions
from eval.life.log import LifeLog
from eval.life.simulate import LifeSimulator
from eval.life.supermemory import SuperMemoryQuestions
from eval.life.world import make_world
from eval.metrics import Scored
from eval.phrasing_report import confident_wrong, phrasing_report
from eval.phrasings import (
    BANKS,
    DEV,
    GRAMMAR_SLOTS,
    HELDOUT,
    META_KEY,
    TEMPLATE,
    asked_question,
    morning_phrasings,
    parse_phrasing_sets,
    with_phrasings,
)
from eval.runner import Runner
from eval.schema import Item, Option, Prediction, Suite, VideoRef, read_jsonl
from eval.synthetic import morning_at_home


def norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s']", " ", text.lower()).split())


def life(size: str) -> LifeLog:
    spec = suites.SIZES[size]
    episodes = []
    for p in range(spec.people):
        episodes += LifeSimulator(make_world(0, p), spec.days, min_episode_seconds=spec.min_episode_seconds).run()
    return LifeLog(episodes)


@pytest.fixture(scope="module")
def candidates() -> dict[str, list[Item]]:
    """Every candidate item of both life suites, for the smoke and the full life (no render)."""
    out: dict[str, list[Item]] = {"supermemory": [], "egomemreason": []}
    for size in ("smoke", "full"):
        log = life(size)
        out["supermemory"] += [i for pool in SuperMemoryQuestions(log, 0).candidates().values() for i in pool]
        out["egomemreason"] += [i for pool in EgoMemReasonQuestions(log, 0).candidates().values() for i in pool]
    return out


# ---- the banks ------------------------------------------------------------------------------
@pytest.mark.parametrize("bank", list(BANKS))
def test_every_template_has_eight_distinct_phrasings_five_held_out(bank):
    for t in BANKS[bank].templates:
        texts = [norm(p.text) for p in t.phrasings]
        assert len(set(texts)) == len(texts) >= 8, t.id
        assert norm(t.text) not in texts, f"{t.id}: a phrasing repeats the template"
        splits = [p.split for p in t.phrasings]
        assert set(splits) <= {DEV, HELDOUT}, t.id
        # about 3 dev; more where a held-out phrasing turned up in system code and moved to dev
        assert splits.count(DEV) >= 2 and splits.count(HELDOUT) >= 5, t.id
        for p in t.phrasings:  # every phrasing names the slots its template names
            assert set(re.findall(r"{(\w+)}", p.text)) >= set(t.slots) - GRAMMAR_SLOTS, (t.id, p.text)


def test_every_generated_question_has_exactly_one_template_and_every_template_is_used(candidates):
    for suite, items in candidates.items():
        bank = BANKS[suite]
        used = set()
        for question in {i.question for i in items}:
            hit = bank.match(question)  # raises when two templates match
            assert hit is not None, f"{suite}: no template renders {question!r}"
            template, slots = hit
            assert template.text.format(**slots) == question
            used.add(template.id)
        assert used == {t.id for t in bank.templates}, f"{suite}: unused templates"


def test_every_morning_question_has_phrasings():
    script = morning_at_home()
    for q in script.questions:
        found = morning_phrasings(q.text)
        assert found is not None, q.id
        assert len(found[DEV]) >= 2 and len(found[HELDOUT]) >= 5
    assert {t.id for t in BANKS["morning"].templates} == {
        morning_phrasings(q.text)["template"] for q in script.questions}


# the time a question is about must survive the rewording (a different time, a different answer)
TIME_WORDS = {
    "today": ("today",), "tonight": ("tonight",), "last night": ("last night",), "after work": ("after work",),
    "so far": ("so far", "up to now", "till now"),
    "over the last days": ("last days", "last few days", "past few days", "past days"),
    "in the afternoon": ("afternoon",), "after lunch": ("after lunch", "once lunch is over", "had lunch"),
}


def test_phrasings_keep_slot_values_and_times(candidates):
    for suite, items in candidates.items():
        for question in {i.question for i in items}:
            found = BANKS[suite].phrasings_for(question)
            rendered = found[DEV] + found[HELDOUT]
            assert len({norm(r) for r in rendered}) == len(rendered) >= 8, question
            for text in rendered:
                assert "{" not in text and "}" not in text, text
                for name, value in found["slots"].items():
                    if name not in GRAMMAR_SLOTS and value in question:
                        assert value in text, f"{question!r} -> {text!r} lost {name}={value!r}"
                for when, kept in TIME_WORDS.items():
                    if when in question.lower():
                        assert any(k in text.lower() for k in kept), f"{question!r} -> {text!r} lost {when!r}"


# ---- items ------------------------------------------------------------------------------------
def fake_embed(texts):
    """Deterministic unit vectors from a hash: enough for the blind filter to run in a test."""
    rows = [np.frombuffer(hashlib.sha256(t.encode()).digest(), dtype=np.uint8).astype(np.float32) - 127.5
            for t in texts]
    vectors = np.stack(rows)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


@pytest.mark.parametrize("make", [suites._supermemory_items, suites._egomemreason_items])
def test_phrasings_leave_id_options_times_and_question_unchanged(make, monkeypatch):
    log = life("smoke")
    with_bank = make(log, 30, 0, fake_embed)
    assert make(log, 30, 0, fake_embed) == with_bank  # deterministic for a seed
    monkeypatch.setattr(suites, "with_phrasings", lambda item, bank: item)
    without = make(log, 30, 0, fake_embed)
    assert len(with_bank) == len(without) >= 25
    for a, b in zip(with_bank, without, strict=True):
        assert replace(a, meta={k: v for k, v in a.meta.items() if k != META_KEY}) == b
        assert META_KEY not in b.meta
        found = a.meta[META_KEY]
        assert BANKS[a.suite].match(a.question)[0].id == found["template"]
        assert len(found[DEV]) >= 2 and len(found[HELDOUT]) >= 5


def test_suite_files_round_trip_phrasings_and_old_files_still_load(tmp_path):
    item = with_phrasings(toy_item("q1"), BANKS["supermemory"])
    path = Suite("supermemory", [], [item]).write(tmp_path / "s.jsonl")
    assert Suite.read(path).items == [item]
    old = json.loads(path.read_text().splitlines()[1])
    old.pop("meta")
    path.write_text(path.read_text().splitlines()[0] + "\n" + json.dumps(old) + "\n")
    assert Suite.read(path).items[0].meta == {}


# ---- runner ----------------------------------------------------------------------------------
def toy_item(item_id: str, question: str = "What did Bob ask me to buy?", answer: int = 0) -> Item:
    options = (Option("Milk", "correct"), Option("Bread", "incorrect"),
               Option("This question cannot be answered", "not_answerable"))
    return Item(item_id, "supermemory", "conversational_memory", question, options, answer, "2024-01-03T08:00:00",
                person="p1", videos=("v1",))


def toy_suite() -> Suite:
    bank = BANKS["supermemory"]
    items = [with_phrasings(toy_item(f"q{i}"), bank) for i in range(5)]
    items.append(toy_item("q-free", "Tell me something no template says?"))
    return Suite("supermemory", [VideoRef("v1", "/x/v1.mp4", "2024-01-01T08:00:00", person="p1")], items)


class Listening:
    """A system under test that notes every ingest and every item it is handed."""

    name = "memlens"

    def __init__(self):
        self.ingested, self.handed = [], []

    def ingest(self, video, namespace):
        self.ingested.append(video.video_id)

    def answer(self, item, namespace):
        self.handed.append(item)
        return Prediction(item.id, self.name, 0, [0.9, 0.05, 0.05], False, "Milk")


def test_a_held_out_run_reuses_the_ingest_and_logs_what_it_asked(tmp_path):
    suite, system = toy_suite(), Listening()
    runner = Runner(tmp_path)
    template = runner.run(system, suite)
    assert system.ingested == ["v1"] and len(template) == 6
    assert [i.question for i in system.handed] == [i.question for i in suite.items]
    system.handed.clear()
    heldout = runner.run(system, suite, phrasing=HELDOUT)
    assert system.ingested == ["v1"], "asking another wording must not ingest again"
    assert [p.item_id for p in heldout] == [f"q{i}" for i in range(5)]  # q-free has no phrasings
    for item, handed in zip(suite.items, system.handed):
        assert handed.question == asked_question(item, HELDOUT) in item.meta[META_KEY][HELDOUT]
        assert (handed.id, handed.options, handed.asked_at) == (item.id, item.options, item.asked_at)
        assert META_KEY not in handed.meta, "the system under test must never see the bank"
    rows = list(read_jsonl(tmp_path / "memlens.heldout.jsonl"))
    assert {r["phrasing"] for r in rows} == {HELDOUT}
    assert all(r["question"] == asked_question(suite.items[int(r["item_id"][1:])], HELDOUT) for r in rows)
    assert {r["phrasing"] for r in read_jsonl(tmp_path / "memlens.jsonl")} == {TEMPLATE}
    # resumable: nothing is asked again; the same phrasing is picked on every run
    system.handed.clear()
    assert runner.run(system, suite, phrasing=HELDOUT) == heldout and not system.handed


def test_a_line_asked_in_other_words_than_the_bank_now_gives_is_asked_again(tmp_path):
    suite, system = toy_suite(), Listening()
    Runner(tmp_path).run(system, suite, phrasing=HELDOUT)
    path = tmp_path / "memlens.heldout.jsonl"
    rows = list(read_jsonl(path))
    rows[0]["question"] = "an older wording"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    system.handed.clear()
    Runner(tmp_path).run(system, suite, phrasing=HELDOUT)
    assert [i.id for i in system.handed] == [rows[0]["item_id"]]


def test_phrasing_sets_parse():
    assert parse_phrasing_sets("all") == (TEMPLATE, DEV, HELDOUT)
    assert parse_phrasing_sets("heldout,template") == (TEMPLATE, HELDOUT)
    assert parse_phrasing_sets("held-out") == (HELDOUT,)
    with pytest.raises(ValueError):
        parse_phrasing_sets("paraphrase")
    with pytest.raises(ValueError):
        asked_question(toy_item("q"), "paraphrase")


# ---- report ----------------------------------------------------------------------------------
def scored(item: Item, chosen: int, confidence: float, phrasing: str) -> Scored:
    scores = [0.0] * len(item.options)
    scores[chosen] = confidence
    return Scored(item, Prediction(item.id, "memlens", chosen, scores, False, phrasing=phrasing))


def test_report_puts_held_out_beside_template_with_gap_and_confident_wrong():
    conv = [replace(toy_item(f"c{i}"), task="conversational_memory") for i in range(4)]
    vis = [replace(toy_item(f"v{i}"), task="visual_recall") for i in range(2)]
    template = [scored(i, 0, 0.95, TEMPLATE) for i in conv + vis]  # all right
    heldout = ([scored(conv[0], 0, 0.9, HELDOUT), scored(conv[1], 1, 0.9, HELDOUT),  # 1 right, 3 wrong
                scored(conv[2], 1, 0.85, HELDOUT), scored(conv[3], 2, 0.3, HELDOUT)]
               + [scored(i, 0, 0.9, HELDOUT) for i in vis])
    assert confident_wrong(heldout) == 2 and confident_wrong(template) == 0
    text = phrasing_report("memlens", {TEMPLATE: template, HELDOUT: heldout}, 6, ["random", "blind"])
    assert "| task | template acc (n) | held-out acc (n) | gap held-out - template (points) |" in text
    assert "| conversational_memory | 100.0 (4) | 25.0 (4) | -75.0 |" in text
    assert "| visual_recall | 100.0 (2) | 100.0 (2) | +0.0 |" in text
    assert "| **overall** | 100.0 (6) | 50.0 (6) | -50.0 |" in text
    assert "Overall gap: **-50.0 points**" in text
    assert "| template | 6 | 100.0 | 0 | 0 |" in text and "| held-out | 6 | 50.0 | 2 | 1 |" in text
    assert "Baselines (random, blind) run on the template phrasing only." in text


def test_report_says_when_a_suite_has_no_phrasings():
    item = toy_item("q", "Tell me something no template says?")
    text = phrasing_report("memlens", {TEMPLATE: [scored(item, 0, 0.9, TEMPLATE)], HELDOUT: []}, 1)
    assert "Not asked: held-out" in text and "gap" not in text.split("Not asked")[1].split("###")[0].lower()


# ---- the bench --------------------------------------------------------------------------------
def test_bench_asks_memlens_template_and_held_out_and_baselines_template_only(tmp_path):
    from benchmarks.suites import run_bench
    from eval.baselines import RandomBaseline

    suite, memlens = toy_suite(), Listening()
    report = run_bench(suite, tmp_path, [memlens, RandomBaseline()]).read_text()
    files = sorted(p.name for p in (tmp_path / "predictions").glob("*.jsonl"))
    assert files == ["memlens.heldout.jsonl", "memlens.jsonl", "random.jsonl"]
    assert memlens.ingested == ["v1"]
    assert "| **memlens** |" in report and "## Template vs held-out phrasings (memlens)" in report
    assert "| **overall** | 100.0 (6) | 100.0 (5) | +0.0 |" in report
    assert "Baselines (random) run on the template phrasing only." in report
    assert "held-out 1 of 6" in report  # the item no template renders


def test_bench_refuses_an_unknown_phrasing_set(tmp_path):
    from typer.testing import CliRunner

    from memlens.cli import app

    result = CliRunner().invoke(app, ["bench", "supermemory", "--phrasing", "paraphrase", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "unknown set" in result.output


# ---- the held-out set stays held out ----------------------------------------------------------
SYSTEM_PACKAGES = ("agent", "retrieval", "memory", "perception")


def _system_sources() -> dict[str, str]:
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    return {str(p.relative_to(root)): p.read_text() for pkg in SYSTEM_PACKAGES for p in (root / pkg).rglob("*.py")}


def test_no_system_code_imports_the_phrasing_banks():
    importers = [path for path, text in _system_sources().items()
                 if re.search(r"^\s*(from|import)\s+eval\.phrasing", text, re.M)]
    assert not importers, f"evaluation phrasings imported by the system under test: {importers}"


def _string_literals(source: str) -> list[str]:
    import ast

    return [node.value for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)]


def copied_held_out_phrasings() -> list[tuple[str, str, str, str]]:
    """(template, held-out phrasing, file, string literal) for every string literal of the
    system's code that contains a whole held-out phrasing, slots matching any short words."""
    literals = [(path, lit, norm(lit)) for path, text in _system_sources().items() for lit in _string_literals(text)]
    copied = []
    for bank in BANKS.values():
        for t in bank.templates:
            for p in t.phrasings:
                if p.split != HELDOUT:
                    continue
                parts = [re.escape(norm(part)) for part in re.split(r"{\w+}", p.text)]
                pattern = re.compile(r"(?<![\w'])" + r"\s*[\w' ]{1,40}?\s*".join(parts).strip() + r"(?![\w'])")
                copied += [(t.id, p.text, path, lit) for path, lit, n in literals if pattern.search(n)]
    return copied


def test_no_held_out_phrasing_is_copied_into_system_code():
    """A held-out phrasing in the system's own strings (an intent example, a prompt) means the
    held-out figure no longer measures unseen wording: move it to dev and write a new one."""
    copied = copied_held_out_phrasings()
    assert not copied, "held-out phrasings found in system code:\n" + "\n".join(map(str, copied))
