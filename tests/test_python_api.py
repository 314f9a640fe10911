"""`import memlens`: the Python front door over a real home folder (SQLite, FAISS, the real
embedder), fed a conversation transcript so it runs in seconds; notebooks cover video."""
from __future__ import annotations

import subprocess
import sys
from datetime import datetime

import pytest

THREAD = ("## Session 1 | 2026-03-09T18:00\nAlice: The plumber is coming on Thursday at 9.\n"
          "Bob: Great, I'll stay home. <script>alert(1)</script>\nAlice: Bring the spare key too.\n")


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    from memlens import Memlens

    folder = tmp_path_factory.mktemp("api-home")
    thread = folder / "thread.txt"
    thread.write_text(THREAD)
    with Memlens(home=folder / "home") as m:
        m.ingest(thread)
    return folder / "home"


def test_importing_memlens_loads_no_models_or_heavy_modules():
    code = ("import sys, memlens; from memlens import Memlens, Answer; "
            "heavy = [m for m in ('torch', 'faiss', 'spacy', 'sentence_transformers', 'langgraph') if m in sys.modules]; "
            "print(memlens.__version__, heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[0][0].isdigit() and out[1:] == ["[]"], out


def test_ask_answers_with_moments_that_print_and_display(home):
    from memlens import Memlens

    with Memlens(home=home) as m:
        answer = m.ask("When is the plumber coming?", at=datetime(2026, 3, 10))
        early = m.ask("When is the plumber coming?", at=datetime(2026, 3, 5))
    assert not answer.abstained and "Thursday" in answer.answer
    first = answer.evidence[0]
    assert first.speaker == "Alice" and first.when == datetime(2026, 3, 9, 18, 0) and first.source == "transcript"
    assert "Thursday" in str(answer) and str(first) in str(answer)
    page = answer._repr_html_()
    assert "<svg" in page and "Alice" in page and "Thursday" in page
    assert early.abstained and not early.evidence  # memory before the thread was said holds nothing of it


def test_memories_page_in_time_order_filter_by_kind_and_escape_in_html(home):
    from memlens import Memlens

    with Memlens(home=home) as m:
        said = m.memories(kind="utterance")
        second_page = m.memories(kind="utterance", limit=2, offset=1)
        none_yet = m.memories(kind="utterance", until=datetime(2026, 3, 9, 17, 0))
        with pytest.raises(ValueError, match="unknown kind"):
            m.memories(kind="gossip")
        with pytest.raises(ValueError, match="give a video id"):
            m.forget()
    assert [s.speaker for s in said] == ["Alice", "Bob", "Alice"]
    assert [s.when for s in said] == sorted(s.when for s in said)
    assert [s.record_id for s in second_page] == [s.record_id for s in said[1:3]]
    assert len(none_yet) == 0 and str(none_yet) == "(nothing remembered)"
    shown = said._repr_html_()
    assert "<script>" not in shown and "&lt;script&gt;" in shown  # a remembered line is data, never markup


def test_forget_a_time_range_through_the_api(tmp_path):
    from memlens import Memlens

    thread = tmp_path / "t.txt"
    thread.write_text(THREAD)
    with Memlens(home=tmp_path / "home") as m:
        m.ingest(thread)
        removed = m.forget(since=datetime(2026, 3, 9), until=datetime(2026, 3, 10))
        assert removed > 0 and len(m.memories(kind="utterance")) == 0


def test_evidence_about_the_question_beside_the_answer_is_marked_related(tmp_path):
    from memlens import Memlens

    thread = tmp_path / "plumber.txt"
    thread.write_text("## Session 1 | 2026-03-09T18:00\nAlice: The plumber is coming on Thursday at 9.\n"
                      "Bob: Is the plumber bringing the new tap?\nAlice: Let's have dinner.\n")
    with Memlens(home=tmp_path / "home") as m:
        m.ingest(thread)
        answer = m.ask("When is the plumber coming?", at=datetime(2026, 3, 10))
    assert not answer.abstained and "Thursday" in answer.answer
    assert not answer.evidence[0].related and "Thursday" in answer.evidence[0].text
    related = [e for e in answer.evidence if e.related]
    assert [e.text for e in related] == ["Is the plumber bringing the new tap?"]  # not the dinner
    assert str(related[0]).startswith("also: ") and "also: transcript" in answer._repr_html_()
