"""The LangGraph agent: routing, answers with evidence, abstention, options, LLM backends."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
from fastapi import FastAPI, Request

from agent.config import AgentConfig, LLMConfig
from agent.graph import AgentContext, MemoryAgent, build_graph
from agent.llm import LLMError, OpenAICompatibleChat
from agent.planners import make_planner
from agent.reasoning import EvidenceReasoner
from retrieval.operators import MemoryOperators
from retrieval.search import HybridRetriever
from tests.conftest import T0, make_observation
from tests.servers import serving

AT = T0 + timedelta(minutes=5)
CANNOT = "This question cannot be answered"
ASKED_TO_DO = "What did Bob ask me to do?"  # read as a phrase ("buy oat milk and eggs ..."), which the model reads again


@pytest.fixture(scope="module")
def filled(tmp_path_factory, embedder):
    from memory.config import MemoryConfig
    from memory.memory import Memory

    memory = Memory(MemoryConfig(root=tmp_path_factory.mktemp("agent-memory")), embedder=embedder)
    memory.ingest(make_observation(), "me")
    yield memory
    memory.close()


def make_agent(memory, chat=None, **config) -> MemoryAgent:
    agent_config = AgentConfig(**config)
    return MemoryAgent(AgentContext(HybridRetriever(memory), MemoryOperators(memory), EvidenceReasoner(memory.embedder),
                                    agent_config, make_planner(agent_config, memory.embedder, chat), chat))


def test_graph_has_the_design_nodes():
    nodes = set(build_graph().get_graph().nodes)
    assert {"understand", "plan", "run_tool", "reason", "judge", "refine", "answer", "abstain"} <= nodes


def test_answers_carry_timestamped_evidence(filled):
    agent = make_agent(filled)
    where = agent.ask("Where did I leave the scissors?", "me", AT)
    assert not where.abstained and "living room" in where.answer
    rests_on = [e for e in where.evidence if not e.why.startswith("related")]  # then the lines about it (agent.citing)
    assert rests_on[-1].record.kind == "sighting" and rests_on[-1].record.wall_start == T0 + timedelta(seconds=32)
    assert where.evidence[:len(rests_on)] == rests_on
    said = agent.ask("What did Bob ask me to buy?", "me", AT)
    assert "oat milk" in said.answer and said.evidence[0].source == "transcript"
    note = agent.ask("What is the wifi password on the note?", "me", AT)
    assert "BLUEFOX42" in note.answer and note.evidence[0].source == "ocr"


def test_speech_act_questions_prefer_that_act(filled):
    answer = make_agent(filled).ask("What did I promise to do after work?", "me", AT)
    assert "pick them up" in answer.answer and "commitment" in answer.evidence[0].record.attrs["acts"]


def test_later_correction_wins(filled):
    answer = make_agent(filled).ask("When is the dentist appointment?", "me", AT)
    assert "four thirty" in answer.answer and len(answer.evidence) == 2


def test_memory_is_cut_at_question_time(filled):
    agent = make_agent(filled)
    assert "kitchen" in agent.ask("Where did I leave the scissors?", "me", T0 + timedelta(seconds=20)).answer
    before_request = agent.ask("What did Bob ask me to buy?", "me", T0 + timedelta(seconds=8))
    assert before_request.abstained or "oat milk" not in before_request.answer


@pytest.mark.parametrize("question", [
    "What colour is my car?", "What did Carol say about the trip?", "Where did I leave my passport?",
])
def test_abstains_when_memory_does_not_support_an_answer(filled, question):
    answer = make_agent(filled).ask(question, "me", AT)
    assert answer.abstained and answer.evidence == []
    # A presupposed thing or person that memory never held is a definite reason, not a reason to search harder.
    assert any("false premise" in step for step in answer.trace) and not any(s.startswith("refine") for s in answer.trace)


def test_a_refinement_never_reruns_a_plan_already_tried(filled):
    # Held to a bar no answer meets, with no runner-up intent: one broad search, then abstain.
    answer = make_agent(filled, abstain_threshold=0.999).ask("What did I promise to do?", "me", AT)
    plans = [step for step in answer.trace if step.startswith("plan:")]
    assert answer.abstained and len(plans) == len(set(plans)) >= 2


def test_threshold_is_tunable(filled):
    question = "What did Bob say about eggs and the weather?"  # half supported: eggs, no weather
    assert make_agent(filled, abstain_threshold=0.99).ask(question, "me", AT).abstained
    assert not make_agent(filled, abstain_threshold=0.3).ask(question, "me", AT).abstained


def test_multiple_choice_scores_every_option(filled):
    options = ["Bread and butter", "Oat milk and eggs", "Coffee beans", CANNOT]
    answer = make_agent(filled).ask("What did Bob ask me to buy?", "me", AT, options)
    assert answer.chosen_option == 1 and answer.answer == options[1]
    assert len(answer.option_scores) == 4 and max(answer.option_scores) == answer.option_scores[1]
    assert abs(sum(answer.option_scores) - 1.0) < 1e-3
    refused = make_agent(filled).ask("What did Carol ask me to buy?", "me", AT, options)
    assert refused.abstained and refused.chosen_option == 3 and refused.answer == CANNOT


def test_instructions_inside_memories_are_data(filled):
    answer = make_agent(filled).ask("What is the wifi password on the note?", "me", AT)
    assert "BLUEFOX42" in answer.answer and "hunter2" not in answer.answer and "1234" not in answer.answer


def test_empty_question_is_an_error(filled):
    with pytest.raises(ValueError):
        make_agent(filled).ask("   ", "me", AT)


def _fake_openai(replies: list[str], seen: list[dict]) -> FastAPI:
    """Stands in for a remote OpenAI-compatible endpoint, speaking its real wire protocol."""
    app = FastAPI()

    @app.post("/v1/chat/completions")
    async def complete(request: Request):
        body = await request.json()
        seen.append({"body": body, "auth": request.headers.get("authorization")})
        return {"id": "x", "object": "chat.completion", "model": body["model"],
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": replies.pop(0)}}]}

    return app


def test_openai_compatible_backend_over_http(filled):
    seen: list[dict] = []
    reply = json.dumps({"answer": "Oat milk and eggs, for Bob.", "sufficient": True, "evidence_ids": [],
                        "option_scores": [0.0, 0.9, 0.05, 0.05]})
    with serving(_fake_openai([reply], seen)) as url:
        chat = OpenAICompatibleChat(LLMConfig(backend="openai", base_url=url + "/v1", model="m", api_key="sk-test"))
        options = ["Bread and butter", "Oat milk and eggs", "Coffee beans", CANNOT]
        answer = make_agent(filled, chat=chat).ask("What did Bob ask me to buy?", "me", AT, options)
    assert answer.chosen_option == 1 and not answer.abstained
    request = seen[0]
    assert request["auth"] == "Bearer sk-test" and request["body"]["model"] == "m"
    system, user = request["body"]["messages"]
    assert "never follow" in system["content"] and "<memory>" in user["content"]
    assert "oat milk" in user["content"].lower()


def test_whether_to_answer_stays_the_fitted_decision_not_the_models_verdict(filled):
    doubtful = json.dumps({"answer": "Not sure.", "sufficient": False, "evidence_ids": [], "option_scores": []})
    with serving(_fake_openai([doubtful], [])) as url:
        chat = OpenAICompatibleChat(LLMConfig(backend="openai", base_url=url + "/v1", model="m"))
        answer = make_agent(filled, chat=chat).ask(ASKED_TO_DO, "me", AT)
    assert not answer.abstained and answer.sufficiency >= 0.5
    assert any("judged the evidence insufficient" in line for line in answer.trace)


def test_llm_failures_are_errors_not_abstentions(filled):
    deterministic = make_agent(filled).ask(ASKED_TO_DO, "me", AT)
    with serving(_fake_openai(["this is not json"], [])) as url:
        chat = OpenAICompatibleChat(LLMConfig(backend="openai", base_url=url + "/v1"))
        garbled = make_agent(filled, chat=chat).ask(ASKED_TO_DO, "me", AT)
    # a reply that cannot be read is the model's failure, not the question's: the tools' answer stands
    assert garbled.answer == deterministic.answer and not garbled.abstained
    assert any("model reply unreadable" in line for line in garbled.trace), garbled.trace
    unreachable = OpenAICompatibleChat(LLMConfig(backend="openai", base_url="http://127.0.0.1:9/v1", timeout=2))
    with pytest.raises(LLMError):
        make_agent(filled, chat=unreachable).ask(ASKED_TO_DO, "me", AT)


@pytest.mark.parametrize("body", [{"id": "x", "object": "chat.completion"},  # no choices at all
                                  {"choices": [{"message": {"role": "assistant", "content": ["a", "list"]}}]},
                                  {"choices": []}])
def test_a_reply_without_a_readable_message_falls_back_to_the_deterministic_answer(filled, body):
    """An endpoint that answers 200 in the wrong shape is a malformed reply, not a model that
    is down: the question is answered as without a model (`memlens ask` exits 0, not 3)."""
    deterministic = make_agent(filled).ask(ASKED_TO_DO, "me", AT)
    app = FastAPI()
    app.post("/v1/chat/completions")(lambda: body)
    with serving(app) as url:
        chat = OpenAICompatibleChat(LLMConfig(backend="openai", base_url=url + "/v1"))
        answer = make_agent(filled, chat=chat).ask(ASKED_TO_DO, "me", AT)
    assert answer.answer == deterministic.answer and not answer.abstained
    assert any("model reply unreadable" in line for line in answer.trace), answer.trace


@pytest.mark.parametrize("bad", ["   ", "x" * 2001, 42])
def test_questions_that_are_not_questions_are_refused(filled, bad):
    with pytest.raises(ValueError):
        make_agent(filled).ask(bad, "me", AT)


def test_an_abstention_cites_what_came_closest_as_related_only(filled):
    # Held to a bar no evidence meets, the agent abstains; what it read is shown as the
    # closest memory came, never as what an answer rests on.
    answer = make_agent(filled, abstain_threshold=0.999).ask("What did Bob ask me to do?", "me", AT)
    assert answer.abstained and answer.evidence
    assert all(e.related for e in answer.evidence)
    assert any("oat milk" in (e.record.attrs.get("said") or e.record.text) for e in answer.evidence)
