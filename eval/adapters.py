"""Readers for the benchmarks' official releases, for users who have them.

SuperMemory-VQA (seed 001) stores each QA with exactly three choices labelled correct /
vague / incorrect (all incorrect when unanswerable), evidence items with session and video
ids and spans, a question time span and a category; evaluation appends a fourth fixed
option, "This question cannot be answered". EgoMemReason (seed 004) publishes no file
schema; its items are multiple choice with a query time (day + clock), a participant, a
task and evidence clips. Field names below follow the papers' wording, with common aliases.
"""
from __future__ import annotations

import json
import random
from datetime import datetime, timedelta
from pathlib import Path

from eval.paper_tables import EGOMEMREASON_MEMORY_TYPE
from eval.schema import EvidenceSpan, Item, Option, Suite, VideoRef

NOT_ANSWERABLE = "This question cannot be answered"
_LABEL_TO_ROLE = {"correct": "correct", "vague": "vague", "incorrect": "incorrect", "wrong": "incorrect"}


class AdapterError(ValueError):
    pass


def _first(d: dict, *names: str, default=None):
    for name in names:
        if name in d:
            return d[name]
    if default is not None:
        return default
    raise AdapterError(f"missing field: one of {names} (have {sorted(d)})")


def _load(path: Path) -> list[dict]:
    text = Path(path).read_text()
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = [json.loads(line) for line in text.splitlines() if line.strip()]
    if isinstance(data, dict):  # a wrapper object, or a one-line JSONL file
        wrapped = [data[k] for k in ("data", "items", "questions") if k in data]
        data = wrapped[0] if wrapped else [data]
    return data


def _videos(manifest: Path) -> list[VideoRef]:
    """A manifest maps each video id to a local file and its start on the wearer's clock."""
    base = Path(manifest).parent
    return [VideoRef(v["video_id"], str((base / v["path"]).resolve()), v["start"], v.get("person"), v.get("day"))
            for v in json.loads(Path(manifest).read_text())["videos"]]


def read_supermemory(qa_path: Path, manifest: Path, seed: int = 0) -> Suite:
    videos = _videos(manifest)
    starts = {v.video_id: datetime.fromisoformat(v.start) for v in videos}
    items = []
    for n, row in enumerate(_load(qa_path)):
        choices = _first(row, "choices", "answer_choices", "options")
        if len(choices) != 3:
            raise AdapterError(f"item {n}: SuperMemory-VQA items have exactly 3 choices, got {len(choices)}")
        options = [Option(c["text"], _LABEL_TO_ROLE[c["label"].lower()]) for c in choices]
        random.Random(f"{seed}:{n}").shuffle(options)  # the paper states no order; fixed per item
        options.append(Option(NOT_ANSWERABLE, "not_answerable"))
        answerable = any(o.role == "correct" for o in options)
        answer = next(i for i, o in enumerate(options) if o.role == ("correct" if answerable else "not_answerable"))
        evidence = []
        for e in row.get("evidence", []):
            vid = _first(e, "video_id", "clip_id")
            lo, hi = _first(e, "time_span", "span")
            origin = starts.get(vid)
            evidence.append(EvidenceSpan(
                vid, float(lo), float(hi),
                (origin + timedelta(seconds=float(lo))).isoformat() if origin else "",
                (origin + timedelta(seconds=float(hi))).isoformat() if origin else "",
                e.get("description", "")))
        asked_span = _first(row, "question_time_span", "time_span")
        items.append(Item(
            id=str(row.get("id", f"smvqa-{n}")), suite="supermemory", task=_first(row, "category", "task"),
            question=_first(row, "question", "question_text"), options=tuple(options), answer=answer,
            asked_at=asked_span[1],  # the video is cut at the question's end time (seed 001, sec. 2)
            person=str(_first(row, "person_id", "participant", default="")) or None,
            videos=tuple(dict.fromkeys(e.video_id for e in evidence)) or tuple(row.get("video_ids", ())),
            evidence=tuple(evidence), answerable=answerable,
            meta={"location": row.get("location"), "modalities": row.get("modalities", [])},
        ))
    return Suite("supermemory", videos, items, {"source": str(qa_path)})


def _day_clock(value, origin: datetime) -> str:
    """'Day 3 14:16:00' or {'day': 3, 'time': '14:16:00'} -> ISO on the wearer's clock."""
    if isinstance(value, dict):
        day, clock = int(value["day"]), value["time"]
    else:
        head, clock = str(value).rsplit(" ", 1)
        day = int(head.lower().replace("day", "").strip())
    t = datetime.strptime(clock, "%H:%M:%S").time()
    return datetime.combine(origin.date() + timedelta(days=day - 1), t).isoformat()


def read_egomemreason(qa_path: Path, manifest: Path) -> Suite:
    videos = _videos(manifest)
    day_one: dict[str | None, datetime] = {}  # "Day 1" is each participant's first recorded day
    for v in videos:
        start = datetime.fromisoformat(v.start)
        day_one[v.person] = min(day_one.get(v.person, start), start)
    items = []
    for n, row in enumerate(_load(qa_path)):
        person = str(_first(row, "participant", "person", default="")) or None
        origin = day_one.get(person) or min(day_one.values())
        texts = _first(row, "options", "choices")
        answer = _first(row, "answer", "gt")
        index = "ABCDEFGHIJ".index(answer) if isinstance(answer, str) and len(answer) == 1 and answer.isalpha() else int(answer)
        if not 0 <= index < len(texts):
            raise AdapterError(f"item {n}: answer {answer!r} is not one of {len(texts)} options")
        task = _first(row, "task", "core_challenge")
        items.append(Item(
            id=str(row.get("id", f"emr-{n}")), suite="egomemreason", task=task, question=row["question"],
            options=tuple(Option(t, "correct" if i == index else "distractor") for i, t in enumerate(texts)),
            answer=index, asked_at=_day_clock(_first(row, "query_time", "t_q"), origin), person=person,
            evidence=tuple(EvidenceSpan(e["video_id"], float(e["start"]), float(e["end"]))
                           for e in row.get("evidence", [])),
            memory_type=EGOMEMREASON_MEMORY_TYPE.get(task),
        ))
    return Suite("egomemreason", videos, items, {"source": str(qa_path)})
