"""Memory: records built from observations, idempotent ingest, cascading forget, behaviors."""
from __future__ import annotations

import json
from datetime import timedelta

import numpy as np
import pytest

from memory.records import RecordFilter
from tests.conftest import T0, make_observation
from tests.memory_checks import index_matches_sqlite, indexed_ids, integrity_ok, on_disk, snapshot


def _kinds(memory, store, **flt):
    return [r.kind for r in memory.store(store).query(RecordFilter(namespace="me", **flt))]


def test_ingest_builds_every_kind_of_record(memory, observation):
    counts = memory.ingest(observation, "me")
    assert counts["sighting"] >= 4 and counts["utterance"] == 7 and counts["clip"] == 3
    assert counts["hour"] == 1 and counts["recording"] == 1 and counts["visit"] == 3
    assert _kinds(memory, "event", kinds=("day",)) == ["day"]  # the day, over every recording of it
    scissors = memory.store("entity").query(RecordFilter(namespace="me", attrs=(("entity", "scissors"),)))
    assert [(r.attrs["place"], r.wall_start) for r in scissors] == [
        ("kitchen", T0 + timedelta(seconds=2)), ("living room", T0 + timedelta(seconds=32))]
    turns = memory.store("event").query(RecordFilter(namespace="me", kinds=("utterance",)))
    by_text = {r.attrs["said"]: r for r in turns}
    assert by_text["Could you buy oat milk and eggs on your way home?"].attrs["speaker_name"] == "Bob"
    assert "request" in by_text["Could you buy oat milk and eggs on your way home?"].attrs["acts"]
    assert "commitment" in by_text["Sure, I will pick them up after work."].attrs["acts"]
    assert "correction" in by_text["Actually no, it moved to four thirty."].attrs["acts"]
    note = memory.store("event").query(RecordFilter(namespace="me", kinds=("text",), attrs=(("line", "BLUEFOX42"),)))
    assert note and note[0].attrs["block"] == ["WIFI PASSWORD", "BLUEFOX42"] and note[0].attrs["place"] == "kitchen"


def test_reingesting_the_same_video_replaces_instead_of_duplicating(memory, observation):
    first = memory.ingest(observation, "me")
    again = memory.ingest(observation, "me")
    assert first == again
    assert memory.store("event").count(RecordFilter(namespace="me", kinds=("utterance",))) == 7


def test_forget_video_cascades_through_every_store_and_vector_index(memory, observation):
    memory.ingest(observation, "me")
    memory.ingest(make_observation("vid-other", T0 + timedelta(days=1)), "me")
    removed = memory.forget("me", video_id="vid-morning")
    assert removed > 0
    for name in ("entity", "event"):
        assert memory.store(name).count(RecordFilter(video_ids=("vid-morning",))) == 0
        assert len(indexed_ids(memory.store(name))) == memory.store(name).count(RecordFilter())
    behaviors = memory.store("behavior").query(RecordFilter(namespace="me"))
    assert behaviors and all(b.attrs["days"] == [(T0 + timedelta(days=1)).date().isoformat()] for b in behaviors)


@pytest.mark.parametrize("video_id", ["", "  "])
def test_forget_with_a_blank_video_id_is_refused_not_widened_to_everything(memory, observation, video_id):
    memory.ingest(observation, "me")
    before = memory.store("event").count(RecordFilter(namespace="me"))
    with pytest.raises(ValueError, match="empty"):
        memory.forget("me", video_id=video_id)
    assert memory.store("event").count(RecordFilter(namespace="me")) == before > 0


def test_forget_time_range_removes_only_overlapping_records(memory, observation):
    memory.ingest(observation, "me")
    memory.forget("me", between=(T0 + timedelta(seconds=30), T0 + timedelta(seconds=60)))
    remaining = memory.store("event").query(RecordFilter(namespace="me", kinds=("utterance",)))
    assert {r.attrs.get("speaker_name") for r in remaining} == {"Bob", None}
    assert all(not (T0 + timedelta(seconds=30) <= r.wall_start < T0 + timedelta(seconds=60)) for r in remaining)


