"""FastAPI app: /ask, /ingest (background jobs), /jobs, /memories, /forget, /health.

The contract (every request and response body, errors included) is service/schemas.py.

API keys map to memory namespaces; every query is scoped to the caller's namespace, so a
key never sees another namespace's memories. Errors in the caller's input are 4xx with a
message; nothing is stored for a rejected upload.
"""
from __future__ import annotations

import contextlib
import json
import logging
import re
import shutil
import tempfile
import threading
from datetime import datetime
from pathlib import Path, PurePosixPath

from fastapi import Depends, FastAPI, File, Form, HTTPException, Query, Request, Security, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException

from agent.llm import LLMError
from perception.decode import probe
from perception.errors import PerceptionError
from perception.transcripts import TRANSCRIPT_SUFFIXES, is_transcript, read_transcript
from service.browser import install_browser
from service.jobs import Job, JobQueue
from service.rate_limits import KeyLimits
from service.schemas import (
    Accepted,
    AnswerView,
    AskRequest,
    ForgetRequest,
    Forgotten,
    Health,
    IsoTime,
    JobList,
    JobStatus,
    JobView,
    KnownList,
    MemoriesView,
    MemoryKind,
    Named,
    NameRequest,
    StoreName,
    problems,
)
from service.system import MemlensSystem, open_range
from service.views import answer_view, memory_view, report_view

log = logging.getLogger(__name__)
_CHUNK = 1 << 20
# A recording's start must be a time a camera could have recorded it (not year 9999).
_PLAUSIBLE_START = (datetime(1990, 1, 1), datetime(2200, 1, 1))
_SUFFIX = re.compile(r"\.[A-Za-z0-9]{1,8}")
# Either header carries a key; declared as security schemes, so /docs and clients see them.
_API_KEY = APIKeyHeader(name="X-API-Key", auto_error=False, description="an API key from `memlens key`")
_BEARER = HTTPBearer(auto_error=False, description="the same key as a bearer token")


def upload_suffix(filename: str | None) -> str:
    """The upload's extension when it is a plain one ('.mp4'), else '.bin'."""
    suffix = PurePosixPath((filename or "").replace("\\", "/").replace("\x00", "")).suffix
    return suffix.lower() if _SUFFIX.fullmatch(suffix) else ".bin"


def upload_label(filename: str | None) -> str:
    """The client's file name, safe to echo in a message: printable, at most 80 characters."""
    name = "".join(ch for ch in (filename or "upload") if ch.isprintable())[:80]
    return name or "upload"


class _TooLarge(BaseException):
    """Not an Exception: the framework's body parser turns those into a 400."""


