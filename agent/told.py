"""How a record's words are told: who said them or that they were read, as written (a code
keeps its capitals), as the parser reads them best, and a speaker's first person told from
outside ("my aunt", said by Maria, is "Maria's aunt")."""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from agent.plan import WEARER
from agent.tools.talk import speaker_of
from memory.builder import spelled_out
from memory.conversation import opens_a_correction
from memory.language import first_number, may_name_a_date
from memory.records import TEXT_SIGHTING, UTTERANCE, MemoryRecord

CONTINUED = 2.0  # seconds between one speaker's turns that may be one sentence cut at a pause
CONTINUED_TURNS = 2  # turns a sentence may run on into, either side
_ENDS = (".", "!", "?", "\"", "…")
MOSTLY_CAPITALS = re.compile(r"^[^a-z]*$")
ACRONYM = 3  # a line of one word in capitals this short stays in capitals (an acronym: "BBC", "IBM")


def as_written(text: str, record: MemoryRecord) -> str:
    """A span as the record wrote it (a code read off a sign keeps its capitals: "AB12CD")."""
    written = " ".join([record.text, *record.attrs.get("block", ())])
    found = re.search(re.escape(text), written, re.IGNORECASE)
    return found[0] if found else text


def how_told(record: MemoryRecord) -> str:
    """How a record's words came: "Sheila said", "read", or "" for what was seen."""
    if record.kind == UTTERANCE:
        return f"{speaker_of(record)} said"
    return "read" if record.kind == TEXT_SIGHTING else ""


def prepared(record, spell: bool = True) -> str:
    """The words a record contributes, as the parser reads them best: an utterance without
    its speaker, a sign in capitals in title case (spaCy's entities need case), its acronyms
    kept, and its run-together words spelled out unless `spell` is off (a code: "AB12CD")."""
    if record.kind == UTTERANCE:
        text = record.attrs.get("said") or record.text
    elif record.kind == TEXT_SIGHTING:  # each line of the block
        text = ". ".join((spelled_out(line) if spell else None) or line for line in record.attrs.get("block") or
                         [record.attrs.get("line", record.text)])
    else:
        text = record.text
    if not (MOSTLY_CAPITALS.match(text) and any(c.isalpha() for c in text)):
        return text
    # in title case, but a line of one short word in capitals is an acronym, a logo ("BBC" is no "Bbc")
    return ". ".join(line if len(line.strip(" .")) <= ACRONYM else line.title() for line in text.split(". "))


def as_said_by(text: str, record: MemoryRecord) -> str:
    """A span in its speaker's first person told from outside: "my aunt", said by Maria, is
    "Maria's aunt"; said by the wearer, "your aunt"."""
    first, _, rest = text.partition(" ")
    speaker = record.attrs.get("speaker_name") if record.kind == UTTERANCE else None
    if not (speaker and rest and first.lower() in ("my", "our")):
        return text
    return f"your {rest}" if speaker == WEARER or record.attrs.get("is_wearer") else f"{speaker}'s {rest}"


def sentence_of(record: MemoryRecord, around: Callable[[MemoryRecord], Sequence[MemoryRecord]] | None,
                spell: bool = True) -> str:
    """A spoken line with the rest of its sentence. Speech recognition cuts a sentence at
    a pause ("I've worked for nearly ten years" / "as a nurse in the city"), and
    diarisation may give its halves to two voices; the turns right before a line that
    starts mid-sentence (in lower case), and right after one that stops mid-sentence (the
    same voice going on, or any voice going on in lower case), are read with it; so is the
    same voice's next turn when it corrects the line ("We close at 6." / "No, sorry, at 5")."""
    text = prepared(record, spell)
    whole = not text[:1].islower() and text.rstrip().endswith(_ENDS)
    if record.kind != UTTERANCE or around is None or whole and not (may_name_a_date(text) or first_number(text) is not None):
        return text  # a whole sentence with no value a correction would change: no neighbour is asked for
    turns = sorted((r for r in around(record) if r.kind == UTTERANCE), key=lambda r: r.wall_start)
    before = [r for r in turns if r.wall_start < record.wall_start][::-1][:CONTINUED_TURNS]
    after = [r for r in turns if r.wall_start > record.wall_start][:CONTINUED_TURNS]
    lines, first, last = [text], record, record
    for turn in before:
        said = prepared(turn)
        if not lines[0][:1].islower() or said.rstrip().endswith(_ENDS) or \
                (first.wall_start - turn.wall_end).total_seconds() > CONTINUED:
            break
        lines.insert(0, said)
        first = turn
    for turn in after:
        said = prepared(turn)
        if (turn.wall_start - last.wall_end).total_seconds() > CONTINUED or not (
                speaker_of(turn) == speaker_of(last) and opens_a_correction(said) or
                not lines[-1].rstrip().endswith(_ENDS) and (speaker_of(turn) == speaker_of(last) or said[:1].islower())):
            break
        lines.append(said)
        last = turn
    return " ".join(line.strip() for line in lines)
