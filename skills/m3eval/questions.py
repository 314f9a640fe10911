"""Reading a question about a composed video (split screen, concatenation, interleaving,
N-Back) by meaning, for the source answerer (skills/m3eval/answerer.py).

The question's kind comes from the exact M3Eval wording when it is used (a fast path), else
from the nearest of this module's own example questions in sentence-embedding space, with
a floor and the intent classifier's examples of other kinds as competitors, so an ordinary
question ("where did I leave my keys?") is not taken. Slots come by type: the stream asked
about by matching the question against the names the perceived source map can answer to
(its screen sides, its order of appearance), the verb by grounding the question's words in
the captions the map holds (else by syntax), N-Back's K and N from the numbers said.

These examples were written for this recogniser alone; nothing is taken from eval/.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from agent.intents import NearestExamples
from memory.language import NUMBER_WORDS, number_of, ordinal_of, words

WHICH_RE = re.compile(r"which of these (?:happens|happened|occurs) in (?P<target>.+?)\s*\?", re.I)
ORDER_RE = re.compile(r"in (?P<target>.+?),\s*in (?:what|which) order do these (?:happen|occur)", re.I)
WHAT_RE = re.compile(r"in (?P<target>.+?),\s*what does (?P<actor>.+) (?P<verb>[a-z]+)\s*\?", re.I)
NBACK_RE = re.compile(r"sequence of (?P<k>\d+) clips.*?same (?P<attr>scene|action) as the clip (?P<n>\d+) "
                      r"positions? (?:before|earlier)", re.I | re.S)
_FAST = (("nback", NBACK_RE), ("order", ORDER_RE), ("which", WHICH_RE), ("what", WHAT_RE))

EXAMPLES: dict[str, tuple[str, ...]] = {
    "which": (
        "which of these happened in the right video", "which event here is from the second story",
        "which one of these options occurs in the first video", "which of the following appears in the left clip",
        "what from these choices is shown in the second video", "which of these is part of the first story",
        "out of these, which one took place in the right half", "which of these can be seen in the video on the left",
        "tell me which option actually appears in the second story", "which caption belongs to the first video",
        "which thing here really happened in the right video, not the other one", "which of those was in the left one",
    ),
    "order": (
        "in the first video, what order do these events come in", "what is the right order of these in the second story",
        "sort these by when they happen in the left video", "which sequence of events is correct for the right video",
        "how are these ordered in the first story", "arrange these in the order they occur in the second video",
        "in the left video, which came first, second and third", "chronological order of these in the first story",
        "order these events as they appear in the right video", "which ordering matches the second video",
    ),
    "what": (
        "in the second video, what does the baker knead", "what did the nurse fold in the first story",
        "what does the mechanic fix in the left video", "what thing does the driver clean in the second story",
        "what is the object the farmer carries in the first video", "in the left video, what did the tailor sew",
        "which item does the student open in the second video", "what did the teacher write in the first story",
        "what does the boy throw in the right video", "tell me what the doctor checks in the first video",
        "what was the cook chopping in the second story", "what does the pilot inspect on the right side",
        "in the first story, what did the waiter carry", "what did the vet brush in the second video",
        "so in the left video what does the woman lift", "what gets painted by the artist in the first video",
        "in the right video, what is the man sweeping", "what does the worker polish in the second story",
        "which object did the guard lock in the first video", "what did the child hide in the right video",
        "in the second story, what did the nurse scrub", "what does the porter drop in the left video",
        "remind me what the waiter served in the first story", "what did the cleaner dust in the second video",
        "what does the person hold in the first story", "in the left video, what did the person open",
        "what did the person fill in the second video", "in the second story, what does the person shake",
        "what did the person pour in the right video", "which thing does the person clear in the first story",
    ),
    "nback": (
        "this clip sequence has 7 clips; is the last clip's place the same as 2 clips before",
        "is the final clip the same action as the one 4 back", "in these 9 clips, does the final one repeat the scene "
        "from 2 clips before", "the video is made of 5 clips. does the last show the same location as the clip 3 earlier",
        "does the last clip match the action of the clip 1 position earlier",
        "compare the last clip with the one 3 positions before: same scene?",
        "is the activity in the final clip identical to the clip two steps back",
        "same setting in the last clip as in the clip 4 before it",
        "a series of 6 short clips: is the last one's action the one from 5 clips earlier",
        "n-back: does the last segment show the same scene as n positions ago",
    ),
}
# The intent classifier's examples compete as "other", except its "order" ones: an order question
# that names a stream of a composed video is ours.
_NOT_OURS = ("order",)
# An order is asked for in so many words; without one, "which of these ..." is not an order question.
ORDER_WORDS = {"order", "ordered", "ordering", "orderings", "sequence", "sequenced", "chronological",
               "chronologically", "sort", "arrange", "first", "then", "earliest", "latest", "before", "after", "next",
               "timeline", "succession"}
FLOOR = 0.4  # cosine similarity below which no example is near enough
SLACK = 0.05  # ours may trail the nearest other-kind example by this much (short questions are noisy)


@dataclass
class SourceQuestion:
    kind: str  # which | order | what | nback
    target: str = ""  # the words naming the stream asked about
    verbs: list[str] = field(default_factory=list)  # "what": the deed asked about, candidate forms
    k: int | None = None  # nback: the number of clips
    n: int | None = None  # nback: how many positions back
    attr: str = ""  # nback: scene | action
    how: str = "wording"  # wording | meaning
    similarity: float = 1.0  # by meaning: the cosine to the nearest example of its kind


class KindRecogniser:
    """Nearest example question, ours against the intent classifier's other kinds."""

    def __init__(self, embedder, examples: dict[str, tuple[str, ...]] | None = None, floor: float = FLOOR):
        from agent.intent_bank import INTENT_BANK

        labelled = [(kind, t) for kind, ts in (examples or EXAMPLES).items() for t in ts]
        labelled += [("other", t) for intent, ts in INTENT_BANK.items() if intent not in _NOT_OURS for t in ts]
        self.nearest = NearestExamples(embedder, labelled)
        self.floor = floor

    def scores(self, question: str, actors: set[str] = frozenset()) -> dict[str, float]:
        """The best cosine similarity per kind (and "other"). `actors` (the words the source
        map's captions share, e.g. "chef") are read as "person", so the nearest example is
        found by the question's shape rather than by a noun an example happens to share."""
        text = question
        if actors:
            text = re.sub(r"[A-Za-z]+", lambda m: "person" if m[0].lower() in actors else m[0], text)
        return self.nearest.best(text)

    def kind(self, question: str, actors: set[str] = frozenset()) -> str | None:
        recognised = self.recognise(question, actors)
        return recognised[0] if recognised else None

    def recognise(self, question: str, actors: set[str] = frozenset()) -> tuple[str, float] | None:
        """(the kind, its cosine to the question), or None when the question is not ours."""
        scores = self.scores(question, actors)
        if not ORDER_WORDS & set(words(question)):
            scores.pop("order", None)
        ours = max((k for k in scores if k != "other"), key=scores.__getitem__)
        if scores[ours] < self.floor or scores[ours] < scores.get("other", -1.0) - SLACK:
            return None
        return ours, float(scores[ours])


