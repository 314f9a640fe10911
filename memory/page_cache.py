"""Files read ahead of use, as a database warms its caches after a restart.

Tantivy and memory-mapped FAISS lists are read through the page cache: right after a start
(or a reboot) each search would otherwise wait for the pages it touches first."""
from __future__ import annotations

from pathlib import Path


def read_through(path: Path, chunk: int = 8 << 20) -> int:
    """Read a file, or every file under a folder, in order; returns the bytes read. What
    cannot be read (a file a writer has just replaced) is passed over."""
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    buffer, total = bytearray(chunk), 0
    for file in files:
        try:
            with open(file, "rb", buffering=0) as f:
                while n := f.readinto(buffer):
                    total += n
        except OSError:
            continue
    return total
