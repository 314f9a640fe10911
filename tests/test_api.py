"""The REST API on a real uvicorn server on loopback, with real models behind it."""
from __future__ import annotations

import json
import os
import socket
import threading
import time
from datetime import UTC, datetime, timedelta, timezone

import httpx
import pytest

from memory.records import RecordFilter
from service.api import create_app
from service.config import hash_key, load_config
from service.system import MemlensSystem
from tests.servers import serving

pytestmark = pytest.mark.slow
ALICE, BOB = {"X-API-Key": "key-alice"}, {"Authorization": "Bearer key-bob"}


@pytest.fixture(scope="module")
def system(tmp_path_factory):
    keys = {"key-alice": "alice", hash_key("key-bob"): "bob"}  # bob's key is stored hashed
    env = {**os.environ, "MEMLENS_HOME": str(tmp_path_factory.mktemp("api-home")),
           "MEMLENS_SERVICE__API_KEYS": json.dumps(keys),
           "MEMLENS_SERVICE__MAX_UPLOAD_MB": "2", "MEMLENS_SERVICE__TIMEZONE": "UTC"}
    system = MemlensSystem(load_config(env=env))
    yield system
    system.close()


@pytest.fixture(scope="module")
def api(system):
    with serving(create_app(system)) as url, httpx.Client(base_url=url, timeout=120) as client:
        yield client


def wait_for(api, job_id: str, headers: dict, timeout: float = 300) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = api.get(f"/jobs/{job_id}", headers=headers).json()
        if job["status"] in ("done", "failed", "cancelled"):
            return job
        time.sleep(0.5)
    raise TimeoutError(job_id)


@pytest.fixture(scope="module")
def alice_job(api, short_video):
    with short_video.open("rb") as f:
        response = api.post("/ingest", headers=ALICE, files={"file": ("morning.mp4", f, "video/mp4")})
    assert response.status_code == 202
    return wait_for(api, response.json()["job_id"], ALICE)


def test_health_and_openapi_docs(api):
    assert api.get("/health").json()["status"] == "ok"
    deadline = time.monotonic() + 120  # ready once the models and the served namespaces' indexes are read
    while not api.get("/health").json()["ready"]:
        assert time.monotonic() < deadline, "the server never said it was ready"
        time.sleep(0.2)
    spec = api.get("/openapi.json").json()
    assert {"/ask", "/ingest", "/jobs", "/jobs/{job_id}", "/jobs/{job_id}/cancel", "/memories", "/forget",
            "/health"} <= set(spec["paths"])
    assert api.get("/docs").status_code == 200


@pytest.mark.parametrize("headers", [{}, {"X-API-Key": "wrong"}, {"Authorization": "Basic a2V5"}])
def test_ask_needs_a_known_key(api, headers):
    response = api.post("/ask", headers=headers, json={"question": "Where are my keys?"})
    assert response.status_code == 401


def test_ingest_job_then_ask_with_evidence(api, alice_job):
    assert alice_job["status"] == "done", alice_job["error"]
    assert alice_job["result"]["records"]["utterance"] >= 1
    answer = api.post("/ask", headers=ALICE, json={"question": "What is the wifi password?"}).json()
    assert "BLUEFOX42" in answer["answer"] and answer["evidence"][0]["source"] == "ocr"
    roles = [e["role"] for e in answer["evidence"]]  # what it rests on first, then lines about the question
    assert roles[0] == "answer" and roles == sorted(roles)
    where = api.post("/ask", headers=ALICE, json={"question": "Where did I leave the scissors?"}).json()
    assert "living room" in where["answer"] and where["evidence"]


def test_a_key_never_sees_another_namespace(api, alice_job):
    answer = api.post("/ask", headers=BOB, json={"question": "What is the wifi password?"}).json()
    assert answer["abstained"] and answer["evidence"] == []
    assert api.get("/memories", headers=BOB).json()["records"] == []
    assert api.get(f"/jobs/{alice_job['job_id']}", headers=BOB).status_code == 404
    assert api.post("/forget", headers=BOB, json={"video_id": alice_job["result"]["video_id"]}).status_code == 404
    assert api.get("/memories", headers=ALICE).json()["records"]


