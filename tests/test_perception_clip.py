"""The CLIP channel's code path with a tiny randomly initialised open_clip model.

No CLIP weights can be had offline, and open_clip needs torchvision, whose only build for
torch 2.13 is a CUDA one that breaks `transformers` once installed. So open_clip and
torchvision live in a side folder (.venv-extras/clip, installed by scripts/setup.sh with
`pip install --no-deps --target`) and the test runs in a subprocess with that folder on
PYTHONPATH, where perception.clip_embed applies its torchvision shim if needed.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from memory.records import CLIP_CAPTION, ENTITY_SIGHTING
from tests.test_perception_helpers import Shot, write_video

REPO = Path(__file__).resolve().parents[1]
EXTRAS = Path(os.environ.get("MEMLENS_CLIP_EXTRAS", REPO / ".venv-extras" / "clip"))
pytestmark = pytest.mark.slow

SCRIPT = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    import numpy as np
    from perception.clip_embed import OpenClipEmbedder, ensure_torchvision_importable, import_open_clip, make_image_embedder
    from perception import ObservationCache, PerceptionConfig, Perceiver

    video, work = Path(sys.argv[1]), Path(sys.argv[2])
    out = {"shim": ensure_torchvision_importable()}
    open_clip = import_open_clip()
    import torch
    torch.manual_seed(0)

    # 1. an already-built tiny model handed to the embedder
    tiny = {"embed_dim": 32,
            "vision_cfg": {"image_size": 32, "layers": 1, "width": 32, "head_width": 16, "patch_size": 8},
            "text_cfg": {"context_length": 16, "vocab_size": 49408, "width": 32, "heads": 2, "layers": 1}}
    model = open_clip.model.CLIP(embed_dim=32, vision_cfg=open_clip.model.CLIPVisionCfg(**tiny["vision_cfg"]),
                                 text_cfg=open_clip.model.CLIPTextCfg(**tiny["text_cfg"])).eval()
    parts = (model, open_clip.transform.image_transform(32, is_train=False),
             open_clip.tokenizer.SimpleTokenizer(context_length=16))
    emb = OpenClipEmbedder(components=parts, model_id="tiny-random")
    images = [np.full((48, 64, 3), c, dtype=np.uint8) for c in (0, 128, 255)]
    vi, vt = emb.encode_images(images), emb.encode_texts(["a kitchen", "a blue fox"])
    out["image_shape"], out["text_shape"] = list(vi.shape), list(vt.shape)
    out["norms"] = [float(n) for n in np.linalg.norm(np.concatenate([vi, vt]), axis=1)]

    # 2. the config path: a named model config + a local checkpoint, as a user with weights would
    cfg_dir = work / "configs"; cfg_dir.mkdir()
    (cfg_dir / "memlens-tiny.json").write_text(json.dumps(tiny))
    open_clip.add_model_config(cfg_dir)
    ckpt = work / "tiny.pt"
    torch.save(model.state_dict(), ckpt)
    loaded, status = make_image_embedder(PerceptionConfig(clip_model="memlens-tiny", clip_pretrained=str(ckpt)))
    out["status"] = status
    out["same_as_saved"] = bool(np.allclose(loaded.encode_images(images), vi, atol=1e-5))
    _, broken = make_image_embedder(PerceptionConfig(clip_model="memlens-tiny", clip_pretrained=str(work / "no.pt")))
    out["broken"] = broken

    # 3. the pipeline with the channel on: one embedding per keyframe, cached
    config = PerceptionConfig(clip_model="memlens-tiny", clip_pretrained=str(ckpt), clip_seconds=2.0,
                              keyframe_min_interval=1.0, asr_backend="none", ocr_backend="none",
                              speaker_backend="none", cache_dir=work / "cache")
    obs = Perceiver(config).perceive(video)
    out["channel"] = obs.channels["clip"]
    out["per_clip"] = [[len(c.keyframe_times), len(c.clip_embeddings or [])] for c in obs.clips]
    out["dims"] = sorted({len(e) for c in obs.clips for e in (c.clip_embeddings or [])})
    class Counting:  # the injected tiny model has another model id: its cache is its own
        model_id, calls = "tiny-random", 0
        def encode_images(self, images):
            Counting.calls += 1
            return emb.encode_images(images)
        def encode_texts(self, texts):
            return emb.encode_texts(texts)
    out["other_model_channel"] = Perceiver(config, embedder=Counting()).perceive(video).channels["clip"]
    first = Counting.calls
    Perceiver(config, embedder=Counting()).perceive(video)
    out["encode_calls"] = [first, Counting.calls - first]
    print("RESULT " + json.dumps(out))
    """
)


