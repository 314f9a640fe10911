"""Hands work to a running `memlens serve`, whose models are loaded already: what the CLI's
`--server` does, so a command does not pay model start-up (seconds) for every file.

It speaks the server's own REST API (POST /ingest, GET /jobs/{id}, POST /ask) with the API
key as a bearer token; the key decides the memory namespace there.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import httpx


class RemoteError(RuntimeError):
    """The server refused the work or could not be reached; the message says why."""


@dataclass
class RemoteMemlens:
    base_url: str
    api_key: str | None = None
    timeout: float = 60.0  # seconds for one request (an upload included)
    poll_seconds: float = 0.5

    def _client(self) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        return httpx.Client(base_url=self.base_url.rstrip("/"), headers=headers, timeout=self.timeout)

    def ingest(self, path: Path, start: datetime | None = None,
               progress: Callable[[str, float], None] = lambda stage, percent: None) -> dict:
        """Upload a file, follow its job to the end; the job's result (an ingest report)."""
        with self._client() as client, path.open("rb") as f:
            data = {"start": start.isoformat()} if start is not None else {}
            accepted = _json(_send(client.post, "/ingest", files={"file": (path.name, f)}, data=data))
            while True:
                job = _json(_send(client.get, f"/jobs/{accepted['job_id']}"))
                progress(job.get("stage") or job["status"], float(job.get("percent") or 0.0))
                if job["status"] == "done":
                    return job["result"]
                if job["status"] in ("failed", "cancelled"):
                    raise RemoteError(f"the server's ingest {job['status']}: {job.get('error')}")
                time.sleep(self.poll_seconds)

    def ask(self, question: str, at: datetime | None = None, options: Sequence[str] | None = None) -> dict:
        body = {"question": question, "at": at.isoformat() if at is not None else None,
                "options": list(options) if options else None}
        with self._client() as client:
            return _json(_send(client.post, "/ask", json=body))


def _send(method, url: str, **kwargs) -> httpx.Response:
    try:
        response = method(url, **kwargs)
    except httpx.HTTPError as exc:
        raise RemoteError(f"cannot reach the memlens server: {exc}") from exc
    if response.status_code >= 400:
        try:
            detail = response.json().get("detail")
        except ValueError:
            detail = response.text[:200]
        raise RemoteError(f"the server answered {response.status_code}: {detail}")
    return response


def _json(response: httpx.Response) -> dict:
    try:
        return response.json()
    except ValueError as exc:
        raise RemoteError(f"the server's reply is not JSON: {response.text[:200]!r}") from exc
