"""RefMem-Bench (seed 002): the suite format and its refusals, the generated dialogue world,
and `memlens bench refmem --size smoke` end to end and resumed (the metrics and judges are
tests/test_refmem_metrics.py's)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from eval.refmem.dataset import DIMENSIONS, FORMATS, SuiteError, read_suite
from eval.refmem.world import generate_suite
from perception.transcripts import read_transcript

ROOT = Path(__file__).resolve().parents[1]


# ---- the generated suite -------------------------------------------------------------------
@pytest.fixture(scope="module")
def suite(tmp_path_factory):
    return generate_suite(tmp_path_factory.mktemp("refmem") / "smoke", "smoke", 0)


def test_the_smoke_suite_has_every_dimension_format_and_phrasing_per_context(suite):
    assert len(suite.contexts) == 2 and len(suite.items) == 96
    for context in suite.contexts:
        cells = {(i.dimension, i.format, i.phrasing) for i in suite.items if i.context_id == context}
        assert cells == {(d, f, p) for d in DIMENSIONS for f in FORMATS for p in ("template", "held-out")}
    for item in suite.items:
        if item.format == "MC":
            assert 2 <= len(item.answer) <= 4 and len(item.options) == 4
        elif item.format == "SC":
            assert len(item.answer) == 1 and len(item.options) == 4
        else:
            assert all(1 <= len(r.split()) <= 4 for r in item.answer)
    assert len({i.answer[0] for i in suite.items if i.format == "SC"}) >= 3  # the right letter moves


def test_evidence_anchors_are_lines_and_images_of_the_thread(suite):
    for context in suite.contexts:
        text = suite.thread(context).read_text()
        lines = set(text.splitlines())
        (dialogue,) = read_transcript(suite.thread(context))
        shared = {t.image_index: t.speaker for t in dialogue.turns if t.image_index is not None}
        assert len(dialogue.sessions) == 10 and len(shared) == text.count("[Image #")
        for item in (i for i in suite.items if i.context_id == context):
            assert item.evidence.text and set(item.evidence.text) <= lines
            person = item.evidence.text[-1].split(":")[0]
            if item.visual and item.dimension != "CMLI":
                assert item.evidence.images and all(shared[n] == person for n in item.evidence.images)


def test_generation_is_deterministic_for_a_seed(suite, tmp_path):
    again = generate_suite(tmp_path / "again", "smoke", 0)
    assert (again.root / "items.jsonl").read_bytes() == (suite.root / "items.jsonl").read_bytes()
    other = generate_suite(tmp_path / "other", "smoke", 1)
    assert (other.root / "items.jsonl").read_bytes() != (suite.root / "items.jsonl").read_bytes()


@pytest.mark.parametrize("line, reason", [
    ('{"id": "x", "context_id": "c", "dimension": "XX", "format": "SC", "question": "q", "options": ["a", "b"], '
     '"answer": "A"}', "dimension 'XX'"),
    ('{"id": "x", "context_id": "c", "dimension": "TD", "format": "SC", "question": "q", "options": ["a", "b"], '
     '"answer": ["A", "B"]}', "exactly one"),
    ('{"id": "x", "context_id": "c", "dimension": "TD", "format": "MC", "question": "q", "options": ["a", "b"], '
     '"answer": ["C"]}', "outside"),
    ('{"id": "x", "context_id": "c"', "not a RefMem item"),
])
def test_a_malformed_suite_is_refused_with_its_file_and_line(tmp_path, line, reason):
    (tmp_path / "threads").mkdir()
    (tmp_path / "threads" / "c.txt").write_text("A: hi\n")
    ok = '{"id": "ok", "context_id": "c", "dimension": "TD", "format": "DA", "question": "q", "answer": ["hi"]}'
    (tmp_path / "items.jsonl").write_text(ok + "\n" + line + "\n")
    with pytest.raises(SuiteError, match=f"items.jsonl:2: .*{reason}"):
        read_suite(tmp_path)


# ---- end to end ---------------------------------------------------------------------------------
@pytest.mark.slow
def test_bench_refmem_smoke_end_to_end_and_resumed(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "MEMLENS_CONFIG"}
    env.update(MEMLENS_HOME=str(tmp_path / "home"), HF_HUB_OFFLINE="1", COLUMNS="200")
    out = tmp_path / "out"
    command = [sys.executable, "-m", "memlens.cli", "bench", "refmem", "--size", "smoke", "--data", str(tmp_path / "data"),
               "--out", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    data = json.loads((out / "summary.json").read_text())
    assert data["items"] == 96 and data["llm"] == "none" and data["judge"].startswith("offline")
    assert set(data["phrasing"]) == {"template", "held-out"}
    table1 = data["table1"]
    assert all(0.0 <= table1[k] <= 1.0 for k in ("MC Acc", "SC Acc", "DA Acc", "DA BLEU-1", "DA F1"))
    assert table1["SC MemR"] > 0.3  # memlens cites turns that bear on the gold evidence
    rows = [json.loads(line) for line in (out / "predictions.jsonl").read_text().splitlines()]
    assert len(rows) == 96 and not any(r["error"] for r in rows)
    sc = [r for r in rows if ":SC:" in r["item_id"]]
    assert all(len(r["letters"]) == 1 for r in sc)
    report = (out / "report.md").read_text()
    assert "REMIND *reported by the paper" in report and "| held-out |" in report
    assert (out / "refmem.png").stat().st_size > 5000

    again = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT)
    assert again.returncode == 0, again.stderr[-2000:]
    assert "0 contexts ingested, 0 questions asked (0 failed, retried next run), 96 resumed" in \
        (out / "report.md").read_text()
    assert json.loads((out / "summary.json").read_text()) == data

    naive = subprocess.run([*command[:-1], str(tmp_path / "naive"), "--systems", "naiverag"],
                           capture_output=True, text=True, env=env, cwd=ROOT)
    assert naive.returncode == 0, naive.stderr[-2000:]
    assert json.loads((tmp_path / "naive" / "summary.json").read_text())["system"] == "naiverag"
    full = subprocess.run([*command[:-1], str(tmp_path / "full"), "--systems", "fullcontext"],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    assert full.returncode == 2 and "needs an LLM" in full.stderr  # no model configured: said, not faked
