"""`memlens bench real`: questions a person would ask about real footage (eval/real_questions.py)
over the real media fetched from the registries (eval/media.py), all in one memory as one
morning. Writes predictions.jsonl, report.md (right / abstained per question, and per
channel) and summary.json."""
from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from eval.media import REAL_MEDIA, fetch
from eval.real_questions import ASKED_AT, REAL_QUESTIONS, STARTS


def ingest_real_media(system: Any, progress=None) -> None:
    """Every real recording into the "real" namespace, each at its start on the wearer's clock."""
    for name, media in REAL_MEDIA.items():
        system.ingest(fetch(media), "real", start=STARTS[name], progress=progress)


def run_real_bench(system: Any, out: Path, progress=None) -> dict:
    """`system`: a memlens system with an empty memory (ingest(path, namespace, start=...),
    ask(question, namespace, at))."""
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    ingest_real_media(system, progress)
    for q in REAL_QUESTIONS:
        answer = system.ask(q.question, "real", ASKED_AT)
        rows.append({"media": q.media, "channel": q.channel, "question": q.question,
                     "answer": answer.answer, "abstained": answer.abstained,
                     "right": q.right(answer.answer, answer.abstained),
                     "expected": "abstain" if q.abstain else " | ".join(
                         " + ".join(a) if isinstance(a, tuple) else a for a in q.accepted)})
    with (out / "predictions.jsonl").open("w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
    by_channel: dict[str, list[bool]] = defaultdict(list)
    for row in rows:
        by_channel[row["channel"]].append(row["right"])
    summary = {"right": sum(r["right"] for r in rows), "questions": len(rows),
               "abstained": sum(r["abstained"] for r in rows),
               "by_channel": {c: f"{sum(v)}/{len(v)}" for c, v in sorted(by_channel.items())}}
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    lines = ["# Questions about real footage, asked as people talk", "",
             f"{summary['right']} of {summary['questions']} right ({summary['abstained']} abstained). "
             "By channel: " + ", ".join(f"{c} {v}" for c, v in summary["by_channel"].items()) + ".", "",
             "| media | question | expected | memlens | right |", "|---|---|---|---|---|"]
    for r in rows:
        said = "(abstained)" if r["abstained"] else r["answer"].replace("|", "/")[:120]
        lines.append(f"| {r['media']} | {r['question']} | {r['expected']} | {said} | {'yes' if r['right'] else 'no'} |")
    (out / "report.md").write_text("\n".join(lines) + "\n")
    return summary
