"""schemathesis fuzzes every operation of the OpenAPI schema against a real uvicorn server
on loopback, with a fixed example budget: no response may be a 5xx, every response must be
one the schema declares (status, content type, body), invalid input must be refused, and
an operation that needs a key must refuse a request without one.

A bigger run, for figures: `API_FUZZ_EXAMPLES=500 pytest tests/test_api_fuzz.py -s`.
"""
from __future__ import annotations

import os
from collections import Counter

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import (
    content_type_conformance,
    ignored_auth,
    negative_data_rejection,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from service.api import create_app
from service.config import load_config
from service.system import MemlensSystem
from tests.conftest import make_observation
from tests.servers import serving

pytestmark = pytest.mark.slow
KEY = {"X-API-Key": "fuzz-key"}
EXAMPLES = int(os.environ.get("API_FUZZ_EXAMPLES", "25"))
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          negative_data_rejection, ignored_auth]
statuses: Counter[int] = Counter()


@pytest.fixture(scope="module")
def fuzzed_server(tmp_path_factory):
    env = {**os.environ, "MEMLENS_HOME": str(tmp_path_factory.mktemp("fuzz-home")),
           "MEMLENS_SERVICE__API_KEYS": '{"fuzz-key": "fuzz"}', "MEMLENS_SERVICE__MAX_UPLOAD_MB": "1",
           "MEMLENS_SERVICE__RATE_LIMIT": ""}  # the fuzz budget goes to the operations, not to 429s
    system = MemlensSystem(load_config(env=env))
    system.memory.ingest(make_observation(), "fuzz")  # something to ask about and to forget
    with serving(create_app(system)) as url:
        yield url
    system.close()
    total, errors = sum(statuses.values()), sum(n for code, n in statuses.items() if code >= 500)
    print(f"\nschemathesis: {total} requests, {errors} server errors; by status {dict(sorted(statuses.items()))}")


@pytest.mark.parametrize("mode", [schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE])
def test_every_operation_conforms_and_never_fails(fuzzed_server, mode):
    """Each operation gets EXAMPLES generated requests in each mode (valid data, and data
    that breaks the schema); hypothesis shrinks any failure to a minimal request."""
    schema = schemathesis.openapi.from_url(f"{fuzzed_server}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 8

    for operation in operations:
        inputs = len(operation.path_parameters) + len(operation.query) + len(operation.body)
        if mode is schemathesis.GenerationMode.NEGATIVE and not inputs:
            continue  # /health takes nothing: no input can break its schema
        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        def conforms(case):
            response = case.call(base_url=fuzzed_server, headers=KEY, timeout=60)
            statuses[response.status_code] += 1
            case.validate_response(response, checks=CHECKS, headers=KEY)

        conforms()


def test_the_fuzz_run_reached_past_authentication(fuzzed_server):
    """The budget was spent on the operations, not on 401s: most requests got in."""
    with httpx.Client(base_url=fuzzed_server) as client:
        assert client.get("/jobs", headers=KEY).status_code == 200
    assert statuses and statuses[401] < sum(statuses.values()) / 2, statuses


@pytest.mark.parametrize("at", ["0001-01-01T00:00:00", "0001-01-01T00:04:00+01:00", "9999-12-31T23:59:59",
                                "9999-12-31T23:59:59-12:00", "0999-12-31T23:00:00", "9001-01-01T00:00:00"])
@pytest.mark.parametrize("question", ["what did I do yesterday?", "what happened tonight?", "what did I do today?",
                                      "who did I see last week?", "what did I do the day after tomorrow?"])
def test_a_question_time_at_the_ends_of_the_calendar_is_refused_clearly(fuzzed_server, at, question):
    """A relative question ("yesterday", "last week") from a time near the calendar's ends
    would leave it: the time is refused with the years that can be asked about, never a 500."""
    with httpx.Client(base_url=fuzzed_server, timeout=60) as client:
        response = client.post("/ask", headers=KEY, json={"question": question, "at": at})
    assert response.status_code == 422 and "1000-9000" in response.json()["detail"], response.text


@pytest.mark.parametrize("question", ["?!", "\u0000", "...", "¿?", " \t- "])
def test_a_question_without_words_abstains(fuzzed_server, question):
    with httpx.Client(base_url=fuzzed_server, timeout=60) as client:
        response = client.post("/ask", headers=KEY, json={"question": question, "at": "2026-03-03T12:00:00"})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["abstained"] and answer["evidence"] == [] and "no words" in answer["answer"]
