"""Source identity on composed video (M3Eval, seed 000): perception follows streams from
pixels (split screen with swaps, concatenation, interleaving, N-Back clips) and the source
answerer attributes captions to their stream, recovers order, resists intrusions and
refuses false premises. Stimuli and gold answers come from eval.m3eval's public API; the
builders' manifests are used only to check what perception found."""
from __future__ import annotations

import random
from datetime import datetime

import pytest

from eval.m3eval import nback as nb
from eval.m3eval import questions as qs
from eval.m3eval import stimuli, stories
from perception.config import PerceptionConfig
from perception.decode import probe
from skills.m3eval.answerer import SourceAnswerer, object_after, similarity, target_stream
from skills.m3eval.layout import composed_sequence
from skills.m3eval.sources import SourceMap, SourceSegment, SourceText
from skills.m3eval.tracking import observe_sources

T0 = datetime(2026, 3, 2, 9, 0, 0)
AUTO = PerceptionConfig(sources="auto")


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return tmp_path_factory.mktemp("m3eval")


@pytest.fixture(scope="module")
def pair(root):
    """Two similar 6-beat stories (18 s each), rendered once."""
    p = stories.make_pair("cooking", random.Random(7), "t", beats=6)
    return p, stories.render_story(p.a, root / "a.mp4"), stories.render_story(p.b, root / "b.mp4")


def perceive(path) -> SourceMap | None:
    return observe_sources(path, probe(path), AUTO)


def answer_all(memory, smap: SourceMap, items: list[qs.Q], namespace: str) -> list[bool]:
    """End to end through the track store and the answerer, as the agent graph calls it."""
    memory.tracks.put(namespace, namespace, "sources", T0, smap.duration, smap.to_dict())
    answerer = SourceAnswerer(memory.tracks)
    out = []
    for q in items:
        got = answerer.answer(q.question, namespace, None, [o.text for o in q.options])
        assert got is not None, q.question
        assert len(got.option_scores) == len(q.options) and got.evidence
        out.append(got.chosen_option == q.answer)
    return out


def stream_of(manifest: stimuli.Manifest, smap: SourceMap) -> dict[str, int]:
    """Which perceived stream each source became, checked at the middle of every span."""
    seen: dict[str, set[int]] = {}
    for s in manifest.spans:
        seen.setdefault(s.source, set()).add(smap.stream_at((s.start + s.end) / 2, s.region))
    assert all(len(v) == 1 for v in seen.values()), seen
    return {k: next(iter(v)) for k, v in seen.items()}


# ---- small, pure ------------------------------------------------------------------------
def test_similarity_keeps_one_word_differences_apart():
    assert similarity("the chef grates the potato", "the chef grates the potato") == 1.0
    assert similarity("the chef grates the potato", "thechef grates the potat0") > 0.85
    assert similarity("the chef grates the potato", "the chef washes the potato") < 0.6
    assert object_after("the chef slices the tomato", "slices") == "tomato"
    assert object_after("the chef slices the tomato", "slice") == "tomato"
    assert object_after("the chef slices the tomato", "washes") is None


def test_targets_resolve_by_start_position_and_first_appearance():
    swapped = SourceMap("split", [SourceSegment(0, 3, 0, "left"), SourceSegment(0, 3, 1, "right"),
                                  SourceSegment(3, 6, 1, "left"), SourceSegment(3, 6, 0, "right")])
    assert target_stream(swapped, "the video that starts on the right") == 1
    assert target_stream(swapped, "the left video") == 0
    seq = SourceMap("sequence", [SourceSegment(0, 3, 1), SourceSegment(3, 6, 0), SourceSegment(6, 9, 1)])
    assert seq.streams == [1, 0]
    assert target_stream(seq, "the first story") == 1 and target_stream(seq, "the second video") == 0
    assert target_stream(seq, "the kitchen") is None


def test_composition_evidence():
    seg = [SourceSegment(0, 30, 0), SourceSegment(30, 90, 1)]
    assert composed_sequence(seg)  # [V1, V2, V2] with the repeat seen as one segment
    assert not composed_sequence([SourceSegment(0, 7.5, 0), SourceSegment(7.5, 20, 1)])
    assert composed_sequence([SourceSegment(0, 4, 0), SourceSegment(4, 11, 1), SourceSegment(11, 15, 0)])


