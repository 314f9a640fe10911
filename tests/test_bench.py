"""`memlens bench`: memlens and baselines over a small suite on real video, into a report."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from benchmarks.suites import make_systems, run_bench
from eval.schema import Item, Option, Suite, VideoRef, read_jsonl
from service.config import load_config
from service.system import MemlensSystem

pytestmark = pytest.mark.slow
CANNOT = Option("This question cannot be answered", "not_answerable")


def tiny_suite(video_path) -> Suite:
    video = VideoRef("short", str(video_path), "2024-05-14T07:30:00", person="p1")

    def item(qid, task, question, options, answer, at="2024-05-14T07:31:00", answerable=True):
        return Item(qid, "toy", task, question, (*options, CANNOT), answer, at, person="p1", videos=("short",),
                    answerable=answerable)

    return Suite("toy", [video], [
        item("wifi", "visual_recall", "What is the wifi password?",
             (Option("BLUEFOX42", "correct"), Option("REDCAT17", "incorrect"), Option("GREENOWL99", "incorrect")), 0),
        item("scissors", "object_location_memory", "Where did I leave the scissors?",
             (Option("Somewhere in the house", "vague"), Option("In the kitchen", "incorrect"),
              Option("In the living room", "correct")), 2),
        item("car", "visual_recall", "What colour is my car?",
             (Option("Red", "incorrect"), Option("Blue", "incorrect"), Option("Silver", "incorrect")), 3,
             answerable=False),
        # asked 5 s in: the scissors are still in the kitchen (they reach the living room at 10 s)
        item("scissors-early", "object_location_memory", "Where did I leave the scissors?",
             (Option("Somewhere in the house", "vague"), Option("In the kitchen", "correct"),
              Option("In the living room", "incorrect")), 1, at="2024-05-14T07:30:05"),
    ])


def test_bench_runs_memlens_beside_baselines(tmp_path, short_video):
    suite = tiny_suite(short_video)
    system = MemlensSystem(load_config(env={**os.environ, "MEMLENS_HOME": str(tmp_path / "home")}))
    try:
        report = run_bench(suite, tmp_path / "out", make_systems(["memlens", "random", "blind"], system))
        rows = {r["item_id"]: r for r in read_jsonl(tmp_path / "out" / "predictions" / "memlens.jsonl")}
        assert {k: r["chosen"] for k, r in rows.items()} == {"wifi": 0, "scissors": 2, "car": 3, "scissors-early": 1}
        assert all(len(r["option_scores"]) == 4 for r in rows.values()) and rows["wifi"]["evidence"]
        text = report.read_text()
        assert "| **memlens** | 100.0 | 100.0 | 100.0 |" in text  # Ans-F1, macro, QA-Acc
        assert "| **blind** |" in text and "| **random** |" in text and "reported by the paper" in text
        assert (tmp_path / "out" / "per_task.png").stat().st_size > 1000
        run_bench(suite, tmp_path / "out", make_systems(["memlens"], system))  # resumed: nothing to redo
        assert len(list(read_jsonl(tmp_path / "out" / "predictions" / "memlens.jsonl"))) == 4
    finally:
        system.close()


def test_bench_cli_refuses_a_missing_suite_and_unknown_systems(tmp_path):
    env = {**os.environ, "MEMLENS_HOME": str(tmp_path), "COLUMNS": "200"}
    done = subprocess.run([sys.executable, "-m", "memlens.cli", "bench", str(tmp_path / "nope.jsonl")],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 2 and "no such suite file" in done.stderr
    system = MemlensSystem(load_config(env=env))
    with pytest.raises(ValueError, match="unknown systems"):
        make_systems(["memlens", "gpt-9"], system)
