"""A short soak (benchmarks/soak.py; the hour-long run is a benchmark): a real server takes
uploads and questions from two keys in loops for about half a minute and nothing it holds
grows with the work: no error, open files flat (a connection per thread that ever read
used to stay open: 2,000 files after 90 s)."""
from __future__ import annotations

import pytest

from benchmarks.soak import soak

pytestmark = pytest.mark.slow


def test_a_busy_server_keeps_its_open_files_flat_and_answers_every_request(tmp_path):
    windows = soak(tmp_path / "home", minutes=0.6, window_minutes=0.15, keys=2)
    assert len(windows) >= 3 and not [e for w in windows for e in w.errors], [w.errors for w in windows]
    assert sum(w.asks for w in windows) > 20 and sum(w.uploads for w in windows) > 4
    first, last = windows[0], windows[-1]
    assert last.sqlite_files <= first.sqlite_files + 8, [w.sqlite_files for w in windows]
    assert last.open_files <= first.open_files + 12, [w.open_files for w in windows]