def test_memories_page_in_time_order_with_filters_and_unknown_kinds_are_refused(api, alice_job):
    every = api.get("/memories", headers=ALICE, params={"limit": 1000}).json()["records"]
    assert len(every) > 3 and [r["wall_start"] for r in every] == sorted(r["wall_start"] for r in every)
    page = api.get("/memories", headers=ALICE, params={"limit": 2, "offset": 1}).json()["records"]
    assert [r["id"] for r in page] == [r["id"] for r in every[1:3]]
    said = api.get("/memories", headers=ALICE, params={"kind": "utterance"}).json()["records"]
    assert said and {r["kind"] for r in said} == {"utterance"} and all(r["speaker"] for r in said)
    last = max(r["wall_end"] for r in every)  # what lasted to the end: the recording, its summaries, its last clip
    later = api.get("/memories", headers=ALICE, params={"since": last, "limit": 1000}).json()["records"]
    assert 0 < len(later) < len(every) and all(r["wall_end"] >= last for r in later)
    assert api.get("/memories", headers=ALICE, params={"kind": "gossip"}).status_code == 422
    assert api.get("/memories", headers=ALICE, params={"since": last, "until": last}).status_code == 422
    twice = api.get("/memories", headers=ALICE, params=[("video_id", "a"), ("video_id", "b")])
    assert twice.status_code == 422 and "video_id" in twice.json()["detail"]


def test_corrupt_upload_is_rejected_and_stores_nothing(api, system, alice_job, bad_videos):
    before = system.memory.store("event").count(RecordFilter())
    for name in ("truncated.mp4", "notes.mp4", "empty.mp4", "captions.srt"):
        response = api.post("/ingest", headers=ALICE, files={"file": (name, bad_videos[name].read_bytes())})
        assert response.status_code == 422 and name in response.json()["detail"]
    assert system.memory.store("event").count(RecordFilter()) == before


def _upload_dirs(system) -> set:
    return set((system.config.home / "uploads").glob("upload-*"))


def test_oversized_upload_gets_413_before_it_is_stored(api, system):
    before, dirs = system.memory.store("event").count(RecordFilter()), _upload_dirs(system)
    response = api.post("/ingest", headers=ALICE, files={"file": ("huge.mp4", os.urandom(4 * 1024 * 1024))})
    assert response.status_code == 413

    def streamed():  # no Content-Length: refused once the streamed bytes pass the limit
        yield b'--x\r\nContent-Disposition: form-data; name="file"; filename="big.mp4"\r\n\r\n'
        for _ in range(8):
            yield bytes(1024 * 1024)

    chunked = api.post("/ingest", headers={**ALICE, "Content-Type": "multipart/form-data; boundary=x"},
                       content=streamed())
    assert chunked.status_code == 413, chunked.text
    assert system.memory.store("event").count(RecordFilter()) == before and _upload_dirs(system) <= dirs


@pytest.mark.parametrize("name", ["..", ".", "/", "a\x00b.mp4", "x" * 300 + ".mp4", "../../etc/passwd"])
def test_hostile_upload_names_are_never_paths(api, system, name, bad_videos):
    dirs = _upload_dirs(system)
    response = api.post("/ingest", headers=ALICE, files={"file": (name, bad_videos["notes.mp4"].read_bytes())})
    assert response.status_code == 422  # judged by its bytes (not a video), never a 500
    assert len(response.json()["detail"]) < 300 and _upload_dirs(system) <= dirs


def test_a_text_file_and_an_impossible_start_are_refused(api, short_video):
    text = api.post("/ingest", headers=ALICE, files={"file": ("diary.txt", b"Dear diary, today I went out.\n" * 200)})
    assert text.status_code == 422 and "text" in text.json()["detail"]
    with short_video.open("rb") as f:
        future = api.post("/ingest", headers=ALICE, data={"start": "9999-01-01T00:00:00"},
                          files={"file": ("morning.mp4", f, "video/mp4")})
    assert future.status_code == 422 and "plausible" in future.json()["detail"]


