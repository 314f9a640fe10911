"""Composition root: builds perception, memory, retrieval and the agent from AppConfig and
exposes the small surface that CLI, API, notebooks and the eval runner use."""
from __future__ import annotations

import gc
import json
import sqlite3
import threading
import time
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from agent.graph import AgentContext, MemoryAgent
from agent.llm import ChatModel, make_chat_model
from agent.planners import make_planner
from agent.question_nlp import SpacyPipeline
from agent.reader import EvidenceReader
from agent.reasoning import EvidenceReasoner
from agent.state import AgentAnswer
from agent.summaries import LLMSummarizer
from memory.captions import Summarizer
from memory.memory import Memory
from memory.portable import Portable, export_namespace, import_namespace
from memory.records import STORE_OF_KIND, WEARER, MemoryRecord, RecordFilter
from perception.cache import ObservationCache
from perception.doctor import clip_off_reason
from perception.progress import as_progress
from perception.transcripts import Dialogue, read_transcript
from perception.types import VideoObservation
from retrieval.operators import MemoryOperators
from retrieval.search import HybridRetriever
from service.config import AppConfig
from service.home import make_private_home
from service.jobs import JOBS_FILE, JobStore
from service.version import installed_version
from skills.base import Skill, SkillContext
from skills.registry import load_skills

if TYPE_CHECKING:  # the pipeline is imported when the first ingest needs it, not by a question
    from perception.pipeline import Perceiver


class PerceiverClipText:
    """The text side of the perceiver's CLIP model, for memory's zero-shot tags and the
    retrieval channel. Its model id comes from the configuration; the model itself loads
    on the first text to encode (a search over memory that holds frames), never at
    start-up. When it cannot load it encodes nothing, and its users stay off."""

    def __init__(self, perceiver: Perceiver, model_id: str):
        self.perceiver = perceiver
        self.model_id = model_id

    def encode_texts(self, texts) -> np.ndarray:
        embedder = self.perceiver.embedder()
        if embedder is None or embedder.model_id != self.model_id:
            return np.zeros((0, 0), np.float32)
        return embedder.encode_texts(texts)


@dataclass
class IngestReport:
    video_id: str
    path: str
    namespace: str
    duration: float
    wall_start: datetime
    records: dict[str, int]
    channels: dict[str, str]
    seconds: float
    stages: dict[str, float] = field(default_factory=dict)  # seconds per stage (perception's, memory, other)

    @property
    def realtime_factor(self) -> float:
        """Processing time over video duration: below 1 is faster than real time."""
        return self.seconds / self.duration if self.duration else 0.0

    @property
    def speed(self) -> str:
        """How fast it was read, the one way memlens says it: "12.3x real time" is 12.3 s of
        recording per second; a photo (no duration) has no speed."""
        return speed_phrase(self.duration, self.seconds)


def speed_phrase(duration: float, seconds: float) -> str:
    return f"{duration / seconds:.1f}x real time" if duration > 0.5 and seconds > 0 else "a still, no real time"


@dataclass
class Warmed:
    """What `MemlensSystem.warm` read before the first question."""

    loaded: list[str]  # namespaces whose indexes were read, most recently written first
    left: list[str]  # namespaces over the memory budget: their first question reads them
    index_bytes: int  # what the loaded indexes hold on disk
    seconds: float


# Any question does: answering it loads the language models and lexicons every question uses.
WARM_UP_QUESTION = "What was I doing before I stopped recording?"
QUESTION_YEARS = (1000, 9000)  # question and listing times: far enough from the calendar's ends for any window


MIN_ENROLL_SECONDS = 3.0  # of the wearer speaking: a voice print steadies over a few seconds

def open_range(start: datetime | None, end: datetime | None) -> tuple[datetime, datetime] | None:
    """A wall-clock range with either end left open ("everything since", "everything up to"),
    closed at the first or last time memory can be asked about; None when both are open."""
    if start is None and end is None:
        return None
    return start or datetime(QUESTION_YEARS[0], 1, 1), end or datetime(QUESTION_YEARS[1], 12, 31, 23, 59, 59)


def within_budget(footprints: dict[str, tuple[int, float]], budget_mb: float) -> tuple[list[str], list[str]]:
    """(namespaces to read now, those left for their first question) from each namespace's
    (index bytes, last written): the most recently written first while they fit in the
    budget, so the wearers active lately are ready; those with no index have nothing to read."""
    loaded, left, held = [], [], 0
    for namespace, (size, _) in sorted(footprints.items(), key=lambda kv: -kv[1][1]):
        if not size:
            continue
        if held + size > budget_mb * 2**20:
            left.append(namespace)
            continue
        loaded.append(namespace)
        held += size
    return loaded, left


