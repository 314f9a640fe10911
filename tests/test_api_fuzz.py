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
           "MEMLENS_SERVICE__API_KEYS": '{"fuzz-key": "fuzz"}', "MEMLENS_SERVICE__MAX_UPLOAD_MB": "1"}
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
