"""End to end: render the synthetic morning, ingest it with the real ASR and OCR models,
and ask its scripted questions at the end of the morning."""
from __future__ import annotations

import os
import time
from datetime import datetime, timedelta

import pytest

from eval.scoring import is_correct
from eval.synthetic import morning_at_home, render
from service.config import load_config
from service.system import MemlensSystem

pytestmark = pytest.mark.slow
SCRIPT = morning_at_home()
BY_ID = {q.id: q for q in SCRIPT.questions}


@pytest.fixture(scope="module")
def morning(tmp_path_factory):
    root = tmp_path_factory.mktemp("morning")
    video = render(SCRIPT, root / "video").video_path
    system = MemlensSystem(load_config(env={**os.environ, "MEMLENS_HOME": str(root / "home")}))
    report = system.ingest(video, "me")
    yield system, video, report
    system.close()


def ask(system, qid: str):
    question = BY_ID[qid]
    at = datetime.fromisoformat(SCRIPT.start_datetime).replace(tzinfo=None) + timedelta(seconds=SCRIPT.duration + 60)
    answer = system.ask(question.text, "me", at, list(question.options) if question.options else None)
    return question, answer


def test_ingest_covers_the_whole_video_faster_than_real_time(morning):
    _, _, report = morning
    assert abs(report.duration - SCRIPT.duration) < 1.0
    assert report.wall_start == datetime(2024, 5, 14, 7, 30) or report.channels["clock"] == "container creation_time"
    assert report.records["utterance"] >= 10 and report.records["sighting"] >= 8
    assert report.realtime_factor < 1.0


@pytest.mark.parametrize("qid", [q.id for q in SCRIPT.questions])
def test_scripted_question(morning, qid):
    system, _, _ = morning
    question, answer = ask(system, qid)
    assert is_correct(question, answer.answer, answer.abstained, answer.chosen_option), answer.answer
    if not answer.abstained:
        assert answer.evidence, "answers carry evidence"
        for evidence in answer.evidence:  # evidence lies inside the video, on the wearer's clock
            assert 0 <= evidence.record.start <= evidence.record.end <= SCRIPT.duration + 0.5


def test_evidence_overlaps_the_scripted_span(morning):
    system, _, _ = morning
    for qid in ("buy", "wifi", "apartment"):
        question, answer = ask(system, qid)
        spans = [(e.record.start, e.record.end) for e in answer.evidence]
        assert any(s <= qe + 1 and e >= qs - 1 for s, e in spans for qs, qe in question.evidence), (qid, spans)


def test_reingest_does_no_model_work_and_changes_nothing(morning):
    system, video, report = morning
    began = time.perf_counter()
    again = system.ingest(video, "me")
    assert again.records == report.records
    assert time.perf_counter() - began < max(0.25 * report.seconds, 5.0)
