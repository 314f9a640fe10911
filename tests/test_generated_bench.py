"""The CI smoke runs of seed 003 and seed 000's generated suites: `memlens bench videocogqa |
m3eval --size smoke`, in process, rendering every stimulus and ingesting it with the real
perception (OCR, symbolic vision, source tracking), memlens beside random and blind."""
from __future__ import annotations

import pytest

from eval.metrics import accuracy, grouped, pair
from eval.schema import Prediction, Suite, read_jsonl
from tests.bench_runs import BenchRun, run_bench

pytestmark = pytest.mark.slow
SYSTEMS = ("memlens", "random", "blind")
SUITES = ("videocogqa", "m3eval")


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, BenchRun]:
    root = tmp_path_factory.mktemp("generated-bench")
    return {name: run_bench(name, root / "home", root / "data", root / f"out-{name}",
                            root / "data" / f"{name}-smoke-seed0.jsonl", SYSTEMS) for name in SUITES}


def _scored(run: BenchRun, system: str):
    suite = Suite.read(run.suite)
    preds = [Prediction.from_dict(r) for r in read_jsonl(run.out / "predictions" / f"{system}.jsonl")]
    return pair(suite.items, preds)


@pytest.mark.parametrize("name", SUITES)
def test_bench_runs_and_writes_a_paper_shaped_report(runs, name):
    run = runs[name]
    assert run.exit_code == 0, (run.output[-3000:], run.exception)
    text = (run.out / "report.md").read_text()
    for system in SYSTEMS:
        assert f"**{system}**" in text, system
    assert "reported by the paper" in text
    if name == "videocogqa":
        assert "## Accuracy per scene (Table 4 shape)" in text and "## Accuracy per level (Table 32 shape)" in text
        assert "Human" in text
    plots = list(run.out.glob("*.png"))
    assert plots and all(p.stat().st_size > 1000 and f"]({p.name})" in text for p in plots)


def test_videocogqa_smoke_covers_every_scene_and_level(runs):
    suite = Suite.read(runs["videocogqa"].suite)
    assert {i.meta["scene"] for i in suite.items} == {f"S{k}" for k in range(1, 11)}
    assert {i.meta["level"] for i in suite.items} == {"Easy", "Medium", "Hard"}
    assert all(3 <= len(i.options) <= 5 and i.person == i.videos[0] for i in suite.items)


def test_m3eval_smoke_covers_every_paradigm(runs):
    suite = Suite.read(runs["m3eval"].suite)
    assert {i.task for i in suite.items} == {"DA", "MI", "IE", "N-Back"}
    conditions = {i.meta["condition"] for i in suite.items}
    assert {"no-swap", "swap", "retroactive", "proactive", "interleaved"} <= conditions


@pytest.mark.parametrize("name", SUITES)
def test_one_prediction_per_item_and_memlens_beats_random_and_blind(runs, name):
    run = runs[name]
    ids = sorted(i.id for i in Suite.read(run.suite).items)
    accs = {}
    for system in SYSTEMS:
        rows = list(read_jsonl(run.out / "predictions" / f"{system}.jsonl"))
        assert sorted(r["item_id"] for r in rows) == ids and not [r for r in rows if r.get("error")], system
        accs[system] = accuracy(_scored(run, system))
    shown = ", ".join(f"{s} {100 * a:.1f}" for s, a in accs.items())
    assert accs["memlens"] > accs["random"] and accs["memlens"] > accs["blind"], shown
    per_task = grouped(_scored(run, "memlens"), lambda s: s.item.task)
    assert min(per_task.values()) > 0, per_task  # memlens answers something right in every scene / paradigm