def test_an_uploaded_photo_is_remembered_as_a_photo_at_its_exif_time(api):
    """A phone photo sent by a client (glasses upload JPEGs) is a one-picture recording at the
    time the camera wrote, not the upload's; a PNG is taken too."""
    from eval.media import PEOPLE_PHOTO, PHONE_PHOTO, fetch

    jobs = []
    for media, kind in ((PHONE_PHOTO, "image/jpeg"), (PEOPLE_PHOTO, "image/png")):
        sent = api.post("/ingest", headers=ALICE, files={"file": (fetch(media).name, fetch(media).read_bytes(), kind)})
        assert sent.status_code == 202, sent.text
        jobs.append(wait_for(api, sent.json()["job_id"], ALICE))
    assert [j["status"] for j in jobs] == ["done", "done"], jobs
    phone = jobs[0]["result"]["video_id"]
    recording = api.get("/memories", headers=ALICE, params={"video_id": phone, "kind": "recording"}).json()["records"]
    assert len(recording) == 1 and recording[0]["text"].startswith("At 22:20, a photo")
    assert recording[0]["wall_start"].startswith("2018-06-06T22:20:11")
    # forgotten, the photo leaves nothing behind in its job either: no name, no counts
    assert api.post("/forget", headers=ALICE, json={"video_id": phone}).json()["removed"] > 0
    job = api.get(f"/jobs/{jobs[0]['job_id']}", headers=ALICE).json()
    assert job["result"] is None and PHONE_PHOTO.name not in json.dumps(job), job
    people = jobs[1]["result"]["video_id"]
    assert api.get(f"/jobs/{jobs[1]['job_id']}", headers=ALICE).json()["result"]["video_id"] == people  # the other stays
    assert api.post("/forget", headers=ALICE, json={"video_id": people}).json()["removed"] > 0
    assert api.get("/people", headers=ALICE).json()["known"] == []  # the face it showed goes with it


def test_job_results_show_no_server_paths(api, alice_job):
    assert "/" not in alice_job["result"]["path"] and alice_job["result"]["path"] == "morning.mp4"


@pytest.mark.parametrize("body", [
    {}, {"question": ""}, {"question": "x", "at": "not a time"}, {"question": "x", "options": "A"},
])
def test_malformed_ask_is_422(api, body):
    assert api.post("/ask", headers=ALICE, json=body).status_code == 422


def test_ask_time_cut_and_options(api, alice_job):
    early = api.post("/ask", headers=ALICE, json={
        "question": "What is the wifi password?", "at": "2024-05-14T07:30:00"}).json()
    assert early["abstained"]
    options = ["Red", "Blue", "This question cannot be answered"]
    car = api.post("/ask", headers=ALICE, json={"question": "What colour is my car?", "options": options}).json()
    assert car["chosen_option"] == 2 and len(car["option_scores"]) == 3


def test_question_time_with_an_offset_is_converted_not_stripped(api, alice_job):
    """The wearer's clock here is UTC: 07:59 UTC written as 21:59+14:00 is still before the
    video, and must not see it (stripping the offset used to move the cut 14 hours later)."""
    recorded = datetime.fromisoformat(alice_job["result"]["wall_start"])
    def ask(at: datetime) -> dict:
        return api.post("/ask", headers=ALICE, json={
            "question": "What is the wifi password?", "at": at.isoformat()}).json()
    kiritimati = timezone(timedelta(hours=14))
    before = (recorded - timedelta(minutes=1)).replace(tzinfo=UTC).astimezone(kiritimati)
    assert before.hour != (recorded - timedelta(minutes=1)).hour and ask(before)["abstained"]
    after = (recorded + timedelta(hours=1)).replace(tzinfo=UTC).astimezone(kiritimati)
    assert "BLUEFOX42" in ask(after)["answer"]


@pytest.mark.parametrize("body, status", [
    ({"video_id": ""}, 422), ({"video_id": "no-such-video"}, 404), ({"video_id": "", "start": "2024-05-14T00:00:00"}, 422),
])
def test_forget_refuses_an_empty_or_unknown_id_and_keeps_everything(api, system, alice_job, body, status):
    before = system.memory.store("event").count(RecordFilter(namespace="alice"))
    assert api.post("/forget", headers=ALICE, json=body).status_code == status
    assert system.memory.store("event").count(RecordFilter(namespace="alice")) == before > 0


