"""Seed 001's two retrieval baselines, rebuilt on memlens's own memory.

SuperMemory-VQA (seed 001, section 5) compares against Video-RAG (flat, single-turn
retrieval over ASR, OCR and object-detection text databases) and EgoButler (coarse-to-fine
retrieval over day / hour summaries down to clip captions). Both read the same perception
outputs memlens stores, cut strictly before the question time, so a difference in score
is a difference in retrieval and reasoning, not in perception. The VLM that reads the
retrieved text in the paper is replaced by a deterministic reader (`EvidenceReader`): no
LLM, no refinement, no structured operators, no behavior store.

Departures, each forced by having no VLM: the search query is the question itself (the
paper's Video-RAG has the VLM write a retrieval request), and no frames are read. Video-RAG's
30-minute FAISS shards, fanned out over everything before the question, retrieve the same
as one index under the question-time cut, which is what is searched here.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from agent.compose import abstain_options
from agent.reasoning import coverage, evidence_text, line_support, option_probabilities
from agent.state import Evidence
from memory.embedding import TextEmbedder
from memory.language import content_words
from memory.records import CLIP_CAPTION, ENTITY_SIGHTING, TEXT_SIGHTING, UTTERANCE, MemoryRecord, StoreName
from retrieval.search import Hit, HybridRetriever, SearchQuery


@dataclass(frozen=True)
class ReaderConfig:
    # Support (0..1) of the best-supported option: 0.5 * max cosine to a retrieved text +
    # 0.5 * share of the option's content words found in the retrieved texts. Below this
    # the evidence is too weak and a "cannot be answered" option takes the majority of
    # the probability; an open question is abstained on.
    support_threshold: float = 0.45
    abstain_sharpness: float = 12.0  # slope of that hand-over around the threshold
    logit_scale: float = 8.0  # softmax temperature over option supports (as the memlens reasoner)
    evidence_k: int = 3  # retrieved records returned as the evidence for the chosen option


@dataclass
class BaselineAnswer:
    answer: str
    abstained: bool
    chosen: int | None = None  # option index (the abstain option when abstaining); None for open questions
    option_scores: list[float] = field(default_factory=list)  # probabilities, one per option
    support: float = 0.0  # the reader's support for what it answered (see ReaderConfig)
    evidence: list[Evidence] = field(default_factory=list)


class EvidenceReader:
    """Stands in for the VLM: scores options against retrieved text, abstains when weak.

    Multiple choice: each option gets a support (see ReaderConfig), softmaxed into
    probabilities; "cannot be answered" options take the mass the best support leaves
    unexplained. Without such an option the best one is always picked, as a VLM asked a
    closed question does. Open questions: the retrieved text that best supports the
    question is the answer, or the reader abstains.
    """

    def __init__(self, embedder: TextEmbedder, config: ReaderConfig | None = None):
        self.embedder = embedder
        self.config = config or ReaderConfig()

    def read(self, question: str, options: Sequence[str] | None, records: Sequence[MemoryRecord],
             why: str) -> BaselineAnswer:
        texts = [evidence_text(r) for r in records]
        if not options:
            return self._open(question, records, texts, why)
        abstain = abstain_options(options)
        scored = [i for i in range(len(options)) if i not in abstain]
        support, sims = line_support(self.embedder, [options[i] for i in scored], texts)
        best = float(support.max()) if scored else 0.0
        raw = [0.0] * len(options)
        for j, i in enumerate(scored):
            raw[i] = float(support[j])
        probs = option_probabilities(raw, abstain, best, self.config.support_threshold, self.config.logit_scale,
                                     self.config.abstain_sharpness)
        chosen = int(np.argmax(probs))
        if chosen in abstain:
            return BaselineAnswer(options[chosen], True, chosen, probs, best)
        row = sims[scored.index(chosen)]
        evidence = [Evidence(records[t], float(row[t]), why) for t in np.argsort(-row)[: self.config.evidence_k]]
        return BaselineAnswer(options[chosen], False, chosen, probs, float(support[scored.index(chosen)]),
                              evidence)

    def _open(self, question: str, records: Sequence[MemoryRecord], texts: list[str], why: str) -> BaselineAnswer:
        if not texts:
            return BaselineAnswer("I can't answer that from memory (nothing retrieved).", True)
        words = content_words(question)
        sims = line_support(self.embedder, [question], texts)[1][0]
        per_text = [0.5 * float(sims[t]) + 0.5 * coverage(words, [texts[t]]) for t in range(len(texts))]
        best = int(np.argmax(per_text))
        if per_text[best] < self.config.support_threshold:
            return BaselineAnswer("I can't answer that from memory (weak evidence).", True, support=per_text[best])
        return BaselineAnswer(texts[best], False, support=per_text[best],
                              evidence=[Evidence(records[best], per_text[best], why)])


# -- Video-RAG ----------------------------------------------------------------------------
# Video-RAG's three per-session text databases and where memlens keeps them.
VIDEO_RAG_DATABASES: tuple[tuple[str, StoreName, str], ...] = (
    ("asr", "event", UTTERANCE),
    ("ocr", "event", TEXT_SIGHTING),
    ("detection", "entity", ENTITY_SIGHTING),
)


@dataclass(frozen=True)
class VideoRagConfig:
    k_per_database: int = 4  # each database is searched on its own; the hits are merged
    reader: ReaderConfig = field(default_factory=ReaderConfig)


class VideoRagBaseline:
    """Flat, single-turn: the question searches each text database once, strictly before
    the question time, and the merged hits go to the reader. Captions, summaries,
    behaviors, operators and refinement are all out of its reach by design."""

    name = "videorag"

    def __init__(self, retriever: HybridRetriever, embedder: TextEmbedder, config: VideoRagConfig | None = None):
        self.retriever = retriever
        self.config = config or VideoRagConfig()
        self.reader = EvidenceReader(embedder, self.config.reader)

    def retrieve(self, question: str, namespace: str, at: datetime | None) -> list[Hit]:
        hits: list[Hit] = []
        for _, store, kind in VIDEO_RAG_DATABASES:
            hits += self.retriever.search(SearchQuery(question, namespace, stores=(store,), kinds=(kind,),
                                                      before=at, k=self.config.k_per_database))
        return sorted(hits, key=lambda h: -h.score)

    def answer(self, question: str, namespace: str, at: datetime | None,
               options: Sequence[str] | None = None) -> BaselineAnswer:
        hits = self.retrieve(question, namespace, at)
        return self.reader.read(question, options, [h.record for h in hits], self.name)


# -- EgoButler ----------------------------------------------------------------------------
@dataclass(frozen=True)
class EgoButlerConfig:
    days: int = 2  # day summaries kept at the first level
    hours: int = 3  # hour summaries kept at the second level
    k: int = 5  # clip captions handed to the reader (the paper does not give its k)
    reader: ReaderConfig = field(default_factory=ReaderConfig)


class EgoButlerBaseline:
    """EgoRAG's coarse-to-fine search: day summaries, then hour summaries inside them, then
    the top-k clip captions inside those hours, all cut before the question time. The
    current day and hour have no complete summary yet; their hours and clips are searched
    directly (`open_tail`), a memlens choice: the paper does not say how EgoRAG reaches
    memory newer than its last summary, and without it that memory would be invisible."""

    name = "egobutler"

    def __init__(self, retriever: HybridRetriever, embedder: TextEmbedder, config: EgoButlerConfig | None = None):
        self.retriever = retriever
        self.config = config or EgoButlerConfig()
        self.reader = EvidenceReader(embedder, self.config.reader)

    def retrieve(self, question: str, namespace: str, at: datetime | None) -> list[Hit]:
        query = SearchQuery(question, namespace, stores=("event",), kinds=(CLIP_CAPTION,), before=at, k=self.config.k)
        return self.retriever.coarse_to_fine(query, days=self.config.days, hours=self.config.hours, open_tail=True)

    def answer(self, question: str, namespace: str, at: datetime | None,
               options: Sequence[str] | None = None) -> BaselineAnswer:
        hits = self.retrieve(question, namespace, at)
        return self.reader.read(question, options, [h.record for h in hits], self.name)