def test_answerer_ignores_other_questions_and_namespaces(memory):
    smap = SourceMap("sequence", [SourceSegment(0, 3, 0), SourceSegment(3, 6, 1)],
                     texts=[SourceText(0.5, 0, "full", "the chef peels the pear", y=0.9),
                            SourceText(3.5, 1, "full", "the chef fries the leek", y=0.9)], duration=6.0)
    memory.tracks.put("ns", "v", "sources", T0, 6.0, smap.to_dict())
    answerer = SourceAnswerer(memory.tracks)
    assert answerer.answer("Where did I leave my keys?", "ns", None, None) is None
    assert answerer.answer("In the first video, what does the chef peel?", "other", None, None) is None
    got = answerer.answer("In the second video, what does the chef peel?", "ns", None,
                          ["the pear", "the leek", "Not in either video", "the plum"])
    assert got.answer == "Not in either video"  # the verb is only in the other video: no intrusion
    got = answerer.answer("In the first video, what does the chef peel?", "ns", None, None)
    assert got.answer == "the pear" and not got.abstained


# ---- perception + answers on rendered stimuli ---------------------------------------------
def test_auto_mode_leaves_ordinary_video_alone(short_video):
    assert perceive(short_video) is None


def test_split_screen_without_swaps(memory, pair, root):
    p, a, b = pair
    m = stimuli.split_screen(a, b, root / "split0.mp4")
    smap = perceive(root / "split0.mp4")
    assert smap is not None and smap.layout == "split"
    assert stream_of(m, smap) == {"a": 0, "b": 1} and len(smap.segments) == 2
    rng = random.Random(1)
    items = [qs.si(p.a, p.b, "the left video", rng), qs.cr(p.a, p.b, "the left video", rng),
             qs.ou(p.a, "the left video", rng), qs.si(p.b, p.a, "the right video", rng),
             qs.ou(p.b, "the right video", rng)]
    assert all(answer_all(memory, smap, items, "split0"))


@pytest.mark.slow
def test_split_screen_streams_survive_ten_swaps(memory, pair, root):
    p, a, b = pair
    m = stimuli.split_screen(a, b, root / "split10.mp4", swaps=10)
    smap = perceive(root / "split10.mp4")
    assert smap.layout == "split"
    assert stream_of(m, smap) == {"a": 0, "b": 1}
    assert len(smap.segments) == 22  # 11 intervals x 2 regions
    rng = random.Random(2)
    items = [qs.si(p.a, p.b, "the video that starts on the left", rng),
             qs.si(p.b, p.a, "the video that starts on the right", rng),
             qs.ou(p.a, "the video that starts on the left", rng),
             qs.cr(p.b, p.a, "the video that starts on the right", rng)]
    assert all(answer_all(memory, smap, items, "split10"))


def test_concatenation_with_repeated_target_and_intrusions(memory, pair, root):
    p, a, b = pair
    rng = random.Random(3)
    mi = [qs.mi(p.a, p.b, v, rng) for v in qs.mi_verbs(p.a, p.b)[:3]]
    for order, target in (([a, a, b], "the first video"), ([b, a], "the second video")):
        out = root / f"concat{len(order)}.mp4"
        m = stimuli.concatenate(order, out)
        smap = perceive(out)
        assert smap is not None and smap.layout == "sequence"
        assert len(smap.streams) == 2 and stream_of(m, smap)[m.order()[0]] == 0  # both copies of V1: one stream
        assert all(answer_all(memory, smap, [q.named(target) for q in mi], f"concat{len(order)}"))


@pytest.mark.slow
def test_interleaved_segments_and_false_memories(memory, pair, root):
    p, a, b = pair
    m = stimuli.interleave(a, b, root / "inter.mp4", segments=6)
    smap = perceive(root / "inter.mp4")
    assert smap.layout == "sequence" and len(smap.sequence()) == 12
    assert stream_of(m, smap) == {"a": 0, "b": 1}
    rng = random.Random(4)
    items = [qs.si(p.a, p.b, "the first story", rng), qs.ou(p.b, "the second story", rng),
             qs.cr(p.a, p.b, "the first story", rng)]
    items += [qs.fmd(p.a, p.b, "the first story", v, rng) for v in qs.absent_verbs(p.a, p.b, p.unused_verbs)[:2]]
    assert all(answer_all(memory, smap, items, "inter"))


@pytest.mark.slow
def test_nback_counts_clips_and_compares_symbols(memory, root):
    inst = nb.make_instance("n", "scene", random.Random(5))
    k = 8
    clips = [nb.render_clip(c, root / f"{c.clip_id}.mp4") for c in inst.clips[:k]]
    stimuli.nback(clips, root / "nback.mp4")
    smap = perceive(root / "nback.mp4")
    assert smap.layout == "sequence" and len(smap.sequence()) == k
    items = [qs.nback_q(inst, n, k) for n in range(1, 6)]
    assert all(answer_all(memory, smap, items, "nback"))
