"""`memlens bench real`: questions a person would ask about real footage (eval/real_questions.py)
over the real media fetched from the registries (eval/media.py), all in one memory as one
morning; `memlens bench real-day`: a real day of twelve recordings in one memory, each
question asked at its own time (eval/real_day.py). Each writes predictions.jsonl, report.md
(right / abstained per question, and per channel) and summary.json."""
from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from eval.media import REAL_MEDIA, fetch
from eval.real_day import DAY, DAY_QUESTIONS, DAY_REWORDED
from eval.real_day import NAMESPACE as DAY_NAMESPACE
from eval.real_questions import ASKED_AT, REAL_QUESTIONS, STARTS, RealQuestion

CONFIDENT = 0.7  # an answer given with at least this confidence and wrong is confidently wrong


def ingest_real_media(system: Any, progress=None) -> None:
    """Every real recording into the "real" namespace, each at its start on the wearer's clock."""
    for name, media in REAL_MEDIA.items():
        system.ingest(fetch(media), "real", start=STARTS[name], progress=progress)


def run_real_bench(system: Any, out: Path, progress=None) -> dict:
    """`system`: a memlens system with an empty memory (ingest(path, namespace, start=...),
    ask(question, namespace, at))."""
    ingest_real_media(system, progress)
    return ask_and_report(system, "real", REAL_QUESTIONS, ASKED_AT, out,
                          "Questions about real footage, asked as people talk")


def run_real_day(system: Any, out: Path, progress=None) -> dict:
    """The real day (eval/real_day.py): every recording into one memory at its time of day,
    each question asked at its own time; then the same day asked in other words (reported
    in out/reworded and under "reworded" in the summary)."""
    for media, start in DAY.values():
        system.ingest(fetch(media), DAY_NAMESPACE, start=start, progress=progress)
    summary = ask_and_report(system, DAY_NAMESPACE, DAY_QUESTIONS, None, out,
                             "A real day in one memory, asked as the wearer talks")
    reworded = ask_and_report(system, DAY_NAMESPACE, DAY_REWORDED, None, out / "reworded",
                              "The real day asked in other words")
    summary["reworded"] = {k: reworded[k] for k in ("right", "questions", "wrong_answers", "confident_wrong")}
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def ask_and_report(system: Any, namespace: str, questions: Sequence[RealQuestion], asked_at: datetime | None,
                   out: Path, title: str) -> dict:
    """Ask each question (at its own time, else `asked_at`); write predictions.jsonl,
    summary.json and report.md (right / abstained per question and per channel, and how many
    answers were confidently wrong)."""
    rows = []
    for q in questions:
        at = q.at or asked_at
        answer = system.ask(q.question, namespace, at)
        rows.append({"media": q.media, "channel": q.channel, "question": q.question, "at": at.isoformat() if at else None,
                     "answer": answer.answer, "abstained": answer.abstained, "confidence": answer.confidence,
                     "right": q.right(answer.answer, answer.abstained),
                     "expected": "abstain" if q.abstain else " | ".join(
                         " + ".join(a) if isinstance(a, tuple) else a for a in q.accepted)})
    return write_report(rows, out, title)


def write_report(rows: Sequence[dict], out: Path, title: str) -> dict:
    """predictions.jsonl, summary.json and report.md for answered questions (each row: media,
    channel, question, at, answer, abstained, confidence, right, expected); the summary."""
    out.mkdir(parents=True, exist_ok=True)
    with (out / "predictions.jsonl").open("w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
    by_channel: dict[str, list[bool]] = defaultdict(list)
    for row in rows:
        by_channel[row["channel"]].append(row["right"])
    wrong = [r for r in rows if not r["right"] and not r["abstained"]]
    summary = {"right": sum(r["right"] for r in rows), "questions": len(rows),
               "abstained": sum(r["abstained"] for r in rows), "wrong_answers": len(wrong),
               "confident_wrong": sum(r["confidence"] >= CONFIDENT for r in wrong),
               "by_channel": {c: f"{sum(v)}/{len(v)}" for c, v in sorted(by_channel.items())}}
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    lines = [f"# {title}", "",
             f"{summary['right']} of {summary['questions']} right ({summary['abstained']} abstained; "
             f"{summary['wrong_answers']} answered wrongly, {summary['confident_wrong']} of them with confidence "
             f">= {CONFIDENT}). By channel: " + ", ".join(f"{c} {v}" for c, v in summary["by_channel"].items()) + ".", "",
             "| asked | media | question | expected | memlens | right |", "|---|---|---|---|---|---|"]
    for r in rows:
        said = "(abstained)" if r["abstained"] else r["answer"].replace("|", "/")[:120]
        when = r["at"][11:16] if r["at"] else ""
        lines.append(f"| {when} | {r['media']} | {r['question']} | {r['expected']} | {said} | {'yes' if r['right'] else 'no'} |")
    (out / "report.md").write_text("\n".join(lines) + "\n")
    return summary
