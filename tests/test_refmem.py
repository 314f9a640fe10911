"""RefMem-Bench (seed 002): the suite format and its refusals, the generated dialogue world,
the paper's metrics and DA judges (an LLM judge over a real OpenAI-protocol HTTP server, and
the offline fallback), and `memlens bench refmem --size smoke` end to end and resumed."""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from eval.refmem.dataset import DIMENSIONS, FORMATS, SuiteError, read_suite
from eval.refmem.judge import JudgeError, OfflineJudge, OpenAIJudge, make_judge
from eval.refmem.metrics import bleu1, memr_text, memr_visual, option_accuracy, parse_letters, token_f1
from eval.refmem.world import generate_suite
from perception.transcripts import read_transcript

ROOT = Path(__file__).resolve().parents[1]


# ---- metrics (App. D.7-D.8) ---------------------------------------------------------------
def test_option_accuracy_is_an_exact_set_match():
    assert option_accuracy(["D", "a"], ["A", "D"]) == 1.0
    assert option_accuracy(["A"], ["A", "D"]) == 0.0  # no partial credit on MC
    assert option_accuracy(["A", "B", "D"], ["A", "D"]) == 0.0


def test_letters_are_read_from_a_models_answer():
    assert parse_letters("[A, D]", 4) == ("A", "D")
    assert parse_letters("Answer: c", 4) == ("C",)
    assert parse_letters("B and E", 4) == ("B",)  # E is not an option
    assert parse_letters("A lot of Dogs", 4) == ("A",)  # letters inside words are not answers


def test_memr_text_is_the_mean_best_cosine_and_skips_empty_sides(embedder):
    gold = ["Maya: I can't stand running", "Maya: I love running now"]
    assert memr_text(gold, gold, embedder) == pytest.approx(1.0, abs=1e-4)
    partial = memr_text(gold, ["Maya: I can't stand running", "Jon: the bus was late"], embedder)
    assert 0.5 < partial < 0.99
    assert memr_text(gold, ["Jon: the weather is nice"], embedder) < partial
    assert memr_text(gold, [], embedder) is None and memr_text([], gold, embedder) is None


def test_memr_visual_is_index_recall():
    assert memr_visual([2, 5], [5, 7]) == 0.5
    assert memr_visual([2, 5], []) == 0.0
    assert memr_visual([], [1]) is None


def test_bleu1_and_f1_by_hand():
    assert bleu1("grew to love running", ["grew to love running"]) == 1.0
    # 2 of 2 predicted tokens match, brevity penalty exp(1 - 4/2)
    assert bleu1("love running", ["grew to love running"]) == pytest.approx(math.exp(-1))
    assert token_f1("love running", ["grew to love running"]) == pytest.approx(2 * 2 / 6)
    assert token_f1("Running!", ["hiking", "running"]) == 1.0  # the best reference counts
    assert bleu1("", ["x"]) == 0.0


# ---- judges -----------------------------------------------------------------------------------
def test_the_offline_judge_accepts_wording_and_rejects_other_concepts():
    judge = OfflineJudge()
    assert judge.verdict("q", "Blames other people", ["blames others", "shifts the blame"])
    assert judge.verdict("q", "she grew to love running", ["grew to love running"])
    assert not judge.verdict("q", "apologises", ["blames others"])
    assert not judge.verdict("q", "", ["blames others"])


class _ChatServer:
    """A real HTTP server speaking the OpenAI chat-completions protocol; it records each
    request and answers with the next queued reply."""

    def __init__(self, replies: list[str]):
        self.requests: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
                payload = json.dumps({"choices": [{"message": {"role": "assistant", "content": replies.pop(0)}}]})
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(payload.encode())

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"


def test_the_llm_judge_asks_the_endpoint_and_reads_its_verdict():
    server = _ChatServer(['{"verdict": true}', 'Sure! {"verdict": false}', "I think so"])
    judge = make_judge(server.url, "gpt-4o-2024-08-06", "sk-test")
    assert isinstance(judge, OpenAIJudge)
    assert judge.verdict("What does Ravi avoid?", "his dad", ["their father", "dad"]) is True
    assert judge.verdict("What does Ravi avoid?", "cooking", ["their father"]) is False
    with pytest.raises(JudgeError, match="verdict"):
        judge.verdict("What does Ravi avoid?", "money", ["their father"])
    first = server.requests[0]
    assert first["path"] == "/v1/chat/completions" and first["auth"] == "Bearer sk-test"
    assert first["body"]["model"] == "gpt-4o-2024-08-06" and first["body"]["temperature"] == 0
    said = json.dumps(first["body"]["messages"])
    assert "his dad" in said and "their father" in said and "ANY ONE" in said
    assert judge.verdict("q", "  ", ["x"]) is False and len(server.requests) == 3  # nothing to judge: no call
    server.server.shutdown()


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
    command = [sys.executable, "-m", "service.cli", "bench", "refmem", "--size", "smoke", "--data", str(tmp_path / "data"),
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
