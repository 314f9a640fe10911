"""Questions about composed videos (M3Eval's split screen, concatenation, interleaving and
N-Back) answered over the perceived source map: every caption is attributed to the stream
that showed it, so an option that only the other video shows loses (source confusion,
intrusions), a premise that no stream shows is refused (false memory), order is the order
of first appearance within the target stream, and N-Back compares two clips' symbols."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from difflib import SequenceMatcher

from agent.compose import abstain_options
from agent.question_nlp import SpacyPipeline, without_address
from agent.state import AgentAnswer, Evidence
from memory.language import normalise, ordinal_of
from memory.records import MemoryRecord
from memory.tracks import StoredTrack, TrackStore
from skills.m3eval.questions import (
    KindRecogniser,
    SourceQuestion,
    nback_slots,
    read_fast,
    stream_words,
    verb_candidates,
)
from skills.m3eval.sources import SourceMap, SourceText

_ARTICLES = {"the", "a", "an"}
_COMMON = {"is", "are", "was", "and", "with", "his", "her", "their", "its", "to", "of", "in", "on", "at"}
TRACK = "sources"  # the kind memory keeps the source-tracking stage's output under
SAME_TEXT = 0.86  # similarity above which two OCR reads are the same text


def _ratio(a: str, b: str) -> float:
    return SequenceMatcher(None, a, b).ratio() if a and b else 0.0


def similarity(a: str, b: str) -> float:
    """Character similarity ignoring case, punctuation and spacing (OCR drops spaces); when
    both have the same number of words, also the worst word pair, so captions that differ
    in one word ("grates" / "washes the potato") stay apart."""
    wa, wb = normalise(a).split(), normalise(b).split()
    whole = _ratio("".join(wa), "".join(wb))
    if len(wa) == len(wb) and len(wa) > 1:
        return min(whole, min(_ratio(x, y) for x, y in zip(wa, wb)))
    return whole


@dataclass
class Line:
    """One distinct text a stream showed: its reads merged, first seen at `t`."""

    text: str
    stream: int
    t: float
    times: list[float] = field(default_factory=list)
    y: float = 0.5


def distinct_lines(texts: list[SourceText]) -> list[Line]:
    """Reads merged per stream by fuzzy equality, in order of first appearance."""
    lines: list[Line] = []
    for x in sorted(texts, key=lambda x: x.t):
        same = next((ln for ln in lines if ln.stream == x.stream and similarity(ln.text, x.text) >= SAME_TEXT), None)
        if same is None:
            lines.append(Line(x.text, x.stream, x.t, [x.t], x.y))
        else:
            same.times.append(x.t)
    return lines


def verb_forms(verb: str) -> set[str]:
    v = verb.lower()
    forms = {v, v + "s", v + "es"}
    if v.endswith("y"):
        forms.add(v[:-1] + "ies")
    if v.endswith("ies"):
        forms.add(v[:-3] + "y")
    if v.endswith("es"):
        forms.add(v[:-2])
    if v.endswith("s"):
        forms.add(v[:-1])
    return forms


def object_after(text: str, verb: str) -> str | None:
    """The object of `verb` in a caption like "the chef slices the tomato" -> "tomato"."""
    words = normalise(text).split()
    forms = verb_forms(verb)
    for i, w in enumerate(words[1:], 1):
        if w in forms or (len(w) >= 6 and max(SequenceMatcher(None, w, f).ratio() for f in forms) >= 0.9):
            rest = [x for x in words[i + 1:] if x not in _ARTICLES]
            return " ".join(rest) if rest else None
    return None


def target_stream(smap: SourceMap, target: str) -> int | None:
    """'the left video' / 'the video that starts on the right' -> the stream shown there at
    the start; 'the first video' / 'the second story' -> order of first appearance."""
    words = normalise(target).split()
    for side in ("left", "right"):
        if side in words:
            first = min((s for s in smap.segments if s.region == side), key=lambda s: s.start, default=None)
            return first.stream if first is not None else None
    streams = smap.streams
    for w in words:
        if (n := ordinal_of(w)) is not None:
            return streams[n - 1] if n <= len(streams) else None
    numbers = [int(w) for w in words if w.isdigit()]
    if numbers and 0 < numbers[0] <= len(streams):
        return streams[numbers[0] - 1]
    return streams[0] if len(streams) == 1 else None


@dataclass
class Solution:
    scores: list[float]
    lines: list[Line]  # evidence: the lines the choice rests on
    note: str
    value: str = ""  # the answer in words, when there are no options


class SourceAnswerer:
    """The M3Eval skill's answerer: answers questions about a composed video (M3Eval's forms, or
    the same questions in other words) over the namespace's latest source map; anything
    else (or a namespace without one) is left to the main graph. Without an embedder only
    the M3Eval wording is recognised."""

    name = "sources"

    def __init__(self, tracks: TrackStore, embedder=None, nlp=None):
        self.tracks = tracks
        self.recogniser = KindRecogniser(embedder) if embedder is not None else None
        self.nlp = nlp or SpacyPipeline()  # loads its model on first use

    def read(self, question: str, smap: SourceMap) -> SourceQuestion | None:
        """The question's kind and slots, by its wording when it is M3Eval's, else by meaning."""
        fast = read_fast(question)
        if fast is not None:
            return fast
        if self.recogniser is None:
            return None
        actors = {w for w in shared_words(distinct_lines(smap.texts)) if len(w) > 2 and w not in _COMMON}
        doc = without_address(self.nlp, question)
        recognised = self.recogniser.recognise(doc.text, actors)
        if recognised is None:
            return None
        kind, cosine = recognised
        if kind == "nback":
            slots = nback_slots(question, len(smap.sequence()))
            return SourceQuestion(kind, k=slots[0], n=slots[1], attr=slots[2], how="meaning",
                                  similarity=cosine) if slots else None
        asked = SourceQuestion(kind, target=stream_words(question), how="meaning", similarity=cosine)
        if kind == "what":
            asked.verbs = verb_candidates(doc, set(normalise(asked.target).split()))
            if not asked.verbs:
                return None
        return asked

    def answer(self, question: str, namespace: str, at: datetime | None,
               options: list[str] | None) -> AgentAnswer | None:
        if self.recogniser is None and read_fast(question) is None:
            return None
        stored = self.tracks.get(namespace, TRACK, before=at)
        if not stored:
            return None
        track = stored[-1]
        smap = SourceMap.from_dict(track.payload)
        if at is not None:
            until = (at - track.wall_start).total_seconds()
            smap.texts = [x for x in smap.texts if x.t <= until]
        asked = self.read(question, smap)
        if asked is None:
            return None
        opts = list(options or [])
        solved = solve(asked, smap, opts)
        if solved is None:
            return None
        evidence = [_evidence(track, namespace, ln) for ln in solved.lines[:6]]
        trace = [f"sources: {asked.kind} (by {asked.how}) on {smap.layout} ({len(smap.streams)} streams): "
                 f"{solved.note}"]
        if not opts:
            return AgentAnswer(question, solved.value or solved.note, not solved.value, 0.9 if solved.value else 0.0,
                               asked.similarity if solved.value else 0.0, "sources", evidence, trace=trace)
        best = max(range(len(opts)), key=lambda i: solved.scores[i])
        ranked = sorted(solved.scores, reverse=True)
        margin = ranked[0] - (ranked[1] if len(ranked) > 1 else 0.0)
        confidence = max(0.0, min(1.0, 0.5 + margin))
        return AgentAnswer(question, opts[best], False, confidence, asked.similarity, "sources", evidence,
                           solved.scores, best, trace)


def solve(asked: SourceQuestion, smap: SourceMap, options: list[str]) -> Solution | None:
    """Option scores (all options, for MRR) for one recognised question over a source map."""
    if asked.kind == "nback":
        return _nback(asked, smap, options)
    stream = target_stream(smap, asked.target)
    if stream is None:
        return None
    lines = distinct_lines(smap.texts)
    mine = [ln for ln in lines if ln.stream == stream]
    others = [ln for ln in lines if ln.stream != stream]
    if asked.kind == "which":
        return _which(mine, others, options)
    if asked.kind == "order":
        return _order(mine, options)
    return _what(grounded_verb(asked.verbs, mine, lines), mine, others, options)


def shared_words(lines: list[Line]) -> set[str]:
    """Words most captions share: the actor ("the chef ..."), never the deed or the thing."""
    counts: dict[str, int] = {}
    for ln in lines:
        for w in set(normalise(ln.text).split()) - _ARTICLES:
            counts[w] = counts.get(w, 0) + 1
    return {w for w, c in counts.items() if c >= max(2, len(lines) / 2)}


def grounded_verb(candidates: list[str], mine: list[Line], lines: list[Line]) -> str:
    """The candidate a caption of the target (else of any stream) uses as a verb; else the
    likeliest by syntax (a verb no stream shows: a false premise). The actor, a word most
    captions share, is never the verb."""
    shared = shared_words(lines)
    usable = [c for c in candidates if c not in shared]
    for pool in (mine, lines):
        hit = next((c for c in usable if any(object_after(ln.text, c) for ln in pool)), None)
        if hit is not None:
            return hit
    return usable[0] if usable else candidates[0]


def _best(text: str, lines: list[Line]) -> tuple[float, Line | None]:
    scored = [(similarity(text, ln.text), ln) for ln in lines]
    return max(scored, key=lambda p: p[0], default=(0.0, None))


def _which(mine: list[Line], others: list[Line], options: list[str]) -> Solution:
    """An option the target showed wins; one that matches the other stream better than the
    target is pushed down by the difference (it is the other video's content)."""
    scores, used = [], []
    for option in options:
        own, line = _best(option, mine)
        other, _ = _best(option, others)
        scores.append(own - max(0.0, other - own))
        used.append(line)
    best = max(range(len(options)), key=lambda i: scores[i]) if options else -1
    lines = [used[best]] if best >= 0 and used[best] is not None else []
    return Solution(scores, lines, f"best caption match {scores[best]:.2f}" if best >= 0 else "no options",
                    lines[0].text if lines else "")


def _order(mine: list[Line], options: list[str]) -> Solution:
    """Each option's events are located in the target stream (first appearance); the score
    is the share of consecutive pairs in time order, weighted by how well they matched."""
    scores, evidence = [], []
    for option in options:
        parts = [p for p in re.split(r",?\s*\bthen\b\s*,?\s*", option.strip().rstrip(".")) if p.strip()]
        found = [_best(p, mine) for p in parts]
        times = [ln.t if ln is not None else float("inf") for _, ln in found]
        pairs = list(zip(times, times[1:]))
        ordered = sum(a < b for a, b in pairs) / len(pairs) if pairs else 0.0
        quality = sum(s for s, _ in found) / len(found) if found else 0.0
        scores.append(ordered * quality)
        evidence.append([ln for _, ln in found if ln is not None])
    best = max(range(len(options)), key=lambda i: scores[i]) if options else -1
    lines = evidence[best] if best >= 0 else []
    return Solution(scores, lines, "first appearances " + ", ".join(f"{ln.t:.1f}s" for ln in lines),
                    ", then ".join(ln.text for ln in lines))


def _what(verb: str, mine: list[Line], others: list[Line], options: list[str]) -> Solution:
    """The object of `verb` in the target stream. A verb no stream shows is a false memory:
    the abstaining option wins; so does a verb only the other stream shows (an intrusion)."""
    found = [(o, ln) for ln in mine if (o := object_after(ln.text, verb))]
    elsewhere = [(o, ln) for ln in others if (o := object_after(ln.text, verb))]
    refusing = abstain_options(options)
    abstain = [i in refusing for i in range(len(options))]
    if found:
        scores = [0.0 if a else max(similarity(_strip(o), obj) for obj, _ in found) for o, a in zip(options, abstain)]
        obj, line = found[0]
        return Solution(scores, [ln for _, ln in found], f"'{verb}' -> '{obj}' at {line.t:.1f}s", f"the {obj}")
    if any(abstain):
        why = f"'{verb}' only in another stream" if elsewhere else f"'{verb}' in no stream"
        checked = [ln for _, ln in elsewhere] or [ln for ln in mine if ln.y >= 0.5]  # what the target did show
        return Solution([1.0 if a else 0.0 for a in abstain], checked, why,
                        "Not in either video")
    # The verb was not read (an OCR miss): prefer objects the target showed, never the other's.
    mine_objs = [w for ln in mine for w in normalise(ln.text).split()]
    other_objs = [w for ln in others for w in normalise(ln.text).split()]
    scores = []
    for option in options:
        obj = _strip(option)
        own = max((similarity(obj, w) for w in mine_objs), default=0.0)
        other = max((similarity(obj, w) for w in other_objs), default=0.0)
        scores.append(0.5 * own - 0.5 * max(0.0, other - own) + 0.1)
    return Solution(scores, [], f"'{verb}' not read; guessed from the target's words", "")


def _strip(option: str) -> str:
    return " ".join(w for w in normalise(option).split() if w not in _ARTICLES)


def clip_windows(smap: SourceMap, k: int) -> list[tuple[float, float]]:
    """The K clips: the perceived cuts when they count K, else K equal parts."""
    seq = smap.sequence()
    if len(seq) == k:
        return [(s.start, s.end) for s in seq]
    step = smap.duration / k if smap.duration else 0.0
    return [(i * step, (i + 1) * step) for i in range(k)]


def clip_symbol(texts: list[SourceText], window: tuple[float, float], attr: str) -> tuple[str, list[SourceText]]:
    """A clip's scene (the sign near the top) or action (the caption's words after "is")."""
    inside = [x for x in texts if window[0] <= x.t < window[1]]
    if attr == "scene":
        signs = sorted((x for x in inside if x.y < 0.4), key=lambda x: -x.confidence)
        return (normalise(signs[0].text), signs[:1]) if signs else ("", [])
    for x in sorted(inside, key=lambda x: -x.y):
        words = normalise(x.text).split()
        if "is" in words and words.index("is") < len(words) - 1:
            return " ".join(words[words.index("is") + 1:]), [x]
    captions = [x for x in inside if x.y >= 0.6]
    return (normalise(captions[0].text), captions[:1]) if captions else ("", [])


def _nback(asked: SourceQuestion, smap: SourceMap, options: list[str]) -> Solution | None:
    k, n, attr = asked.k, asked.n, asked.attr
    if k is None or n is None or not 0 < n < k:
        return None
    windows = clip_windows(smap, k)
    last, back = (clip_symbol(smap.texts, windows[i], attr) for i in (k - 1, k - 1 - n))
    if not last[0] or not back[0]:
        same, note = None, f"clip {k} or clip {k - n} shows no {attr} text"
    else:
        same = similarity(last[0], back[0]) >= SAME_TEXT
        note = f"clip {k} {attr} '{last[0]}' vs clip {k - n} '{back[0]}'"
    value = "" if same is None else ("Yes" if same else "No")
    scores = []
    for option in options:
        word = normalise(option).split()[:1]
        if same is None:
            scores.append(0.5)
        else:
            scores.append(1.0 if word == [value.lower()] else 0.0)
    lines = [Line(x.text, x.stream, x.t, [x.t], x.y) for x in back[1] + last[1]]
    return Solution(scores, lines, note, value)


def _evidence(track: StoredTrack, namespace: str, line: Line) -> Evidence:
    start, end = line.t, max(line.times or [line.t])
    record = MemoryRecord(
        store="event", kind="sources", namespace=namespace, video_id=track.video_id,
        text=f"stream {line.stream} showed '{line.text}'", start=start, end=end,
        wall_start=track.wall(start), wall_end=track.wall(end), keyframes=sorted(set(line.times))[:8],
        attrs={"stream": line.stream},
    )
    return Evidence(record, 1.0, "source map")