def test_forget_removes_the_video_for_its_owner_and_no_one_else(api, system, alice_job, short_video):
    video_id = alice_job["result"]["video_id"]
    cache = system.config.perception.cache_dir
    with short_video.open("rb") as f:  # bob uploads the very same file
        bob_job = api.post("/ingest", headers=BOB, files={"file": ("same.mp4", f, "video/mp4")}).json()["job_id"]
    assert wait_for(api, bob_job, BOB)["status"] == "done"
    caches = sorted(cache.glob(f"tenant-*/{video_id}"))
    assert len(caches) == 2  # one per tenant: nothing shared between them
    assert api.post("/forget", headers=ALICE, json={}).status_code == 422  # neither a video nor a time
    removed = api.post("/forget", headers=ALICE, json={"video_id": video_id}).json()["removed"]
    assert removed > 0
    assert system.memory.store("event").count(RecordFilter(namespace="alice", video_ids=(video_id,))) == 0
    after = api.post("/ask", headers=ALICE, json={"question": "What is the wifi password?"}).json()
    assert after["abstained"]
    assert len(sorted(cache.glob(f"tenant-*/{video_id}"))) == 1  # alice's cached observations went, bob's stay
    bobs = api.post("/ask", headers=BOB, json={"question": "What is the wifi password?"}).json()
    assert "BLUEFOX42" in bobs["answer"]


def _operations(spec: dict):
    """(method, path) of every operation in the schema, ids filled with a guess."""
    for path, item in spec["paths"].items():
        for method in item:
            yield method.upper(), path.replace("{job_id}", "0" * 32).replace("{which}", "1")


def test_every_endpoint_refuses_missing_wrong_and_foreign_keys(api, system, alice_job):
    """No key, a wrong key, a key that differs by a letter: 401 everywhere but /health,
    with a Problem body; another namespace's key gets 404 for alice's job, as for a guess."""
    for method, path in _operations(api.get("/openapi.json").json()):
        if path == "/health":
            continue
        for headers in ({}, {"X-API-Key": "wrong"}, {"X-API-Key": "key-alicf"}, {"Authorization": "Bearer " + hash_key("key-bob")}):
            response = api.request(method, path, headers=headers)
            assert response.status_code == 401, (method, path, headers, response.text)
            assert set(response.json()) == {"detail"} and "Traceback" not in response.text
    job = alice_job["job_id"]
    for method, path in [("GET", f"/jobs/{job}"), ("POST", f"/jobs/{job}/cancel"), ("GET", "/jobs/" + "0" * 32)]:
        assert api.request(method, path, headers=BOB).status_code == 404
    assert job not in {j["job_id"] for j in api.get("/jobs", headers=BOB).json()["jobs"]}
    assert job in {j["job_id"] for j in api.get("/jobs", headers=ALICE).json()["jobs"]}
    assert "key-bob" not in json.dumps(system.config.service.api_keys)  # the config holds only its hash


@pytest.mark.parametrize("body", [
    {"question": "x", "at": 0}, {"question": "x", "at": "1700000000"}, {"question": "x", "options": ["A" * 501]},
    {"question": "x", "options": [str(i) for i in range(27)]}, {"question": "x" * 2001},
])
def test_bounded_requests_get_a_clear_422(api, body):
    response = api.post("/ask", headers=ALICE, json=body)
    assert response.status_code == 422
    problem = response.json()
    assert isinstance(problem["detail"], str) and problem["errors"] and "input" not in problem["errors"][0]


def test_a_queued_job_can_be_cancelled_and_jobs_are_listed(api, system, short_video):
    """With one worker a second upload waits behind the first: cancelling it ends it
    'cancelled', deletes its upload and leaves bob's memory as it was; the list shows both
    jobs, each with its file name, progress and end. (Cancelling a running job:
    tests/test_jobs.py.)"""
    def upload(name: str) -> str:
        with short_video.open("rb") as f:
            return api.post("/ingest", headers=BOB, files={"file": (name, f, "video/mp4")}).json()["job_id"]
    first, second = upload("first.mp4"), upload("second.mp4")
    asked = api.post(f"/jobs/{second}/cancel", headers=BOB).json()
    assert asked["cancel_requested"] and asked["status"] in ("cancelled", "running")
    assert wait_for(api, second, BOB)["status"] == "cancelled"
    done = wait_for(api, first, BOB)
    assert done["status"] == "done" and (done["stage"], done["percent"]) == ("done", 100)
    assert api.post(f"/jobs/{second}/cancel", headers=BOB).status_code == 409  # it has ended
    listed = {j["job_id"]: j for j in api.get("/jobs", headers=BOB).json()["jobs"]}
    assert listed[second]["file"] == "second.mp4" and listed[second]["status"] == "cancelled"
    assert list(listed)[:2] == [second, first]  # newest first
    assert [j["job_id"] for j in api.get("/jobs", headers=BOB, params={"status": "cancelled"}).json()["jobs"]] == [second]
    video_id = done["result"]["video_id"]
    assert system.memory.store("event").count(RecordFilter(namespace="bob", video_ids=(video_id,))) > 0
    assert not any(p.is_dir() and any(p.iterdir()) for p in _upload_dirs(system))  # no upload is left behind


