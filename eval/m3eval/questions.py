"""Question construction from the sources' ground truth, in the wording of the M3Eval
contract (memlens parses these forms; do not reword without updating the answerer).

Every multiple-choice question has 4 options and one correct answer; distractors share the
error type of the paper's definitions: SI = captions of the other source, CR = fabricated
captions in neither source, OU = wrong orderings, MI = 2 intrusions from the competing video
+ 1 unrelated object, FMD = a premise in neither story whose answer is "Not in either video".
"""
from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field, replace

from eval.m3eval.nback import Instance
from eval.m3eval.stories import TOPICS, StoryScript, caption
from eval.schema import Option

NOT_IN_EITHER = "Not in either video"
# Plausible one-word verbs for false-memory probes when a story's topic has no unused verb left.
GENERIC_VERBS = ("hides", "buys", "sells", "breaks", "borrows", "returns", "drops", "paints", "loses", "finds")
NAMES = {
    "no-swap": ("the left video", "the right video"),
    "swap": ("the video that starts on the left", "the video that starts on the right"),
    "ordinal": ("the first video", "the second video"),
    "story": ("the first story", "the second story"),
}


@dataclass(frozen=True)
class Q:
    """A drafted question: options in final order, the gold index, and its labels."""

    qtype: str  # SI | OU | CR | MI | FMD | YN
    question: str
    options: tuple[Option, ...]
    answer: int
    meta: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        texts = [o.text.lower() for o in self.options]
        if len(set(texts)) != len(texts):
            raise ValueError(f"{self.question!r}: duplicate options {texts}")
        if [o.role for o in self.options].count("correct") != 1 or self.options[self.answer].role != "correct":
            raise ValueError(f"{self.question!r}: the gold option must be the only correct one")

    def named(self, target: str) -> Q:
        """The same question (same option order) asking about `target`."""
        return replace(self, question=self.question.replace("{target}", target))


def _draft(qtype: str, question: str, correct: str, others: list[tuple[str, str]], rng: random.Random,
           meta: dict | None = None) -> Q:
    opts = [Option(correct, "correct"), *(Option(t, r) for t, r in others)]
    rng.shuffle(opts)
    return Q(qtype, question, tuple(opts), next(i for i, o in enumerate(opts) if o.role == "correct"), meta or {})


def objects_of(s: StoryScript) -> list[str]:
    return list(dict.fromkeys(b.obj for b in s.beats))


def si(target: StoryScript, other: StoryScript, name: str, rng: random.Random, beat: int | None = None) -> Q:
    """Which caption belongs to the target? Distractors: 3 captions of the other source."""
    own = set(target.captions)
    right = target.beats[rng.randrange(len(target.beats)) if beat is None else beat].caption
    wrong = rng.sample([c for c in dict.fromkeys(other.captions) if c not in own], 3)
    return _draft("SI", f"Which of these happens in {name}?", right, [(w, "distractor") for w in wrong], rng)


def ou(target: StoryScript, name: str, rng: random.Random) -> Q:
    """The true order of 3 target captions against 3 of the other 5 orderings."""
    picks = sorted(rng.sample(range(len(target.beats)), 3))
    caps = [target.beats[i].caption for i in picks]
    perms = [p for p in itertools.permutations(caps) if list(p) != caps]
    wrong = rng.sample(perms, 3)
    return _draft("OU", f"In {name}, in which order do these happen?", ", then ".join(caps),
                  [(", then ".join(p), "distractor") for p in wrong], rng)


def fabricated(target: StoryScript, other: StoryScript, rng: random.Random, k: int = 3) -> list[str]:
    """Plausible captions in neither source: the topic's verbs with the target's objects or
    the topic's never-shown objects (never the other source's objects: that would be SI)."""
    topic = TOPICS.get(target.topic)
    verbs = list(dict.fromkeys([b.verb for b in target.beats + other.beats] + list(topic.verbs if topic else ())))
    objs = objects_of(target) + list(topic.objects[2] if topic else ())
    seen = set(target.captions) | set(other.captions)
    pool = sorted({caption(target.actor, v, o) for v in verbs for o in objs} - seen)
    return rng.sample(pool, k)


