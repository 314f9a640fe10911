"""Plain-data views of answers and reports, shared by the CLI's --json and the API."""
from __future__ import annotations

from dataclasses import asdict

from agent.state import AgentAnswer, Evidence
from memory.records import MemoryRecord
from service.system import IngestReport


def evidence_view(e: Evidence) -> dict:
    r = e.record
    return {
        "record_id": r.id, "kind": r.kind, "source": e.source, "text": r.text,
        "video_id": r.video_id, "start": round(r.start, 2), "end": round(r.end, 2),
        "wall_start": r.wall_start.isoformat(), "wall_end": r.wall_end.isoformat(),
        "keyframes": r.keyframes[:8], "score": round(e.score, 4), "role": "related" if e.related else "answer",
        "detail": {k: v for k, v in r.attrs.items() if k in ("speaker", "speaker_name", "place", "block", "line", "confidence", "acts")},
    }


def memory_view(r: MemoryRecord) -> dict:
    return {"id": r.id, "kind": r.kind, "text": r.text, "video_id": r.video_id, "wall_start": r.wall_start.isoformat(),
            "wall_end": r.wall_end.isoformat(), "start": round(r.start, 2), "end": round(r.end, 2),
            "speaker": r.attrs.get("speaker_name") or r.attrs.get("speaker")}


def answer_view(a: AgentAnswer) -> dict:
    return {
        "question": a.question, "answer": a.answer, "abstained": a.abstained,
        "confidence": a.confidence, "sufficiency": a.sufficiency, "question_type": a.question_type,
        "chosen_option": a.chosen_option, "option_scores": a.option_scores,
        "evidence": [evidence_view(e) for e in a.evidence], "trace": a.trace,
    }


def report_view(r: IngestReport) -> dict:
    out = asdict(r)
    out["wall_start"] = r.wall_start.isoformat()
    out["realtime_factor"] = round(r.realtime_factor, 3)
    out["seconds"] = round(r.seconds, 2)
    return out
