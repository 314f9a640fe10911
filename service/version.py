"""The installed memlens's version: what `--version` prints and exports record."""
from __future__ import annotations

from importlib import metadata

NOT_INSTALLED = "0+unknown"  # a source tree that was never installed


def installed_version() -> str:
    try:
        return metadata.version("memlens")
    except metadata.PackageNotFoundError:
        return NOT_INSTALLED
