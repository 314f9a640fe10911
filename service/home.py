"""A memory home is private: a person's recordings, words and faces are theirs alone.

A new home is created readable by its owner only (0700); the CLI and the server also create
every file with owner-only permissions (umask 077), so a copy taken out of the home stays
private too. A home that already exists keeps the mode its owner gave it, and `memlens
doctor` warns when others can read it.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

PRIVATE_DIR = 0o700
PRIVATE_UMASK = 0o077


def make_private_home(home: Path) -> Path:
    """`home`, created (with its parents) readable by its owner only if it is not there yet."""
    home = Path(home)
    if not home.exists():
        home.mkdir(parents=True, exist_ok=True)
        os.chmod(home, PRIVATE_DIR)  # mkdir's mode is masked by the umask: set it outright
    return home


def others_can_read(home: Path) -> bool:
    """Whether users other than the owner can list or read what is in `home`."""
    return bool(Path(home).stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO))


def private_files() -> None:
    """Create every later file and folder of this process owner-only (the CLI and server)."""
    os.umask(PRIVATE_UMASK)