def read_fast(question: str) -> SourceQuestion | None:
    """The generator's own wording, parsed exactly."""
    for kind, pattern in _FAST:
        m = pattern.search(question)
        if m is None:
            continue
        if kind == "nback":
            return SourceQuestion(kind, k=int(m["k"]), n=int(m["n"]), attr=m["attr"].lower())
        return SourceQuestion(kind, target=m["target"], verbs=[m["verb"]] if kind == "what" else [])
    return None


# ---- slots by type ----------------------------------------------------------------------------
_STREAM_NOUNS = {"video", "videos", "story", "stories", "clip", "recording", "stream", "feed", "film", "movie",
                 "footage", "screen", "side", "half", "one", "panel", "source", "part", "segment"}
_RELATIVE_ORDINALS = {"former": 1, "latter": 2}


def _ordinal(word: str) -> int | None:
    return _RELATIVE_ORDINALS.get(word) or ordinal_of(word)


def stream_words(question: str) -> str:
    """The words that name a stream: a screen side ("the left video", "starts on the right",
    "the left-hand one") or an order ("the second story", "video 2", "the first of them").
    Empty when the question names none."""
    toks = words(question)
    for i, w in enumerate(toks):
        if w in ("left", "right"):
            before = toks[i - 1] if i else ""
            after = toks[i + 1] if i + 1 < len(toks) else ""
            if before in ("the", "on", "at", "to", "from") or after in _STREAM_NOUNS or after == "hand":
                return w
    for i, w in enumerate(toks):
        if w not in _STREAM_NOUNS or w == "one" and i and _ordinal(toks[i - 1]) is None:
            continue
        for back in range(i - 1, max(-1, i - 4), -1):  # "the second story", "the first long video"
            if _ordinal(toks[back]) is not None:
                return toks[back]
        after = toks[i + 1: i + 3]  # "video 2", "story number two"
        for a in after:
            if (n := number_of(a)) is not None:
                return str(n)
    return ""


