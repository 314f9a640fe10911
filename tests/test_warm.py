"""A server reads its wearers' indexes at start (MemlensSystem.warm), within a memory budget."""
from __future__ import annotations

import os
from datetime import timedelta

import pytest

from memory import mirrored_index
from memory.records import MemoryRecord, RecordFilter
from service.config import load_config
from service.system import MemlensSystem, within_budget
from tests.conftest import T0


def test_the_most_recently_written_namespaces_are_read_first_while_they_fit():
    mb = 2**20
    footprints = {"old": (3 * mb, 100.0), "new": (2 * mb, 300.0), "mid": (2 * mb, 200.0), "empty": (0, 0.0)}
    assert within_budget(footprints, 4) == (["new", "mid"], ["old"])
    # one too big for what is left is passed over; an older, smaller one still fits
    assert within_budget({**footprints, "old": (1 * mb, 100.0), "mid": (3 * mb, 200.0)}, 3.5) == (["new", "old"], ["mid"])
    assert within_budget(footprints, 0) == ([], ["new", "mid", "old"])
    assert within_budget({}, 100) == ([], [])


@pytest.mark.slow
def test_warm_reads_the_chosen_namespaces_so_their_questions_read_no_index_file(tmp_path, monkeypatch):
    home = tmp_path / "home"
    env = {**os.environ, "MEMLENS_HOME": str(home)}
    first = MemlensSystem(load_config(env=env))
    for n, namespace in enumerate(("ann", "ben", "cat")):  # one commit each: cat's written last
        first.memory.store("event").add([
            MemoryRecord("event", "utterance", namespace, f"{namespace} said the keys are in the blue bowl",
                         T0 + timedelta(minutes=n), T0 + timedelta(minutes=n, seconds=30), video_id="v1")])
    first.close()
    system = MemlensSystem(load_config(env=env))  # a restarted server: nothing read yet
    try:
        ben_mb = system.memory.index_footprint("ben")[0] / 2**20
        warmed = system.warm(["ann", "ben", "cat"], budget_mb=2.5 * ben_mb)
        assert (warmed.loaded, warmed.left) == (["cat", "ben"], ["ann"])
        assert warmed.index_bytes > 0 and warmed.seconds > 0
        assert not system.memory.kinds.available or "_wordnet" in vars(system.memory.kinds)  # no question named a thing

        def no_reading(*_):
            raise AssertionError("an index file read at question time")
        monkeypatch.setattr(mirrored_index, "read_segment", no_reading)
        events = system.memory.store("event")
        assert [r.namespace for r, _ in events.search_dense("keys", RecordFilter(namespace="cat"), 1)] == ["cat"]
        with pytest.raises(AssertionError, match="read at question time"):
            events.search_dense("keys", RecordFilter(namespace="ann"), 1)
    finally:
        system.close()
