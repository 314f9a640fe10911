"""`memlens bench locomo`: LoCoMo's F1 as its official evaluation computes it, refusal and
evidence recall, the resumable runner, and an end-to-end run on the real development file
(read from ../shared/locomo/, never copied into the repository: CC BY-NC)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agent.citing import CITED
from eval.locomo.dataset import Conversation, LocomoItem, dia_ids, read_conversations, select
from eval.locomo.report import ItemScore, locomo_metrics, score, summary
from eval.locomo.runner import LocomoPrediction, run_locomo
from eval.locomo.scoring import answer_f1, f1_score, locomo_f1, normalize_answer, recall_at, refused
from eval.schema import read_jsonl

ROOT = Path(__file__).resolve().parents[1]
LOCOMO = ROOT.parent / "shared" / "locomo" / "locomo_dev.json"
SUMMARY_KEYS = {"f1", "adversarial_refusal", "evidence_recall_at_10", "questions", "llm"}


# ---- LoCoMo's F1 (task_eval/evaluation.py) ------------------------------------------------
def test_normalisation_drops_commas_punctuation_articles_and_and():
    assert normalize_answer("The cat, and a dog!") == "cat dog"
    assert normalize_answer("  An   Apple's  pie. ") == "apples pie"


def test_f1_compares_porter_stemmed_tokens():
    assert f1_score("Adoption agencies", "adoption agency") == 1.0  # agencies / agency -> agenc
    assert f1_score("running races", "ran race") == pytest.approx(0.5)  # run/ran differ, race matches: P = R = 1/2
    assert f1_score("In 2022.", "2022") == pytest.approx(2 / 3)  # P = 1/2, R = 1
    assert f1_score("Paris", "London") == 0.0
    assert f1_score("", "London") == 0.0


def test_category_1_scores_each_gold_part_by_its_best_prediction_part():
    gold = "hiking, swimming, painting"
    # one prediction part [she, like, paint, hike]: hiking 0.4, swimming 0, painting 0.4 -> mean 0.8 / 3
    assert locomo_f1(1, "She likes painting and hiking", gold) == pytest.approx(0.8 / 3)
    # the same words scored plainly (categories 2 and 4): 2 of 4 against 2 of 3
    assert locomo_f1(4, "She likes painting and hiking", gold) == pytest.approx(4 / 7)
    assert locomo_f1(1, "painting, hiking", gold) == pytest.approx(2 / 3)  # swimming missed


def test_category_3_scores_the_gold_answers_first_part_only():
    assert locomo_f1(3, "likely yes", "Likely yes; she loves classic books") == 1.0
    assert locomo_f1(4, "likely yes", "Likely yes; she loves classic books") < 1.0
    with pytest.raises(ValueError):
        locomo_f1(5, "anything", "gold")


def test_an_abstention_scores_zero_and_adversarial_items_have_no_f1():
    # the refusal text shares "caroline" with the gold answer; it still scores 0
    assert answer_f1(4, "I can't answer that about Caroline", True, "Caroline") == 0.0
    assert answer_f1(4, "Caroline", False, "Caroline") == 1.0
    assert answer_f1(5, "Caroline", False, "Caroline") is None


def test_refusal_is_an_abstention_or_a_said_refusal_outside_quotes():
    assert refused("Caroline", True)
    assert refused("No information available.", False) and refused("That is not mentioned.", False)
    assert refused("I can't answer that from memory (no text read).", False)
    assert not refused('Caroline said: "tickets were not available" (at 14:02)', False)
    assert not refused("Sweden", False)


def test_recall_is_the_share_of_gold_turns_in_the_top_k():
    assert recall_at(("D1:3", "D2:4"), ["D2:4", "D9:9", "D1:3"], 1) == 0.5
    assert recall_at(("D1:3", "D2:4"), ["D2:4", "D9:9", "D1:3"], 3) == 1.0
    assert recall_at(("D1:3",), [], 10) == 0.0
    assert recall_at((), ["D1:3"], 10) is None


def test_malformed_gold_evidence_is_split_and_repaired():
    assert dia_ids(["D8:6; D9:17", "D:11:26", "D", "D1:2", "D1:2"]) == ("D8:6", "D9:17", "D11:26", "D1:2")


# ---- selection, metrics, summary ---------------------------------------------------------
def _item(n: int, category: int, evidence=("D1:1",), sid="s") -> LocomoItem:
    return LocomoItem(f"{sid}:{n}", sid, f"question {n}?", f"answer {n}", category, tuple(evidence))


def test_a_limited_slice_takes_questions_from_every_category_in_file_order():
    conv = Conversation("s", tuple(_item(n, c) for n, c in enumerate([2, 2, 2, 4, 4, 1, 5, 5])))
    (cut,) = select([conv, Conversation("t", ())], k=1, limit=4)
    assert [i.id for i in cut.items] == ["s:0", "s:3", "s:5", "s:6"]  # one of each of 2, 4, 1, 5
    assert select([conv], limit=100)[0] == conv and len(select([conv, conv], k=1)) == 1


def test_metrics_and_summary_from_scored_predictions():
    items = [_item(0, 4, ("D1:1", "D1:2")), _item(1, 4), _item(2, 1, ()), _item(3, 5), _item(4, 5)]
    preds = {
        "s:0": LocomoPrediction("s:0", "q", "answer 0", False, 0.9, ["D1:1"], ["D1:2", "D1:1"]),
        "s:1": LocomoPrediction("s:1", "q", "I can't answer", True, 0.5, [], ["D9:9"] * 5 + ["D1:1"]),
        "s:2": LocomoPrediction("s:2", "q", "nothing like it", False, 0.5, ["D3:3"], ["D3:3"]),
        "s:3": LocomoPrediction("s:3", "q", "no information available", False, 0.5),
        "s:4": LocomoPrediction("s:4", "q", "answer 4", False, 0.9),
    }
    scores = score([Conversation("s", tuple(items))], preds)
    assert all(isinstance(s, ItemScore) for s in scores) and len(scores) == 5
    m = locomo_metrics(scores)
    assert m["4"]["n"] == 2 and m["4"]["f1"] == pytest.approx(0.5)  # 1.0 and an abstention's 0
    assert m["4"]["abstained"] == 0.5 and m["1"]["f1"] == 0.0
    assert m["4"]["retrieved"][5] == pytest.approx(0.5)  # 1.0, and 0 (D1:1 sixth)
    assert m["4"]["retrieved"][10] == 1.0 and m["4"]["answered"][10] == pytest.approx(0.25)
    assert m["1"]["retrieved"][10] is None  # no gold evidence: not averaged in
    assert m["overall_1_4"]["n"] == 3 and m["overall_1_4"]["f1"] == pytest.approx(1 / 3)
    assert m["5"]["refusal"] == 0.5 and m["3"]["n"] == 0 and m["3"]["f1"] is None
    s = summary(m, "none")
    assert set(s) == SUMMARY_KEYS and set(s["f1"]) == {"1", "2", "3", "4", "overall_1_4"}
    assert s["questions"] == 5 and s["adversarial_refusal"] == 0.5 and s["evidence_recall_at_10"] == 1.0


class CountingSolver:
    def __init__(self, fail: set[str] = frozenset()):
        self.asked: list[str] = []
        self.prepared: list[str] = []
        self.fail = set(fail)

    def prepare(self, sample_id: str) -> bool:
        self.prepared.append(sample_id)
        return True

    def answer(self, item: LocomoItem) -> LocomoPrediction:
        self.asked.append(item.id)
        if item.id in self.fail:
            raise RuntimeError("model down")
        return LocomoPrediction(item.id, item.question, item.answer, False, 1.0)


def test_the_runner_resumes_and_retries_failed_questions(tmp_path):
    convs = [Conversation("a", (_item(0, 4, sid="a"), _item(1, 2, sid="a"))), Conversation("b", (_item(0, 5, sid="b"),))]
    path = tmp_path / "predictions.jsonl"
    first = CountingSolver(fail={"a:1"})
    preds, stats = run_locomo(convs, first, path)
    assert set(preds) == {"a:0", "b:0"} and (stats.asked, stats.failed, stats.resumed) == (3, 1, 0)
    again = CountingSolver()
    preds, stats = run_locomo(convs, again, path)
    assert again.asked == ["a:1"] and again.prepared == ["a"] and stats.resumed == 2 and len(preds) == 3
    done = CountingSolver()
    _, stats = run_locomo(convs, done, path)
    assert done.asked == [] and done.prepared == [] and stats.asked == 0
    reworded = [Conversation("b", (LocomoItem("b:0", "b", "another question?", "x", 5, ()),))]
    changed = CountingSolver()
    run_locomo(reworded, changed, path)
    assert changed.asked == ["b:0"]  # the file's question changed: asked again


def test_bench_locomo_refuses_without_a_file(tmp_path):
    env = {**os.environ, "MEMLENS_HOME": str(tmp_path), "COLUMNS": "200"}
    done = subprocess.run([sys.executable, "-m", "memlens.cli", "bench", "locomo", "--out", str(tmp_path / "o")],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.returncode == 2 and "needs --file" in done.stderr


# ---- end to end on the real file ---------------------------------------------------------
@pytest.mark.slow
@pytest.mark.skipif(not LOCOMO.is_file(), reason=f"LoCoMo development file not at {LOCOMO}")
def test_bench_locomo_end_to_end_and_resumed(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "MEMLENS_CONFIG"}
    env.update(MEMLENS_HOME=str(tmp_path / "home"), HF_HUB_OFFLINE="1", COLUMNS="200")
    out = tmp_path / "out"
    command = [sys.executable, "-m", "memlens.cli", "bench", "locomo", "--file", str(LOCOMO), "--out", str(out),
               "--conversations", "1", "--limit", "15"]
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    data = json.loads((out / "summary.json").read_text())
    assert set(data) == SUMMARY_KEYS and set(data["f1"]) == {"1", "2", "3", "4", "overall_1_4"}
    assert data["questions"] == 15 and data["llm"] == "none"
    figures = [*data["f1"].values(), data["adversarial_refusal"], data["evidence_recall_at_10"]]
    assert all(isinstance(v, float) and 0.0 <= v <= 1.0 for v in figures)  # the slice holds every category
    assert data["evidence_recall_at_10"] > 0.0  # the retriever finds some gold turns of the real conversation

    # the summary is what LoCoMo's F1 gives the logged answers against the file's gold answers
    rows = list(read_jsonl(out / "predictions.jsonl"))
    (conv,) = select(read_conversations(LOCOMO), 1, 15)
    gold = {i.id: i for i in conv.items}
    assert len(rows) == 15 and {r["item_id"] for r in rows} == set(gold) and not any(r["error"] for r in rows)
    answerable = [r for r in rows if gold[r["item_id"]].category != 5]
    f1s = [answer_f1(gold[r["item_id"]].category, r["answer"], r["abstained"], gold[r["item_id"]].answer)
           for r in answerable]
    assert data["f1"]["overall_1_4"] == pytest.approx(sum(f1s) / len(f1s))
    # an abstention cites at most the few turns closest to the question, never more than an answer
    assert all(len(r["retrieved_refs"]) == 10 and len(r["answer_refs"]) <= 2 * CITED for r in rows if r["abstained"])

    report = (out / "report.md").read_text()
    assert "| 5 adversarial | 3 |" in report and "reported by the paper" in report and "GPT-4o-mini" in report
    assert (out / "locomo.png").stat().st_size > 5000

    again = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT)
    assert again.returncode == 0, again.stderr[-2000:]
    assert len(list(read_jsonl(out / "predictions.jsonl"))) == 15  # nothing asked again
    assert "0 conversations ingested, 0 questions asked (0 failed, retried next run), 15 resumed" in \
        (out / "report.md").read_text()
    assert json.loads((out / "summary.json").read_text()) == data

    # NaiveRAG in the same harness and home: the retriever's first turn, never an abstention
    naive = subprocess.run([*command[:command.index("--out") + 1], str(tmp_path / "naive"), *command[command.index("--out") + 2:],
                            "--systems", "naiverag"], capture_output=True, text=True, env=env, cwd=ROOT)
    assert naive.returncode == 0, naive.stderr[-2000:]
    baseline = list(read_jsonl(tmp_path / "naive" / "predictions.jsonl"))
    assert len(baseline) == 15 and not any(r["abstained"] for r in baseline)
    assert all(r["answer_refs"] == r["retrieved_refs"][:1] and r["answer"] for r in baseline)
    assert json.loads((tmp_path / "naive" / "summary.json").read_text())["adversarial_refusal"] == 0.0
    assert "naiverag on LoCoMo" in (tmp_path / "naive" / "report.md").read_text()
