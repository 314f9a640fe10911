"""One record per recording, saying what it was: audio or video, how long, who spoke and how
much, what was shown and seen. People refer to a recording by what it was ("the call",
"that talk", "the film this morning"), not by its time: this record is what such a phrase is
resolved against (agent.scope), and the day summary lists a day's recordings through it.

What a recording "was" is read from measurable facts, never from its content's vocabulary:
sound only with two or more voices is a call or a conversation; one voice holding the floor
of a video is a talk; a video with titles and little speech is a film or a show; a single
picture is a photo. Each
recording gets every word of its sort, so a question's noun meets it whichever word is used.
"""
from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from memory.captions import Summarizer, extractive_summary
from memory.records import (
    DAY_SUMMARY,
    ENTITY_SIGHTING,
    RECORDING,
    TEXT_SIGHTING,
    UTTERANCE,
    MemoryRecord,
    order_by_time,
)

# The words people use for each sort of recording. A sort is chosen from the facts below.
SORTS: dict[str, tuple[str, ...]] = {
    "call": ("call", "phone call", "conversation", "chat"),
    # one voice and no pictures: a note, a message left or heard on a phone (a company's menu), a broadcast
    "voice": ("voice note", "voice message", "phone message", "radio", "podcast", "audiobook", "talk", "speech",
              "lecture", "reading"),
    "sound": ("sound", "music", "noise"),
    "talk": ("talk", "lecture", "presentation", "speech", "keynote", "sermon"),
    "conversation": ("conversation", "meeting", "interview", "discussion", "chat", "call"),
    "film": ("film", "movie", "trailer", "show", "cartoon", "programme", "program"),
    "scene": ("scene", "walk", "view"),
    "photo": ("photo", "picture", "photograph", "snapshot", "image", "shot"),
}
MEDIUM_WORDS = {"audio": ("audio", "recording", "audio recording"), "video": ("video", "recording", "clip", "footage"),
                "photo": ("photo", "picture", "image")}
# Every word any recording may be called by: a question naming one of these refers to a recording.
RECORDING_WORDS = frozenset(w for words in (*SORTS.values(), *MEDIUM_WORDS.values()) for w in words)
GENERIC_WORDS = frozenset(w for words in MEDIUM_WORDS.values() for w in words)


def recording_words(sort: str, medium: str) -> tuple[str, ...]:
    """What a recording of this sort and medium may be called, its sort's words first. Read
    when a question is asked, so a memory ingested before a word was added answers to it."""
    return tuple(dict.fromkeys((*SORTS.get(sort, ()), *MEDIUM_WORDS.get(medium, ()))))

TALK_SHARE = 0.4  # of a video's time with speech, for one voice to be giving a talk
FLOOR = 0.75  # of the speech, in the main voice's mouth, for it to be a talk and not a conversation
TITLED = 0.2  # speech share under which a video with titles is a film or show
TITLES = 3  # distinct on-screen lines for a video to have titles (a word or two on a mug is not)


@dataclass(frozen=True)
class RecordingFacts:
    medium: str  # "audio" (no pictures), "video" or "photo" (one picture)
    seconds: float
    voices: tuple[tuple[str, float], ...]  # (who, seconds spoken), most first
    texts: tuple[str, ...]  # on-screen lines, first seen first
    things: tuple[str, ...]  # what was seen most, most first
    people: tuple[str, ...]  # faces known by name
    places: tuple[str, ...] = ()  # where the wearer was, first first

    @property
    def speech_share(self) -> float:
        return min(1.0, sum(s for _, s in self.voices) / self.seconds) if self.seconds > 0 else 0.0

    @property
    def sort(self) -> str:
        spoken = sum(s for _, s in self.voices)
        main = self.voices[0][1] / spoken if spoken else 0.0
        if self.medium == "photo":
            return "photo"
        if self.medium == "audio":
            return "call" if len(self.voices) >= 2 else "voice" if self.voices else "sound"
        if self.speech_share >= TALK_SHARE and main >= FLOOR:
            return "talk"
        if self.speech_share >= TITLED and len(self.voices) >= 2:
            return "conversation"
        return "film" if len(self.texts) >= TITLES else "scene"

    @property
    def words(self) -> tuple[str, ...]:
        return recording_words(self.sort, self.medium)


def recording_facts(records: Sequence[MemoryRecord], seconds: float, has_pictures: bool,
                    still: bool = False) -> RecordingFacts:
    spoken: Counter[str] = Counter()
    for r in records:
        if r.kind == UTTERANCE:
            spoken[r.text.split(":", 1)[0]] += max(0.0, r.end - r.start)
    seen = Counter(r.attrs.get("name") or r.attrs.get("label") for r in records
                   if r.kind == ENTITY_SIGHTING and r.attrs.get("source") != "face")
    faces = [r.attrs["name"] for r in records
             if r.kind == ENTITY_SIGHTING and r.attrs.get("source") == "face" and r.attrs.get("name")]
    in_order = sorted(records, key=lambda r: r.start)
    texts = [r.attrs["line"] for r in in_order if r.kind == TEXT_SIGHTING]
    places = [r.attrs["place"] for r in in_order if r.attrs.get("place")]
    return RecordingFacts("photo" if still else "video" if has_pictures else "audio", seconds,
                          tuple((who, round(s, 1)) for who, s in spoken.most_common()),
                          tuple(dict.fromkeys(texts)), tuple(t for t, _ in seen.most_common() if t),
                          tuple(dict.fromkeys(faces)), tuple(dict.fromkeys(places)))


