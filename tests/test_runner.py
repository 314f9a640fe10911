"""The eval runner: ingest once, one JSONL line per item, resume after a kill, errors kept."""
from __future__ import annotations

from eval.baselines import BlindBaseline, RandomBaseline
from eval.runner import Runner, namespace_for
from eval.schema import Item, Option, Prediction, Suite, VideoRef, read_jsonl


def suite(n: int = 6) -> Suite:
    videos = [VideoRef("v1", "/x/v1.mp4", "2024-01-01T08:00:00", person="p1"),
              VideoRef("v2", "/x/v2.mp4", "2024-01-02T08:00:00", person="p2")]
    options = (Option("oat milk and eggs", "correct"), Option("bread", "incorrect"),
               Option("This question cannot be answered", "not_answerable"))
    items = [Item(f"q{i}", "toy", "conversational_memory", "What did Bob ask me to buy?", options, 0,
                  "2024-01-03T08:00:00", person=f"p{1 + i % 2}", videos=(f"v{1 + i % 2}",)) for i in range(n)]
    return Suite("toy", videos, items)


class Recording(RandomBaseline):
    """A real system under test (the random baseline) that notes what the runner asked."""

    def __init__(self, fail_on: set[str] = frozenset()):
        super().__init__()
        self.ingested: list[tuple[str, str]] = []
        self.asked: list[str] = []
        self.fail_on = set(fail_on)

    def ingest(self, video, namespace):
        self.ingested.append((video.video_id, namespace))

    def answer(self, item, namespace):
        self.asked.append(item.id)
        assert namespace == namespace_for(suite(), item.person)
        if item.id in self.fail_on:
            raise RuntimeError("backend fell over")
        return super().answer(item, namespace)


def test_a_killed_run_resumes_without_redoing_work(tmp_path):
    first = Recording()
    Runner(tmp_path).run(first, suite(), limit=4)  # "killed" after four items
    assert len(first.asked) == 4 and sorted(first.ingested) == [("v1", "toy:p1"), ("v2", "toy:p2")]
    again = Recording()
    preds = Runner(tmp_path, workers=2).run(again, suite())
    assert sorted(again.asked) == ["q4", "q5"] and again.ingested == []
    assert [p.item_id for p in preds] == [f"q{i}" for i in range(6)]
    assert len(list(read_jsonl(tmp_path / "random.jsonl"))) == 6


def test_failed_items_are_logged_and_retried(tmp_path):
    Runner(tmp_path).run(Recording(fail_on={"q2"}), suite())
    rows = {r["item_id"]: r for r in read_jsonl(tmp_path / "random.jsonl")}
    assert "backend fell over" in rows["q2"]["error"]
    retry = Recording()
    preds = Runner(tmp_path).run(retry, suite())
    assert retry.asked == ["q2"] and len(preds) == 6


def test_random_is_reproducible_and_blind_never_abstains(embedder):
    item = suite(1).items[0]
    assert RandomBaseline().answer(item, "ns") == RandomBaseline().answer(item, "ns")
    blind = BlindBaseline(embedder.embed).answer(item, "ns")
    assert isinstance(blind, Prediction) and blind.chosen in (0, 1) and not blind.abstained
    assert blind.option_scores[2] == 0.0
