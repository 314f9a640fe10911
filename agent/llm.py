"""LLM backends. `none` is the default: the agent is complete without a model.

`openai` talks to any OpenAI-compatible chat endpoint (vLLM, Ollama, llama.cpp server,
OpenAI); `llamacpp` runs a local GGUF in process. Failures raise LLMError: a broken
backend is an error to report, never a reason to abstain.
"""
from __future__ import annotations

import json
import re
from typing import Protocol

import httpx

from agent.config import LLMConfig


class LLMError(RuntimeError):
    pass


class ChatModel(Protocol):
    name: str

    def complete(self, messages: list[dict], json_mode: bool = False) -> str: ...


class OpenAICompatibleChat:
    def __init__(self, config: LLMConfig, client: httpx.Client | None = None):
        self.config = config
        self.name = f"openai:{config.model}"
        self._client = client or httpx.Client(timeout=config.timeout)

    def complete(self, messages: list[dict], json_mode: bool = False) -> str:
        body: dict = {"model": self.config.model, "messages": messages, "temperature": self.config.temperature}
        if json_mode:
            body["response_format"] = {"type": "json_object"}
        headers = {"Authorization": f"Bearer {self.config.api_key}"} if self.config.api_key else {}
        url = self.config.base_url.rstrip("/") + "/chat/completions"
        try:
            response = self._client.post(url, json=body, headers=headers)
            response.raise_for_status()
            return response.json()["choices"][0]["message"]["content"] or ""
        except (httpx.HTTPError, KeyError, IndexError, ValueError) as exc:
            raise LLMError(f"chat endpoint {url} failed: {exc}") from exc


class LlamaCppChat:
    """In-process GGUF model; loads on first use."""

    def __init__(self, config: LLMConfig):
        self.config = config
        self.name = f"llamacpp:{config.model_path}"
        self._llm = None

    def complete(self, messages: list[dict], json_mode: bool = False) -> str:
        if self._llm is None:
            try:
                from llama_cpp import Llama
            except ImportError as exc:
                raise LLMError("llamacpp backend needs the 'llm' extra: pip install 'memlens[llm]'") from exc
            self._llm = Llama(model_path=self.config.model_path, n_ctx=4096, verbose=False)
        kwargs = {"response_format": {"type": "json_object"}} if json_mode else {}
        out = self._llm.create_chat_completion(messages=messages, temperature=self.config.temperature, **kwargs)
        return out["choices"][0]["message"]["content"] or ""


def make_chat_model(config: LLMConfig) -> ChatModel | None:
    if config.backend == "none":
        return None
    if config.backend == "openai":
        return OpenAICompatibleChat(config)
    if config.backend == "llamacpp":
        if not config.model_path:
            raise LLMError("llamacpp backend needs llm.model_path (a .gguf file)")
        return LlamaCppChat(config)
    raise LLMError(f"unknown LLM backend {config.backend!r} (none, openai, llamacpp)")


def parse_json_reply(text: str) -> dict:
    """Models wrap JSON in prose or code fences; take the outermost object."""
    match = re.search(r"\{.*\}", text, re.DOTALL)
    if not match:
        raise LLMError(f"model reply has no JSON object: {text[:200]!r}")
    try:
        return json.loads(match.group(0))
    except json.JSONDecodeError as exc:
        raise LLMError(f"model reply is not valid JSON: {exc}") from exc
