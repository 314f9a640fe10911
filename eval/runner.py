"""Runs a system over a suite: ingest each video once, ask every item with memory cut at
its question time, one JSONL line per item as it finishes. A killed run resumes where it
stopped: finished items are read back and skipped; failed ones are asked again.

A run asks one phrasing set (eval/phrasings): "template" (the item's own question, logged
to `<system>.jsonl`), or "dev" / "heldout" (one of the item's phrasings of that split, picked
by a stable hash of the item id, logged to `<system>.<set>.jsonl`). Every set shares the
system's ingest marker, so asking another wording never ingests again; each log line
records the set and the exact text asked. The system under test never sees the bank: the
phrasings are taken out of the item it is handed.
"""
from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, replace
from pathlib import Path

from eval.phrasings import META_KEY, TEMPLATE, asked_question
from eval.schema import BatchIngest, Item, Prediction, QASystem, Suite, VideoRef, append_jsonl, read_jsonl

Progress = Callable[[str, int, int], None]  # (stage, done, total)


def namespace_for(suite: Suite, person: str | None) -> str:
    """Each person's memories are their own: items only see their person's videos."""
    return f"{suite.name}:{person or 'default'}"


def _one_by_one(system: QASystem, videos: list[tuple[VideoRef, str]]) -> Iterator[tuple[VideoRef, str]]:
    for video, namespace in videos:
        system.ingest(video, namespace)
        yield video, namespace


class Runner:
    def __init__(self, out_dir: Path, workers: int = 1, progress: Progress | None = None):
        self.out_dir = Path(out_dir)
        self.workers = max(1, workers)
        self.progress = progress or (lambda stage, done, total: None)
        self._lock = threading.Lock()

    def predictions_path(self, system: QASystem, phrasing: str = TEMPLATE) -> Path:
        return self.out_dir / (f"{system.name}.jsonl" if phrasing == TEMPLATE else f"{system.name}.{phrasing}.jsonl")

    def _ingested_path(self, system: QASystem) -> Path:
        return self.out_dir / f"{system.name}.ingested.json"

    def ingest(self, system: QASystem, suite: Suite) -> None:
        """Each (video, namespace) once per system; remembered across resumed runs."""
        marker = self._ingested_path(system)
        done = set(json.loads(marker.read_text())) if marker.exists() else set()
        needed: list[tuple[VideoRef, str]] = []
        for video in suite.videos:
            namespace = namespace_for(suite, video.person)
            if f"{namespace}/{video.video_id}" not in done:
                needed.append((video, namespace))
        remembered = system.ingest_all(needed) if isinstance(system, BatchIngest) else _one_by_one(system, needed)
        for n, (video, namespace) in enumerate(remembered, 1):
            done.add(f"{namespace}/{video.video_id}")
            marker.write_text(json.dumps(sorted(done)))
            self.progress("ingest", n, len(needed))

    def _ask(self, system: QASystem, item: Item, namespace: str, phrasing: str) -> Prediction:
        began = time.perf_counter()
        try:
            pred = system.answer(item, namespace)
        except Exception as exc:  # one failing item must not end a long run; it is logged and retried
            pred = Prediction(item.id, system.name, None, [0.0] * len(item.options), False,
                              error=f"{type(exc).__name__}: {exc}")
        pred.latency_s = round(time.perf_counter() - began, 4)
        pred.phrasing, pred.question = phrasing, item.question
        return pred

    def run(self, system: QASystem, suite: Suite, limit: int | None = None,
            phrasing: str = TEMPLATE) -> list[Prediction]:
        """Predictions of every item the phrasing set covers (items without phrasings of a
        dev / held-out set are not asked in it), in suite order."""
        self.out_dir.mkdir(parents=True, exist_ok=True)
        path = self.predictions_path(system, phrasing)
        asked = {i.id: q for i in suite.items if (q := asked_question(i, phrasing)) is not None}
        finished: dict[str, Prediction] = {}
        for row in read_jsonl(path):
            pred = Prediction.from_dict(row)
            # a line asked in other words than the bank now gives (the bank changed) is asked again
            if not pred.error and (not pred.question or pred.question == asked.get(pred.item_id)):
                finished[pred.item_id] = pred
        self.ingest(system, suite)
        todo = [i for i in suite.items if i.id in asked and i.id not in finished][:limit]
        with ThreadPoolExecutor(max_workers=self.workers) as pool:
            futures = [pool.submit(self._ask, system, _as_asked(item, asked[item.id]), namespace_for(suite, item.person),
                                   phrasing) for item in todo]
            for n, future in enumerate(as_completed(futures), 1):
                pred = future.result()
                with self._lock:
                    append_jsonl(path, [asdict(pred)])
                    if not pred.error:
                        finished[pred.item_id] = pred
                self.progress("ask" if phrasing == TEMPLATE else f"ask ({phrasing})", n, len(todo))
        return [finished[i.id] for i in suite.items if i.id in asked and i.id in finished]


def _as_asked(item: Item, question: str) -> Item:
    """The item as the system under test gets it: the wording asked, and no phrasing bank."""
    meta = {k: v for k, v in item.meta.items() if k != META_KEY}
    return replace(item, question=question, meta=meta)
