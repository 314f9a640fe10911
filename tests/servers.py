"""Runs an ASGI app on a real uvicorn server on loopback for the duration of a test, and an
OpenAI-compatible chat endpoint to run there (standing in for a remote model server)."""
from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serving(app, timeout: float = 20.0):
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout)


def chat_completions_app(reply: Callable[[dict], tuple[int, str]], seen: list[dict]) -> FastAPI:
    """POST /v1/chat/completions as the OpenAI protocol has it: each request body (and its
    Authorization header) is appended to `seen`; `reply(body)` gives (status, content)."""
    app = FastAPI()

    @app.post("/v1/chat/completions")
    async def complete(request: Request):
        body = await request.json()
        seen.append({"body": body, "auth": request.headers.get("authorization")})
        status, content = reply(body)
        if status != 200:
            return JSONResponse({"error": {"message": content}}, status_code=status)
        return {"id": "x", "object": "chat.completion", "model": body["model"],
                "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}]}

    return app