def test_fifty_questions_at_once_during_an_ingest_all_answered(api, alice_job, short_video):
    """Readers do not wait for each other or for the writer: 50 concurrent /ask while the
    same video is re-ingested all succeed, and every one sees the password (the old memory
    or the new one, never neither). Latencies are printed; benchmarks/api_load.py measures them."""
    def ingest() -> str:
        with short_video.open("rb") as f:
            return api.post("/ingest", headers=ALICE, files={"file": ("again.mp4", f, "video/mp4")}).json()["job_id"]
    assert wait_for(api, ingest(), ALICE)["status"] == "done"  # remembered, whatever earlier tests forgot
    job = ingest()
    results: list[tuple[int, float, str]] = []

    def one():
        began = time.perf_counter()
        r = api.post("/ask", headers=ALICE, json={"question": "What is the wifi password?"})
        results.append((r.status_code, time.perf_counter() - began, r.json().get("answer", "")))

    threads = [threading.Thread(target=one) for _ in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert wait_for(api, job, ALICE)["status"] == "done"
    latencies = sorted(s for _, s, _ in results)
    print(f"50 concurrent /ask during ingest: p50 {latencies[25]:.2f} s, p95 {latencies[47]:.2f} s, max {latencies[-1]:.2f} s")
    assert [code for code, _, _ in results] == [200] * 50
    missed = [answer for _, _, answer in results if "BLUEFOX42" not in answer]
    assert not missed, f"{len(missed)} of 50 answers lack the password, e.g. {missed[:3]}"


def _a_dead_pid() -> int:
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_jobs_outlive_a_restart(system, short_video, tmp_path):
    """A job id a client was told to poll still answers from a new server process: a job
    left running by a process that is gone runs again; one whose upload is gone fails; a
    queued job still in the queue runs; an upload no job owns is deleted."""
    import shutil
    import uuid

    from service.jobs import Job, JobStore

    store = JobStore(system.config.home / "jobs.sqlite")  # what the stopped server left behind
    uploads = system.config.home / "uploads"
    folder = uploads / f"upload-{uuid.uuid4().hex}"
    folder.mkdir(parents=True)
    shutil.copy(short_video, folder / "upload.mp4")
    left_running = Job(id=uuid.uuid4().hex, namespace="alice", upload=folder / "upload.mp4", label="again.mp4",
                       status="running", worker=f"{socket.gethostname()}:{_a_dead_pid()}")
    lost = Job(id=uuid.uuid4().hex, namespace="alice", upload=tmp_path / "gone" / "upload.mp4", label="lost.mp4",
               status="queued")
    store.put(left_running)
    store.put(lost)
    store.close()
    orphan = uploads / f"upload-{uuid.uuid4().hex}"
    orphan.mkdir()
    (orphan / "upload.mp4").write_bytes(b"half an upload")
    os.utime(orphan, (time.time() - 3600, time.time() - 3600))
    with serving(create_app(system)) as url, httpx.Client(base_url=url, timeout=120) as restarted:
        assert wait_for(restarted, left_running.id, ALICE)["status"] == "done"
        failed = restarted.get(f"/jobs/{lost.id}", headers=ALICE).json()
        assert failed["status"] == "failed" and "restart" in failed["error"]
        assert restarted.get(f"/jobs/{lost.id}", headers=BOB).status_code == 404  # still only its owner's
    assert not folder.exists() and not orphan.exists()  # uploads go once their job is done, or if no job owns them


def test_a_transcript_upload_becomes_memory_and_a_malformed_one_names_its_line(api, system):
    thread = ("## Session 1 | 2026-03-09T09:30\nBob: The plumber comes on Thursday at ten.\n"
              "Alice: Thanks, I'll be home then.\n")
    job = api.post("/ingest", headers=ALICE, files={"file": ("chat.txt", thread.encode())}).json()["job_id"]
    done = wait_for(api, job, ALICE)
    assert done["status"] == "done" and done["result"]["conversations"][0]["records"]["utterance"] == 2
    answer = api.post("/ask", headers=ALICE, json={"question": "When is the plumber coming?",
                                                  "at": "2026-03-10T08:00:00"}).json()
    assert "Thursday" in answer["answer"] and answer["evidence"][0]["detail"] is not None
    before, dirs = system.memory.store("event").count(RecordFilter()), _upload_dirs(system)
    bad = b'{"speaker": "Bob", "time": "2026-03-02T18:00", "text": "hi"}\n{"speaker": "Bob"}\n'
    refused = api.post("/ingest", headers=ALICE, files={"file": ("export.jsonl", bad)})
    assert refused.status_code == 422 and refused.json()["detail"] == "export.jsonl:2: missing time, text"
    assert system.memory.store("event").count(RecordFilter()) == before and _upload_dirs(system) <= dirs


def test_people_seen_are_listed_and_named_over_http(api, system):
    from tests.test_people import BEN, _face, _video

    system.memory.ingest(_video("faces-only", [_face(t, BEN) for t in (1.0, 2.0, 3.0)]), "bob")
    (person,) = api.get("/people", headers=BOB).json()["known"]
    assert person["name"] is None and person["sightings"] == 3
    assert api.get("/people", headers=ALICE).json()["known"] == []  # bob's people are bob's
    who = f"person {person['id']}"
    assert api.post(f"/people/{who}/name", headers=ALICE, json={"name": "Ben"}).status_code == 404
    assert api.post(f"/people/{who}/name", headers=BOB, json={"name": ""}).status_code == 422
    named = api.post(f"/people/{who}/name", headers=BOB, json={"name": "Ben"}).json()
    assert named == {"id": person["id"], "name": "Ben", "records_changed": 1}
    answer = api.post("/ask", headers=BOB, json={"question": "did I see Ben?", "at": "2026-03-03T09:00:00"}).json()
    assert not answer["abstained"] and "Ben" in answer["answer"], answer


def test_places_seen_are_listed_and_named_over_http(api, system):
    from tests.test_places import _thing, _video

    system.memory.ingest(_video("rooms", [(0, 1), (10, 1), (30, 2), (40, 2)], [_thing("cup", 31.0)]), "bob")
    known = api.get("/places", headers=BOB).json()["known"]
    unnamed = [p for p in known if p["name"] is None]
    assert unnamed
    which = f"place {unnamed[-1]['id']}"
    assert api.post("/places/place 999/name", headers=BOB, json={"name": "attic"}).status_code == 404
    named = api.post(f"/places/{which}/name", headers=BOB, json={"name": "attic"}).json()
    assert named["name"] == "attic" and named["records_changed"] >= 1
    assert any(p["name"] == "attic" and p["named_by"] == "user" for p in api.get("/places", headers=BOB).json()["known"])
    assert not any(p["name"] == "attic" for p in api.get("/places", headers=ALICE).json()["known"])  # bob's places


def test_one_key_past_its_rate_or_upload_quota_waits_and_the_others_are_served(tmp_path_factory, short_video):
    """A client past its rate gets 429 with Retry-After and its next requests are not
    counted; another key is served as before. Uploads past the quota wait the same way."""
    env = {**os.environ, "MEMLENS_HOME": str(tmp_path_factory.mktemp("limits-home")),
           "MEMLENS_SERVICE__API_KEYS": json.dumps({"key-alice": "alice", "key-bob": "bob"}),
           "MEMLENS_SERVICE__RATE_LIMIT": "5/minute", "MEMLENS_SERVICE__MAX_QUEUED_JOBS": "1"}
    limited = MemlensSystem(load_config(env=env))
    bob = {"X-API-Key": "key-bob"}
    try:
        with serving(create_app(limited)) as url, httpx.Client(base_url=url, timeout=120) as client:
            sent = short_video.read_bytes()
            first = client.post("/ingest", headers=ALICE, files={"file": ("a.mp4", sent, "video/mp4")})
            second = client.post("/ingest", headers=ALICE, files={"file": ("b.mp4", sent, "video/mp4")})
            assert first.status_code == 202 and second.status_code == 429, second.text
            assert int(second.headers["Retry-After"]) > 0 and "at most 1" in second.json()["detail"]
            codes = [client.get("/jobs", headers=ALICE).status_code for _ in range(4)]
            assert codes == [200, 200, 200, 429], codes  # 5 a minute: two uploads, then three listings
            refused = client.get("/jobs", headers=ALICE)
            assert refused.status_code == 429 and 0 < int(refused.headers["Retry-After"]) <= 60
            assert "5/minute" in refused.json()["detail"]
            assert client.get("/jobs", headers=bob).status_code == 200  # another key is not held up
    finally:
        limited.close()


def test_a_range_open_at_one_end_forgets_everything_since_or_before_and_odd_text_is_a_question(tmp_path_factory):
    env = {**os.environ, "MEMLENS_HOME": str(tmp_path_factory.mktemp("open-range-home")),
           "MEMLENS_SERVICE__API_KEYS": json.dumps({"key-alice": "alice"})}
    ranged = MemlensSystem(load_config(env=env))
    thread = (b"## Session 1 | 2026-03-09T18:00\nAlice: The gate code is 4417.\n"
              b"## Session 2 | 2026-03-11T09:00\nAlice: The plumber comes on Thursday.\n"
              b"## Session 3 | 2026-03-13T09:00\nAlice: The boiler was fixed.\n")
    try:
        with serving(create_app(ranged)) as url, httpx.Client(base_url=url, timeout=120) as client:
            sent = client.post("/ingest", headers=ALICE, files={"file": ("chat.txt", thread, "text/plain")})
            assert wait_for(client, sent.json()["job_id"], ALICE)["status"] == "done"

            def said() -> list[str]:
                rows = client.get("/memories", headers=ALICE, params={"kind": "utterance"}).json()["records"]
                return [r["text"] for r in rows]

            assert len(said()) == 3
            since = client.post("/forget", headers=ALICE, json={"start": "2026-03-12T00:00:00"})
            assert since.status_code == 200 and since.json()["removed"] > 0
            assert not any("boiler" in t for t in said()) and len(said()) == 2
            before = client.post("/forget", headers=ALICE, json={"end": "2026-03-10T00:00:00"})
            assert before.status_code == 200 and [t for t in said() if "plumber" in t] == said()
            assert client.post("/forget", headers=ALICE, json={}).status_code == 422  # nothing named
            odd = client.post("/ask", headers=ALICE, json={"question": "what\u0001 is the\tgate code?"})
            assert odd.status_code == 200, odd.text  # a control character is text, not a malformed request
            assert client.post("/ask", headers=ALICE, json={"question": "   "}).status_code == 422
    finally:
        ranged.close()


def test_forgetting_a_range_or_a_person_over_the_api_leaves_none_of_their_words_on_disk(tmp_path_factory):
    from eval.media import TED_CLIP, fetch

    home = tmp_path_factory.mktemp("forget-bytes-home")
    kept = MemlensSystem(load_config(env={**os.environ, "MEMLENS_HOME": str(home),
                                          "MEMLENS_SERVICE__API_KEYS": json.dumps({"key-alice": "alice"})}))
    thread = (b"## Session 1 | 2026-03-09T18:00\nAlice: The gate code is ZEPHYRQUARTZ, keep it quiet.\n"
              b"## Session 2 | 2026-03-11T09:00\nAlice: The plumber comes on Thursday.\n")

    def holding(word: bytes) -> list[str]:
        return sorted({str(p.relative_to(home)) for p in home.rglob("*") if p.is_file() and word in p.read_bytes().lower()})

    try:
        kept.ingest(fetch(TED_CLIP), "alice", start=datetime(2026, 3, 10, 10, 0))  # her face, named by the lower third
        with serving(create_app(kept)) as url, httpx.Client(base_url=url, timeout=120) as client:
            sent = client.post("/ingest", headers=ALICE, files={"file": ("chat.txt", thread, "text/plain")})
            assert wait_for(client, sent.json()["job_id"], ALICE)["status"] == "done"
            assert holding(b"zephyrquartz") and holding(b"seelig")
            ranged = client.post("/forget", headers=ALICE, json={"start": "2026-03-09T17:00:00",
                                                                 "end": "2026-03-09T20:00:00"})
            assert ranged.status_code == 200 and ranged.json()["removed"] > 0
            assert holding(b"zephyrquartz") == [] and holding(b"plumber")  # the range only
            assert client.post("/forget", headers=ALICE, json={"person": "Nobody Known"}).status_code == 404
            assert client.post("/forget", headers=ALICE, json={"person": "Tina Seelig",
                                                               "video_id": "x"}).status_code == 422
            person = client.post("/forget", headers=ALICE, json={"person": "Tina Seelig"})
            assert person.status_code == 200 and person.json()["removed"] > 0
            assert holding(b"seelig") == [], holding(b"seelig")
            assert client.get("/people", headers=ALICE).json()["known"] == []
    finally:
        kept.close()
