"""LoCoMo QA items of a file: what each conversation is asked, the gold answer as LoCoMo
scores it, and the gold evidence turns (dia_ids like "D3:7")."""
from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

# The names LoCoMo's own evaluation gives the categories (task_eval/evaluation.py,
# CATEGORY_MAPPING); papers disagree on which of 1 and 4 is "single-hop".
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
ANSWERABLE = (1, 2, 3, 4)
ADVERSARIAL = 5

# A few gold evidence entries are malformed ("D8:6; D9:17", "D:11:26", "D"): every
# "D<session>:<turn>" inside an entry is taken, one that names no turn is dropped.
_DIA_ID = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)")


@dataclass(frozen=True)
class LocomoItem:
    id: str  # "<sample_id>:<index in the sample's qa list>": stable across runs
    sample_id: str
    question: str
    answer: str  # the gold answer as a string; category 5: its adversarial answer (never scored)
    category: int
    evidence: tuple[str, ...]  # gold dia_ids, normalised and de-duplicated, in order


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    items: tuple[LocomoItem, ...]


def dia_ids(entries: list) -> tuple[str, ...]:
    found = (f"D{s}:{t}" for entry in entries for s, t in _DIA_ID.findall(str(entry)))
    return tuple(dict.fromkeys(found))


def read_conversations(path: str | Path) -> list[Conversation]:
    """Every sample's QA items, in file order. LoCoMo's evaluation reads `answer`, else
    `adversarial_answer`; so do we (two category-5 items carry both)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    conversations = []
    for sample in data if isinstance(data, list) else [data]:
        sid = str(sample["sample_id"])
        items = tuple(
            LocomoItem(id=f"{sid}:{n}", sample_id=sid, question=str(qa["question"]),
                       answer=str(qa["answer"] if "answer" in qa else qa.get("adversarial_answer", "")),
                       category=int(qa["category"]), evidence=dia_ids(qa.get("evidence") or []))
            for n, qa in enumerate(sample.get("qa") or []))
        conversations.append(Conversation(sid, items))
    return conversations


def select(conversations: list[Conversation], k: int | None = None, limit: int | None = None) -> list[Conversation]:
    """The first `k` conversations, each cut to `limit` questions taken in turn from each
    category (LoCoMo lists adversarial items last, so a plain head would have none); the
    kept items stay in file order."""
    chosen = []
    for conv in conversations[:k]:
        if limit is None or limit >= len(conv.items):
            chosen.append(conv)
            continue
        by_category: dict[int, list[LocomoItem]] = defaultdict(list)
        for item in conv.items:
            by_category[item.category].append(item)
        queues = [by_category[c] for c in sorted(by_category)]
        keep: set[str] = set()
        for depth in range(max(map(len, queues))):
            for queue in queues:
                if depth < len(queue) and len(keep) < limit:
                    keep.add(queue[depth].id)
        chosen.append(Conversation(conv.sample_id, tuple(i for i in conv.items if i.id in keep)))
    return chosen
