"""The direct-answer judge: is a short answer semantically equivalent to any one reference?

The paper judges with gpt-4o-2024-08-06 and its Fig. 10 prompt: accept paraphrases, reject
a different concept or a scope that changes the meaning, reply `{"verdict": true|false}`.
`OpenAIJudge` asks any OpenAI-compatible endpoint exactly that (temperature 0). Without one,
`OfflineJudge` is the documented fallback: a reference matches when the answer's token F1
against it is at least 0.5, or the answer holds every one of its content tokens (tokens as
in eval.refmem.metrics, Porter-stemmed, "a an the to of" dropped). It is stricter than an
LLM on paraphrase ("avoids flying" vs "takes the train") and looser on scope ("running"
passes for "long-distance running"); reports name the judge used.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

import httpx

from eval.refmem.metrics import tokens

SYSTEM = (
    "You judge short answers to questions about a long dialogue. A prediction is correct if it is semantically "
    "equivalent to ANY ONE of the reference answers: accept paraphrases, synonyms and different wording of the same "
    "meaning; reject a different concept, a contradiction, or a scope that changes the meaning (much broader or much "
    'narrower). Reply with JSON only: {"verdict": true} or {"verdict": false}.'
)
_STOP = frozenset({"a", "an", "the", "to", "of"})


class JudgeError(RuntimeError):
    """The judge endpoint failed or replied with something other than a verdict."""


class Judge(Protocol):
    name: str

    def verdict(self, question: str, prediction: str, references: Sequence[str]) -> bool: ...


class OpenAIJudge:
    """The paper's judge over the OpenAI chat-completions protocol (any compatible server)."""

    def __init__(self, base_url: str, model: str, api_key: str | None = None, timeout: float = 60.0,
                 client: httpx.Client | None = None):
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model, self.api_key = model, api_key
        self.name = f"openai:{model}"
        self.client = client or httpx.Client(timeout=timeout)

    def verdict(self, question: str, prediction: str, references: Sequence[str]) -> bool:
        if not prediction.strip():
            return False
        user = (f"Question: {question}\nReference answers: {json.dumps(_listed(references))}\n"
                f"Prediction: {prediction}\nIs the prediction correct?")
        body = {"model": self.model, "temperature": 0,
                "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]}
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        try:
            response = self.client.post(self.url, json=body, headers=headers)
            response.raise_for_status()
            content = response.json()["choices"][0]["message"]["content"] or ""
        except (httpx.HTTPError, KeyError, IndexError, ValueError) as exc:
            raise JudgeError(f"judge endpoint {self.url} failed: {exc}") from exc
        value = _first_object(content).get("verdict")
        if not isinstance(value, bool):
            raise JudgeError(f"judge reply is not {{\"verdict\": true|false}}: {content[:200]!r}")
        return value


def _first_object(content: str) -> dict:
    """The first JSON object in a reply (models wrap it in prose or code fences), or {}."""
    decoder = json.JSONDecoder()
    for start in (m.start() for m in re.finditer(r"\{", content)):
        try:
            value, _ = decoder.raw_decode(content, start)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    return {}


def _listed(references: str | Sequence[str]) -> list[str]:
    # a bare string is one reference, not a list of characters
    return [references] if isinstance(references, str) else list(references)


@lru_cache(maxsize=1)
def _stem():
    from nltk.stem import PorterStemmer

    return PorterStemmer().stem


def _content(text: str) -> list[str]:
    stem = _stem()
    return [stem(w) for w in tokens(text) if w not in _STOP]


class OfflineJudge:
    """The fallback when no judge endpoint is configured: token F1 >= 0.5 against some
    reference, or all of that reference's content tokens in the answer. Stricter than an LLM
    judge on paraphrase (different words for one idea fail) and looser on scope: a broader
    answer sharing half the words passes ("running" for "long-distance running"), and so
    does a narrower one that contains them all."""

    name = "offline (stemmed token overlap; see eval/refmem/judge.py)"

    def verdict(self, question: str, prediction: str, references: Sequence[str]) -> bool:
        pred = _content(prediction)
        if not pred:
            return False
        for reference in _listed(references):
            ref = _content(reference)
            if not ref:
                continue
            same = sum((Counter(pred) & Counter(ref)).values())
            if 2 * same / (len(pred) + len(ref)) >= 0.5 or set(ref) <= set(pred):
                return True
        return False


def make_judge(base_url: str | None, model: str | None, api_key: str | None = None) -> Judge:
    """The LLM judge when an endpoint and model are given, else the offline fallback."""
    if base_url and model:
        return OpenAIJudge(base_url, model, api_key)
    return OfflineJudge()