class BodyLimit:
    """Refuses a request body over the limit before the framework spools it to disk: by its
    Content-Length at once, or as soon as a streamed body passes the limit."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        if declared.isdigit() and int(declared) > self.limit:
            return await self._refuse(send)
        received = 0

        async def counted():
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.limit:
                raise _TooLarge
            return message

        try:
            await self.app(scope, counted, send)
        except _TooLarge:
            await self._refuse(send)

    async def _refuse(self, send) -> None:
        body = json.dumps({"detail": f"request body exceeds the {self.limit // _CHUNK} MB limit"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


def _job_view(job: Job) -> dict:
    return {"job_id": job.id, "status": job.status, "file": job.label, "created": job.created,
            "stage": job.stage, "percent": job.percent, "cancel_requested": job.cancel_requested,
            "result": job.result, "error": job.error}


def _field_errors(exc: RequestValidationError) -> list[dict]:
    """Where and what, without echoing the input back (it may be huge or binary)."""
    return [{"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", "")), "type": str(e.get("type", ""))}
            for e in exc.errors()]


def _install_error_bodies(app: FastAPI) -> None:
    """Every error is a Problem body; an unexpected one says so without a stack trace. No
    operation takes a list in its query, so a parameter given twice is refused, not read as
    its last value (`?video_id=a&video_id=b` names no one recording)."""

    @app.middleware("http")
    async def one_value_each(request: Request, call_next):
        keys = [k for k, _ in request.query_params.multi_items()]
        repeated = sorted({k for k in keys if keys.count(k) > 1})
        if repeated:
            return JSONResponse({"detail": f"query parameter given more than once: {', '.join(repeated)}"}, 422)
        return await call_next(request)

    @app.exception_handler(StarletteHTTPException)
    async def http_problem(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"detail": str(exc.detail)}, exc.status_code, headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = _field_errors(exc)
        where = "; ".join(f"{'.'.join(e['loc'][1:]) or e['loc'][0] if e['loc'] else 'body'}: {e['msg']}"
                          for e in errors[:5])
        return JSONResponse({"detail": f"invalid request: {where}", "errors": errors}, 422)

    @app.exception_handler(Exception)
    async def unexpected(_: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error", exc_info=exc)
        return JSONResponse({"detail": "internal error: the server log has the details"}, 500)


def _catch_up_word_indexes(system: MemlensSystem) -> None:
    """Best effort, in the background: FTS5 answers meanwhile, and a failure only keeps it so."""
    try:
        built = system.memory.db.catch_up_word_indexes()
    except Exception as error:  # e.g. the server stopped and closed memory first
        log.warning("word indexes not caught up: %s", error)
        return
    if built:
        log.warning("built %d word index(es) this memory lacked: %s", len(built), ", ".join(built))


def _warm(system: MemlensSystem, ready: threading.Event) -> None:
    """Best effort, in the background: a namespace not read now is read by its first question."""
    config = system.config.service
    try:
        warmed = system.warm(list(config.api_keys.values()) or [config.default_namespace], config.warm_mb)
    except Exception as error:  # e.g. the server stopped and closed memory first
        log.warning("indexes not read at start: %s", error)
    else:
        log.warning("ready in %.1f s: read the indexes of %d namespace(s), %.0f MB%s", warmed.seconds,
                    len(warmed.loaded), warmed.index_bytes / 2**20,
                    f"; {len(warmed.left)} over service.warm_mb wait for their first question" if warmed.left else "")
    finally:
        ready.set()


def create_app(system: MemlensSystem) -> FastAPI:
    config = system.config.service
    uploads = system.config.home / "uploads"  # kept with memory, so a job can resume after a restart

    def ingest_job(job: Job, progress) -> dict:
        if is_transcript(job.upload):
            reports = system.ingest_transcript(job.upload, job.namespace, job.start)
            return {"path": job.label, "conversations": [{**report_view(r), "path": job.label} for r in reports]}
        report = system.ingest(job.upload, job.namespace, job.start, progress=progress)
        return {**report_view(report), "path": job.label}  # no server paths

    jobs = JobQueue(system.config.home, ingest_job, config.ingest_workers, uploads=uploads)
    key_limits = KeyLimits(config.rate_limit)
    ready = threading.Event()  # set once the indexes read at start are in memory

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI):
        resumed = jobs.start()
        # a memory from before word indexes gets them in the background; questions meanwhile use FTS5
        threading.Thread(target=_catch_up_word_indexes, args=(system,), name="word-indexes", daemon=True).start()
        threading.Thread(target=_warm, args=(system, ready), name="warm", daemon=True).start()
        if resumed:
            log.warning("resumed %d ingest job(s) a stopped server left unfinished", len(resumed))
        if not config.api_keys:
            log.warning("no API keys: serving one local namespace (%r) without authentication",
                        config.default_namespace)
        yield
        jobs.shutdown()

    # /docs and /redoc from files shipped with fastapi-offline: they work with no internet
    app = FastAPIOffline(title="memlens", version="0.1.0", lifespan=lifespan, static_url="/static-docs",
                  description="Memory-augmented video question answering with timestamped evidence. "
                              "Each API key opens one memory namespace (X-API-Key or Authorization: Bearer).")
    app.state.system, app.state.jobs = system, jobs
    app.add_middleware(BodyLimit, limit=(config.max_upload_mb + 1) * _CHUNK)  # + room for the multipart framing
    _install_error_bodies(app)

    def namespace_of(x_api_key: str | None = Security(_API_KEY),
                     bearer: HTTPAuthorizationCredentials | None = Security(_BEARER)) -> str:
        if not config.api_keys:
            return limited(config.default_namespace)
        key = x_api_key or (bearer.credentials if bearer else None)
        if key is None:
            raise HTTPException(401, "missing API key (X-API-Key header or Authorization: Bearer)")
        namespace = config.namespace_for(key)
        if namespace is None:
            raise HTTPException(401, "unknown API key")
        return limited(namespace)

    def limited(namespace: str) -> str:
        """The namespace, once its key is within its rate (else 429 with Retry-After)."""
        wait = key_limits.retry_after(namespace)
        if wait is not None:
            raise HTTPException(429, f"too many requests for this key (at most {key_limits.rate}); retry in {wait} s",
                                headers={"Retry-After": str(wait)})
        return namespace

    authed = problems(401, 422, 429)

    @app.get("/health", response_model=Health)
    def health() -> dict:
        return {"status": "ok", "version": app.version, "ready": ready.is_set()}

    @app.post("/ask", response_model=AnswerView, responses={**authed, **problems(400, 413, 502)})
    def ask(body: AskRequest, namespace: str = Depends(namespace_of)) -> dict:
        try:
            return answer_view(system.ask(body.question, namespace, body.at, body.options))
        except ValueError as exc:
            raise HTTPException(422, str(exc)) from exc
        except LLMError as exc:  # the configured language model is down or timed out
            raise HTTPException(502, f"language model failed: {exc}") from exc

    @app.post("/ingest", status_code=202, response_model=Accepted, responses={**authed, **problems(400, 413)},
              description="A video or audio recording, or a conversation transcript "
                          f"({', '.join(TRANSCRIPT_SUFFIXES)}: LoCoMo JSON, JSONL chat, 'Speaker: text' thread).")
    def ingest(file: UploadFile = File(...), start: IsoTime | None = Form(None),
               namespace: str = Depends(namespace_of)) -> dict:
        shown = upload_label(file.filename)
        waiting = sum(len(jobs.list(namespace, status, config.max_queued_jobs)) for status in ("queued", "running"))
        if config.max_queued_jobs and waiting >= config.max_queued_jobs:  # before the upload is read
            raise HTTPException(429, f"{waiting} uploads of this key are waiting or running (at most "
                                     f"{config.max_queued_jobs}); retry when one is done", headers={"Retry-After": "30"})
        if start is not None and not _PLAUSIBLE_START[0] <= start.replace(tzinfo=None) <= _PLAUSIBLE_START[1]:
            raise HTTPException(422, f"start {start.isoformat()} is not a plausible recording time")
        uploads.mkdir(parents=True, exist_ok=True)
        tmpdir = Path(tempfile.mkdtemp(prefix="upload-", dir=uploads))
        path = tmpdir / f"upload{upload_suffix(file.filename)}"  # the client's name never becomes a path
        limit = config.max_upload_mb * _CHUNK
        written = 0
        try:
            with path.open("wb") as out:
                while chunk := file.file.read(_CHUNK):
                    written += len(chunk)
                    if written > limit:
                        raise HTTPException(413, f"upload exceeds the {config.max_upload_mb} MB limit")
                    out.write(chunk)
            # corrupt, non-video or malformed transcript uploads fail now, before a job exists
            read_transcript(path, start) if is_transcript(path) else probe(path)
        except PerceptionError as exc:
            shutil.rmtree(tmpdir, ignore_errors=True)
            where = f"{shown}:{exc.line}" if getattr(exc, "line", 0) else shown  # the client's name, never our path
            raise HTTPException(422, f"{where}: {exc.reason}") from exc
        except BaseException:
            shutil.rmtree(tmpdir, ignore_errors=True)
            raise
        job = jobs.submit(namespace, path, shown, start)
        return {"job_id": job.id, "status": job.status}

    def owned_job(job_id: str, namespace: str) -> Job:
        job = jobs.get(job_id)
        if job is None or job.namespace != namespace:  # another namespace's job is as good as absent
            raise HTTPException(404, "no such job")
        return job

    @app.get("/jobs", response_model=JobList, responses=authed)
    def list_jobs(status: JobStatus | None = None, limit: int = Query(100, ge=1, le=1000),
                  namespace: str = Depends(namespace_of)) -> dict:
        return {"jobs": [_job_view(j) for j in jobs.list(namespace, status, limit)]}

    @app.get("/jobs/{job_id}", response_model=JobView, responses={**authed, **problems(404)})
    def job_status(job_id: str, namespace: str = Depends(namespace_of)) -> dict:
        return _job_view(owned_job(job_id, namespace))

    @app.post("/jobs/{job_id}/cancel", response_model=JobView, responses={**authed, **problems(404, 409)})
    def cancel_job(job_id: str, namespace: str = Depends(namespace_of)) -> dict:
        job = owned_job(job_id, namespace)
        if not jobs.cancel(job.id):
            raise HTTPException(409, f"job already {job.status}")
        return _job_view(jobs.get(job.id) or job)

    @app.get("/memories", response_model=MemoriesView, responses={**authed, **problems(400)},
             description="A page of remembered records in time order: of one kind (else every kind of `store`), "
                         "overlapping [since, until), of one recording (`video_id`).")
    def memories(store: StoreName = "event", kind: MemoryKind | None = None, since: IsoTime | None = None,
                 until: IsoTime | None = None, video_id: str | None = Query(None, max_length=100),
                 limit: int = Query(100, ge=1, le=1000), offset: int = Query(0, ge=0, le=10_000_000),
                 namespace: str = Depends(namespace_of)) -> dict:
        try:
            records = system.memories(namespace, kind, since, until, video_id, limit, offset, store)
        except ValueError as exc:
            raise HTTPException(422, str(exc)) from exc
        return {"records": [memory_view(r) for r in records]}

    for noun, plural in (("person", "people"), ("place", "places")):
        _known_routes(app, system, namespace_of, authed, noun, plural)
    install_browser(app, system, namespace_of, authed)

    @app.post("/forget", response_model=Forgotten, responses={**authed, **problems(400, 404)})
    def forget(body: ForgetRequest, namespace: str = Depends(namespace_of)) -> dict:
        try:
            return {"removed": system.forget(namespace, body.video_id, open_range(body.start, body.end), body.person)}
        except LookupError as exc:
            raise HTTPException(404, str(exc)) from exc
        except ValueError as exc:
            raise HTTPException(422, str(exc)) from exc

    return app


def _known_routes(app: FastAPI, system: MemlensSystem, namespace_of, authed: dict, noun: str, plural: str) -> None:
    """GET /people | /places and POST /people/{which}/name | /places/{which}/name."""

    def listing(namespace: str = Depends(namespace_of)) -> dict:
        return {"known": system.known(namespace, noun)}

    def naming(which: str, body: NameRequest, namespace: str = Depends(namespace_of)) -> dict:
        try:
            return system.name(namespace, noun, which, body.name)
        except KeyError as exc:
            raise HTTPException(404, exc.args[0]) from exc
        except ValueError as exc:
            raise HTTPException(422, str(exc)) from exc

    app.add_api_route(f"/{plural}", listing, methods=["GET"], response_model=KnownList, responses=authed,
                      summary=f"The {plural} memory knows ({'by face' if noun == 'person' else 'by view'}), named or not",
                      operation_id=f"list_{plural}")
    app.add_api_route(f"/{plural}/{{which}}/name", naming, methods=["POST"], response_model=Named,
                      responses={**authed, **problems(400, 404)}, operation_id=f"name_{noun}",
                      summary=f'Name a {noun} ("{noun} 3", "3" or its current name); memory is re-written')
