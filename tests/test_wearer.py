"""The wearer's voice (memory.wearer): the closest voice of a recording to the enrolled one,
when close enough, is the wearer's; the enrollment is kept per namespace and travels with
an export. The real-voice path is in tests/test_real_media.py (the pyannote call)."""
from __future__ import annotations

import numpy as np

from memory.portable import export_namespace, import_namespace
from memory.wearer import SAME_VOICE, wearer_label


def _unit(v) -> np.ndarray:
    v = np.asarray(v, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_the_closest_voice_close_enough_is_the_wearer_s():
    rng = np.random.default_rng(3)
    me, other = _unit(rng.normal(size=256)), _unit(rng.normal(size=256))
    near = _unit(me + 0.3 * _unit(rng.normal(size=256)))  # the same voice, another day
    voices = {"S1": tuple(other), "S2": tuple(near)}
    assert float(np.dot(near, me)) >= SAME_VOICE
    assert wearer_label(voices, me) == "S2"
    assert wearer_label({"S1": tuple(other)}, me) is None  # nobody close: the wearer did not speak
    assert wearer_label(voices, None) is None and wearer_label({}, me) is None


def test_an_enrolled_voice_is_kept_per_namespace_and_travels_with_an_export(memory, tmp_path, embedder):
    from memory.config import MemoryConfig
    from memory.memory import Memory

    voice = _unit(np.arange(1, 257))
    assert memory.enroll_wearer("me", voice) == 0  # nothing remembered yet: no turn changes
    assert np.allclose(memory.wearer.enrolled("me"), voice) and memory.wearer.enrolled("other") is None
    export_namespace(memory, "me", tmp_path / "me.zip")
    fresh = Memory(MemoryConfig(root=tmp_path / "fresh"), embedder=embedder)
    try:
        import_namespace(fresh, tmp_path / "me.zip")
        assert np.allclose(fresh.wearer.enrolled("me"), voice)
    finally:
        fresh.close()