def test_namespaces_are_separate(memory, observation):
    memory.ingest(observation, "alice")
    assert memory.store("event").count(RecordFilter(namespace="bob")) == 0
    memory.forget("bob", video_id="vid-morning")
    assert memory.store("event").count(RecordFilter(namespace="alice")) > 0


def test_behaviors_aggregate_repeated_sightings_across_days(memory):
    memory.ingest(make_observation("day1", T0), "me")
    memory.ingest(make_observation("day2", T0 + timedelta(days=1)), "me")
    kept = [b for b in memory.store("behavior").query(RecordFilter(namespace="me"))
            if b.attrs["pattern"] == "object_place" and b.attrs["key"] == ["scissors", "kitchen"]]
    assert len(kept) == 1 and kept[0].attrs["count"] == 2 and len(kept[0].attrs["days"]) == 2


def test_failed_build_leaves_memory_untouched(memory, observation):
    memory.ingest(observation, "me")
    before = memory.store("event").count(RecordFilter())
    broken = make_observation()
    broken.clips = []  # no clips: the builder cannot place anything on the clock
    with pytest.raises(ValueError, match="no clips"):
        memory.ingest(broken, "me")
    assert memory.store("event").count(RecordFilter()) == before


def test_a_reingest_that_fails_midway_keeps_the_old_memories(memory, observation, monkeypatch):
    memory.ingest(observation, "me")
    before = snapshot(memory)
    event_store = memory.store("event")

    def add_then_fail(records, vectors=None):
        raise RuntimeError("disk full")

    monkeypatch.setattr(event_store, "add", add_then_fail)  # entity records are deleted and re-added first
    with pytest.raises(RuntimeError, match="disk full"):
        memory.ingest(observation, "me")
    monkeypatch.undo()
    assert snapshot(memory) == before  # nothing half-replaced
    assert index_matches_sqlite(memory)
    hits = memory.store("entity").search_dense("scissors", RecordFilter(namespace="me"), 3)
    assert hits and all(r.id in {row[0] for row in before["entity"]} for r, _ in hits)


_CRASH_MIDWAY = """
import os, sys
sys.path.insert(0, {root!r})
from memory.config import MemoryConfig
from memory.embedding import SentenceTransformerEmbedder
from memory.memory import Memory
from tests.conftest import make_observation
memory = Memory(MemoryConfig(root={home!r}), embedder=SentenceTransformerEmbedder())
event = memory.store("event")
real_add = event.add
def add_then_die(records, vectors=None):
    real_add(records, vectors)
    os._exit(9)  # killed mid re-ingest: after the event records, before behaviors and tracks
event.add = add_then_die
memory.ingest(make_observation(), "me")
"""


def test_a_process_killed_midway_through_a_reingest_loses_nothing(tmp_path, embedder):
    import subprocess
    import sys
    from pathlib import Path

    from memory.config import MemoryConfig
    from memory.memory import Memory

    home = tmp_path / "memory"
    memory = Memory(MemoryConfig(root=home), embedder=embedder)
    memory.ingest(make_observation(), "me")
    before = snapshot(memory)
    memory.close()
    root = str(Path(__file__).resolve().parents[1])
    done = subprocess.run([sys.executable, "-c", _CRASH_MIDWAY.format(root=root, home=str(home))], timeout=300)
    assert done.returncode == 9
    reopened = Memory(MemoryConfig(root=home), embedder=embedder)
    try:
        assert snapshot(reopened) == before
        assert index_matches_sqlite(reopened)
        assert integrity_ok(reopened)
    finally:
        reopened.close()


_INGEST_DAYS = """
import sys
from datetime import timedelta
sys.path.insert(0, {root!r})
from memory.config import MemoryConfig
from memory.embedding import SentenceTransformerEmbedder
from memory.memory import Memory
from tests.conftest import T0, make_observation
memory = Memory(MemoryConfig(root={home!r}), embedder=SentenceTransformerEmbedder())
for day in {days!r}:
    memory.ingest(make_observation(f"day-{{day}}", T0 + timedelta(days=day)), "me")
memory.close()
"""


