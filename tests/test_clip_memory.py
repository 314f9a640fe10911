"""Keyframe (CLIP) vectors in memory, without a model: the frame store, the retrieval
channel they feed, and zero-shot place kinds and object tags, all with constructed vectors.

`AxisEncoder` gives every distinct text its own axis, so prompts are orthonormal and which
prompt an image vector is nearest to is exactly what a test builds.
"""
from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import numpy as np
import pytest

from memory.config import MemoryConfig
from memory.memory import Memory
from memory.records import CLIP_CAPTION, ENTITY_SIGHTING, RecordFilter
from memory.zero_shot import best_label, label_probabilities
from perception.types import ClipObservation, ClipSpan, ObjectDetection, VideoObservation
from retrieval.search import HybridRetriever, SearchQuery
from tests.conftest import T0, make_observation
from tests.test_places import _view

DIM = 256


class AxisEncoder:
    def __init__(self, model_id: str = "axis-clip"):
        self.model_id = model_id
        self.axes: dict[str, int] = {}
        self.calls = 0

    def axis(self, text: str) -> np.ndarray:
        v = np.zeros(DIM, np.float32)
        v[self.axes.setdefault(text, len(self.axes))] = 1.0
        return v

    def encode_texts(self, texts):
        self.calls += 1
        return np.stack([self.axis(t) for t in texts])


def _unit(*parts: np.ndarray) -> np.ndarray:
    v = np.sum(parts, axis=0)
    return v / np.linalg.norm(v)


def _embedded(video: VideoObservation, vector_at, model_id: str = "axis-clip") -> VideoObservation:
    """The video with one vector per keyframe (vector_at(t)), as the CLIP channel would give."""
    clips = [replace(c, clip_embeddings=[[float(x) for x in vector_at(t)] for t in c.keyframe_times]) for c in video.clips]
    return replace(video, clips=clips, clip_model=model_id)


@pytest.fixture
def enc():
    return AxisEncoder()


@pytest.fixture
def clip_memory(tmp_path, embedder, enc):
    mem = Memory(MemoryConfig(root=tmp_path / "memory"), embedder=embedder, clip_text=enc)
    yield mem
    mem.close()


# ---- zero-shot scoring ------------------------------------------------------------------
def test_zero_shot_picks_the_nearest_prompt_and_respects_the_threshold(enc):
    kinds = ["kitchen", "bedroom", "office"]
    prompts = enc.encode_texts([f"a photo of a {k}" for k in kinds])
    kitchen, bedroom = prompts[0], prompts[1]
    assert best_label(_unit(kitchen, 0.2 * bedroom), kinds, prompts, 0.5) == "kitchen"
    assert best_label(_unit(0.2 * kitchen, bedroom), kinds, prompts, 0.5) == "bedroom"
    even = _unit(kitchen, bedroom, prompts[2])  # a third each: no kind is preferred
    assert label_probabilities(even, prompts)[0] == pytest.approx([1 / 3] * 3)
    assert best_label(even, kinds, prompts, 0.5) is None and best_label(even, kinds, prompts, 0.3) in kinds
    leaning = _unit(kitchen, 0.99 * bedroom)  # nearer the kitchen, but barely
    assert best_label(leaning, kinds, prompts, 0.5) == "kitchen" and best_label(leaning, kinds, prompts, 0.9) is None


def _rooms(video_id: str = "v", things=()) -> VideoObservation:
    """Three stays by their views: keyframes 0 and 10, then 30 and 40, then 50 to the end (80)."""
    times = [(0.0, 1), (10.0, 1), (30.0, 2), (40.0, 2), (50.0, 3)]
    span = ClipSpan(video_id, 0, 0.0, 80.0, T0)
    clip = ClipObservation(span, keyframe_times=[t for t, _ in times], objects=list(things),
                           views=[_view(seed) for _, seed in times])
    return VideoObservation(video_id, f"/{video_id}.mp4", 80.0, T0, False, [clip])


