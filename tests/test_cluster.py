"""Perception on a Ray cluster: a local cluster of two workers perceives real clips, and
memory ends up as a one-by-one ingest leaves it; the same code joins a remote cluster by
address (`memlens ingest --ray ray://head:10001`)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime

import pytest

from memory.records import RecordFilter
from tests.media import BOX_CLIP, CUP_CLIP, fetch

pytestmark = pytest.mark.slow

START = datetime(2026, 11, 20, 10, 0)


def _system(home):
    from service.config import load_config
    from service.system import MemlensSystem

    base = {k: v for k, v in os.environ.items() if not k.startswith("MEMLENS_")}
    return MemlensSystem(load_config(env={**base, "MEMLENS_HOME": str(home)}))


def _remembered(system) -> list[tuple]:
    return sorted((r.store, r.kind, r.video_id, r.text, r.wall_start.isoformat())
                  for name in ("entity", "event", "behavior")
                  for r in system.memory.store(name).query(RecordFilter(namespace="me")))


def test_clips_perceived_on_a_local_ray_cluster_are_remembered_as_one_by_one(tmp_path):
    from service.cluster import ingest_on_ray

    clips = [fetch(CUP_CLIP), fetch(BOX_CLIP)]
    one_by_one = _system(tmp_path / "one-by-one")
    clustered = _system(tmp_path / "clustered")
    try:
        alone = [one_by_one.ingest(clip, "me", START) for clip in clips]
        together = list(ingest_on_ray(clustered, clips, ["me", "me"], [START, START], address="local", workers=2))
        assert [r.video_id for r in together] == [r.video_id for r in alone]
        assert [r.path for r in together] == [str(clip) for clip in clips]  # not the workers' copies
        assert [r.records for r in together] == [r.records for r in alone]
        assert _remembered(clustered) == _remembered(one_by_one) and _remembered(clustered)
        assert clustered._perceiver is None  # nothing was perceived in this process
    finally:
        one_by_one.close()
        clustered.close()


def test_the_cli_hands_videos_to_ray_and_refuses_what_it_cannot_send(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMLENS_")}
    env["MEMLENS_HOME"] = str(tmp_path / "home")

    def memlens(*args):
        return subprocess.run([sys.executable, "-m", "memlens.cli", *args], capture_output=True, text=True,
                              env=env, timeout=600)

    missing = memlens("ingest", str(tmp_path / "missing.mp4"), "--ray", "local")
    assert missing.returncode == 1 and "no such file" in missing.stderr
    clip = fetch(CUP_CLIP)
    both = memlens("ingest", str(clip), str(clip), "--start", START.isoformat(), "--ray", "local")
    assert both.returncode == 2 and "--start" in both.stderr
    done = memlens("ingest", str(clip), "--ray", "local", "--workers", "1", "--namespace", "me", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["path"] == str(clip) and report["records"].get("sighting", 0) >= 1


def test_a_benchmark_perceives_its_suites_videos_on_ray_each_in_its_persons_memory(tmp_path):
    from benchmarks.suites import make_systems
    from eval.runner import Runner, namespace_for
    from eval.schema import Suite, VideoRef

    suite = Suite("clips", [VideoRef("cup", str(fetch(CUP_CLIP)), START.isoformat(), person="ann"),
                            VideoRef("box", str(fetch(BOX_CLIP)), START.isoformat(), person="bo")], [])
    system = _system(tmp_path / "home")
    try:
        (memlens,) = make_systems(["memlens"], system, ray="local", ray_workers=2)
        steps = []
        (tmp_path / "run").mkdir()
        Runner(tmp_path / "run", progress=lambda stage, done, total: steps.append((stage, done, total))).ingest(
            memlens, suite)
        assert steps == [("ingest", 1, 2), ("ingest", 2, 2)]
        for video in suite.videos:  # each person's memory holds their clip and nothing else
            assert system.holds(video.path, namespace_for(suite, video.person), START)
            other = next(v for v in suite.videos if v is not video)
            assert not system.holds(other.path, namespace_for(suite, video.person))
        assert system._perceiver is None
    finally:
        system.close()