def cr(target: StoryScript, other: StoryScript, name: str, rng: random.Random, beat: int | None = None) -> Q:
    right = target.beats[rng.randrange(len(target.beats)) if beat is None else beat].caption
    return _draft("CR", f"Which of these happens in {name}?", right,
                  [(w, "distractor") for w in fabricated(target, other, rng)], rng)


def unrelated_object(target: StoryScript, other: StoryScript, rng: random.Random) -> str:
    used = set(objects_of(target)) | set(objects_of(other))
    pool = sorted({o for t in TOPICS.values() if t.name != target.topic for objs in t.objects for o in objs} - used)
    return rng.choice(pool)


def mi_verbs(target: StoryScript, other: StoryScript) -> list[str]:
    """Verbs occurring exactly once in the target, those the competitor also does first
    (the strongest interference)."""
    counts = {v: [b.verb for b in target.beats].count(v) for v in (b.verb for b in target.beats)}
    once = [v for v, c in counts.items() if c == 1]
    theirs = {b.verb for b in other.beats}
    return [v for v in once if v in theirs] + [v for v in once if v not in theirs]


def mi(target: StoryScript, other: StoryScript, verb: str, rng: random.Random) -> Q:
    """A template with "{target}" left open (the same question is asked in every order).
    Options: the target's object of `verb`, 2 intrusions from the competing video (its object
    of the same verb first), 1 object from an unrelated topic."""
    right = next(b.obj for b in target.beats if b.verb == verb)
    mine = set(objects_of(target))
    same_verb = [b.obj for b in other.beats if b.verb == verb]
    rest = [o for o in objects_of(other) if o not in same_verb]
    rng.shuffle(rest)
    intrusions = [o for o in dict.fromkeys(same_verb + rest) if o not in mine][:2]
    if len(intrusions) < 2:
        raise ValueError(f"{other.story_id}: fewer than 2 intrusion objects for {verb!r}")
    odd = unrelated_object(target, other, rng)
    return _draft("MI", f"In {{target}}, what does the {target.actor} {base_form(verb)}?", f"the {right}",
                  [(f"the {o}", "intrusion") for o in intrusions] + [(f"the {odd}", "distractor")], rng)


def base_form(verb: str) -> str:
    """The base form of a caption's third-person verb, for "what does the chef slice?"."""
    if verb.endswith("ies"):
        return verb[:-1] if len(verb) <= 4 else verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes", "zzes")):
        return verb[:-2]
    return verb[:-1] if verb.endswith("s") else verb


def absent_verbs(a: StoryScript, b: StoryScript, extra: tuple[str, ...] = ()) -> list[str]:
    """Verbs in neither story: the pair's unused topic verbs first, then generic ones."""
    used = {x.verb for x in a.beats + b.beats}
    return [v for v in dict.fromkeys(list(extra) + list(GENERIC_VERBS)) if v not in used]


def fmd(target: StoryScript, other: StoryScript, name: str, verb: str, rng: random.Random) -> Q:
    """A false premise: `verb` happens in neither story; the objects offered are real ones."""
    if verb in {b.verb for b in target.beats + other.beats}:
        raise ValueError(f"{verb!r} occurs in a source: not a false premise")
    objs = objects_of(target) + objects_of(other)
    picks = rng.sample(objs, 3)
    return _draft("FMD", f"In {name}, what does the {target.actor} {base_form(verb)}?", NOT_IN_EITHER,
                  [(f"the {o}", "distractor") for o in picks], rng)


def nback_q(instance: Instance, n: int, k: int) -> Q:
    if not 1 <= n < k <= len(instance.clips):
        raise ValueError(f"invalid N={n}, K={k}")
    yes = instance.gold(n, k)
    opts = (Option("Yes", "correct" if yes else "distractor"), Option("No", "distractor" if yes else "correct"))
    return Q("YN", f"This video is a sequence of {k} clips. Does the last clip show the same {instance.attribute} "
                   f"as the clip {n} positions before it?", opts, 0 if yes else 1,
             {"attribute": instance.attribute, "N": n, "K": k})
