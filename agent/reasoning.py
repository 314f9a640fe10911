"""Deterministic reasoning over evidence: how well evidence covers a set of terms, and a
probability per multiple-choice option.

Sufficiency is a judgement about evidence, not a fallback for errors.
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Sequence

import numpy as np

from agent.state import Evidence
from memory.embedding import TextEmbedder
from memory.language import content_words, plural, term, terms
from memory.records import TEXT_SIGHTING, MemoryRecord

Alike = Callable[[str], Collection[str]]  # the words naming what a word names ("kid" for "children")


def uncovered(key_terms: Sequence[str], texts: Sequence[str], alike: Alike | None = None) -> list[str]:
    """The key terms that no text contains (compared as `term`s: "four thirty" and "4:30"
    are the same answer); with `alike`, nor a word naming the same thing ("kids" for "children")."""
    have = set().union(*(terms(t) for t in texts)) if texts else set()
    return [t for t in key_terms if term(t) not in have
            and not (alike is not None and any(term(f) in have for o in alike(t) for f in (o, plural(o, 2))))]


def coverage(key_terms: Sequence[str], texts: Sequence[str], alike: Alike | None = None) -> float:
    if not key_terms:
        return 0.0
    return (len(key_terms) - len(uncovered(key_terms, texts, alike))) / len(key_terms)


def evidence_text(record: MemoryRecord) -> str:
    """What a record contributes as proof (text blocks whole, utterances with speaker)."""
    if record.kind == TEXT_SIGHTING:
        return " / ".join(record.attrs.get("block") or [record.attrs.get("line", record.text)])
    return record.text


class Draft:
    """A drafted answer; `claim` is the statement options are scored against (defaults to
    the answer, but excludes what a later correction overrode); `reading` how strongly the
    evidence supports a short answer read out of it (agent.reader), when that is the answer;
    `span` whether a tool's line gave a short answer of the kind asked (who said it); `agreed`
    how strongly the reader quoted the very line a tool answers with."""

    def __init__(self, answer: str, support: list[Evidence], sufficiency: float, note: str, claim: str | None = None,
                 reading: float = 0.0, span: bool = False, agreed: float = 0.0):
        self.answer, self.support, self.sufficiency, self.note = answer, support, sufficiency, note
        self.claim = claim if claim is not None else answer
        self.reading = reading  # the strength of the reading the answer was taken from (0: a tool's own)
        self.span = span  # the answer is a short span the tool's line gave (who said it), not the line
        self.agreed = agreed  # the reader's quote of the tool's own line: two ways of looking agree on it


def line_support(embedder: TextEmbedder, claims: Sequence[str], texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """How far evidence lines bear out each claim: half the best cosine to one line, half the
    share of the claim's content words the lines hold; with the claims x lines cosines."""
    if not claims:
        return np.zeros(0), np.zeros((0, len(texts)))
    if not texts:
        return np.zeros(len(claims)), np.zeros((len(claims), 0))
    vectors = embedder.embed(list(claims) + list(texts))
    sims = np.clip(vectors[: len(claims)] @ vectors[len(claims):].T, 0.0, 1.0)
    support = np.array([0.5 * sims[j].max() + 0.5 * coverage(content_words(c), texts) for j, c in enumerate(claims)])
    return support, sims


# How a claim of change is phrased ("went from X to Y", "at first X, now Y", "used to X but
# now Y", "X, then Y"): English connectives, not any question's wording.
_CHANGE = re.compile(r"^(?:.*?\bfrom\s+(?P<a>.+?)\s+to\s+(?P<b>.+)|(?:at first|initially|used to)\s+(?P<c>.+?),?"
                     r"\s+(?:but\s+)?(?:now|then|later|eventually|over time)\s+(?P<d>.+)|(?P<e>.+?),?\s+"
                     r"(?:and\s+)?(?:then|later|but now|eventually)\s+(?P<f>.+))$", re.IGNORECASE)


def change_parts(claim: str) -> tuple[str, str] | None:
    """The before and after of a claim that something changed, or None."""
    m = _CHANGE.match(claim.strip().rstrip("."))
    if not m:
        return None
    a, b = next((m.group(x), m.group(y)) for x, y in (("a", "b"), ("c", "d"), ("e", "f")) if m.group(x))
    return (a.strip(), b.strip()) if len(a.split()) and len(b.split()) else None


def option_probabilities(raw: Sequence[float], abstain: Sequence[int], sufficiency: float, threshold: float,
                         scale: float = 8.0, sharpness: float = 12.0) -> list[float]:
    """The one option scorer: per-option support (0..1) -> probabilities. The options that
    can be right share a softmax of `scale` x support; "cannot be answered" options
    (`abstain`) take the mass that insufficient evidence leaves: a logistic of `sharpness`
    x (sufficiency - threshold), the majority below the threshold. Rounded to 4 places."""
    scored = [i for i in range(len(raw)) if i not in abstain]
    probs = np.zeros(len(raw))
    if scored:
        logits = np.array([raw[i] for i in scored]) * scale
        soft = np.exp(logits - logits.max())
        for j, i in enumerate(scored):
            probs[i] = soft[j] / soft.sum()
    if abstain:
        p_abstain = 1.0 / (1.0 + math.exp(sharpness * (sufficiency - threshold)))
        probs *= 1.0 - p_abstain
        for i in abstain:
            probs[i] = p_abstain / len(abstain)
    return [round(float(p), 4) for p in probs]


class EvidenceReasoner:
    def __init__(self, embedder: TextEmbedder):
        self.embedder = embedder

    def option_support(self, options: Sequence[str], abstain: Sequence[int], texts: Sequence[str]) -> list[float]:
        """Each option judged against evidence lines (a reflective question's scattered turns,
        in time order) rather than one drafted claim; "cannot be answered" options get 0.
        A claim of change ("from X to Y") holds only when a line bears out X and a later
        one Y, so it is judged part by part in that order."""
        scored = [i for i in range(len(options)) if i not in abstain]
        changes = {i: parts for i in scored if len(texts) >= 2 and (parts := change_parts(options[i]))}
        claims = [options[i] for i in scored] + [part for parts in changes.values() for part in parts]
        support, sims = line_support(self.embedder, claims, texts)  # one embedding of the lines for every claim
        raw = [0.0] * len(options)
        for j, i in enumerate(scored):
            raw[i] = float(support[j])
        for n, i in enumerate(changes):
            before, after = sims[len(scored) + 2 * n], sims[len(scored) + 2 * n + 1]
            ordered = max(before[a] + after[b] for a in range(len(texts)) for b in range(a + 1, len(texts)))
            words_held = float(support[scored.index(i)]) - 0.5 * float(sims[scored.index(i)].max())
            raw[i] = max(raw[i], 0.5 * float(ordered) / 2 + words_held)
        return raw

    # -- multiple choice ----------------------------------------------------------------
    def option_agreement(self, options: Sequence[str], abstain: Sequence[int], claim: str) -> list[float]:
        """How far each option agrees with the drafted claim: meaning (embedding cosine) and
        the option's words found in it; "cannot be answered" options get 0 here."""
        scored = [i for i in range(len(options)) if i not in abstain]
        raw = np.zeros(len(options))
        if scored and claim:
            vectors = self.embedder.embed([options[i] for i in scored] + [claim])
            sims = vectors[:-1] @ vectors[-1]
            for j, i in enumerate(scored):
                raw[i] = 0.5 * float(sims[j]) + 0.5 * coverage(content_words(options[i]), [claim])
        return [float(x) for x in raw]

    distribute = staticmethod(option_probabilities)