def test_clip_types_places_the_detector_left_untyped_and_tags_what_it_sees(clip_memory, enc):
    photo = enc.axis
    bed = [ObjectDetection("bed", 0.6, t, (100.0, 100.0, 300.0, 300.0), (640, 480), "red", (), 1, 1)
           for t in (30.0, 40.0, 41.0)]

    def vector_at(t):
        if t < 20:  # a kitchen with a dog in it
            return _unit(photo("a photo of a kitchen"), photo("a photo of a dog"))
        if t < 45:  # CLIP says kitchen, the detector saw a bed: the detector wins
            return photo("a photo of a kitchen")
        return _unit(photo("a photo of a kitchen"), photo("a photo of a bathroom"), photo("a photo of a office"))

    clip_memory.ingest(_embedded(_rooms(things=bed), vector_at), "me")
    places = sorted(((p.name, p.named_by) for p in clip_memory.places.all("me")), key=str)
    assert places == [("bedroom", "objects"), ("kitchen", "clip"), (None, None)]
    tagged = clip_memory.store("entity").query(RecordFilter(namespace="me", attrs=(("source", "clip"),)))
    assert [(r.text, r.keyframes) for r in tagged] == [("dog seen in the kitchen", [0.0, 10.0])]
    assert tagged[0].kind == ENTITY_SIGHTING and tagged[0].attrs["confidence"] > 0.9
    caption = clip_memory.store("event").query(RecordFilter(namespace="me", kinds=(CLIP_CAPTION,)))[0]
    assert "dog" in caption.text


def test_zero_shot_needs_the_encoder_of_the_same_model_and_follows_config(tmp_path, embedder, enc):
    photo = enc.axis
    video = _embedded(_rooms(), lambda t: _unit(photo("a photo of a kitchen"), photo("a photo of a houseplant")))
    roots = iter(range(10))

    def remember(config=None, clip_text=enc, observed=video):
        mem = Memory(config or MemoryConfig(root=tmp_path / f"m{next(roots)}"), embedder=embedder, clip_text=clip_text)
        mem.ingest(observed, "me")
        out = ([p.named_by for p in mem.places.all("me")],
               sorted(r.attrs["label"] for r in mem.store("entity").query(RecordFilter(attrs=(("source", "clip"),)))),
               mem.frames.count())
        mem.close()
        return out

    assert remember() == (["clip", "clip", "clip"], [], 5)  # a houseplant is no detector label
    with_tag = MemoryConfig(root=tmp_path / "tagged", clip_tags=("houseplant",))
    assert remember(with_tag)[1] == ["houseplant"]
    assert remember(clip_text=None) == ([None, None, None], [], 5)  # vectors kept, no labels
    other = replace(video, clip_model="another-model")
    assert remember(observed=other) == ([None, None, None], [], 5)
    strict = MemoryConfig(root=tmp_path / "strict", clip_place_threshold=1.01, clip_tag_threshold=1.01,
                          clip_tags=("houseplant",))
    assert remember(strict) == ([None, None, None], [], 5)


# ---- the frame store --------------------------------------------------------------------
def test_frames_follow_their_video_through_ingest_search_and_forget(clip_memory, enc):
    query = enc.axis("scissors on the sofa")
    obs = _embedded(make_observation("day1", T0), lambda t: _unit(query, (t / 10) * enc.axis(f"frame {t}")))
    clip_memory.ingest(obs, "me")
    assert clip_memory.frames.count("axis-clip", "me") == 6 and clip_memory.frames.models() == ["axis-clip"]
    found = clip_memory.frames.search("axis-clip", query, "me", k=10)
    assert [f.t for f, _ in found] == [2.0, 15.0, 32.0, 45.0, 62.0, 75.0]  # nearest first
    assert all(f.video_id == "day1" and f.wall == T0 + timedelta(seconds=f.t) for f, _ in found)
    assert found[0][1] == pytest.approx(1 / np.linalg.norm([1, 0.2]), abs=1e-5)

    # another namespace's frames, even nearer, never take a place in this one's top k
    clip_memory.ingest(_embedded(make_observation("day1", T0), lambda t: query), "bob")
    assert [f.namespace for f, _ in clip_memory.frames.search("axis-clip", query, "me", k=2)] == ["me", "me"]
    assert {f.namespace for f, _ in clip_memory.frames.search("axis-clip", query, "bob", k=10)} == {"bob"}

    # the question-time cut is strict on the frame's time
    cut = [f.t for f, _ in clip_memory.frames.search("axis-clip", query, "me", before=T0 + timedelta(seconds=15), k=10)]
    assert cut == [2.0]

    # re-ingest replaces; an ingest without vectors leaves none
    clip_memory.ingest(_embedded(make_observation("day1", T0), lambda t: enc.axis(f"other {t}")), "me")
    assert clip_memory.frames.count("axis-clip", "me") == 6
    clip_memory.ingest(make_observation("day1", T0), "me")
    assert clip_memory.frames.count(namespace="me") == 0 and clip_memory.frames.count(namespace="bob") == 6
    clip_memory.ingest(obs, "me")

    clip_memory.forget("bob", between=(T0 + timedelta(seconds=30), T0 + timedelta(seconds=60)))
    assert sorted(f.t for f, _ in clip_memory.frames.search("axis-clip", query, "bob", k=10)) == [2.0, 15.0, 62.0, 75.0]
    clip_memory.forget("me", video_id="day1")
    assert clip_memory.frames.count(namespace="me") == 0 and clip_memory.frames.search("axis-clip", query, "me") == []