def test_two_processes_ingesting_into_one_home_at_once_agree_with_one_after_the_other(tmp_path, embedder):
    import subprocess
    import sys
    from pathlib import Path

    from memory.config import MemoryConfig
    from memory.memory import Memory

    root = str(Path(__file__).resolve().parents[1])
    together = tmp_path / "together"  # a new home both open at once
    writers = [subprocess.Popen([sys.executable, "-c", _INGEST_DAYS.format(root=root, home=str(together), days=days)])
               for days in ([0, 2, 4], [1, 3, 5])]
    assert [w.wait(timeout=600) for w in writers] == [0, 0]
    sequential = Memory(MemoryConfig(root=tmp_path / "sequential"), embedder=embedder)
    for day in range(6):
        sequential.ingest(make_observation(f"day-{day}", T0 + timedelta(days=day)), "me")
    concurrent = Memory(MemoryConfig(root=together), embedder=embedder)
    try:
        def shape(memory):
            return {name: sorted((r.video_id, r.kind, r.text) for r in memory.store(name).query(RecordFilter()))
                    for name in ("entity", "event")}
        assert shape(concurrent) == shape(sequential)
        assert index_matches_sqlite(concurrent)
        for name in ("entity", "event", "behavior"):  # the index files on disk hold every vector too
            written = sum(len(on_disk(m)[1]) for m in concurrent.store(name).partitions().values())
            assert written == concurrent.store(name).count(RecordFilter())
    finally:
        sequential.close()
        concurrent.close()


def test_forgotten_words_are_gone_from_the_files_on_disk(memory, observation):
    memory.ingest(observation, "me")
    files = [memory.db.root / "memory.sqlite", memory.db.root / "memory.sqlite-wal"]
    assert any(b"BLUEFOX42" in f.read_bytes() for f in files if f.exists())
    # Tantivy's words sit in compressed term dictionaries: its segment files that held them must go
    indexes = [memory.store(name).words("me") for name in ("entity", "event")]
    held = lambda: sum(w.documents(memory.db.generation()) and w.doc_freq("bluefox42") for w in indexes)  # noqa: E731
    assert held() > 0
    segments = {f for f in memory.db.root.glob("*.words/*.*") if f.suffix not in (".json", ".lock")}
    memory.forget("me", video_id=observation.video_id)
    assert not any(b"BLUEFOX42" in f.read_bytes() for f in files if f.exists())  # nor in FTS segments or the WAL
    assert held() == 0
    assert segments and not any(f.exists() for f in segments)


def test_short_texts_are_embedded_once_and_the_cache_is_bounded():
    from memory.embedding import SentenceTransformerEmbedder

    embedder = SentenceTransformerEmbedder(cache_size=2)
    first = embedder.embed(["where are my keys", "hello"])
    calls = []
    encode = embedder.encode
    embedder.encode = lambda texts: calls.append(list(texts)) or encode(texts)
    again = embedder.embed(["hello", "where are my keys", "something new"])
    assert calls == [["something new"]]  # only the new text reached the model
    assert np.allclose(again[0], first[1]) and np.allclose(again[1], first[0])
    assert len(embedder._cache) == 2  # bounded: the least recent text was dropped


def test_record_texts_are_embedded_before_the_write_transaction(memory, observation):
    """Other writers wait for the transaction: the model's work is done before it begins
    (only behaviors, derived from the stored records inside it, are embedded within)."""
    calls = []
    embed = memory.embedder.embed
    memory.embedder.embed = lambda texts: calls.append((memory.db.in_batch, list(texts))) or embed(texts)
    memory.ingest(observation, "me")
    inside = {t for in_batch, texts in calls if in_batch for t in texts}
    stored = {r.text for name in ("entity", "event") for r in memory.store(name).query(RecordFilter())}
    assert stored and not (stored & inside)


