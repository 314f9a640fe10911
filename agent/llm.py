"""LLM backends. `none` is the default: the agent is complete without a model.

`openai` talks to any OpenAI-compatible chat endpoint (vLLM, Ollama, llama.cpp server,
OpenAI); `llamacpp` runs a local GGUF in process. Failures raise LLMError: a broken
backend is an error to report, never a reason to abstain.
"""
from __future__ import annotations

import dataclasses
import json
import os
import re
import threading
import time
from pathlib import Path
from typing import Protocol

import httpx

from agent.config import LLMConfig, default_gguf_path


class LLMError(RuntimeError):
    pass


class MalformedReply(LLMError):
    """The model answered, but not in the shape asked for (an endpoint's body without a
    message, JSON that does not parse): unlike a model that is down, the deterministic
    answer stands in for it."""


class ChatModel(Protocol):
    name: str

    def complete(self, messages: list[dict], json_mode: bool = False, schema: dict | None = None) -> str: ...


class OpenAICompatibleChat:
    def __init__(self, config: LLMConfig, client: httpx.Client | None = None):
        self.config = config
        self.name = f"openai:{config.model}"
        self._client = client or httpx.Client(timeout=config.timeout)

    def complete(self, messages: list[dict], json_mode: bool = False, schema: dict | None = None) -> str:
        """`schema` (a JSON Schema) asks for structured output (response_format json_schema,
        strict), which vLLM, llama.cpp's server, Ollama and OpenAI honour; `json_mode` alone
        asks for any JSON object."""
        body: dict = {"model": self.config.model, "messages": messages, "temperature": self.config.temperature}
        if schema is not None:
            body["response_format"] = {"type": "json_schema",
                                       # not strict: OpenAI strict mode rejects optional fields, which our plans have
                                       "json_schema": {"name": "reply", "schema": schema, "strict": False}}
        elif json_mode:
            body["response_format"] = {"type": "json_object"}
        if self.config.max_tokens > 0:
            body["max_tokens"] = self.config.max_tokens
        headers = {"Authorization": f"Bearer {self.config.api_key}"} if self.config.api_key else {}
        url = self.config.base_url.rstrip("/") + "/chat/completions"
        try:
            response = self._client.post(url, json=body, headers=headers)
            response.raise_for_status()
        except httpx.HTTPError as exc:  # down, unreachable, timed out, refused the request
            raise LLMError(f"chat endpoint {url} failed: {exc}") from exc
        try:
            content = response.json()["choices"][0]["message"]["content"] or ""
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise MalformedReply(f"chat endpoint {url} replied without a message: {response.text[:200]!r}") from exc
        if not isinstance(content, str):
            raise MalformedReply(f"chat endpoint {url} replied with a {type(content).__name__}, not text")
        return content


class LlamaCppChat:
    """In-process GGUF model (llama-cpp-python); loads on first use, never at import.

    One model instance is not safe to call from two threads at once, so calls are serialised.
    `schema` constrains the reply with a grammar built from the JSON Schema, so it always
    parses; `json_mode` alone constrains it to some JSON object.
    """

    def __init__(self, config: LLMConfig):
        self.config = config
        self.name = f"llamacpp:{Path(config.model_path).name}"
        self.load_seconds: float | None = None  # set by the first call
        self.last_usage: dict = {}  # token counts of the last call
        self._llm = None
        self._lock = threading.Lock()

    def _load(self):
        # Without this, OpenMP worker threads spin-wait between tokens and, on a busy 2-core
        # machine, generation collapses (~0.4 tok/s instead of ~10). It must be set before
        # the OpenMP runtime starts, i.e. before llama_cpp is imported.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            from llama_cpp import Llama
        except ImportError as exc:
            raise LLMError("llamacpp backend needs llama-cpp-python: run `make setup` "
                           "(or `bash scripts/setup_llm.sh`)") from exc
        if not Path(self.config.model_path).is_file():
            raise LLMError(f"llamacpp model file not found: {self.config.model_path}")
        threads = self.config.n_threads or min(os.cpu_count() or 2, 8)
        started = time.perf_counter()
        try:
            llm = Llama(model_path=self.config.model_path, n_ctx=self.config.n_ctx, n_threads=threads,
                        verbose=False)
        except (ValueError, RuntimeError) as exc:
            raise LLMError(f"llamacpp could not load {self.config.model_path}: {exc}") from exc
        self.load_seconds = time.perf_counter() - started
        return llm

    def complete(self, messages: list[dict], json_mode: bool = False, schema: dict | None = None) -> str:
        kwargs: dict = {}
        if schema is not None:
            kwargs["response_format"] = {"type": "json_object", "schema": schema}
        elif json_mode:
            kwargs["response_format"] = {"type": "json_object"}
        if self.config.max_tokens > 0:
            kwargs["max_tokens"] = self.config.max_tokens
        with self._lock:
            if self._llm is None:
                self._llm = self._load()
            try:
                out = self._llm.create_chat_completion(messages=messages, temperature=self.config.temperature,
                                                       **kwargs)
            except (ValueError, RuntimeError) as exc:  # e.g. prompt longer than n_ctx
                raise LLMError(f"llamacpp generation failed: {exc}") from exc
        self.last_usage = out.get("usage", {})
        return out["choices"][0]["message"]["content"] or ""


def make_chat_model(config: LLMConfig) -> ChatModel | None:
    if config.backend == "none":
        return None
    if config.backend == "openai":
        return OpenAICompatibleChat(config)
    if config.backend == "llamacpp":
        if not config.model_path:
            path = default_gguf_path()
            if not path.is_file():
                raise LLMError(f"llamacpp backend: no llm.model_path given and the embedded model {path} "
                               "is missing; `make setup` (or `bash scripts/setup_llm.sh`) makes it")
            config = dataclasses.replace(config, model_path=str(path))
        return LlamaCppChat(config)
    raise LLMError(f"unknown LLM backend {config.backend!r} (none, openai, llamacpp)")


def parse_json_reply(text: str) -> dict:
    """Models wrap JSON in prose or code fences; take the outermost object."""
    match = re.search(r"\{.*\}", text, re.DOTALL)
    if not match:
        raise MalformedReply(f"model reply has no JSON object: {text[:200]!r}")
    try:
        return json.loads(match.group(0))
    except json.JSONDecodeError as exc:
        raise MalformedReply(f"model reply is not valid JSON: {exc}") from exc