class MemlensSystem:
    def __init__(self, config: AppConfig):
        self.config = config
        self._lock = threading.Lock()
        self._perceiver: Perceiver | None = None
        self._memory: Memory | None = None
        self._retriever: HybridRetriever | None = None
        self._agent: MemoryAgent | None = None
        self._chat: ChatModel | None = None
        self._chat_made = False
        self._settled = False  # set after the first question: see `ask`
        self._clip_text: PerceiverClipText | None = None
        make_private_home(config.home)  # before memory, jobs or caches write into it
        self.skills: tuple[Skill, ...] = load_skills(config.skills)  # opt-in; none by default
        self.cache = ObservationCache(config.perception.cache_dir) if config.perception.cache_dir else None

    # Built on first use: `memlens --help` and `doctor` must not pay for model loading.
    @property
    def perceiver(self) -> Perceiver:
        with self._lock:
            if self._perceiver is None:
                from perception.pipeline import Perceiver

                self._perceiver = Perceiver(self.config.perception, cache=self.cache,
                                            stages=tuple(st for skill in self.skills for st in skill.stages()))
            return self._perceiver

    @property
    def clip_text(self) -> PerceiverClipText | None:
        """The CLIP text side when the perception CLIP channel is configured, else None
        (decided from the configuration first: without CLIP, no perceiver is built here)."""
        if not self.config.perception.clip_model:
            return None
        perceiver = self.perceiver
        with self._lock:
            if self._clip_text is None and perceiver.clip_model_id is not None:
                self._clip_text = PerceiverClipText(perceiver, perceiver.clip_model_id)
            return self._clip_text

    def clip_search_status(self) -> str:
        """Whether search uses keyframes (CLIP), and why not; loads no model."""
        perceiver = self.perceiver
        if self.clip_text is None or perceiver.clip_status.startswith("off"):
            reason = perceiver.clip_status or clip_off_reason(self.config.perception)
            return f"off: perception.clip is off ({reason.removeprefix('off: ')})"
        status = self.retriever.frames.status()
        return status if perceiver.embedder_resolved else f"{status}; the model loads on the first search"

    @property
    def chat(self) -> ChatModel | None:
        """The configured LLM (None without one), shared by the agent and memory's summaries;
        a local model loads on its first call, not here."""
        with self._lock:
            if not self._chat_made:
                self._chat, self._chat_made = make_chat_model(self.config.agent.llm), True
            return self._chat

    @property
    def memory(self) -> Memory:
        if self._memory is None:
            summarize, clip_text = self._summarizer(), self.clip_text
        with self._lock:
            if self._memory is None:
                self._memory = Memory(self.config.memory, summarize=summarize, clip_text=clip_text)
            return self._memory

    def _summarizer(self) -> Summarizer | None:
        mode = self.config.memory.summaries
        if mode not in ("auto", "llm", "extractive"):
            raise ValueError(f"memory.summaries is {mode!r}; one of auto, llm, extractive")
        chat = self.chat if mode != "extractive" else None
        if chat is None and mode == "llm":
            raise ValueError("memory.summaries = 'llm' needs an LLM: set agent.llm.backend")
        return LLMSummarizer(chat) if chat is not None else None

    @property
    def retriever(self) -> HybridRetriever:
        """The one retriever over this memory, shared by the agent and the retrieval baselines."""
        memory, clip_text = self.memory, self.clip_text
        with self._lock:
            if self._retriever is None:
                self._retriever = HybridRetriever(memory, self.config.retrieval, clip_text=clip_text)
            return self._retriever

    @property
    def agent(self) -> MemoryAgent:
        memory, retriever, chat = self.memory, self.retriever, self.chat
        with self._lock:
            if self._agent is None:
                self._agent = MemoryAgent(AgentContext(
                    retriever=retriever,
                    operators=MemoryOperators(memory),
                    reasoner=EvidenceReasoner(memory.embedder),
                    config=self.config.agent,
                    planner=make_planner(self.config.agent, memory.embedder, chat),
                    chat=chat,
                    reader=EvidenceReader(kinds=memory.kinds),
                    skills=self._skill_answerers(memory),
                ))
            return self._agent

    def _skill_answerers(self, memory: Memory) -> tuple:
        if not self.skills:
            return ()
        context = SkillContext(memory.tracks, memory.embedder, SpacyPipeline(self.config.agent.spacy_model))
        return tuple(a for skill in self.skills for a in skill.answerers(context))

    def ingest(self, path: str | Path, namespace: str | None = None, start: datetime | None = None,
               progress=None) -> IngestReport:
        namespace = namespace or self.config.service.default_namespace
        began = time.perf_counter()
        progress = as_progress(progress)
        video = self.perceiver.perceive(Path(path), wall_start=start, progress=progress,
                                        cache=self.cache.scoped(namespace) if self.cache is not None else None)
        return self.remember(video, namespace, began, progress)

    def remember(self, video: VideoObservation, namespace: str | None = None, began: float | None = None,
                 progress=None) -> IngestReport:
        """Write a perceived video into memory (in place of what the namespace held of it);
        `began` (perf_counter) is when its ingest started, for the report's timings."""
        namespace = namespace or self.config.service.default_namespace
        progress = as_progress(progress)
        progress.start("memory", 1)  # a last step, so a cancelled job stops before memory changes
        remembering = time.perf_counter()
        began = remembering if began is None else began
        counts = self.memory.ingest(video, namespace)
        progress.advance("memory")
        done = time.perf_counter()
        stages = {**video.stage_seconds, "memory": round(done - remembering, 3)}
        stages["other"] = round(max(0.0, (done - began) - sum(stages.values())), 3)  # probe, hashing, model loads
        return IngestReport(
            video_id=video.video_id, path=video.path, namespace=namespace, duration=video.duration,
            wall_start=video.wall_start, records=counts, channels=video.channels,
            seconds=done - began, stages=stages,
        )

    def ingest_transcript(self, path: str | Path, namespace: str | None = None,
                          start: datetime | None = None) -> list[IngestReport]:
        """Every conversation in a transcript file (LoCoMo JSON, RefMem thread, JSONL chat);
        a malformed file is refused whole (TranscriptError) before memory is touched."""
        namespace = namespace or self.config.service.default_namespace
        return [self.ingest_dialogue(dialogue, namespace, str(path)) for dialogue in read_transcript(path, start)]

    def ingest_dialogue(self, dialogue: Dialogue, namespace: str, path: str = "") -> IngestReport:
        """One conversation already read, in place of what the namespace remembered of it."""
        began = time.perf_counter()
        counts = self.memory.ingest_dialogue(dialogue, namespace)
        first, last = dialogue.sessions[0].start, dialogue.turns[-1].time
        return IngestReport(
            video_id=dialogue.dialogue_id, path=path or dialogue.source, namespace=namespace,
            duration=(last - first).total_seconds(), wall_start=first, records=counts,
            channels={"transcript": f"{len(dialogue.sessions)} sessions, {len(dialogue.turns)} turns"},
            seconds=time.perf_counter() - began)

    def holds(self, path: str | Path, namespace: str, start: datetime | None = None) -> bool:
        """Whether this namespace already remembers this file (same bytes), on this clock when
        `start` is given. Systems that share this memory ingest only what it lacks: `ingest`
        itself always perceives again and replaces the video's records."""
        from perception.pipeline import file_video_id

        video_id = file_video_id(Path(path).expanduser())
        return any(
            v.video_id == video_id and (start is None or abs((v.origin - start).total_seconds()) < 1e-3)
            for v in self.memory.videos(namespace)
        )

    def ask(self, question: str, namespace: str | None = None, at: datetime | None = None,
            options: list[str] | None = None) -> AgentAnswer:
        namespace = namespace or self.config.service.default_namespace
        answer = self.agent.ask(question, namespace, self.wearer_clock(at, namespace), options)
        if not self._settled:
            # The first question loaded the lexicons and models questions need (920k objects
            # the collector tracks at a week of memory). Moved out of the collector's walks,
            # they no longer cost a later question a full collection (p95 at a week of
            # memory: 494 -> 317 ms).
            self._settled = True
            gc.collect()
            gc.freeze()
        return answer

    def warm(self, namespaces: Sequence[str], budget_mb: float, progress=None) -> Warmed:
        """Read now what a first question would otherwise wait for, as a search engine loads
        its indexes before it takes queries: the indexes of the namespaces written most
        recently, as many as fit in `budget_mb`, WordNet, then one question (on the first of
        them) to load the models and lexicons every question uses. A question asked meanwhile is
        answered, waiting only for the index it needs."""
        began = time.perf_counter()
        progress = as_progress(progress)
        memory = self.memory
        footprints = {n: memory.index_footprint(n) for n in namespaces}
        loaded, left = within_budget(footprints, budget_mb)
        progress.start("load indexes", len(loaded))
        for namespace in loaded:
            memory.load(namespace)
            progress.advance("load indexes")
        memory.kinds.load()
        if namespaces:
            self.ask(WARM_UP_QUESTION, loaded[0] if loaded else namespaces[0])
        return Warmed(loaded, left, sum(footprints[n][0] for n in loaded), round(time.perf_counter() - began, 2))

    def wearer_clock(self, at: datetime | None, namespace: str) -> datetime | None:
        """Memory keeps the wearer's wall clock as naive times: a question time with an offset
        is converted into the namespace's zone (never just stripped of it, which would move
        the time cut by the offset); a naive time is already on that clock. A time near the
        ends of the calendar is refused (ValueError): "yesterday" or "last week" from it
        would leave the calendar."""
        if at is None:
            return at
        try:
            local = at if at.tzinfo is None else at.astimezone(self.config.service.zone_of(namespace)).replace(tzinfo=None)
        except OverflowError:  # an offset that moves year 1 or 9999 off the calendar
            local = None
        if local is None or not QUESTION_YEARS[0] <= local.year <= QUESTION_YEARS[1]:
            raise ValueError(f"time {at.isoformat()} is outside the years {QUESTION_YEARS[0]}-{QUESTION_YEARS[1]} "
                             "memory can be asked about")
        return local

    def name(self, namespace: str, noun: str, which: str, name: str) -> dict:
        """Name a person or place memory knows ("person 3", "place 2", or the current name):
        KeyError when none matches, ValueError for an empty name or an unknown noun."""
        naming = {"person": self.memory.name_person, "place": self.memory.name_place}
        if noun not in naming:
            raise ValueError(f"can name a person or a place, not a {noun!r}")
        known, changed = naming[noun](namespace, which, name)
        return {"id": known.id, "name": known.name, "records_changed": changed}

    def enroll_wearer(self, path: str | Path, namespace: str) -> dict:
        """Enroll the wearer's voice from a recording of them speaking (an audio or video file,
        3 s or more): their turns in every recording, past and future, are "me"'s
        (memory.wearer). ValueError for too little audio or no speaker model."""
        from perception.decode import iter_audio
        from perception.speakers import make_speaker_tagger, voice_prints
        from perception.types import AsrSegment

        tagger = make_speaker_tagger(self.config.perception)
        if tagger is None:
            raise ValueError("perception.speaker_backend is 'none': there is no voice model to enroll with")
        rate = 16000
        audio = np.concatenate([np.zeros(0, np.float32), *iter_audio(Path(path).expanduser(), rate)])
        seconds = len(audio) / rate
        if seconds < MIN_ENROLL_SECONDS:
            raise ValueError(f"{Path(path).name}: {seconds:.1f} s of audio; record at least "
                             f"{MIN_ENROLL_SECONDS:g} s of yourself speaking")
        windows = tagger.voices(audio, rate, [(0.0, seconds)])
        prints = voice_prints(windows, [AsrSegment(0.0, seconds, "", 1.0, speaker=WEARER)])
        if WEARER not in prints:
            raise ValueError(f"{Path(path).name}: no voice heard in it")
        return {"seconds": round(seconds, 1), "turns_changed": self.memory.enroll_wearer(namespace, prints[WEARER])}

    def known(self, namespace: str, noun: str) -> list[dict]:
        """The people (by face) or places (by view) memory knows, with their names."""
        registry = {"person": self.memory.people, "place": self.memory.places}[noun]
        return [{"id": k.id, "name": k.name, "named_by": k.named_by, "sightings": k.count}
                for k in registry.all(namespace)]

    def memories(self, namespace: str, kind: str | None = None, since: datetime | None = None,
                 until: datetime | None = None, video_id: str | None = None, limit: int = 100,
                 offset: int = 0, store: str = "event") -> list[MemoryRecord]:
        """A page of remembered records in time order: of one kind (STORE_OF_KIND; else every
        kind of `store`), overlapping [since, until) (with one end given:
        ending at or after `since`, or ended before `until`), of one recording. ValueError for an
        unknown kind or a bad page."""
        if kind is not None and kind not in STORE_OF_KIND:
            raise ValueError(f"unknown kind {kind!r} (one of: {', '.join(STORE_OF_KIND)})")
        if limit < 1 or offset < 0:
            raise ValueError("limit must be at least 1 and offset at least 0")
        if since is not None and until is not None and since >= until:
            raise ValueError("since must come before until")
        since, until = self.wearer_clock(since, namespace), self.wearer_clock(until, namespace)
        both = since is not None and until is not None
        flt = RecordFilter(namespace=namespace, kinds=(kind,) if kind else None,
                           video_ids=(video_id,) if video_id else None, overlaps=(since, until) if both else None,
                           not_before=since if not both else None, before=until if not both else None)
        return self.memory.store(STORE_OF_KIND.get(kind or "", store)).query(flt, limit=offset + limit)[offset:]

    def export(self, namespace: str, path: str | Path) -> Portable:
        """Write the namespace's memory to one checked archive (memory.portable)."""
        return export_namespace(self.memory, namespace, Path(path).expanduser(), installed_version())

    def backup(self, folder: str | Path) -> dict:
        """A copy of this home in `folder` (new or empty), taken while it serves: memory as of
        one commit and the job table; point MEMLENS_HOME at it to use it. The perception cache
        and uploads in flight are left out (rebuilt by ingesting again)."""
        folder = Path(folder).expanduser()
        if folder.exists() and any(folder.iterdir()):
            raise ValueError(f"{folder} is not empty: a backup goes into a new or empty folder")
        make_private_home(folder)
        (folder / "memory").mkdir(exist_ok=True)
        generation = self.memory.db.backup_to(folder / "memory" / "memory.sqlite")
        jobs = self.config.home / JOBS_FILE
        if jobs.exists():
            with closing(sqlite3.connect(jobs)) as source, closing(sqlite3.connect(folder / JOBS_FILE)) as copy:
                source.backup(copy)
        made = {"home": str(self.config.home), "taken": datetime.now().isoformat(timespec="seconds"),
                "generation": generation}
        (folder / "BACKUP.json").write_text(json.dumps(made, indent=1) + "\n")
        return made

    def restore(self, path: str | Path, namespace: str | None = None) -> Portable:
        """Restore an archive `export` wrote, as `namespace` (default: the one it came from),
        which must be empty here; memory.portable.ArchiveError, nothing written, otherwise."""
        return import_namespace(self.memory, Path(path).expanduser(), namespace)

    def forget(self, namespace: str, video_id: str | None = None,
               between: tuple[datetime, datetime] | None = None, person: str | None = None) -> int:
        """Forget records, vectors and cached observations of a video and/or a time range, or
        a person (on their own: memory.Memory.forget_person; their cached faces go too). An id
        or person this namespace does not hold is refused (LookupError), never widened to 'all'."""
        if person is not None:
            if video_id is not None or between is not None:
                raise ValueError("forget a person on their own, not with a video or a time range")
            return self._forget_person(namespace, person)
        videos = self.memory.videos(namespace)
        if video_id is not None and video_id not in {v.video_id for v in videos}:
            raise LookupError(f"no video {video_id!r} in this memory")
        if between is not None:
            between = (self.wearer_clock(between[0], namespace), self.wearer_clock(between[1], namespace))
        affected = [
            v for v in videos
            if (video_id is None or v.video_id == video_id)
            and (between is None or (v.wall_start < between[1] and v.wall_end >= between[0]))
        ]
        removed = self.memory.forget(namespace, video_id=video_id, between=between)
        self._forget_job_results(namespace)
        cache = self.cache.scoped(namespace) if self.cache is not None else None
        for video in affected if cache is not None else ():
            if between is None:
                cache.delete_video(video.video_id)
            else:  # the cache is keyed on source seconds
                lo, hi = ((t - video.origin).total_seconds() for t in between)
                cache.delete_range(video.video_id, lo, hi)
        return removed

    def _forget_person(self, namespace: str, who: str) -> int:
        """Returns how many records changed or went (their sightings, voice and mentions)."""
        if not who.strip():
            raise ValueError("person is empty")
        recorded = {v.video_id for v in self.memory.videos(namespace)}
        _, videos, changed = self.memory.forget_person(namespace, who)
        cache = self.cache.scoped(namespace) if self.cache is not None else None
        for video_id in set(videos) & recorded if cache is not None else ():  # not a day summary's "day:..."
            cache.delete_video(video_id)  # their face's descriptors, a caption that named them
        return changed

    def _forget_job_results(self, namespace: str) -> None:
        """The results of upload jobs whose recordings were forgotten, blanked in the job table
        a server keeps in this home (when one has)."""
        path = self.config.home / JOBS_FILE
        if not path.exists():
            return
        store = JobStore(path)
        try:
            store.forget_results(namespace, {v.video_id for v in self.memory.videos(namespace)})
        finally:
            store.close()

    def close(self) -> None:
        if self._memory is not None:
            self._memory.close()
