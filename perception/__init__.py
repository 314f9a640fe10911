"""memlens perception: video files -> typed observations (clips, keyframes, ASR, OCR, CLIP, VLM).

Step 1 of the data flow (see DESIGN.md). `Perceiver.perceive(path)` returns a
`VideoObservation`; memory consumes only the types in `perception.types`. Backends (ASR,
speaker turns, OCR, CLIP, VLM descriptions) sit behind small Protocols, are injected or
built from `PerceptionConfig`, load their models on first use (never at import), and their
outputs are cached per (clip, stage, model, config) so re-ingestion is incremental.

    config = PerceptionConfig(cache_dir=Path("~/.cache/memlens/observations").expanduser())
    with rich.progress.Progress() as bars:          # or progress=callback(task, done, total)
        observation = Perceiver(config, progress=bars).perceive("day1.mp4")
    Perceiver(config).channel_status()               # for `memlens doctor`
"""
import os as _os

import lazy_loader as _lazy

# Threads that wait for work sleep instead of spinning (OpenMP's default is to spin for a
# while). Stages run side by side (speech beside the pictures, a question beside an
# ingest), and on two cores a spinning pool starves the others: one short query took 600 ms
# to embed next to a busy process instead of 20 ms. Set before torch starts OpenMP; a
# value the user set stands.
_os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

# The names in __init__.pyi load their module on first use (PEP 562, through lazy_loader),
# and type checkers read them there: `perception.devices` or `.config` from memory or a
# client does not pull in PyAV, OpenCV and the backends.
__getattr__, __dir__, __all__ = _lazy.attach_stub(__name__, __file__)
