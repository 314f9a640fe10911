"""M3Eval generator: stories, builders (decoded back with PyAV), question constraints,
metrics. Renders are tiny (4 beats x 1 s) so the file runs in well under a minute."""
from __future__ import annotations

import json
import random
from datetime import datetime

import av
import numpy as np
import pytest

from eval.m3eval import questions as qs
from eval.m3eval.metrics import intrusion_rate, linear_fit, m3eval_metrics
from eval.m3eval.nback import NK_FULL, describe_nk, make_instance, render_clip
from eval.m3eval.report import m3eval_plots, m3eval_report
from eval.m3eval.stimuli import Manifest, concatenate, interleave, nback, split_screen
from eval.m3eval.stories import TOPICS, StoryScript, make_pair, render_story
from eval.m3eval.suite import build_user_suite
from eval.metrics import Scored
from eval.schema import Item, Option, Prediction, Suite

A_RGB, B_RGB = (200, 40, 40), (40, 40, 200)


def decode(path) -> list[np.ndarray]:
    with av.open(str(path)) as c:
        return [f.to_ndarray(format="rgb24") for f in c.decode(video=0)]


def which(img: np.ndarray, x: int) -> str:
    """Which backdrop a pixel column shows (a corner free of sign, props and caption)."""
    px = img[60, x].astype(int)
    return "a" if np.abs(px - A_RGB).sum() < np.abs(px - B_RGB).sum() else "b"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    root = tmp_path_factory.mktemp("m3")
    pair = make_pair("cooking", random.Random(1), "t0", (A_RGB, B_RGB), beats=4, beat_seconds=1.0)
    return root, pair, render_story(pair.a, root / "a.mp4"), render_story(pair.b, root / "b.mp4")


@pytest.fixture(scope="module")
def big():
    return make_pair("office", random.Random(7), "q0")


def test_determinism(big):
    again = make_pair("office", random.Random(7), "q0")
    assert again == big
    draft = [qs.si(big.a, big.b, "x", random.Random(3)), qs.cr(big.a, big.b, "x", random.Random(3)),
             qs.mi(big.a, big.b, qs.mi_verbs(big.a, big.b)[0], random.Random(3))]
    assert draft == [qs.si(big.a, big.b, "x", random.Random(3)), qs.cr(big.a, big.b, "x", random.Random(3)),
                     qs.mi(big.a, big.b, qs.mi_verbs(big.a, big.b)[0], random.Random(3))]
    assert make_instance("i", "scene", random.Random(5)) == make_instance("i", "scene", random.Random(5))
    assert make_pair("office", random.Random(8), "q0") != big


def test_pair_rules_and_manifest_adapter(big, tmp_path):
    a, b = big.a, big.b
    assert (a.actor, a.topic) == (b.actor, b.topic) and a.backdrop != b.backdrop and a.place != b.place
    assert len({x.verb for x in a.beats} & {x.verb for x in b.beats}) >= 7  # mostly shared verbs
    assert not {x.obj for x in a.beats} & {x.obj for x in b.beats}
    assert len({(x.verb, x.obj) for x in a.beats}) == len(a.beats) == 10 and a.duration == 30.0
    assert all(x.caption == f"the clerk {x.verb} the {x.obj}" for x in a.beats)
    assert set(big.unused_verbs).isdisjoint({x.verb for x in a.beats + b.beats})
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({**json.loads(a.to_json()), "video": "/videos/mine.mp4"}))
    loaded = StoryScript.load(path)
    assert loaded.beats == a.beats and loaded.video == "/videos/mine.mp4"


def test_split_screen_no_swap_and_swap(tiny):
    root, _, va, vb = tiny
    m0 = split_screen(va, vb, root / "da0.mp4", swaps=0)
    frames = decode(root / "da0.mp4")
    assert frames[0].shape == (270, 960, 3) and len(frames) == 40
    assert {(which(f, 20), which(f, 500)) for f in frames} == {("a", "b")}
    assert m0.at(2.0, "left") == "a" and m0.at(2.0, "right") == "b"
    m = split_screen(va, vb, root / "da10.mp4", swaps=10)
    frames = decode(root / "da10.mp4")
    lefts = [which(f, 20) for f in frames]
    assert all(which(f, 20) != which(f, 500) for f in frames)
    changes = [i / 10 for i in range(1, len(lefts)) if lefts[i] != lefts[i - 1]]
    assert len(changes) == 10 == len(m.meta["swap_times"])
    assert m.meta["swap_times"] == pytest.approx([k * 4.0 / 11 for k in range(1, 11)], abs=1e-3)
    assert all(0 <= c - s < 0.1 + 1e-6 for c, s in zip(changes, m.meta["swap_times"]))
    assert [m.at(t + 0.01, "left") for t in [0.0, *m.meta["swap_times"]]] == ["a", "b"] * 5 + ["a"]
    assert Manifest.read(root / "da10.manifest.json") == m


