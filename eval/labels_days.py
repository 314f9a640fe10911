"""`memlens bench labels-day`: the generated days whose things carry printed labels (the
morning of the demo, and an evening, a weekend afternoon, an office day, Saturday errands and
a moving day written apart from it, eval/synthetic), each rendered, ingested into a memory of
its own and asked its questions at its end. The instrument for "a labels-world day": its
worlds are ours, so it is reported beside real footage, never instead of it."""
from __future__ import annotations

import tempfile
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from eval.real_bench import write_report
from eval.scoring import is_correct
from eval.synthetic import (
    errands_day,
    evening_at_home,
    morning_at_home,
    moving_day,
    office_day,
    render,
    weekend_afternoon,
)

DAYS = {"morning": morning_at_home, "evening": evening_at_home, "weekend": weekend_afternoon, "office": office_day,
        "errands": errands_day, "moving": moving_day}
ASKED_AFTER = timedelta(seconds=60)  # questions come a minute after the recording ends


def run_labels_days(system: Any, out: Path, seeds: Sequence[int] = (0,), progress=None) -> dict:
    """Render, ingest and ask each day at each seed (a seed moves the camera and the noise,
    never the content); write the report and return its summary."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="memlens-labels-") as tmp:
        for name, make in DAYS.items():
            for seed in seeds:
                script = make(seed)
                video = render(script, Path(tmp) / f"{name}-{seed}").video_path
                namespace = f"{name}-{seed}"
                system.ingest(video, namespace, progress=progress)
                at = datetime.fromisoformat(script.start_datetime).replace(tzinfo=None) + \
                    timedelta(seconds=script.duration) + ASKED_AFTER
                for q in script.questions:
                    answer = system.ask(q.text, namespace, at, list(q.options) if q.options else None)
                    rows.append({"media": namespace, "channel": q.kind, "question": q.text, "at": at.isoformat(),
                                 "answer": answer.answer, "abstained": answer.abstained,
                                 "confidence": answer.confidence,
                                 "right": is_correct(q, answer.answer, answer.abstained, answer.chosen_option),
                                 "expected": q.answer or "abstain"})
    return write_report(rows, out, "The labels-world days (generated), asked at their end")
