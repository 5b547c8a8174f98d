"""The HTTP API fuzzed from its own OpenAPI description (Schemathesis) on a real server in a
thread: whatever a stranger sends, no answer is a server error, and every answer's status, type
and body are the ones the description declares (a refusal: the error shape of
``docs/schemas/protocol/http-error.json``).

Half the examples aim at a real table whose game is over (and send its record to the routes
that take one), so the fuzz reaches past ``table/not-found`` and ``record/invalid``. A few
examples per operation (six in each mode, times ``RACEDECK_TEST_BUDGET``; see
``tests/budget.py``) keep it to seconds: the point is every operation and every refusal path,
not depth.
"""

from __future__ import annotations

from typing import Any

import pytest
import requests
import schemathesis
from budget import scaled
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.core.result import Ok
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from server.live import LiveServer, eventually, validator

SHARED_SERVER = True
"""The tests share a server per database (:mod:`server.conftest`): each makes its own tables."""

EXAMPLES = scaled(6, 3)
"""Examples per operation and generation mode (valid data, then invalid)."""

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture
def finished(server: LiveServer) -> dict[str, Any]:
    """A table of two random bots whose game is over, and that game's record."""
    created = server.create("why-first", ["random", "random"], {"players": 2, "stages": 1})
    table_id = created["table_id"]
    eventually(
        lambda: server.http.get(f"/api/tables/{table_id}/record").status_code == 200,
        "the bots finish their game",
    )
    record = server.http.get(f"/api/tables/{table_id}/record").json()
    return {"table_id": table_id, "record": record}


@pytest.fixture
def api(server: LiveServer, finished: dict[str, Any]) -> schemathesis.BaseSchema:
    """The server's own OpenAPI description (it must itself be valid OpenAPI)."""
    return schemathesis.openapi.from_dict(server.app.openapi())


@pytest.fixture
def session() -> requests.Session:
    """A client that ignores proxy settings: the server is on the loopback."""
    s = requests.Session()
    s.trust_env = False
    return s


@pytest.mark.parametrize("mode", list(schemathesis.GenerationMode), ids=str)
def test_the_api_answers_as_it_describes_itself(
    mode: schemathesis.GenerationMode,
    api: schemathesis.BaseSchema,
    server: LiveServer,
    finished: dict[str, Any],
    session: requests.Session,
) -> None:
    operations = []
    for result in api.get_all_operations():
        assert isinstance(result, Ok), result  # the description is valid OpenAPI
        operations.append(result.ok())
    assert len(operations) >= 13, [op.label for op in operations]
    for operation in operations:

        @given(case=operation.as_strategy(generation_mode=mode), aim=st.booleans())
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,
            database=None,
        )
        def answers(case: schemathesis.Case[Any], aim: bool) -> None:
            if aim:
                if case.path_parameters and "table_id" in case.path_parameters:
                    case.path_parameters["table_id"] = finished["table_id"]
                if case.operation.path in ("/api/replay", "/api/verify"):
                    case.body = finished["record"]
            response = case.call_and_validate(base_url=server.url, session=session, checks=CHECKS)
            if response.status_code >= 400:
                # The description's error model is the protocol's documented shape.
                validator("http-error").validate(response.json())

        try:
            answers()
        except Unsatisfiable:
            # Nothing it takes can be sent wrong: text in the path is text whatever it holds.
            if mode is schemathesis.GenerationMode.POSITIVE or len(operation.body):
                raise