def test_concatenate_and_interleave(tiny):
    root, _, va, vb = tiny
    m = concatenate([va, va, vb], root / "rep.mp4")
    frames = decode(root / "rep.mp4")
    assert len(frames) == 120 and m.duration == 12.0 and m.order() == ["a", "b"]
    assert [which(frames[i], 20) for i in (5, 45, 85)] == ["a", "a", "b"]
    pro = concatenate([vb, va], root / "pro.mp4")
    assert pro.order() == ["b", "a"] and len(decode(root / "pro.mp4")) == 80
    m = interleave(va, vb, root / "ie.mp4", segments=4)
    frames = decode(root / "ie.mp4")
    assert len(frames) == 80 and m.meta["segment_seconds"] == 1.0
    seq = [which(frames[i], 20) for i in range(5, 80, 10)]
    assert seq == ["a", "b"] * 4 == [s.source for s in m.spans]
    assert [s.source_start for s in m.spans if s.source == "a"] == [0.0, 1.0, 2.0, 3.0]


def test_user_videos_through_json_manifests(tiny):
    """The adapter: any two videos + StoryScript-shaped manifests -> DA / MI / IE items."""
    root, pair, _, _ = tiny
    suite = Suite.read(build_user_suite([(root / "a.json", root / "b.json")], root / "user", size="smoke"))
    conds = {(i.task, i.meta["condition"], i.meta["qtype"]) for i in suite.items}
    assert {c[:2] for c in conds} == {("DA", "no-swap"), ("DA", "swap"), ("MI", "retroactive"), ("MI", "proactive"),
                                      ("IE", "interleaved")}
    assert ("IE", "interleaved", "FMD") in conds
    videos = {v.video_id: v for v in suite.videos}
    for item in suite.items:
        assert len(item.options) == 4 and item.person == item.videos[0] and item.videos[0] in videos
        assert item.asked_time > datetime.fromisoformat(videos[item.person].start)
    mi = [i for i in suite.items if i.task == "MI"]
    assert {i.question.split(",")[0] for i in mi} == {"In the first video", "In the second video"}
    assert videos["u0-mi-retroactive"].duration == 8.0 and videos["u0-da-swap"].duration == 4.0


def test_nback_builder_and_gold(tmp_path):
    inst = make_instance("nb", "action", random.Random(2))
    assert sum(inst.gold(n, k) for n, k in NK_FULL) == 13  # Yes/No balanced
    clips = [render_clip(c, tmp_path / f"{c.clip_id}.mp4", seconds=0.5) for c in inst.clips[:5]]
    m = nback(clips, tmp_path / "nb.mp4", clip_seconds=0.5)
    frames = decode(tmp_path / "nb.mp4")
    assert len(frames) == 25 and m.meta["K"] == 5 and len(m.spans) == 5
    cuts = sum(np.abs(frames[i][60, 20].astype(int) - frames[i - 1][60, 20]).sum() > 30 for i in range(1, 25))
    assert cuts == 4  # adjacent clips come from different sources (backdrops)
    for n, k in NK_FULL:
        q = qs.nback_q(inst, n, k)
        gold = inst.clips[k - 1].action == inst.clips[k - 1 - n].action
        assert q.options[q.answer].text == ("Yes" if gold else "No")
        assert q.question == (f"This video is a sequence of {k} clips. Does the last clip show the same action as "
                              f"the clip {n} positions before it?")


def test_nk_sets_read_as_ranges_per_k():
    assert describe_nk(NK_FULL) == "K=6: N=1-5; K=8: N=1-5; K=10: N=1-5; K=12: N=1-11"
    assert describe_nk(((7, 8), (1, 8), (2, 8), (5, 8), (3, 8), (2, 6))) == "K=6: N=2; K=8: N=1-3,5,7"


