"""Benchmark metrics on hand-computed cases."""
from __future__ import annotations

import pytest

from eval.metrics import (
    answerability_f1,
    egomemreason_metrics,
    mrr,
    pair,
    partial_credit_accuracy,
    risk_coverage,
    supermemory_metrics,
)
from eval.schema import Item, Option, Prediction

ROLES4 = (Option("A", "correct"), Option("B", "vague"), Option("C", "incorrect"), Option("N/A", "not_answerable"))
UNANS4 = (Option("A", "incorrect"), Option("B", "incorrect"), Option("C", "incorrect"), Option("N/A", "not_answerable"))


def item(i, answerable=True, task="t", person="p1", video="v1", memory_type=None):
    options = ROLES4 if answerable else UNANS4
    return Item(f"q{i}", "s", task, "?", options, 0 if answerable else 3, "2024-01-01T12:00:00",
                person=person, videos=(video,), answerable=answerable, memory_type=memory_type)


def pred(i, chosen, scores=(0.1, 0.2, 0.3, 0.4)):
    return Prediction(f"q{i}", "sys", chosen, list(scores), abstained=chosen == 3)


def test_accuracy_mrr_and_partial_credit():
    items = [item(0), item(1), item(2), item(3, answerable=False)]
    preds = [pred(0, 0, (0.7, 0.1, 0.1, 0.1)), pred(1, 1, (0.3, 0.4, 0.2, 0.1)),
             pred(2, 3, (0.25, 0.25, 0.25, 0.25)), pred(3, 3, (0.1, 0.1, 0.1, 0.7))]
    scored = pair(items, preds)
    m = supermemory_metrics(scored)
    assert m["qa_acc"] == 0.5
    # ranks of gold: 1, 2, 4 (ties count against), 1
    assert mrr(scored) == pytest.approx((1 + 1 / 2 + 1 / 4 + 1) / 4)
    assert partial_credit_accuracy(scored) == pytest.approx((1 + 0.5 + 0 + 1) / 4)


def test_answerability_f1_both_positive_classes():
    items = [item(0), item(1), item(2, answerable=False), item(3, answerable=False)]
    preds = [pred(0, 0), pred(1, 3), pred(2, 3), pred(3, 1)]  # one wrong abstention, one missed abstention
    f = answerability_f1(pair(items, preds))
    assert f["answerable"] == pytest.approx(2 * 1 / (2 * 1 + 1 + 1))
    assert f["unanswerable"] == pytest.approx(0.5) and f["macro"] == pytest.approx(0.5)


def test_per_person_mean_and_std():
    items = [item(0, person="a"), item(1, person="a"), item(2, person="b")]
    preds = [pred(0, 0), pred(1, 2), pred(2, 0)]
    mean, std = supermemory_metrics(pair(items, preds))["per_person_acc"]
    assert mean == pytest.approx(0.75) and std == pytest.approx(0.25)


def test_egomemreason_overall_is_a_micro_average():
    items = [item(i, task="Tracking", memory_type="entity") for i in range(4)] + [item(9, task="Spatial", memory_type="behavior")]
    preds = [pred(0, 0), pred(1, 0), pred(2, 0), pred(3, 0), pred(9, 2)]
    m = egomemreason_metrics(pair(items, preds))
    assert m["overall"] == pytest.approx(0.8)  # 4/5, not the 0.5 mean of the two task scores
    assert m["per_task"] == {"Spatial": 0.0, "Tracking": 1.0}
    assert m["per_memory_type"] == {"behavior": 0.0, "entity": 1.0}


def test_risk_coverage_answers_confident_items_first():
    items = [item(0), item(1)]
    preds = [pred(0, 2, (0.1, 0.1, 0.6, 0.2)), pred(1, 0, (0.9, 0.0, 0.1, 0.0))]
    assert risk_coverage(pair(items, preds)) == [(0.5, 1.0), (1.0, 0.5)]


def test_reports_put_systems_beside_the_papers_rows(tmp_path):
    from eval.report import egomemreason_report, plot_per_task, plot_risk_coverage, supermemory_report

    items = [item(0, task="conversational_memory"), item(1, answerable=False, task="intent_recall")]
    scored = pair(items, [pred(0, 0, (0.9, 0.05, 0.03, 0.02)), pred(1, 3)])
    text = supermemory_report({"memlens": scored}, "toy")
    assert "| **memlens** | 100.0 |" in text and "Gemini-3-Flash + Video-RAG" in text and "reported by the paper" in text
    ego = egomemreason_report({"memlens": pair([item(0, task="Tracking", memory_type="entity")], [pred(0, 0)])}, "toy")
    assert "| **memlens** | 100.0 | 0.0 |" in ego and "Gemini-3-Flash" in ego
    assert plot_per_task({"memlens": {"Tracking": 1.0}}, ("Tracking", "Counting"), tmp_path / "t.png", "t").stat().st_size > 1000
    assert plot_risk_coverage({"memlens": scored}, tmp_path / "r.png", "r").stat().st_size > 1000
