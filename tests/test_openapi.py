"""The OpenAPI documents read as the API is: problem+json error answers with the Problem model, public
reads without a token, short operation ids, a browsable docs page; and the statuses the tests see
(tests/openapi_statuses.py, over the whole run) are documented, as these requests show for each kind."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli.embedded import EmbeddedStack
from shared.http.auth import issue_token
from shared.settings import DEV_JWT_SECRET
from tests import openapi_statuses

PROBLEM = {"$ref": "#/components/schemas/Problem"}


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedStack]:
    running = EmbeddedStack.create(Path(tmp_path_factory.mktemp("openapi")))
    try:
        yield running
    finally:
        running.close()


def documents(stack: EmbeddedStack) -> dict[str, dict]:
    return {name: c.client.get("/openapi.json").get_json() for name, c in stack.api.items()}


def operations(doc: dict) -> Iterator[tuple[str, str, dict]]:
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            yield method, path, operation


def test_every_error_answer_is_a_problem(stack: EmbeddedStack) -> None:
    for name, doc in documents(stack).items():
        assert "Problem" in doc["components"]["schemas"], name
        for method, path, operation in operations(doc):
            errors = {s: r for s, r in operation["responses"].items() if s.isdigit() and int(s) >= 400}
            assert {"404", "422"} <= set(errors) or ("{" not in path and "422" in errors), (
                name,
                method,
                path,
            )
            for status, answer in errors.items():
                assert answer["content"] == {"application/problem+json": {"schema": PROBLEM}}, (path, status)
            if method != "get":
                assert {"401", "403"} <= set(errors), f"{name}: {method.upper()} {path} takes a token"


def test_public_reads_need_no_token_and_ids_are_short(stack: EmbeddedStack) -> None:
    for name, doc in documents(stack).items():
        ids = [op["operationId"] for _, _, op in operations(doc)]
        assert len(ids) == len(set(ids)), name
        for method, path, operation in operations(doc):
            assert re.fullmatch(r"[a-z][a-z0-9_]{2,30}", operation["operationId"]), operation["operationId"]
            if "401" not in operation["responses"]:
                assert operation["security"] == [], f"{name}: {method.upper()} {path} is public"
            else:
                assert {"bearer": []} in operation["security"], f"{name}: {method.upper()} {path}"
    registration = documents(stack)["registration"]["paths"]
    assert registration["/tournaments/{tournament_id}"]["get"]["operationId"] == "get_tournament"
    assert registration["/tournaments/{tournament_id}"]["get"]["security"] == []


@pytest.mark.parametrize("service", ["registration", "pairing", "clocks", "standings"])
def test_each_service_serves_a_browsable_docs_page(stack: EmbeddedStack, service: str) -> None:
    client = stack.api[service].client
    assert client.get("/docs").headers["Location"] == "/docs/swagger"
    page = client.get("/docs/swagger")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert 'new URL("/openapi.json"' in html  # the document with the problem answers
    for asset in re.findall(r'(?:src|href)="(swagger/[^"]+)"', html):
        assert client.get(f"/docs/{asset}").status_code == 200, asset  # served here: no network needed


def test_the_statuses_answered_are_recorded_and_documented(stack: EmbeddedStack) -> None:
    registration = stack.api["registration"].client
    player = issue_token(DEV_JWT_SECRET, uuid.uuid4(), {"player"})
    missing = uuid.uuid4()
    answers = {
        401: registration.post("/tournaments", json={}),
        403: registration.post(
            "/accounts", json={"name": "X"}, headers={"Authorization": f"Bearer {player}"}
        ),
        404: registration.get(f"/tournaments/{missing}"),
        422: registration.post(
            "/tournaments", json={"name": ""}, headers={"Authorization": f"Bearer {player}"}
        ),
    }
    for status, response in answers.items():
        assert response.status_code == status, response.get_json()
        assert response.mimetype == "application/problem+json"
    seen = openapi_statuses.seen()
    module = "services.registration.entrypoints.app"
    assert {401, 422} <= seen[(module, "post", "/tournaments")]
    assert 403 in seen[(module, "post", "/accounts")]
    assert 404 in seen[(module, "get", "/tournaments/{tournament_id}")]
    assert not [line for line in openapi_statuses.undocumented() if module in line]
