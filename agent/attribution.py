"""Who a line is by or about: its speaker, a name it speaks of, or a name only called out to
("Thanks, Tim!"), who is the listener. Inside a caption or segment that strings turns
together, the turn a sentence sits in decides, not the whole caption."""
from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import replace

from rapidfuzz import fuzz

from memory.records import UTTERANCE, MemoryRecord

_GREETING = r"(?:hey|hi|hello|thanks|thank you|congrats|congratulations|wow|oh|yeah|yes|sure|bye|dear|sorry)"


def about(record: MemoryRecord, people: Collection[str]) -> bool:
    """Whether a record is by one of these people (lower-case names) or speaks of them; a
    name only called out to ("Thanks, Tim!", "Hey Tim,") is the listener: what the line says
    is the speaker's own ("Hey Tim, I scored 40 points" is not about Tim's points)."""
    by = (record.attrs.get("speaker_name") or "").lower()
    said = (record.attrs.get("said") or record.text).lower()
    return any(name in by.split() or name == by or spoken_of(said, name) for name in people)


def spoken_of(text: str, name: str) -> bool:
    """Whether a text names someone other than only calling out to them ("Thanks, Tim!")."""
    return any(not called_out(text, m.start(), m.end())
               for m in re.finditer(rf"\b{re.escape(name)}\b", text, re.IGNORECASE))


def called_out(text: str, start: int, end: int) -> bool:
    """Whether the name at text[start:end] is only called out to, set apart by punctuation or
    after a greeting ("Thanks, Tim!", "Hey Tim,"): the listener, not who the line is about."""
    before, after = text[:start].rstrip(), text[end:].lstrip()
    return bool(not before or before[-1] in ",.!?" or re.search(rf"\b{_GREETING}$", before.lower())) and \
        (not after or after[0] in ",.!?")


# A turn's head inside a caption of turns: a name and ":" (or ' said "') at the start, after a
# sentence, or after the bracketed caption of an image the last turn shared.
_TURN_HEAD = re.compile(r"(?:^|[.!?\":\]]\s+)([A-Z][\w'-]*(?: [A-Z][\w'-]*){0,2})(?:: | said \")")


def sentence_speaker(record: MemoryRecord, sentence: str) -> str | None:
    """Who said the sentence a reading came from: the turn's speaker, or, inside a caption or
    a segment that strings turns together ("Ann: ... Bo said \"...\""), the last speaker named
    before it."""
    if record.kind == UTTERANCE:
        return record.attrs.get("speaker_name")
    if (own := _TURN_HEAD.match(sentence)) is not None and own.start(1) == 0:  # "John: We're adopting ..."
        return own.group(1)
    at = record.text.find(sentence[:40])
    heads = list(_TURN_HEAD.finditer(record.text[:at])) if at > 0 else []
    return heads[-1].group(1) if heads else None


def untold(record: MemoryRecord) -> tuple[int, list[int]]:
    """What a caption that strings turns together says of its own rather than tells: the end
    of its heading ("Conversation 11 between Melanie and Caroline on Monday 14 August 2023:",
    said by no one, which dates the turns but tells nothing of them) and where each turn's
    speaker label starts ("Maria: Hey John!"). (0, []) for a record of one line."""
    if record.kind == UTTERANCE:
        return 0, []
    labels = [m.start(1) for m in _TURN_HEAD.finditer(record.text)]
    return (labels[0] if labels else 0), labels


def heading(record: MemoryRecord, sentence: str) -> bool:
    """Whether the sentence is the heading of a caption that strings turns together
    ("Conversation 27 between John and Maria on Thursday ...:"), before any turn: said by no one."""
    return record.kind != UTTERANCE and sentence_speaker(record, sentence) is None and \
        _TURN_HEAD.search(record.text) is not None


def line_about(record: MemoryRecord, sentence: str, people: Collection[str]) -> bool:
    """Whether the line `sentence` of a record is by one of these people (lower-case names) or
    speaks of them, by name or by a pronoun its turn resolves: in a caption of many turns,
    the turn it sits in, not the whole caption."""
    speaker = (sentence_speaker(record, sentence) or "").lower()
    if speaker and any(name == speaker or name in speaker.split() for name in people):
        return True
    line = replace(record, kind=UTTERANCE, attrs={"said": sentence, "speaker_name": speaker})
    if not (speaker or record.kind == UTTERANCE):
        return about(record, people)
    return about(line, people) or any(referred_to(turn_of(record, sentence), sentence, name) for name in people)


