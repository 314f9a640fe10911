"""Open-question development rows for the sufficiency fit (eval/calibration/open-dev-rows.jsonl):
memlens's answers, with the features it logged, to LoCoMo questions of the development
conversations this module names (the rest are kept to check the fit), to the real-footage
questions and to the real day's, each labelled right or wrong. Run once after the agent's answers change:

    python -m benchmarks.open_rows eval/calibration/open-dev-rows.jsonl
    memlens fit-sufficiency eval/calibration/sufficiency-dev-rows.jsonl eval/calibration/open-dev-rows.jsonl

Rows carry an id, not the question: LoCoMo's text stays out of the repository (CC BY-NC).
"""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

FIT_CONVERSATIONS = 3  # of the 5 development conversations; the other 2 check the fit
PER_CONVERSATION = 40  # questions each, taken in turn from each category
RIGHT_F1 = 0.3  # a LoCoMo answer holding this much of the gold answer's words counts as right


def locomo_rows(system, path: Path) -> list[dict]:
    from benchmarks.locomo import MemlensLocomo, namespace_of
    from eval.locomo.dataset import read_conversations, select
    from eval.locomo.scoring import answer_f1
    from perception.transcripts import read_transcript

    solver = MemlensLocomo(system, read_transcript(path))
    rows = []
    for conversation in select(read_conversations(path), FIT_CONVERSATIONS, PER_CONVERSATION):
        solver.prepare(conversation.sample_id)
        namespace = namespace_of(conversation.sample_id)
        for item in conversation.items:
            answer = system.ask(item.question, namespace, solver.asked_at(item.sample_id))
            if item.category == 5:
                right = 0  # the conversation does not hold the answer: any answer is wrong
            else:
                right = int((answer_f1(item.category, answer.draft, False, item.answer) or 0.0) >= RIGHT_F1)
            rows.append({"id": f"locomo:{item.id}", "features": answer.features, "right": right})
    return rows


def real_rows(system) -> list[dict]:
    from eval.real_bench import ingest_real_media
    from eval.real_questions import ASKED_AT, REAL_QUESTIONS

    ingest_real_media(system)
    rows = []
    for n, q in enumerate(REAL_QUESTIONS):
        answer = system.ask(q.question, "real", ASKED_AT)
        # the row says whether giving the drafted answer would have been right
        right = 0 if q.abstain else int(bool(answer.draft) and q.right(answer.draft, False))
        rows.append({"id": f"real:{n}", "features": answer.features, "right": right})
    return rows


def day_rows(system) -> list[dict]:
    from eval.media import fetch
    from eval.real_day import DAY, DAY_QUESTIONS, NAMESPACE

    for media, start in DAY.values():
        system.ingest(fetch(media), NAMESPACE, start=start)
    return [{"id": f"day:{n}", "features": (answer := system.ask(q.question, NAMESPACE, q.at)).features,
             "right": 0 if q.abstain else int(bool(answer.draft) and q.right(answer.draft, False))}
            for n, q in enumerate(DAY_QUESTIONS)]


def main(out: Path, locomo: Path = Path("../shared/locomo/locomo_dev.json")) -> None:
    from benchmarks.ingest import fresh_config
    from service.cli import read_app_config
    from service.system import MemlensSystem

    with tempfile.TemporaryDirectory(prefix="memlens-rows-") as home:
        system = MemlensSystem(fresh_config(read_app_config(None), Path(home)))
        try:
            rows = real_rows(system) + day_rows(system) + locomo_rows(system, locomo)
        finally:
            system.close()
    rows = [r for r in rows if r["features"] and "option_margin" not in r["features"]]
    out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    print(f"{len(rows)} open rows ({sum(r['right'] for r in rows)} right) -> {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), *(Path(a) for a in sys.argv[2:3]))
