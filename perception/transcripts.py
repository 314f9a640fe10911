"""Conversations that are not inside a video: transcripts read into sessions of turns.

Three formats, picked by the file's suffix and shape:
- LoCoMo's JSON (a list of samples, or one): `conversation` with `session_N` turn lists
  (`speaker`, `dia_id`, `text`, optional `blip_caption`) and `session_N_date_time`.
- RefMem-Bench's thread text, as its paper states it: `Speaker: text` turns and
  `[Image #N Caption]` lines, N a 0-based index over the whole thread. The paper gives no
  sessions or times; a line `## Session <label>` (optionally `| <ISO time>`) starts one.
- A JSONL chat export: one `{"speaker", "time", "text", "image_caption"?, "session"?}`
  object a line; a gap of more than four hours starts a new session when none is given.

A malformed file is refused whole with a TranscriptError naming the file and line; nothing
of it reaches memory. Turn times are the source's own when it has them; otherwise turns are
placed `TURN_SPACING` apart from their session's start.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from perception.errors import PerceptionError

TURN_SPACING = timedelta(seconds=30)
SESSION_GAP = timedelta(hours=4)
_LOCOMO_TIME = "%I:%M %p on %d %B, %Y"  # "1:56 pm on 8 May, 2023"
_IMAGE_LINE = re.compile(r"^\[Image\s*#\s*(\d+)\s*[:\-]?\s*(.*?)\]\s*$", re.IGNORECASE)
_SESSION_LINE = re.compile(r"^##\s*Session\s+(.+?)\s*(?:\|\s*(.+?))?\s*$", re.IGNORECASE)
_TURN_LINE = re.compile(r"^([^:\[\]]{1,80}?):\s*(.*)$")


class TranscriptError(PerceptionError):
    """A transcript that cannot be read; `line` is 1-based (0 when the file as a whole is wrong)."""

    def __init__(self, path: str | Path, reason: str, line: int = 0):
        self.line = line
        super().__init__(f"{path}:{line}" if line else path, reason)


@dataclass(frozen=True)
class Turn:
    speaker: str
    text: str
    time: datetime
    ref: str | None = None  # the source's id for the turn ("D1:3", "line 12"), cited as evidence
    image: str | None = None  # caption of an image shared with the turn
    image_index: int | None = None  # its 0-based index over the whole conversation


@dataclass(frozen=True)
class Session:
    index: int  # 1-based, in order
    start: datetime
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Dialogue:
    dialogue_id: str  # stable for the same content: re-ingesting replaces, never duplicates
    source: str  # the file's name, for messages
    sessions: tuple[Session, ...]

    @property
    def speakers(self) -> list[str]:
        return list(dict.fromkeys(t.speaker for s in self.sessions for t in s.turns))

    @property
    def turns(self) -> list[Turn]:
        return [t for s in self.sessions for t in s.turns]


TRANSCRIPT_SUFFIXES = (".json", ".jsonl", ".txt")


def is_transcript(path: str | Path) -> bool:
    return Path(path).suffix.lower() in TRANSCRIPT_SUFFIXES


def read_transcript(path: str | Path, start: datetime | None = None) -> list[Dialogue]:
    """Every conversation in the file. `start` places a thread that carries no times."""
    path = Path(path).expanduser()
    if not path.is_file():
        raise TranscriptError(path, "no such file")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise TranscriptError(path, f"not UTF-8 text (byte {exc.start})") from exc
    if not text.strip():
        raise TranscriptError(path, "the file is empty")
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        dialogues = [_read_chat(path, text)]
    elif suffix == ".json":
        dialogues = _read_locomo(path, text)
    elif suffix == ".txt":
        dialogues = [_read_thread(path, text, start)]
    else:
        raise TranscriptError(path, f"unknown transcript format {suffix!r} (expected {', '.join(TRANSCRIPT_SUFFIXES)})")
    for dialogue in dialogues:
        if not dialogue.turns:
            raise TranscriptError(path, f"conversation {dialogue.dialogue_id} has no turns")
    return dialogues


def _content_id(prefix: str, payload: str) -> str:
    return f"{prefix}-{hashlib.sha256(payload.encode()).hexdigest()[:16]}"


# ---- LoCoMo -----------------------------------------------------------------------------
def _read_locomo(path: Path, text: str) -> list[Dialogue]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TranscriptError(path, f"not valid JSON: {exc.msg}", exc.lineno) from exc
    samples = data if isinstance(data, list) else [data]
    dialogues = []
    for n, sample in enumerate(samples):
        conversation = sample.get("conversation") if isinstance(sample, dict) else None
        if not isinstance(conversation, dict):
            raise TranscriptError(path, f"sample {n} has no 'conversation' object (LoCoMo format)")
        where = f"sample {n} ({sample.get('sample_id', 'no sample_id')})"
        dialogues.append(Dialogue(
            dialogue_id=str(sample.get("sample_id") or _content_id("conv", json.dumps(conversation, sort_keys=True))),
            source=path.name, sessions=_locomo_sessions(path, conversation, where)))
    return dialogues


def _locomo_sessions(path: Path, conversation: dict, where: str) -> tuple[Session, ...]:
    numbers = sorted(int(k.split("_")[1]) for k in conversation
                     if re.fullmatch(r"session_\d+", k) and isinstance(conversation[k], list))
    sessions, image_index = [], 0
    for number in numbers:
        stamp = conversation.get(f"session_{number}_date_time")
        try:
            begun = datetime.strptime(str(stamp).strip(), _LOCOMO_TIME)
        except ValueError as exc:
            raise TranscriptError(path, f"{where}: session_{number}_date_time {stamp!r} is not a time "
                                        "like '1:56 pm on 8 May, 2023'") from exc
        turns = []
        for i, turn in enumerate(conversation[f"session_{number}"]):
            if not isinstance(turn, dict) or not str(turn.get("speaker") or "").strip() or "text" not in turn:
                raise TranscriptError(path, f"{where}: session_{number} turn {i} needs a speaker and a text")
            caption = turn.get("blip_caption")
            turns.append(Turn(speaker=str(turn["speaker"]).strip(), text=str(turn["text"]).strip(),
                              time=begun + i * TURN_SPACING, ref=turn.get("dia_id"),
                              image=str(caption) if caption else None, image_index=image_index if caption else None))
            image_index += bool(caption)
        sessions.append(Session(len(sessions) + 1, begun, tuple(turns)))
    if not sessions:
        raise TranscriptError(path, f"{where}: no session_N turn lists")
    return tuple(sessions)


# ---- RefMem-Bench thread ------------------------------------------------------------------
def _read_thread(path: Path, text: str, start: datetime | None) -> Dialogue:
    clock = start or datetime.fromtimestamp(path.stat().st_mtime).replace(microsecond=0)
    sessions: list[Session] = []
    turns: list[Turn] = []
    session_start, images = clock, 0

    def close_session() -> None:
        if turns:
            sessions.append(Session(len(sessions) + 1, session_start, tuple(turns)))

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if header := _SESSION_LINE.match(line):
            close_session()
            turns = []
            session_start = _header_time(path, number, header.group(2)) or (
                (sessions[-1].turns[-1].time + timedelta(days=1)) if sessions else clock)
            continue
        now = session_start + len(turns) * TURN_SPACING
        if image := _IMAGE_LINE.match(line):
            index = int(image.group(1))
            if index != images:
                raise TranscriptError(path, f"image #{index} where #{images} comes next (indexes are 0-based "
                                            "over the whole thread)", number)
            images += 1
            caption = image.group(2).strip() or "an image"
            if turns and turns[-1].image is None:  # shared with the turn before it
                turns[-1] = Turn(turns[-1].speaker, turns[-1].text, turns[-1].time, turns[-1].ref, caption, index)
            else:
                turns.append(Turn(turns[-1].speaker if turns else "someone", "", now, f"line {number}", caption, index))
            continue
        if not (turn := _TURN_LINE.match(line)) or not turn.group(1).strip():
            raise TranscriptError(path, f"expected 'Speaker: text', '[Image #N caption]' or '## Session ...', "
                                        f"got {line[:60]!r}", number)
        turns.append(Turn(turn.group(1).strip(), turn.group(2).strip(), now, f"line {number}"))
    close_session()
    return Dialogue(_content_id("thread", text), path.name, tuple(sessions))


def _header_time(path: Path, number: int, value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value.strip()).replace(tzinfo=None)
    except ValueError as exc:
        raise TranscriptError(path, f"session time {value!r} is not ISO 8601", number) from exc


# ---- JSONL chat export --------------------------------------------------------------------
def _read_chat(path: Path, text: str) -> Dialogue:
    rows = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            row = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise TranscriptError(path, f"not a JSON object: {exc.msg}", number) from exc
        if not isinstance(row, dict):
            raise TranscriptError(path, "each line must be a JSON object", number)
        missing = [k for k in ("speaker", "time") if not str(row.get(k) or "").strip()]
        if not str(row.get("text") or "").strip() and not row.get("image_caption"):
            missing.append("text")
        if missing:
            raise TranscriptError(path, f"missing {', '.join(missing)}", number)
        try:
            when = datetime.fromisoformat(str(row["time"])).replace(tzinfo=None)
        except ValueError as exc:
            raise TranscriptError(path, f"time {row['time']!r} is not ISO 8601", number) from exc
        rows.append((number, row, when))
    sessions: list[Session] = []
    turns: list[Turn] = []
    label, images = None, 0
    for number, row, when in sorted(rows, key=lambda r: r[2]):
        new_label = row.get("session")
        if turns and ((new_label is not None and new_label != label) or
                      (new_label is None and when - turns[-1].time > SESSION_GAP)):
            sessions.append(Session(len(sessions) + 1, turns[0].time, tuple(turns)))
            turns = []
        label = new_label
        caption = row.get("image_caption") or None
        turns.append(Turn(str(row["speaker"]).strip(), str(row.get("text") or "").strip(), when,
                          str(row.get("id") or f"line {number}"), caption, images if caption else None))
        images += bool(caption)
    if turns:
        sessions.append(Session(len(sessions) + 1, turns[0].time, tuple(turns)))
    return Dialogue(_content_id("chat", text), path.name, tuple(sessions))