# Memory, search, doctor and forget through the service, with the channel on and off.
SYSTEM_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    from perception.clip_embed import import_open_clip
    open_clip = import_open_clip()
    import torch
    from rich.console import Console
    from memory.records import CLIP_CAPTION, ENTITY_SIGHTING, RecordFilter
    from perception.config import PerceptionConfig
    from perception.objects import COCO_LABELS
    from retrieval.search import SearchQuery
    from service.config import AppConfig
    from service.doctor import run_doctor
    from service.system import MemlensSystem

    video, work = Path(sys.argv[1]), Path(sys.argv[2])
    torch.manual_seed(0)
    tiny = {"embed_dim": 32,
            "vision_cfg": {"image_size": 32, "layers": 1, "width": 32, "head_width": 16, "patch_size": 8},
            "text_cfg": {"context_length": 16, "vocab_size": 49408, "width": 32, "heads": 2, "layers": 1}}
    model = open_clip.model.CLIP(embed_dim=32, vision_cfg=open_clip.model.CLIPVisionCfg(**tiny["vision_cfg"]),
                                 text_cfg=open_clip.model.CLIPTextCfg(**tiny["text_cfg"]))
    (work / "configs").mkdir()
    (work / "configs" / "memlens-tiny.json").write_text(json.dumps(tiny))
    open_clip.add_model_config(work / "configs")
    torch.save(model.state_dict(), work / "tiny.pt")

    def system(name, **clip):
        perception = PerceptionConfig(clip_seconds=2.0, keyframe_min_interval=1.0, asr_backend="none",
                                      ocr_backend="none", speaker_backend="none", detector_backend="none",
                                      face_backend="none", symbolic="off", sources="off", **clip)
        return MemlensSystem(AppConfig(home=work / name, perception=perception).resolve_paths())

    def doctor(s):
        console = Console(record=True, width=300)
        run_doctor(s, console)
        return [line for line in console.export_text().splitlines() if "retrieval.clip" in line]

    def tags(mem):
        found = mem.store("entity").query(RecordFilter(namespace="me", attrs=(("source", "clip"),)))
        return sorted((r.attrs["label"], r.start, r.end) for r in found)

    out = {}
    query = SearchQuery("a red room with a blue door", "me", k=100)
    on = system("on", clip_model="memlens-tiny", clip_pretrained=str(work / "tiny.pt"))
    out["status_before"] = on.clip_search_status()
    out["loaded_before_ingest"] = on.perceiver.embedder_resolved  # memory and retriever are built by now
    report = on.ingest(video, namespace="me")
    mem, model_id = on.memory, on.perceiver.clip_model_id
    captions = mem.store("event").query(RecordFilter(namespace="me", kinds=(CLIP_CAPTION,)))
    out["keyframes"] = sorted(t for c in captions for t in c.keyframes)
    vector = on.clip_text.encode_texts([query.text])[0]
    frames = mem.frames.search(model_id, vector, "me", k=1000)
    out["frames"] = sorted(f.t for f, _ in frames)
    out["frame_videos"] = sorted({(f.video_id, f.model_id == model_id) for f, _ in frames})
    hits = on.retriever.search(query)
    out["deterministic"] = [(h.record.id, h.score) for h in hits] == [(h.record.id, h.score)
                                                                      for h in on.retriever.search(query)]
    by_clip = [h.record for h in hits if "clip" in h.via]
    out["clip_kinds"] = sorted({r.kind for r in by_clip})
    out["mapped"] = all(r.video_id == report.video_id and any(r.start <= f.t < r.end or f.t in r.keyframes
                                                             for f, _ in frames) for r in by_clip)
    out["clip_captions"] = sorted(r.start for r in by_clip if r.kind == CLIP_CAPTION)
    out["captions"] = sorted(c.start for c in captions)
    out["tags"] = tags(mem)
    out["tags_known"] = all(label in COCO_LABELS for label, _, _ in out["tags"])
    out["status_after"] = on.clip_search_status()
    on.ingest(video, namespace="me")  # again: the cached vectors, replacing the frames and tags
    out["again"] = [mem.frames.count(model_id, "me"), tags(mem) == out["tags"]]
    on.forget("me", video_id=report.video_id)
    out["forgotten"] = [mem.frames.count(), sum("clip" in h.via for h in on.retriever.search(query))]
    out["doctor_on"] = doctor(on)

    off = system("off")
    off.ingest(video, namespace="me")
    out["off"] = [off.memory.frames.count(), sorted({v for h in off.retriever.search(query) for v in h.via}),
                  off.clip_search_status(), off.perceiver.embedder_resolved]
    out["doctor_off"] = doctor(off)
    print("RESULT " + json.dumps(out))
    """
)


@pytest.fixture(scope="module")
def extras():
    missing = [name for name in ("open_clip", "torchvision", "ftfy", "wcwidth") if not (EXTRAS / name).is_dir()]
    assert not missing, f"{EXTRAS} lacks {missing}: run scripts/setup.sh (make test does)"
    return EXTRAS


def test_clip_channel_with_a_tiny_random_model(extras, tmp_path):
    video = write_video(tmp_path / "v.mp4", [Shot(0, 2.0, (200, 30, 30), "A"), Shot(2.0, 5.0, (30, 30, 200), "B")],
                        size=(160, 96))
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(extras), str(REPO)]), "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(video), str(work)], check=False, cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("RESULT ")]
    assert done.returncode == 0 and lines, done.stderr[-3000:]
    out = json.loads(lines[-1][len("RESULT "):])
    assert out["image_shape"] == [3, 32] and out["text_shape"] == [2, 32]
    assert all(abs(n - 1.0) < 1e-4 for n in out["norms"])
    assert out["status"].startswith("on: open_clip memlens-tiny") and out["same_as_saved"]
    assert out["broken"].startswith("off: loading memlens-tiny/") and "no.pt" in out["broken"]
    assert out["channel"] == "on" and out["dims"] == [32]
    assert [k for k, _ in out["per_clip"]] == [e for _, e in out["per_clip"]] and all(k for k, _ in out["per_clip"])
    assert out["other_model_channel"] == "on"
    assert out["encode_calls"][0] == len(out["per_clip"]) and out["encode_calls"][1] == 0
    print(f"torchvision shim applied: {out['shim']}")


def test_clip_channel_feeds_memory_search_and_doctor(extras, tmp_path):
    """A random model's rankings mean nothing: this checks the plumbing (counts, ids, the
    frame-to-record mapping, determinism, forget, on/off), not what it finds."""
    video = write_video(tmp_path / "v.mp4", [Shot(0, 2.0, (200, 30, 30), "A"), Shot(2.0, 4.0, (30, 30, 200), "B")],
                        size=(160, 96))
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(extras), str(REPO)]), "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", SYSTEM_SCRIPT, str(video), str(work)], check=False, cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=600)
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("RESULT ")]
    assert done.returncode == 0 and lines, done.stderr[-3000:]
    out = json.loads(lines[-1][len("RESULT "):])
    assert out["status_before"].startswith("on: open_clip:memlens-tiny:") and "loads on the first search" in out[
        "status_before"]
    assert out["loaded_before_ingest"] is False  # wiring the channel loads no model
    assert out["keyframes"] and out["frames"] == out["keyframes"]  # one frame per keyframe, of this model
    assert out["frame_videos"] == [[out["frame_videos"][0][0], True]]
    assert out["deterministic"] and CLIP_CAPTION in out["clip_kinds"] and out["mapped"]
    assert set(out["clip_kinds"]) <= {CLIP_CAPTION, ENTITY_SIGHTING}
    assert out["clip_captions"] == out["captions"]  # every clip has keyframes, so every caption is reachable
    assert out["tags_known"]
    assert out["status_after"].endswith(f"{len(out['keyframes'])} keyframes in memory")
    assert out["again"] == [len(out["keyframes"]), True]
    assert out["forgotten"] == [0, 0]
    assert len(out["doctor_on"]) == 1 and "no keyframes embedded by it" in out["doctor_on"][0]
    frames, via, status, loaded = out["off"]
    assert frames == 0 and "clip" not in via and via and loaded is False
    assert status.startswith("off: perception.clip is off (no weights configured")
    assert len(out["doctor_off"]) == 1 and "off: perception.clip is off" in out["doctor_off"][0]
