"""The `memlens` command line, run as a real subprocess on real video."""
from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys

import pytest

from memory.config import MemoryConfig
from memory.memory import Memory
from memory.records import RecordFilter

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    return tmp_path_factory.mktemp("cli-home")


def memlens(home, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    env = {**os.environ, "MEMLENS_HOME": str(home), "HF_HUB_OFFLINE": "1", "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "memlens.cli", *args], capture_output=True, text=True,
                          env=env, timeout=timeout)


def stored(home, embedder) -> int:
    memory = Memory(MemoryConfig(root=home / "memory"), embedder=embedder)
    try:
        return sum(memory.store(s).count(RecordFilter()) for s in ("entity", "event", "behavior"))
    finally:
        memory.close()


@pytest.fixture(scope="module")
def ingested(home, short_video):
    done = memlens(home, "ingest", str(short_video), "--namespace", "me", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_ingest_reports_records_channels_and_speed(ingested):
    assert ingested["records"]["utterance"] >= 1 and ingested["records"]["sighting"] >= 1
    assert ingested["channels"]["asr"] == "on" and ingested["channels"]["ocr"] == "on"
    assert ingested["channels"]["clip"].startswith("off:")  # no CLIP weights ship offline
    assert ingested["wall_start"].startswith("2024-05-14") and ingested["realtime_factor"] > 0


def test_ask_answers_with_evidence_as_json(home, ingested):
    done = memlens(home, "ask", "What is the wifi password?", "--namespace", "me", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert "BLUEFOX42" in answer["answer"] and not answer["abstained"]
    assert answer["evidence"][0]["source"] == "ocr" and answer["evidence"][0]["video_id"] == ingested["video_id"]


def test_ask_with_options_prints_scores(home, ingested):
    done = memlens(home, "ask", "What colour is my car?", "--namespace", "me",
                   "-o", "Red", "-o", "Blue", "-o", "This question cannot be answered")
    assert done.returncode == 0, done.stderr
    assert "abstained" in done.stdout and "This question cannot be answered" in done.stdout


@pytest.mark.parametrize("name, reason", [
    ("empty.mp4", "empty"), ("truncated.mp4", "not a readable media file"),
    ("notes.mp4", "not a readable media file"), ("captions.srt", "neither pictures nor sound"),
    ("missing.mp4", "no such file"), ("a-directory.mp4", "directory"),
])
def test_bad_inputs_fail_clearly_and_store_nothing(home, ingested, bad_videos, embedder, name, reason):
    before = stored(home, embedder)
    done = memlens(home, "ingest", str(bad_videos[name]), "--namespace", "me")
    assert done.returncode == 1
    assert "cannot ingest" in done.stderr and reason in done.stderr and "Traceback" not in done.stderr
    assert stored(home, embedder) == before


def test_an_audio_recording_is_ingested_from_its_sound(home, bad_videos):
    done = memlens(home, "ingest", str(bad_videos["audio-only.m4a"]), "--namespace", "voice", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["channels"]["asr"] == "on" and report["channels"]["ocr"] == "off: an audio recording"
    assert report["records"].get("utterance", 0) >= 1


def test_video_without_audio_is_ingested_from_pictures(home, silent_video):
    done = memlens(home, "ingest", str(silent_video), "--namespace", "silent", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["channels"]["asr"].startswith("off") and report["records"].get("sighting", 0) >= 1


def test_ingest_speed_is_said_one_way(home, short_video):
    done = memlens(home, "ingest", str(short_video), "--namespace", "speed")
    assert done.returncode == 0 and "x real time" in done.stdout and "realtime factor" not in done.stdout
    seconds, ratio = (float(x) for x in re.search(r"in ([\d.]+) s \(([\d.]+)x real time\)", done.stdout).groups())
    assert ratio > 0 and seconds > 0


def test_version_prints_the_installed_version(home):
    from importlib.metadata import version

    done = memlens(home, "--version")
    assert done.returncode == 0 and done.stdout.strip() == f"memlens {version('memlens')}"


def test_loading_a_model_draws_no_third_party_progress_bar(home, ingested):
    done = memlens(home, "ask", "Where are my keys?", "--namespace", "me")
    assert done.returncode == 0 and "Loading weights" not in done.stderr + done.stdout


def test_memories_and_people_list_as_json_a_page_at_a_time(home, ingested):
    every = json.loads(memlens(home, "memories", "--namespace", "me", "--limit", "1000", "--json").stdout)["records"]
    page = json.loads(memlens(home, "memories", "--namespace", "me", "--limit", "2", "--offset", "1",
                              "--json").stdout)["records"]
    assert len(every) > 3 and [r["id"] for r in page] == [r["id"] for r in every[1:3]]
    text = memlens(home, "memories", "--namespace", "me", "--kind", "utterance")
    assert text.returncode == 0 and text.stdout.count("utterance") >= 1
    assert memlens(home, "memories", "--kind", "gossip").returncode == 2
    assert json.loads(memlens(home, "people", "--namespace", "me", "--json").stdout)["known"] is not None


def test_evidence_is_cut_between_words_never_inside_one():
    from service.console import excerpt

    text = "Alice: the plumber said " + "unbelievably " * 20 + "late"
    out = excerpt(text)
    assert len(out) <= 100 and out.endswith(" …") and set(out[:-2].split()) <= set(text.split())
    assert excerpt("short line") == "short line"


def test_bad_question_time_is_a_usage_error(home):
    done = memlens(home, "ask", "Where are my keys?", "--at", "yesterday-ish")
    assert done.returncode == 2 and "ISO" in done.stderr


def test_a_home_that_cannot_hold_memory_is_a_clear_error_not_a_traceback(tmp_path):
    (tmp_path / "a-file").write_text("not a folder")
    for home, reason in ((tmp_path / "a-file", "a file, not a folder"), ("/proc/memlens-home", "No such file")):
        done = memlens(home, "ask", "where are my keys?")
        assert done.returncode == 2 and reason in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert "MEMLENS_HOME" in done.stderr


def test_a_new_home_and_its_files_are_its_owners_alone_and_doctor_warns_of_an_open_one(tmp_path):
    private = tmp_path / "private" / "home"
    done = memlens(private, "ask", "where are my keys?")
    assert done.returncode == 0, done.stderr
    assert private.stat().st_mode & 0o777 == 0o700
    written = [p for p in private.rglob("*") if p.is_file()]
    assert written and all(p.stat().st_mode & 0o077 == 0 for p in written), [oct(p.stat().st_mode) for p in written]
    assert "home.permissions" in memlens(private, "doctor").stdout
    private.chmod(0o755)  # a home its owner opened to others
    shown = memlens(private, "doctor").stdout.replace("\n", " ")
    assert "others can read" in shown and "chmod 700" in shown


def test_a_forgotten_time_range_leaves_none_of_its_words_in_any_file_of_the_home(tmp_path):
    thread = tmp_path / "thread.txt"
    thread.write_text("## Session 1 | 2026-03-09T18:00\nAlice: The gate code is ZEPHYRQUARTZ, keep it quiet.\n"
                      "Bob: Got it.\n## Session 2 | 2026-03-11T09:00\nAlice: The plumber comes on Thursday.\n")
    home = tmp_path / "home"
    assert memlens(home, "ingest", str(thread)).returncode == 0

    def holding(word: bytes) -> list:
        return [p.name for p in home.rglob("*") if p.is_file() and word in p.read_bytes()]

    assert holding(b"ZEPHYRQUARTZ")
    done = memlens(home, "forget", "--from", "2026-03-09T17:00", "--to", "2026-03-09T20:00")
    assert done.returncode == 0, done.stderr
    assert holding(b"ZEPHYRQUARTZ") == [] and holding(b"plumber")  # the range only


def test_doctor_names_every_channel(home):
    done = memlens(home, "doctor")
    assert done.returncode == 0, done.stdout + done.stderr
    for part in ("perception.asr", "perception.ocr", "perception.clip", "memory.embedder", "agent.llm"):
        assert part in done.stdout
    assert "memory.kinds" in done.stdout and "on: WordNet 3.0" in done.stdout
    assert "384-d, onnxruntime" in done.stdout  # a CPU machine's embedder runs without torch
    assert "skills" in done.stdout and "off (opt-in" in done.stdout  # benchmark skills are never on by default
    assert "MEMLENS_AGENT__LLM__BACKEND=llamacpp" in done.stdout.replace("\n", "").replace(" ", "") \
        or "setup_llm.sh" in done.stdout  # how to switch the local model on
    import torch  # where "auto" devices resolve, as this machine's torch sees it

    assert "device.torch" in done.stdout and "device.faiss" in done.stdout
    assert ("cuda (" if torch.cuda.is_available() else "cpu only") in done.stdout


def test_serve_without_api_keys_refuses_a_public_address(tmp_path):
    done = memlens(tmp_path, "serve", "--host", "0.0.0.0", timeout=120)
    assert done.returncode == 2 and "without API keys" in done.stderr


@contextlib.contextmanager
def served(home):
    """`memlens serve` on a free loopback port, without keys (one namespace); yields its URL
    and a list that receives its stderr once it stopped."""
    import time

    import httpx

    from tests.servers import free_port

    port = free_port()
    env = {**os.environ, "MEMLENS_HOME": str(home), "HF_HUB_OFFLINE": "1", "COLUMNS": "200"}
    server = subprocess.Popen([sys.executable, "-m", "memlens.cli", "serve", "--port", str(port)],
                              stderr=subprocess.PIPE, text=True, env=env)
    logs: list[str] = []
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/health", timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and server.poll() is None, "server did not start"
                time.sleep(0.3)
        yield f"http://127.0.0.1:{port}", logs
    finally:
        server.terminate()
        logs.append(server.communicate(timeout=60)[1])


def test_serve_on_loopback_without_keys_says_so_and_serves_one_namespace(tmp_path):
    import httpx

    with served(tmp_path) as (url, logs):
        jobs = httpx.get(f"{url}/jobs", timeout=5)
        assert jobs.status_code == 200 and jobs.json() == {"jobs": []}  # no key needed, on loopback only
    assert "no API keys configured" in logs[0] and "'default'" in logs[0]


def test_the_cli_hands_ingest_and_ask_to_a_running_server(tmp_path):
    """`--server`: the file goes to the server's models and memory, the answer comes from
    there; the command's own home stays empty."""
    thread = tmp_path / "chat.txt"
    thread.write_text("## Session 1 | 2026-03-09T09:30\nBob: The plumber comes on Thursday at ten.\n"
                      "Alice: Thanks, I'll be home then.\n")
    client_home = tmp_path / "client"
    with served(tmp_path / "server") as (url, _):
        done = memlens(client_home, "ingest", str(thread), "--server", url, "--json")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["conversations"][0]["records"]["utterance"] == 2
        asked = memlens(client_home, "ask", "When is the plumber coming?", "--server", url, "--at",
                        "2026-03-10T08:00", "--json")
        assert asked.returncode == 0, asked.stderr
        answer = json.loads(asked.stdout)
        assert "thursday" in answer["answer"].lower() and answer["evidence"][0]["text"].startswith("Bob")
        empty = tmp_path / "empty.mp4"
        empty.write_bytes(b"")
        refused = memlens(client_home, "ingest", str(empty), "--server", url)
        assert refused.returncode == 1 and "422" in refused.stderr
        both = memlens(client_home, "ingest", str(thread), "--server", url, "--namespace", "me")
        assert both.returncode == 2 and "API key decides" in both.stderr
    assert not (client_home / "memory").exists()
    gone = memlens(client_home, "ask", "anything?", "--server", url)
    assert gone.returncode == 1 and "cannot reach" in gone.stderr


def test_key_prints_a_new_key_and_the_hash_to_store(tmp_path):
    import re

    from service.config import ServiceConfig, hash_key

    done = memlens(tmp_path, "key", "alice")
    assert done.returncode == 0, done.stderr
    key = done.stdout.splitlines()[1].strip()
    stored_line = re.search(r'"(sha256:[0-9a-f]{64})" = "alice"', done.stdout)
    assert len(key) >= 40 and stored_line and stored_line.group(1) == hash_key(key)
    config = ServiceConfig(api_keys={stored_line.group(1): "alice"})
    assert config.namespace_for(key) == "alice" and config.namespace_for(stored_line.group(1)) is None


def test_ingest_takes_a_transcript_and_ask_answers_from_it(tmp_path):
    thread = tmp_path / "chat.txt"
    thread.write_text("## Session 1 | 2026-03-09T09:30\nBob: The plumber comes on Thursday at ten.\n"
                      "Alice: Thanks, I'll be home then.\n")
    done = memlens(tmp_path, "ingest", str(thread), "--namespace", "me", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["records"]["utterance"] == 2
    asked = memlens(tmp_path, "ask", "When is the plumber coming?", "--namespace", "me", "--at", "2026-03-10T08:00", "--json")
    assert asked.returncode == 0 and "Thursday" in json.loads(asked.stdout)["answer"]
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"speaker": "Bob", "text": "hi"}\n')
    refused = memlens(tmp_path, "ingest", str(broken), "--namespace", "me")
    assert refused.returncode == 1 and "broken.jsonl:1" in refused.stderr and "missing time" in refused.stderr


def test_bench_scale_refuses_to_keep_its_memory_in_a_folder_that_holds_something_else(tmp_path):
    theirs = tmp_path / "my-memory"
    (theirs / "memory").mkdir(parents=True)
    (theirs / "memory" / "memlens.sqlite").write_bytes(b"not ours to grow")
    done = memlens(tmp_path / "home", "bench", "scale", "--quick", "--keep", str(theirs), "--out", str(tmp_path / "out"),
                   timeout=120)
    assert done.returncode == 2 and "not empty" in done.stderr, done.stdout + done.stderr
    assert (theirs / "memory" / "memlens.sqlite").read_bytes() == b"not ours to grow" and not (tmp_path / "out").exists()


def test_a_forgotten_person_leaves_neither_face_nor_name_in_any_file_of_the_home(tmp_path):
    from eval.media import TED_CLIP, fetch

    home = tmp_path / "home"
    done = memlens(home, "ingest", str(fetch(TED_CLIP)), "--start", "2026-11-20T10:00")
    assert done.returncode == 0, done.stderr

    def holding(word: bytes) -> list:
        return sorted({p.relative_to(home).parts[0] for p in home.rglob("*")
                       if p.is_file() and word in p.read_bytes().lower()})

    people = json.loads(memlens(home, "people", "--json").stdout)["known"]
    assert [p["name"] for p in people] == ["Tina Seelig"], people  # named by the lower third under her face
    assert holding(b"seelig")  # her name, in memory and in the cached caption
    done = memlens(home, "forget", "--person", "Tina Seelig")
    assert done.returncode == 0, done.stderr
    assert holding(b"seelig") == [], holding(b"seelig")
    assert json.loads(memlens(home, "people", "--json").stdout)["known"] == []  # her face is gone
    # what she said stays, as someone's
    asked = memlens(home, "ask", "what does the speaker teach?", "--at", "2026-11-20T11:00")
    assert "entrepreneurship" in asked.stdout.lower(), asked.stdout
    assert memlens(home, "forget", "--person", "Tina Seelig").returncode == 2  # no such person now
    assert memlens(home, "forget", "--person", "person 1", "--video", "x").returncode == 2  # on its own


def test_enrolling_too_little_of_the_wearer_s_voice_is_a_clear_error(tmp_path):
    import numpy as np
    import soundfile

    soundfile.write(tmp_path / "hello.wav", np.zeros(16000, np.float32), 16000)
    done = memlens(tmp_path / "home", "wearer", str(tmp_path / "hello.wav"))
    assert done.returncode == 2 and "at least 3 s" in done.stderr and "Traceback" not in done.stderr, done.stderr
    missing = memlens(tmp_path / "home", "wearer", str(tmp_path / "nothing.wav"))
    assert missing.returncode == 2 and "Traceback" not in missing.stderr, missing.stderr