def turn_of(record: MemoryRecord, sentence: str) -> str:
    """The turn a sentence sits in: an utterance's words, or inside a caption that strings
    turns together, the words from the last turn head before it to the next."""
    if record.kind == UTTERANCE:
        return record.attrs.get("said") or record.text
    at = max(record.text.find(sentence[:40]), 0)
    heads = list(_TURN_HEAD.finditer(record.text))
    start = max((h.end() for h in heads if h.end() <= at), default=0)
    end = min((h.start() for h in heads if h.start() > at), default=len(record.text))
    return record.text[start:end]


# "you" as the one who does ("you found", "you're"): not "your" (their thing, judged by
# another), nor "you" thanked or after a preposition
_YOU = re.compile(r"(?<!\bthank )(?<!\bto )(?<!\bfor )(?<!\bwith )(?<!\bof )(?<!\babout )\byou\b(?!['’]?s\b)",
                  re.IGNORECASE)
_THIRD_PERSON = re.compile(r"\b(?:he|him|his|she|her|hers|they|them|their)\b", re.IGNORECASE)


def referred_to(turn: str, sentence: str, name: str) -> bool:
    """Whether a sentence speaks of someone by a pronoun its turn resolves: "you" said to the
    one the turn calls out ("Wow, Gina! You found the perfect spot"; a question put to them,
    or "your trip sounds awesome", says what the speaker asks or thinks, not what they did);
    "he" / "she" / "they" after the turn named them ("We had to say goodbye to Max. He was
    part of our family for 10 years")."""
    at = turn.find(sentence[:40])
    names = list(re.finditer(rf"\b{re.escape(name)}\b", turn, re.IGNORECASE))
    if _YOU.search(sentence) and not sentence.rstrip().endswith("?") and \
            any(called_out(turn, m.start(), m.end()) for m in names):
        return True
    return at > 0 and bool(_THIRD_PERSON.search(sentence)) and spoken_of(turn[:at], name)


SHORT_NAME = 3  # the fewest letters a short form of a name has ("Mel" for Melanie, "Sam" for Samantha)
_NOT_PEOPLE = {"DATE", "TIME", "GPE", "LOC", "ORG", "NORP", "FAC", "EVENT", "PRODUCT", "WORK_OF_ART"}
_PLACES = {"GPE", "LOC", "FAC"}  # "Paris" is not a Parisa whose name was heard another way
_NEVER_PEOPLE = {"DATE", "TIME"}  # "in May" is not Maya; the model's other labels miss names it does not know
HEARD_NAME = 4  # the fewest letters of a name compared by its sound-alike spelling
HEARD_ALIKE = 88  # rapidfuzz ratio: "Elena" / "Selena" 91, "Sara" / "Sarah" 89; "Jon" / "John" (86) are two people


def _sound_alike(a: str, b: str) -> bool:
    """Two spellings of one name as speech recognition may write it: nearly the same letters
    ("Elena" / "Selena") or the same consonants in the same order ("Dmitri" / "Demetri"),
    three or more of them ("Tim" / "Tom" are two people)."""
    if fuzz.ratio(a, b) >= HEARD_ALIKE:
        return True
    skeleton_a, skeleton_b = (re.sub(r"[aeiouy]|(.)(?=\1)", "", w) for w in (a, b))
    return skeleton_a == skeleton_b and len(skeleton_a) >= 3


def known_names(question_doc, people: Collection[str]) -> dict[str, str]:
    """The short forms of known people's names a parsed question uses, each with the name it
    stands for ("Mel" -> "Melanie" when Melanie is the only known person whose name begins
    so): the lines are by "Melanie", the question asks about "Mel". A proper noun that names a
    month, a place or a thing is no one's short name ("in May" is not Maya). `people`:
    lower-case names."""
    parts = {p for person in people for p in person.split()}
    found = {}
    for t in question_doc:
        short = t.lower_
        if t.pos_ != "PROPN" or t.ent_type_ in _NEVER_PEOPLE or len(short) < SHORT_NAME or short in parts:
            continue
        longer = {p for p in parts if p.startswith(short) and p != short} if t.ent_type_ not in _NOT_PEOPLE else set()
        # a name speech recognition heard another way: "Elena" introduced herself as "Selena"
        heard = {p for p in parts if len(short) >= HEARD_NAME and t.ent_type_ not in _PLACES and _sound_alike(short, p)}
        if len(longer) == 1 or not longer and len(heard) == 1:
            found[t.text] = next(iter(longer or heard)).capitalize()
    return found