def test_question_constraints(big):
    a, b, rng = big.a, big.b, random.Random(0)
    for _ in range(20):
        q = qs.si(a, b, "the left video", rng)
        assert q.question == "Which of these happens in the left video?" and len(q.options) == 4
        assert q.options[q.answer].text in a.captions
        assert all(o.text in b.captions for i, o in enumerate(q.options) if i != q.answer)
        q = qs.cr(a, b, "the left video", rng)
        assert q.options[q.answer].text in a.captions
        assert all(o.text not in a.captions + b.captions for i, o in enumerate(q.options) if i != q.answer)
        q = qs.ou(a, "the first story", rng)
        caps = q.options[q.answer].text.split(", then ")
        assert [a.captions.index(c) for c in caps] == sorted(a.captions.index(c) for c in caps)
        assert len({o.text for o in q.options}) == 4
    unrelated_pool = {o for t in TOPICS.values() if t.name != a.topic for objs in t.objects for o in objs}
    for verb in qs.mi_verbs(a, b):
        q = qs.mi(a, b, verb, rng).named("the second video")
        assert q.question == f"In the second video, what does the clerk {qs.base_form(verb)}?"
        roles = [o.role for o in q.options]
        assert roles.count("intrusion") == 2 and roles.count("distractor") == 1 and roles.count("correct") == 1
        assert q.options[q.answer].text == "the " + next(x.obj for x in a.beats if x.verb == verb)
        objs_b = {x.obj for x in b.beats}
        assert all(o.text[4:] in objs_b for o in q.options if o.role == "intrusion")
        odd = next(o.text[4:] for o in q.options if o.role == "distractor")
        assert odd in unrelated_pool and odd not in objs_b | {x.obj for x in a.beats}
    verbs = qs.absent_verbs(a, b, big.unused_verbs)
    assert verbs[:2] == list(big.unused_verbs)
    q = qs.fmd(a, b, "the first story", verbs[0], rng)
    assert q.options[q.answer].text == qs.NOT_IN_EITHER and len(q.options) == 4
    assert verbs[0] not in {x.verb for x in a.beats + b.beats}
    with pytest.raises(ValueError):
        qs.fmd(a, b, "the first story", a.beats[0].verb, rng)


def _item(i: int, paradigm: str, cond: str, qtype: str, roles: tuple[str, ...], **meta) -> Item:
    return Item(f"x{i}", "m3eval", paradigm, "q", tuple(Option(r, r) for r in roles), roles.index("correct"),
                "2026-01-01T09:10:00", meta={"paradigm": paradigm, "condition": cond, "qtype": qtype, **meta})


def _scored(item: Item, role: str | None) -> Scored:
    chosen = None if role is None else [o.role for o in item.options].index(role)
    return Scored(item, Prediction(item.id, "sys", chosen, [], False))


def test_metrics_on_hand_built_lists(tmp_path):
    mi_roles = ("correct", "intrusion", "intrusion", "distractor")
    picks = {"proactive": ["correct", "correct", "correct", "intrusion"],
             "retroactive": ["correct", "intrusion", "intrusion", None]}
    scored = [_scored(_item(10 * k + j, "MI", cond, "MI", mi_roles), role)
              for k, (cond, roles) in enumerate(picks.items()) for j, role in enumerate(roles)]
    da_roles = ("correct", "distractor", "distractor", "distractor")
    scored += [_scored(_item(100 + j, "DA", cond, "SI", da_roles), role) for j, (cond, role) in enumerate(
        [("no-swap", "correct"), ("no-swap", "correct"), ("swap", "correct"), ("swap", "distractor")])]
    scored += [_scored(_item(200, "IE", "interleaved", "SI", da_roles), "distractor")]
    # N-Back: accuracy 1.0 at K=6, 0.5 at K=8, 0.0 at K=10 (N = 1 and 2 each)
    yn = ("correct", "distractor")
    for k, right in ((6, 2), (8, 1), (10, 0)):
        for n in (1, 2):
            scored.append(_scored(_item(300 + 10 * k + n, "N-Back", "nback", "YN", yn, attribute="scene", N=n, K=k),
                                  "correct" if n <= right else "distractor"))
    m = m3eval_metrics(scored)
    assert m["MI"]["acc"]["proactive"] == 0.75 and m["MI"]["acc"]["retroactive"] == 0.25
    assert m["MI"]["ir"]["proactive"] == 0.25 and m["MI"]["ir"]["retroactive"] == 0.5
    assert m["MI"]["acc_delta"] == 0.5 and m["MI"]["ir_delta"] == -0.25
    assert intrusion_rate([]) is None
    assert m["DA"]["no-swap"]["SI"] == 1.0 and m["DA_swap_delta"]["SI"] == -0.5 and m["DA"]["swap"]["OU"] is None
    assert m["source"] == {"spatial": 0.5, "temporal": 0.0}
    nb = m["N-Back"]
    assert nb["per_nk"][(1, 8)] == 1.0 and nb["per_nk"][(2, 8)] == 0.0
    assert nb["fit_K"] == pytest.approx((-0.25, 2.5))
    assert nb["fit_N"] == pytest.approx((-1 / 3, 1.0))
    assert linear_fit([1, 2, 3], [0.2, 0.4, 0.6]) == pytest.approx((0.2, 0.0))
    assert linear_fit([4, 4], [0.3, 0.5]) == (0.0, 0.4)
    report = m3eval_report({"sys": scored}, "t")
    assert "| **sys** | 100.00 | – | – | 50.00 (-50.00) |" in report and "Qwen3.5-27B" in report
    paths = m3eval_plots({"sys": scored}, tmp_path)
    assert all(p.exists() and p.stat().st_size > 1000 for p in paths)