def test_frame_vectors_persist_per_model_and_survive_a_lost_index_file(tmp_path, embedder, enc):
    root = tmp_path / "memory"
    mem = Memory(MemoryConfig(root=root), embedder=embedder)
    query = enc.axis("a red door")
    mem.ingest(_embedded(make_observation("a", T0), lambda t: _unit(query, (t / 10) * enc.axis(str(t)))), "me")
    small = np.eye(8, dtype=np.float32)  # another model, another dimension
    mem.ingest(_embedded(make_observation("b", T0 + timedelta(days=1)), lambda t: small[int(t) % 8], "tiny"), "me")
    before = [(f.id, f.t) for f, _ in mem.frames.search("axis-clip", query, "me", k=3)]
    mem.close()
    folders = sorted(root.glob("frames.*.faiss"))
    assert len(folders) == 2
    next(folders[0].glob("*.seg")).write_bytes(b"not an index")
    again = Memory(MemoryConfig(root=root), embedder=embedder)
    assert [(f.id, f.t) for f, _ in again.frames.search("axis-clip", query, "me", k=3)] == before
    assert [f.video_id for f, _ in again.frames.search("tiny", small[2], "me", k=1)] == ["b"]
    assert again.frames.count("tiny") == again.frames.count("axis-clip") == 6
    again.close()


# ---- the retrieval channel --------------------------------------------------------------
def test_search_fuses_the_clip_ranking_and_maps_frames_to_their_records(clip_memory, enc):
    query = "scissors on the sofa"
    sofa = enc.axis(query)
    # the keyframe at 32 s (the living room, where the scissors lie) is the one that looks like it
    clip_memory.ingest(_embedded(make_observation("day1", T0), lambda t: sofa if t == 32.0 else enc.axis(f"f{t}")), "me")
    plain = HybridRetriever(clip_memory).search(SearchQuery(query, "me", k=100))
    assert plain and not any("clip" in h.via for h in plain)
    calls = enc.calls
    hits = HybridRetriever(clip_memory, clip_text=enc).search(SearchQuery(query, "me", k=100))
    assert enc.calls == calls + 1
    matched = [h.record for h in hits if "clip" in h.via and h.clip == pytest.approx(1.0)]
    captions = [r for r in matched if r.kind == CLIP_CAPTION]
    assert [(r.start, r.end) for r in captions] == [(30.0, 60.0)]  # the clip the frame is in
    assert {r.kind for r in matched} == {CLIP_CAPTION, ENTITY_SIGHTING}
    assert all(32.0 in r.keyframes for r in matched if r.kind == ENTITY_SIGHTING)
    assert any(r.text.startswith("SCISSORS") for r in matched)
    before = {h.record.id: h for h in plain}
    for hit in hits:  # the dense and lexical parts are unchanged; the clip list only adds
        old = before.get(hit.record.id)
        assert (hit.dense, hit.lexical) == ((old.dense, old.lexical) if old else (None, None))
        assert (hit.score > (old.score if old else 0.0)) == ("clip" in hit.via)

    # the cut: a caption is shown only once its clip is over, so before 60 s only sightings remain
    early = HybridRetriever(clip_memory, clip_text=enc).search(
        SearchQuery(query, "me", before=T0 + timedelta(seconds=40), k=30))
    assert [h.record.start for h in early if h.record.kind == CLIP_CAPTION] == [0.0]
    assert any("clip" in h.via and h.record.kind == ENTITY_SIGHTING and 32.0 in h.record.keyframes for h in early)


def test_without_frames_of_its_model_search_is_exactly_as_before(clip_memory, enc):
    clip_memory.ingest(make_observation("day1", T0), "me")
    clip_memory.ingest(_embedded(make_observation("day2", T0 + timedelta(days=1)), enc.axis, "other-model"), "me")
    query = SearchQuery("where are the scissors", "me", k=10)
    plain = HybridRetriever(clip_memory).search(query)
    with_encoder = HybridRetriever(clip_memory, clip_text=enc)
    calls = enc.calls
    same = with_encoder.search(query)
    assert [(h.record.id, h.score, h.via) for h in same] == [(h.record.id, h.score, h.via) for h in plain]
    assert enc.calls == calls  # nothing to search: the model is not even asked
    assert with_encoder.frames.status().startswith("on: axis-clip; no keyframes")
    assert HybridRetriever(clip_memory).frames.status().startswith("off:")