def recording_text(facts: RecordingFacts, start: datetime, first_words: str = "") -> str:
    """The record's words: when, its sort in the words people use for it, then its facts."""
    minutes = facts.seconds / 60
    length = f"{minutes:.0f} min" if minutes >= 1.5 else f"{facts.seconds:.0f} s"
    end = start + timedelta(seconds=facts.seconds)
    if facts.medium == "photo":
        parts = [f"At {start:%H:%M}, a " + " or ".join(SORTS[facts.sort][:3])]
    else:
        parts = [f"From {start:%H:%M} to {end:%H:%M}, {facts.medium} recording of {length}: "
                 + " or ".join(SORTS[facts.sort][:3])]
    if facts.voices:
        parts.append("voices: " + ", ".join(who for who, _ in facts.voices[:4])
                     + f" (speech {facts.speech_share:.0%} of the time)")
    if facts.places:
        parts.append("in the " + ", then the ".join(facts.places[:3]))
    if facts.people:
        parts.append("people seen: " + ", ".join(facts.people[:4]))
    if facts.texts:
        parts.append("shown: " + "; ".join(f'"{t}"' for t in facts.texts[:4]))
    if facts.things:
        parts.append("seen: " + ", ".join(facts.things[:5]))
    if first_words:
        parts.append(f'began "{first_words}"')
    return ". ".join(parts) + "."


def recording_record(records: Sequence[MemoryRecord], wall_start: datetime, seconds: float,
                     has_pictures: bool, path: str = "", still: bool = False) -> MemoryRecord | None:
    """The recording record for one source's records (None when it left none); `path`, the
    file it was read from, lets a person see the moment again (keyframes, the clip); `still`:
    the source was a photo."""
    placed = sorted((r for r in records if r.kind != RECORDING), key=lambda r: r.start)
    if not placed:
        return None
    facts = recording_facts(placed, seconds, has_pictures, still)
    opening = next((r.attrs.get("said", "") for r in placed if r.kind == UTTERANCE), "")
    return MemoryRecord(
        store="event", kind=RECORDING, namespace=placed[0].namespace,
        text=recording_text(facts, wall_start, " ".join(opening.split()[:12])),
        wall_start=wall_start, wall_end=wall_start + timedelta(seconds=seconds), video_id=placed[0].video_id,
        start=0.0, end=seconds, attrs={
            "medium": facts.medium, "sort": facts.sort, "words": list(facts.words),
            "voices": [who for who, _ in facts.voices], "speech_share": round(facts.speech_share, 3),
            "places": list(facts.places), "place": None, "path": path})


def remembered(summarize: Summarizer | None) -> Summarizer:
    """`summarize` (extractive when None) answering the same lines from what it said before."""
    said: dict[tuple[str, ...], str] = {}

    def again(lines: Sequence[str]) -> str:
        key = tuple(lines)
        if key not in said:
            said[key] = (summarize or extractive_summary)(lines)
        return said[key]
    return again


DAY_SOURCE = "day:"  # + the ISO date: the source id of a day's summaries, which no one recording owns


def day_summaries(recordings: Sequence[MemoryRecord], summarize: Summarizer | None = None,
                  held: Sequence[MemoryRecord] = ()) -> tuple[list[MemoryRecord], list[MemoryRecord]]:
    """One day's summaries (one namespace): after each recording, the day so far over every
    recording until then, so a question at any time reads the day as it stood, never what came
    later. Returns (to add, to delete) against the `held` summaries of that day: a summary whose
    recordings did not change is kept, so a new recording costs one summary, not a day's."""
    ordered = order_by_time(recordings)
    if not ordered:
        return [], list(held)
    midnight = datetime.combine(ordered[0].wall_start.date(), datetime.min.time())
    kept = {r.attrs.get("digest"): r for r in held}
    fresh = []
    for n in range(1, len(ordered) + 1):
        lines = [r.text for r in ordered[:n]]
        digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]
        if kept.pop(digest, None) is not None:
            continue
        places = list(dict.fromkeys(p for r in ordered[:n] for p in r.attrs.get("places", [])))
        fresh.append(MemoryRecord(
            store="event", kind=DAY_SUMMARY, namespace=ordered[0].namespace,
            text=f"Day {midnight:%Y-%m-%d}: {n} recording{'s' if n > 1 else ''}, places "
                 + (", ".join(places) or "unknown") + ". " + (summarize or extractive_summary)(lines),
            wall_start=max(ordered[0].wall_start, midnight),
            wall_end=min(max(r.wall_end for r in ordered[:n]), midnight + timedelta(days=1)),
            video_id=DAY_SOURCE + midnight.date().isoformat(), attrs={"places": places, "recordings": n, "digest": digest}))
    return fresh, list(kept.values())
