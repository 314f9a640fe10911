"""The RefMem-Bench suite format. The paper gives no JSON schema (its data is "to be
released"), so this is the format as the paper describes it, and the one our generator
writes; an official release is read by converting it to this.

A suite is a folder:
- `threads/<context_id>.txt`: the dialogue history H as the paper renders it, `Speaker: text`
  turns and `[Image #N caption]` lines (N a 0-based index over the whole thread), with our
  `## Session <label> | <ISO time>` lines between sessions (perception.transcripts reads it).
- `items.jsonl`: one item a line: `id`, `context_id`, `dimension` (TD PI BM EGP IBM CMLI PVB
  TSVP), `format` (MC SC DA), `question`, `options` (MC/SC; lettered A, B, ... by position),
  `answer` (MC: every correct letter; SC: one letter; DA: the acceptable references),
  `evidence` {"text": exact `Speaker: text` lines, "images": image indices}, and optional
  `phrasing` ("template" or "held-out") and `asked_at` (ISO; default: after the last turn).
"""
from __future__ import annotations

import json
import string
from dataclasses import asdict, dataclass, field
from pathlib import Path

TEXT_DIMENSIONS = ("TD", "PI", "BM", "EGP", "IBM")
VISUAL_DIMENSIONS = ("CMLI", "PVB", "TSVP")
DIMENSIONS = TEXT_DIMENSIONS + VISUAL_DIMENSIONS
DIMENSION_NAMES = {
    "TD": "temporal dynamics", "PI": "pattern induction", "BM": "belief modeling",
    "EGP": "experience-grounded planning", "IBM": "implicit boundary modeling",
    "CMLI": "cross-modal latent inference", "PVB": "personalized visual baselines",
    "TSVP": "topic-scoped visual prototypes",
}
FORMATS = ("MC", "SC", "DA")
LETTERS = string.ascii_uppercase


class SuiteError(ValueError):
    """A suite file that cannot be read; the message names the file and line."""


@dataclass(frozen=True)
class Evidence:
    text: tuple[str, ...] = ()  # exact `Speaker: text` lines of the thread
    images: tuple[int, ...] = ()  # 0-based image indices


@dataclass(frozen=True)
class RefMemItem:
    id: str
    context_id: str
    dimension: str
    format: str
    question: str
    options: tuple[str, ...]  # MC / SC; empty for DA
    answer: tuple[str, ...]  # MC: letters; SC: one letter; DA: acceptable references
    evidence: Evidence = field(default_factory=Evidence)
    phrasing: str = "template"
    asked_at: str | None = None

    @property
    def visual(self) -> bool:
        return self.dimension in VISUAL_DIMENSIONS

    def letters(self, indexes) -> tuple[str, ...]:
        return tuple(sorted(LETTERS[i] for i in indexes))

    def to_dict(self) -> dict:
        d = asdict(self)
        d["evidence"] = {"text": list(self.evidence.text), "images": list(self.evidence.images)}
        d["options"], d["answer"] = list(self.options), list(self.answer)
        return d

    @staticmethod
    def from_dict(d: dict) -> RefMemItem:
        ev = d.get("evidence") or {}
        answer = d["answer"]
        return RefMemItem(
            id=str(d["id"]), context_id=str(d["context_id"]), dimension=str(d["dimension"]).upper(),
            format=str(d["format"]).upper(), question=str(d["question"]),
            options=tuple(str(o) for o in d.get("options") or ()),
            answer=tuple(str(a) for a in (answer if isinstance(answer, list) else [answer])),
            evidence=Evidence(tuple(str(t) for t in ev.get("text") or ()), tuple(int(i) for i in ev.get("images") or ())),
            phrasing=str(d.get("phrasing") or "template"), asked_at=d.get("asked_at"))


@dataclass(frozen=True)
class Suite:
    root: Path
    items: tuple[RefMemItem, ...]

    def thread(self, context_id: str) -> Path:
        return self.root / "threads" / f"{context_id}.txt"

    @property
    def contexts(self) -> list[str]:
        return list(dict.fromkeys(i.context_id for i in self.items))


def _check(item: RefMemItem) -> str | None:
    """Why an item is malformed, or None."""
    if item.dimension not in DIMENSIONS:
        return f"dimension {item.dimension!r} is not one of {', '.join(DIMENSIONS)}"
    if item.format not in FORMATS:
        return f"format {item.format!r} is not one of {', '.join(FORMATS)}"
    if not item.answer:
        return "no answer"
    if item.format == "DA":
        return "a direct-answer item has options" if item.options else None
    if not 2 <= len(item.options) <= len(LETTERS):
        return f"{item.format} needs 2-26 options, has {len(item.options)}"
    valid = set(LETTERS[:len(item.options)])
    if not set(item.answer) <= valid:
        return f"answer {list(item.answer)} names a letter outside {sorted(valid)}"
    if item.format == "SC" and len(item.answer) != 1:
        return "a single-choice item has exactly one answer letter"
    return None


def read_suite(root: str | Path) -> Suite:
    """Every item of a suite folder, checked; a malformed line or a missing thread is refused
    with the file and line."""
    root = Path(root)
    path = root / "items.jsonl"
    if not path.is_file():
        raise SuiteError(f"{path}: no such file (a RefMem suite is a folder with items.jsonl and threads/)")
    items = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip():
            continue
        try:
            item = RefMemItem.from_dict(json.loads(raw))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise SuiteError(f"{path}:{number}: not a RefMem item ({type(exc).__name__}: {exc})") from exc
        if (problem := _check(item)) is not None:
            raise SuiteError(f"{path}:{number}: {problem}")
        items.append(item)
    suite = Suite(root, tuple(items))
    for context in suite.contexts:
        if not suite.thread(context).is_file():
            raise SuiteError(f"{suite.thread(context)}: no thread for context {context!r}")
    return suite


def write_suite(root: str | Path, threads: dict[str, str], items: list[RefMemItem]) -> Suite:
    root = Path(root)
    (root / "threads").mkdir(parents=True, exist_ok=True)
    for context_id, text in threads.items():
        (root / "threads" / f"{context_id}.txt").write_text(text, encoding="utf-8")
    (root / "items.jsonl").write_text("".join(json.dumps(i.to_dict()) + "\n" for i in items), encoding="utf-8")
    return read_suite(root)
