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
