"""Official-format adapters, on fixtures written from the papers' descriptions."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval.adapters import NOT_ANSWERABLE, AdapterError, read_egomemreason, read_supermemory
from eval.schema import Suite

FIX = Path(__file__).parent / "fixtures"


def test_supermemory_items_get_the_fourth_option_and_roles():
    suite = read_supermemory(FIX / "supermemory_qa.json", FIX / "manifest.json")
    first, unanswerable = suite.items
    assert [o.text for o in first.options][-1] == NOT_ANSWERABLE and len(first.options) == 4
    assert first.options[first.answer].text == "On the shelf by the window" and first.answerable
    assert sorted(o.role for o in first.options) == ["correct", "incorrect", "not_answerable", "vague"]
    assert first.asked_at == "2025-03-01T10:40:08" and first.videos == ("s1-v1",) and first.person == "P1"
    assert first.evidence[0].wall_start == "2025-03-01T10:12:00"
    assert not unanswerable.answerable and unanswerable.options[unanswerable.answer].role == "not_answerable"
    assert read_supermemory(FIX / "supermemory_qa.json", FIX / "manifest.json").items == suite.items  # stable order


def test_egomemreason_query_time_and_memory_types():
    suite = read_egomemreason(FIX / "egomemreason_qa.jsonl", FIX / "manifest.json")
    linking, tracking = suite.items
    assert linking.answer == 0 and linking.memory_type == "event" and linking.asked_at == "2025-04-11T09:00:00"
    assert tracking.answer == 1 and tracking.memory_type == "entity" and tracking.asked_at == "2025-04-08T20:00:00"
    assert suite.videos[0].path.endswith("videos/s1-v1.mp4")


def test_suites_round_trip_through_files(tmp_path):
    suite = read_supermemory(FIX / "supermemory_qa.json", FIX / "manifest.json")
    again = Suite.read(suite.write(tmp_path / "suite.jsonl"))
    assert again.items == suite.items and again.videos == suite.videos


def test_malformed_items_are_clear_errors(tmp_path):
    bad = json.loads((FIX / "supermemory_qa.json").read_text())
    bad["data"][0]["choices"] = bad["data"][0]["choices"][:2]
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    with pytest.raises(AdapterError, match="exactly 3 choices"):
        read_supermemory(tmp_path / "bad.json", FIX / "manifest.json")
    (tmp_path / "bad.jsonl").write_text('{"question": "q", "options": ["a"], "answer": "C", "task": "Linking", "query_time": "Day 1 10:00:00"}\n')
    with pytest.raises(AdapterError, match="not one of"):
        read_egomemreason(tmp_path / "bad.jsonl", FIX / "manifest.json")
