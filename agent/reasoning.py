"""Deterministic reasoning over evidence: compose an answer, measure how well the evidence
covers the question, and score multiple-choice options.

Sufficiency is a judgement about evidence, not a fallback for errors: it is the share of
the question's key terms the chosen evidence covers, gated by the named person and
entity actually being in memory.
"""
from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np

from agent.state import Evidence, QuestionAnalysis
from agent.understand import content_words
from memory.conversation import CORRECTION_CUE
from memory.embedding import TextEmbedder
from memory.records import ENTITY_SIGHTING, TEXT_SIGHTING, UTTERANCE, MemoryRecord

_NUMBER_WORDS = {
    w: str(i) for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty".split())
} | {"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "half": "30", "quarter": "15"}


def _stem(word: str) -> str:
    word = word.lower()
    if word in _NUMBER_WORDS:  # "four thirty" and "4:30" are the same answer
        return _NUMBER_WORDS[word]
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _terms(text: str) -> set[str]:
    return {_stem(w) for w in re.findall(r"[a-z0-9]+", text.lower())}


def coverage(key_terms: Sequence[str], texts: Sequence[str]) -> float:
    if not key_terms:
        return 0.0
    have = set().union(*(_terms(t) for t in texts)) if texts else set()
    return sum(_stem(t) in have for t in key_terms) / len(key_terms)


def clock(record: MemoryRecord) -> str:
    return record.wall_start.strftime("%H:%M:%S")


def evidence_text(record: MemoryRecord) -> str:
    """What a record contributes as proof (text blocks whole, utterances with speaker)."""
    if record.kind == TEXT_SIGHTING:
        return " / ".join(record.attrs.get("block") or [record.attrs.get("line", record.text)])
    return record.text


class Draft:
    """A drafted answer; `claim` is the statement options are scored against (defaults to
    the answer, but excludes what a later correction overrode)."""

    def __init__(self, answer: str, support: list[Evidence], sufficiency: float, note: str, claim: str | None = None):
        self.answer, self.support, self.sufficiency, self.note = answer, support, sufficiency, note
        self.claim = claim if claim is not None else answer


class EvidenceReasoner:
    def __init__(self, embedder: TextEmbedder):
        self.embedder = embedder

    def draft(self, analysis: QuestionAnalysis, evidence: list[Evidence], known_people: set[str],
              entity_found: bool | None) -> Draft:
        if analysis.person and analysis.person.lower() not in known_people and not any(
            analysis.person.lower() in e.record.text.lower() for e in evidence
        ):
            return Draft("", [], 0.0, f"no memory of anyone called {analysis.person}")
        if analysis.qtype in ("entity_location", "count") and entity_found is False:
            return Draft("", [], 0.0, f"'{analysis.target}' was never seen")
        if not evidence:
            return Draft("", [], 0.0, "no evidence retrieved")
        handler = {
            "entity_location": self._location, "conversation": self._utterance, "count": self._count,
            "order": self._order,
        }.get(analysis.qtype, self._best)
        return handler(analysis, evidence)

    def _location(self, analysis, evidence):
        sightings = [e for e in evidence if e.record.kind == ENTITY_SIGHTING and e.why.startswith("last_seen")]
        if not sightings:
            return self._best(analysis, evidence)
        last = sightings[-1].record
        place = last.attrs.get("place")
        where = f"in the {place}" if place else "but the place was not recognised"
        answer = f"{last.attrs.get('label', analysis.target)} was last seen {where} at {clock(last)}"
        return Draft(answer, sightings, 1.0 if place else 0.6, "last-seen operator")

    def _count(self, analysis, evidence):
        counted = [e for e in evidence if e.why.startswith("count")]
        if not counted:
            return self._best(analysis, evidence)
        n = int(counted[0].why.split("=", 1)[1])
        return Draft(f"{n} time{'s' if n != 1 else ''}", counted, 1.0, "count operator")

    def _order(self, analysis, evidence):
        relevant = [e for e in evidence if coverage(analysis.key_terms, [e.record.text]) > 0]
        ordered = sorted(relevant, key=lambda e: e.record.wall_start)
        if not ordered:
            return Draft("", [], 0.0, "nothing relevant to order")
        answer = "; then ".join(f"{clock(e.record)} {evidence_text(e.record)}" for e in ordered[:6])
        cov = coverage(analysis.key_terms, [e.record.text for e in ordered])
        return Draft(answer, ordered[:6], cov, "ordered by stored timestamps")

    def _best(self, analysis, evidence):
        ranked = sorted(evidence, key=lambda e: (-coverage(analysis.key_terms, [evidence_text(e.record)]), -e.score))
        top = ranked[0]
        if top.record.kind == UTTERANCE:
            return self._utterance(analysis, evidence)
        cov = coverage(analysis.key_terms, [evidence_text(top.record)])
        if top.record.kind == TEXT_SIGHTING:
            answer = f'"{evidence_text(top.record)}" (read at {clock(top.record)})'
        else:
            answer = f"{evidence_text(top.record)} ({clock(top.record)})"
        return Draft(answer, [top], cov, f"best {top.source} evidence")

    def _utterance(self, analysis, evidence):
        utterances = [e for e in evidence if e.record.kind == UTTERANCE]
        if not utterances:
            return Draft("", [], 0.0, "no utterance retrieved")
        if analysis.person:
            named = [e for e in utterances if (e.record.attrs.get("speaker_name") or "").lower() == analysis.person.lower()]
            # Diarisation can split one voice in two: unnamed turns in a recording where the
            # person spoke may be theirs too (the wearer's own replies are usually named "S1"
            # too, so the asked speech act still has to pick the right turn).
            talks = {e.record.video_id for e in named}
            unnamed = [e for e in utterances if e.record.video_id in talks and not e.record.attrs.get("speaker_name")]
            utterances = named + unnamed if named else utterances
        act = analysis.speech_act
        # Equally good matches: the latest wins (a memory question means the last time).
        top = max(utterances, key=lambda e: (
            act is not None and act in e.record.attrs.get("acts", []),
            coverage(analysis.key_terms, [e.record.text]), e.record.wall_start, e.score,
        ))
        support, said = [top], top.record.attrs.get("said", top.record.text)
        who = top.record.attrs.get("speaker_name") or top.record.attrs.get("speaker") or "someone"
        answer, claim = f'{who} said: "{said}" (at {clock(top.record)})', f"{who}: {said}"
        fix = CORRECTION_CUE.search(said)
        if fix is not None and len(said) - fix.end() > 3:  # "at 3. Actually, no, 5": what stands is after the cue
            claim = f"{who}: {said[fix.end():]}"
        # A correction by the same speaker shortly after overrides what was said first.
        for later in sorted(utterances, key=lambda e: e.record.wall_start):
            r = later.record
            gap = (r.wall_start - top.record.wall_end).total_seconds()
            if (r.id != top.record.id and 0 <= gap <= 60 and r.attrs.get("speaker") == top.record.attrs.get("speaker")
                    and CORRECTION_CUE.search(r.attrs.get("said", ""))):
                support.append(later)
                answer = f'{who} corrected it: "{r.attrs["said"]}" (at {clock(r)}; first said "{said}")'
                claim = f'{who}: {r.attrs["said"]}'
                break
        if analysis.key_terms:
            cov = coverage(analysis.key_terms, [e.record.text for e in support])
        else:  # "what did I say I need to do?": the asked speech act is the whole content
            cov = 1.0 if act is not None and act in top.record.attrs.get("acts", []) else 0.0
        return Draft(answer, support, cov, "speaker-attributed transcript", claim=claim)

    # -- multiple choice ----------------------------------------------------------------
    def score_options(self, options: Sequence[str], analysis: QuestionAnalysis, draft: Draft,
                      threshold: float) -> list[float]:
        """A probability per option: agreement with the drafted answer and its evidence;
        "cannot be answered" options take the mass the evidence leaves unexplained."""
        answer_texts = [draft.claim]
        proof = draft.claim
        scored = [i for i in range(len(options)) if i not in analysis.abstain_options]
        raw = np.zeros(len(options))
        if scored and draft.answer:
            vectors = self.embedder.embed([options[i] for i in scored] + [proof])
            sims = vectors[:-1] @ vectors[-1]
            for j, i in enumerate(scored):
                words = content_words(options[i])
                raw[i] = 0.5 * float(sims[j]) + 0.5 * coverage(words, answer_texts)
        return self.distribute(list(raw), analysis, draft.sufficiency, threshold)

    @staticmethod
    def distribute(raw: Sequence[float], analysis: QuestionAnalysis, sufficiency: float,
                   threshold: float) -> list[float]:
        """Raw per-option preferences -> probabilities; "cannot be answered" options take
        the mass that insufficient evidence leaves."""
        options = range(len(raw))
        scored = [i for i in options if i not in analysis.abstain_options]
        probs = np.zeros(len(raw))
        if scored:
            logits = np.array([raw[i] for i in scored]) * 8.0
            soft = np.exp(logits - logits.max())
            for j, i in enumerate(scored):
                probs[i] = soft[j] / soft.sum()
        if analysis.abstain_options:
            # Evidence below the threshold gives the abstain option the majority.
            p_abstain = 1.0 / (1.0 + math.exp(12.0 * (sufficiency - threshold)))
            probs *= 1.0 - p_abstain
            for i in analysis.abstain_options:
                probs[i] = p_abstain / len(analysis.abstain_options)
        return [round(float(p), 4) for p in probs]