def test_a_refresh_rewrites_only_the_behaviors_that_changed(memory, observation):
    """Behaviors another day leaves as they were keep their rows (and vectors); those it
    adds to are written anew, with the new day among their days."""
    memory.ingest(observation, "me")
    before = {b.text: b.id for b in memory.store("behavior").query(RecordFilter(namespace="me"))}
    memory.refresh_behaviors("me")
    assert {b.text: b.id for b in memory.store("behavior").query(RecordFilter(namespace="me"))} == before
    memory.ingest(make_observation("vid-other", T0 + timedelta(days=1)), "me")
    after = memory.store("behavior").query(RecordFilter(namespace="me"))
    changed = [b for b in after if b.id not in before.values()]
    assert changed and all((T0 + timedelta(days=1)).date().isoformat() in b.attrs["days"] for b in changed)
    assert len(after) == len({(b.attrs["pattern"], tuple(b.attrs["key"])) for b in after})  # one per regularity


def test_a_behavior_is_embedded_by_its_gist_so_new_counts_reach_no_model(memory, observation, monkeypatch):
    """A day that only adds to the counts of regularities already held rewrites their text,
    not their meaning: their vectors are their gists' (no counts), which the embedder's cache
    answers, so no behavior text reaches the model."""
    from memory.behaviors import behavior_gist

    memory.ingest(observation, "me")
    calls = []
    encode = memory.embedder.encode
    monkeypatch.setattr(memory.embedder, "encode", lambda texts: calls.append(list(texts)) or encode(texts))
    held = {behavior_gist(b) for b in memory.store("behavior").query(RecordFilter(namespace="me"))}
    memory.ingest(make_observation("vid-other", T0 + timedelta(days=1)), "me")
    after = memory.store("behavior").query(RecordFilter(namespace="me"))
    recounted = [b for b in after if behavior_gist(b) in held and b.attrs["count"] > 1]
    sent = {t for texts in calls for t in texts}
    assert recounted and not sent & (held | {b.text for b in recounted})
    rows = memory.db.read(f"SELECT id, vector FROM record_vectors WHERE id IN ({','.join('?' * len(after))})", [b.id for b in after])
    stored = {r["id"]: np.frombuffer(r["vector"], dtype=np.float32) for r in rows}
    for b in recounted:
        assert b.text != behavior_gist(b) and np.allclose(stored[b.id], memory.embedder.embed([behavior_gist(b)])[0], atol=1e-5)


def test_behaviors_folded_in_by_an_ingest_equal_those_recomputed(memory, observation, monkeypatch):
    """The next video's tallies folded into the behaviors held give what a recomputation
    over every record gives; a video from before the last one is recomputed instead."""
    import memory.memory as memory_module

    recomputed = []
    recompute = memory_module.aggregate_behaviors
    monkeypatch.setattr(memory_module, "aggregate_behaviors", lambda *a: recomputed.append(1) or recompute(*a))

    def behaviors() -> list[tuple]:
        return sorted((b.text, b.wall_start, b.wall_end, json.dumps(b.attrs, sort_keys=True))
                      for b in memory.store("behavior").query(RecordFilter(namespace="me")))

    memory.ingest(make_observation("vid-early", T0 - timedelta(days=1)), "me")
    memory.ingest(observation, "me")
    memory.ingest(make_observation("vid-other", T0 + timedelta(days=1)), "me")
    assert not recomputed  # each video came after the last: folded in
    folded = behaviors()
    memory.refresh_behaviors("me")
    assert behaviors() == folded and any(len(json.loads(b[3])["days"]) == 3 for b in folded)
    recomputed.clear()
    memory.ingest(make_observation("vid-backfill", T0 - timedelta(days=2)), "me")  # before the last: recomputed
    assert recomputed
    backfilled = behaviors()
    memory.refresh_behaviors("me")
    assert behaviors() == backfilled and any(len(json.loads(b[3])["days"]) == 4 for b in backfilled)
