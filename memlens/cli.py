"""The `memlens` command: service.cli's commands with `memlens bench ...` (benchmarks/cli.py)
added on top. The console script and `python -m memlens.cli` run `main`."""
from __future__ import annotations

from benchmarks.cli import register
from service.cli import app as _service_app

app = register(_service_app)


def main() -> None:
    register(app)()


if __name__ == "__main__":
    main()
