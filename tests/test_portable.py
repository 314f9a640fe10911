"""A namespace's memory leaves as one checked archive and comes back answering the same
questions the same way (issue 42): exported from a real home, imported into a fresh one and
under another name; a damaged, cut-short or foreign archive changes nothing."""
from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from datetime import datetime

import pytest

from eval.media import PEOPLE_PHOTO, fetch
from memory.portable import ArchiveError
from memory.records import RecordFilter
from service.config import load_config
from service.system import MemlensSystem
from tests.conftest import T0, make_observation

pytestmark = pytest.mark.slow
THREAD = ("## Session 1 | 2026-03-09T18:00\nAlice: The plumber is coming on Thursday at 9.\n"
          "Bob: Great, I'll stay home and bring the spare key.\n")
QUESTIONS = [("What did Bob ask me to buy?", datetime(2026, 3, 2, 12)), ("What is the wifi password?", None),
             ("Where did I leave the scissors?", datetime(2026, 3, 2, 12)), ("When is the plumber coming?", None),
             ("Who did I see?", None)]


def _system(home) -> MemlensSystem:
    return MemlensSystem(load_config(env={**os.environ, "MEMLENS_HOME": str(home)}))


def _answers(system: MemlensSystem, namespace: str) -> list[tuple[str, bool, list[str]]]:
    out = []
    for question, at in QUESTIONS:
        a = system.ask(question, namespace, at)
        out.append((a.answer, a.abstained, [e.record.text for e in a.evidence]))
    return out


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    root = tmp_path_factory.mktemp("portable")
    (root / "thread.txt").write_text(THREAD)
    system = _system(root / "source")
    try:
        system.memory.ingest(make_observation(), "me")
        system.ingest_transcript(root / "thread.txt", "me")
        system.ingest(fetch(PEOPLE_PHOTO), "me", T0.replace(hour=18))
        system.name("me", "person", "1", "Ana")
        before = _answers(system, "me")
        done = system.export("me", root / "me.zip")
    finally:
        system.close()
    return root, done, before


def test_an_export_restored_into_a_fresh_home_answers_the_same_questions_the_same_way(exported):
    root, done, before = exported
    assert done.counts["records"] > 20 and done.counts["people"] >= 1 and done.counts["places"] >= 1
    fresh = _system(root / "fresh")
    try:
        restored = fresh.restore(root / "me.zip")
        assert restored.namespace == "me" and restored.counts == done.counts
        assert _answers(fresh, "me") == before
        assert [p["name"] for p in fresh.known("me", "person")] == ["Ana"]  # a name the user gave comes along
        again = fresh.restore(root / "me.zip", "me-copy")  # under another name, beside the first
        assert again.namespace == "me-copy" and _answers(fresh, "me-copy") == before
        with pytest.raises(ArchiveError, match="already holds"):  # never merged into what is there
            fresh.restore(root / "me.zip")
    finally:
        fresh.close()


def _damaged(source, target, member: str, change) -> None:
    with zipfile.ZipFile(source) as a, zipfile.ZipFile(target, "w") as b:
        for item in a.infolist():
            data = a.read(item.filename)
            b.writestr(item, change(data) if item.filename == member else data)


@pytest.mark.parametrize("how", ["flipped", "cut short", "not ours", "another embedder"])
def test_a_damaged_or_foreign_archive_is_refused_whole_and_nothing_changes(exported, tmp_path, how):
    root, _, _ = exported
    bad = tmp_path / "bad.zip"
    if how == "flipped":
        _damaged(root / "me.zip", bad, "records.jsonl", lambda d: d.replace(b"oat milk", b"oat mylk"))
    elif how == "cut short":
        bad.write_bytes((root / "me.zip").read_bytes()[:-4000])
    elif how == "not ours":
        bad.write_bytes(b"PK\x03\x04 not a zip at all")
    else:
        _damaged(root / "me.zip", bad, "manifest.json", lambda d: d.replace(b"all-MiniLM-L6-v2", b"e5-large"))
    target = _system(tmp_path / "home")
    try:
        target.memory.ingest(make_observation("vid-other"), "other")
        held = target.memory.store("event").count(RecordFilter())
        with pytest.raises(ArchiveError):
            target.restore(bad, "restored")
        assert target.memory.store("event").count(RecordFilter()) == held
        assert target.memory.store("event").count(RecordFilter(namespace="restored")) == 0
    finally:
        target.close()


def test_the_command_line_exports_and_imports(exported, tmp_path):
    root, done, _ = exported
    env = {**os.environ, "MEMLENS_HOME": str(tmp_path / "home")}
    run = lambda *args: subprocess.run([sys.executable, "-m", "memlens.cli", *args], env=env,  # noqa: E731
                                       capture_output=True, text=True, timeout=300)
    imported = run("import", str(root / "me.zip"), "--namespace", "mine")
    assert imported.returncode == 0 and "'mine'" in imported.stdout, imported.stderr
    out = tmp_path / "again.zip"
    exported_again = run("export", str(out), "--namespace", "mine")
    assert exported_again.returncode == 0 and out.is_file(), exported_again.stderr
    refused = run("import", str(tmp_path / "missing.zip"))
    assert refused.returncode == 2 and "no such file" in refused.stderr and "Traceback" not in refused.stderr
    (tmp_path / "junk.zip").write_text("not an archive")
    junk = run("import", str(tmp_path / "junk.zip"))
    assert junk.returncode == 2 and "cannot import" in junk.stderr and "Traceback" not in junk.stderr


def test_a_backup_taken_while_memory_is_written_is_a_home_that_answers_as_the_original(exported, tmp_path):
    """`memlens backup` copies memory as of one commit while another thread keeps writing;
    the copy, opened as a home, rebuilds its indexes and answers as the original did then."""
    import threading

    root, _, before = exported
    home = tmp_path / "serving"
    system = _system(home)
    try:
        system.restore(root / "me.zip")
        stop = threading.Event()

        def write():  # an ingest landing meanwhile, again and again, in another namespace
            n = 0
            while not stop.is_set():
                system.memory.ingest(make_observation(f"vid-{n}"), "busy")
                n += 1

        writer = threading.Thread(target=write)
        writer.start()
        try:
            made = system.backup(tmp_path / "copy")
        finally:
            stop.set()
            writer.join(120)
        with pytest.raises(ValueError, match="not empty"):
            system.backup(tmp_path / "copy")
    finally:
        system.close()
    assert made["generation"] > 0 and (tmp_path / "copy" / "BACKUP.json").is_file()
    copy = _system(tmp_path / "copy")
    try:
        assert _answers(copy, "me") == before
        clips = copy.memory.store("event").query(RecordFilter(namespace="busy", kinds=("clip",)))
        assert len(clips) == 3 * len({c.video_id for c in clips})  # whole ingests only (3 clips each), never half
        assert copy.memory.db.read("PRAGMA integrity_check")[0][0] == "ok"
    finally:
        copy.close()