_COUNTED = {"clip", "clips", "position", "positions", "step", "steps", "back", "before", "earlier", "ago"}


def numbers_in(text: str) -> list[int]:
    """Cardinal numbers said in digits or words ("6 clips", "two back", "an 8-clip video");
    "one" only when it counts something ("one clip back", not "the last one")."""
    toks = words(text)
    out = []
    for i, w in enumerate(toks):
        if (n := number_of(w)) is not None and (w != "one" or (i + 1 < len(toks) and toks[i + 1] in _COUNTED)):
            out.append(n)
    return out


_SCENE = {"scene", "scenes", "place", "places", "location", "setting", "backdrop", "background", "room", "where",
          "sign", "venue", "spot"}
_ACTION = {"action", "actions", "activity", "doing", "movement", "happening", "task", "act"}


_BACK = {"back", "before", "earlier", "ago", "prior", "previous", "preceding", "behind"}


def nback_slots(question: str, clips: int) -> tuple[int, int, str] | None:
    """(K, N, attribute): N is the number said with "back" / "before" / "earlier" ("a single
    clip before" is 1), K another number said (else the clips perceived); two bare numbers
    are K, the larger, and N."""
    toks = words(question)
    n_said, others = [], []
    for i, w in enumerate(toks):
        value = 1 if w == "single" else next(iter(numbers_in(" ".join(toks[i:i + 2]))), None) \
            if w.isdigit() or w in NUMBER_WORDS else None
        if not value:
            continue
        (n_said if _BACK & set(toks[i + 1:i + 4]) else others).append(value)
    scene, action = bool(set(toks) & _SCENE), bool(set(toks) & _ACTION)
    if scene == action or not (n_said or others):
        return None
    if n_said:
        n = n_said[0]
        k = max(others) if others else clips
    else:
        k, n = (max(others), min(others)) if len(others) >= 2 else (clips, others[0])
    return k, n, "scene" if scene else "action"


# Verbs that frame or carry the question rather than name the deed asked about.
_LIGHT = {"do", "be", "have", "remember", "know", "tell", "recall", "see", "watch", "get", "go", "happen", "show",
          "think", "try", "mean", "want", "say", "wonder", "can", "could", "would", "will", "let", "help", "need",
          "seem", "appear", "take", "place", "occur", "ask", "make"}
_FUNCTION = {"DET", "PRON", "AUX", "ADP", "PART", "CCONJ", "SCONJ", "PUNCT", "INTJ", "NUM", "SPACE"}
_QUESTION_WORDS = {"what", "which", "who", "whom", "thing", "things", "object", "item", "one", "video", "story",
                   "clip", "stream", "left", "right", "first", "second", "side", "hey", "glasses", "there"}


def verb_candidates(doc, skip: set[str]) -> list[str]:
    """Words of a parsed question that may be the deed asked about, likeliest first, each
    with its lemma and a bare stem ("slicing" -> slicing, slice, slic): the parser's verbs,
    then words it took for nouns that govern a noun (the small model reads "what does the
    gardener plant" as a compound), then any other content word."""
    def forms(t) -> list[str]:
        low, lemma = t.lower_, t.lemma_.lower()
        out = [low, lemma]
        for suffix in ("ing", "ed"):
            if low.endswith(suffix) and len(low) > len(suffix) + 2:
                out += [low[: -len(suffix)], low[: -len(suffix)] + "e"]
        return list(dict.fromkeys(out))

    def usable(t) -> bool:
        return t.is_alpha and t.pos_ not in _FUNCTION and t.lower_ not in skip and t.lower_ not in _QUESTION_WORDS \
            and t.lemma_.lower() not in _LIGHT

    tiers: list[list] = [[], [], []]
    for t in doc:
        if not usable(t):
            continue
        if t.pos_ == "VERB":
            tiers[0].append(t)
        elif any(c.dep_ in ("compound", "nsubj") for c in t.children):
            tiers[1].append(t)
        elif t.pos_ in ("NOUN", "ADJ", "PROPN"):
            tiers[2].append(t)
    return list(dict.fromkeys(f for tier in tiers for t in tier for f in forms(t)))
