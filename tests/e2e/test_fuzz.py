"""Property-based fuzzing of every operation of the four services, against the real stack (gunicorn,
PostgreSQL): Schemathesis reads each service's ``/openapi.json`` and sends valid and invalid
parameters and bodies. No answer may be a 5xx, and every status must be one the operation documents.

Bounded: ``ARBITER_FUZZ_EXAMPLES`` examples per operation, once with valid and once with invalid
input (default 25: about 1,100 requests, some 30 s for the four services on this machine). The
generation is derandomized, so a run repeats the last one; raise the number to search further."""

from __future__ import annotations

import os
import uuid
from collections import Counter

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis import Case, GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import status_code_conformance

from shared.http.auth import issue_token
from tests.e2e.stack import JWT_SECRET, Stack

pytestmark = pytest.mark.e2e

SERVICES = ("registration", "pairing", "clocks", "standings")
EXAMPLES = int(os.environ.get("ARBITER_FUZZ_EXAMPLES", "25"))


@pytest.fixture(scope="module")
def fuzzer(stack: Stack) -> dict[str, str]:
    """The fuzzer's bearer token: a registered account with the service role, so the authenticated
    operations go past authentication (and, for staff, past ownership) into their real work."""
    account = uuid.uuid4()
    staff = issue_token(JWT_SECRET, account, {"service"})
    created = httpx.post(
        f"{stack.urls['registration']}/accounts",
        json={"id": str(account), "name": "Fuzzer"},
        headers={"Authorization": f"Bearer {staff}"},
        timeout=30,
    )
    assert created.status_code == 201, created.text
    return {"Authorization": f"Bearer {issue_token(JWT_SECRET, account, {'service', 'player'})}"}


@pytest.mark.parametrize("service", SERVICES)
def test_no_operation_answers_a_5xx_or_an_undocumented_status(
    service: str, stack: Stack, fuzzer: dict[str, str]
) -> None:
    schema = schemathesis.openapi.from_url(f"{stack.urls[service]}/openapi.json")
    calls: Counter[str] = Counter()
    failures: list[str] = []
    operations = [result.ok() for result in schema.get_all_operations()]
    assert operations, f"{service} documents no operation"
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(
                max_examples=EXAMPLES,
                deadline=None,
                derandomize=True,
                database=None,
                suppress_health_check=list(HealthCheck),
                phases=[Phase.explicit, Phase.generate],
            )
            def fuzz(case: Case) -> None:
                response = case.call(headers=fuzzer, timeout=30)
                calls[str(response.status_code)] += 1
                case.validate_response(response, checks=[not_a_server_error, status_code_conformance])

            try:
                fuzz()
            except Exception as exc:  # a failing example: reported with the others below
                failures.append(f"{operation.label} ({mode.value}): {exc}")
    examples = sum(calls.values())
    print(
        f"\n{service}: {len(operations)} operations, {examples} requests, statuses "
        + ", ".join(f"{status}×{n}" for status, n in sorted(calls.items()))
    )
    assert not failures, "\n\n".join(failures)
