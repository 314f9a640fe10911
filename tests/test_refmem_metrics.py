"""RefMem-Bench's metrics (App. D.7-D.8) and direct-answer judges: exact-set Acc, letter parsing,
MemR text (real all-MiniLM-L6-v2) and visual, BLEU-1 / F1 by hand, the offline judge, and the
LLM judge against a real uvicorn server speaking the OpenAI chat-completions protocol."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from eval.refmem.judge import JudgeError, OfflineJudge, OpenAIJudge, make_judge
from eval.refmem.metrics import (
    bleu1,
    memr_text,
    memr_visual,
    option_accuracy,
    parse_letters,
    token_f1,
    tokens,
)
from tests.servers import chat_completions_app, serving


# ---- Acc on options ---------------------------------------------------------------------------
def test_option_accuracy_needs_the_exact_set():
    assert option_accuracy(["D", "A"], ["A", "D"]) == 1.0
    assert option_accuracy([" d", "a"], ["A", "D"]) == 1.0  # case and order are ignored
    assert option_accuracy(["A"], ["A", "D"]) == 0.0  # a partial set earns nothing
    assert option_accuracy(["A", "B", "D"], ["A", "D"]) == 0.0
    assert option_accuracy([], ["B"]) == 0.0
    assert option_accuracy(["C"], ["B"]) == 0.0


@pytest.mark.parametrize("text, n, letters", [
    ("[A,D]", 4, ("A", "D")),
    ("[D, A]", 4, ("A", "D")),
    ("A, D", 4, ("A", "D")),
    ("B", 4, ("B",)),
    ("answer: c", 4, ("C",)),
    ("B and E", 4, ("B",)),  # E is not among four options
    ("A lot of Dogs", 4, ("A",)),  # the D of "Dogs" is inside a word
    ("It is a mix of B and D", 4, ("B", "D")),  # the article "a" is not option A
    ("I pick [b, c] because option A is wrong", 4, ("B", "C")),  # the bracketed list wins
    ("(C)", 4, ("C",)),
    ("none of them", 4, ()),
    ("", 4, ()),
])
def test_letters_are_read_from_a_models_answer(text, n, letters):
    assert parse_letters(text, n) == letters


# ---- MemR ---------------------------------------------------------------------------------------
class _Fixed:
    """An embedder with chosen unit vectors, to check the formula exactly."""

    def __init__(self, vectors: dict[str, list[float]]):
        self.vectors = {k: np.asarray(v, dtype=np.float32) / np.linalg.norm(v) for k, v in vectors.items()}

    def embed(self, texts):
        return np.stack([self.vectors[t] for t in texts])


def test_memr_text_is_the_mean_over_gold_of_the_best_clamped_cosine():
    embedder = _Fixed({"g1": [1, 0], "g2": [0, 1], "p1": [1, 1], "p2": [1, 0], "opposite": [-1, -1]})
    # g1: best of cos 0.707 (p1) and 1 (p2); g2: best of 0.707 and 0
    assert memr_text(["g1", "g2"], ["p1", "p2"], embedder) == pytest.approx((1 + math.sqrt(0.5)) / 2, abs=1e-6)
    assert memr_text(["g1", "g2"], ["p2"], embedder) == pytest.approx(0.5, abs=1e-6)
    assert memr_text(["g1"], ["opposite"], embedder) == 0.0  # a negative cosine counts as 0


def test_memr_text_with_the_real_encoder(embedder):
    gold = ["Maya: I can't stand running, my knees hate it", "Maya: signed up for a half marathon in May"]
    assert memr_text(gold, gold, embedder) == pytest.approx(1.0, abs=1e-4)
    assert memr_text(gold, list(reversed(gold)), embedder) == pytest.approx(1.0, abs=1e-4)
    related = memr_text(gold, ["Maya: I really can't stand running"], embedder)
    unrelated = memr_text(gold, ["Jon: the bus to the airport was late again"], embedder)
    assert 0.0 <= unrelated < related < 0.99
    # a further cited line never lowers a gold line's best match
    assert memr_text(gold, [gold[0], "Jon: the bus to the airport was late again"], embedder) >= related
    assert memr_text(gold, [], embedder) is None
    assert memr_text([], gold, embedder) is None


def test_memr_visual_is_the_recall_of_gold_images():
    assert memr_visual([2, 5], [5, 7]) == 0.5
    assert memr_visual([2, 5], [5, 2, 9]) == 1.0
    assert memr_visual([2, 5], []) == 0.0  # an empty prediction scores 0, not None
    assert memr_visual([], [1]) is None  # left out of the mean


# ---- BLEU-1 and F1 ------------------------------------------------------------------------------
def test_tokens_lower_case_and_split_punctuation():
    assert tokens("Long-distance Running, mostly.") == ["long", "distance", "running", "mostly"]
    assert tokens("  ") == []


def test_bleu1_and_f1_by_hand():
    # pred the2 cat2 on mat; ref the2 cat is on mat: clipped overlap 2+1+1+1 = 5, equal lengths
    assert bleu1("the cat the cat on mat", "the cat is on the mat") == pytest.approx(5 / 6)
    assert token_f1("the cat the cat on mat", "the cat is on the mat") == pytest.approx(10 / 12)
    # clipping: "the" counts once
    assert bleu1("the the the", ["the cat"]) == pytest.approx(1 / 3)
    assert token_f1("the the the", ["the cat"]) == pytest.approx(2 / 5)
    assert bleu1("grew to love running", ["Grew to love running."]) == 1.0


def test_bleu1_brevity_penalty():
    # 2 tokens against 4: BP = exp(1 - 4/2)
    assert bleu1("love running", ["grew to love running"]) == pytest.approx(math.exp(-1))
    assert bleu1("hates running", ["grew to love running"]) == pytest.approx(math.exp(-1) * 0.5)
    assert token_f1("love running", ["grew to love running"]) == pytest.approx(4 / 6)
    # a longer prediction has no brevity penalty, only lower precision
    assert bleu1("she grew to love running", ["grew to love running"]) == pytest.approx(4 / 5)


def test_several_references_take_the_best_and_empty_answers_score_zero():
    # "grew to love running": exp(-1) = 0.37; "loves running": 1 of 2, no penalty = 0.5
    assert bleu1("love running", ["grew to love running", "loves running"]) == pytest.approx(0.5)
    assert token_f1("Running!", ["hiking", "running"]) == 1.0
    assert token_f1("running", "running") == 1.0  # a bare string is one reference
    assert bleu1("", ["x"]) == 0.0 and token_f1("", ["x"]) == 0.0
    assert bleu1("x", []) == 0.0 and token_f1("x", []) == 0.0


# ---- the offline judge --------------------------------------------------------------------------
@pytest.mark.parametrize("prediction, references", [
    ("Blames other people", ["blames others", "shifts the blame"]),  # F1 4/5
    ("shifts blame", ["shifts the blame"]),  # "the" is a stopword
    ("avoiding crowded places", ["avoids crowds"]),  # stems hold every reference token
    ("running", ["long-distance running"]),  # F1 exactly 0.5: looser than an LLM on scope
])
def test_the_offline_judge_accepts(prediction, references):
    assert OfflineJudge().verdict("What does she do?", prediction, references)


@pytest.mark.parametrize("prediction, references", [
    ("apologises", ["blames others"]),  # a different concept
    ("takes the train", ["avoids flying"]),  # a paraphrase: stricter than an LLM
    ("quiet evenings at home alone", ["quiet weekends"]),  # F1 2/7
    ("", ["blames others"]),
    ("the", ["the"]),  # nothing but stopwords
])
def test_the_offline_judge_rejects(prediction, references):
    assert not OfflineJudge().verdict("What does she do?", prediction, references)


def test_make_judge_falls_back_offline_without_an_endpoint_and_model():
    assert isinstance(make_judge(None, None, None), OfflineJudge)
    assert isinstance(make_judge("http://127.0.0.1:9/v1", None, None), OfflineJudge)
    assert isinstance(make_judge(None, "gpt-4o-2024-08-06", None), OfflineJudge)
    assert isinstance(make_judge("http://127.0.0.1:9/v1", "gpt-4o-2024-08-06", None), OpenAIJudge)


# ---- the LLM judge over HTTP --------------------------------------------------------------------
def _chat_server(replies: list[tuple[int, str]], seen: list[dict]):
    return chat_completions_app(lambda body: replies.pop(0), seen)


def test_the_llm_judge_sends_the_paper_prompt_and_reads_verdicts():
    seen: list[dict] = []
    replies = [(200, '{"verdict": true}'), (200, 'Here you go:\n```json\n{"verdict": false}\n```'),
               (200, "The prediction is correct."), (200, '{"verdict": "yes"}'), (500, "overloaded")]
    question = "What does Ravi keep avoiding?"
    with serving(_chat_server(replies, seen)) as url:
        judge = make_judge(url + "/v1", "gpt-4o-2024-08-06", "sk-test")
        assert judge.verdict(question, "talking about his dad", ["his father", "family talk"]) is True
        assert judge.verdict(question, "cooking", ["his father"]) is False
        with pytest.raises(JudgeError, match="The prediction is correct"):  # the error names the reply
            judge.verdict(question, "money", ["his father"])
        with pytest.raises(JudgeError, match="yes"):  # a verdict must be a JSON boolean
            judge.verdict(question, "money", ["his father"])
        with pytest.raises(JudgeError, match="failed"):
            judge.verdict(question, "money", ["his father"])
        assert judge.verdict(question, "   ", ["his father"]) is False  # nothing to judge: no call
    assert len(seen) == 5
    first = seen[0]
    assert first["auth"] == "Bearer sk-test"
    body = first["body"]
    assert body["model"] == "gpt-4o-2024-08-06" and body["temperature"] == 0
    roles = [m["role"] for m in body["messages"]]
    assert roles == ["system", "user"]
    system, user = (m["content"] for m in body["messages"])
    assert "ANY ONE" in system and "paraphrase" in system and "broader" in system and '{"verdict"' in system
    assert question in user and "talking about his dad" in user
    assert json.dumps(["his father", "family talk"]) in user


def test_the_llm_judge_sends_no_key_when_none_is_set():
    seen: list[dict] = []
    with serving(_chat_server([(200, '{"verdict": true}')], seen)) as url:
        assert OpenAIJudge(url + "/v1/", "local-model").verdict("q", "dad", ["father"]) is True
    assert seen[0]["auth"] is None and seen[0]["body"]["model"] == "local-model"
