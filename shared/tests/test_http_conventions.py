"""The HTTP conventions every service's app gets from shared/http: problem+json for what goes wrong
around the views (a dependency down, a wrong method, a body too large, too slow or too deep), bounded
strings, and the problems documented in the OpenAPI document."""

from __future__ import annotations

import io
import json
import socket
from typing import Any

import pytest
import redis
import sqlalchemy as sa
from flask import Response
from pydantic import Field

from shared.database import make_engine
from shared.http.app import create_openapi_app, json_response
from shared.http.limits import BodyLimits, HttpLimits
from shared.http.openapi import problems
from shared.http.schemas import OptionalBody, Strict, Text, Words

LIMITS = HttpLimits(max_body_bytes=10_000, body_timeout_seconds=0.5)


def closed_port() -> int:
    """A local port nothing listens on: connecting is refused at once."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class NoteBody(Strict):
    text: Text = Field(min_length=1, max_length=40)
    stars: int = Field(0, ge=0, le=5)
    pinned: bool = False
    title: Words | None = Field(None, max_length=40)


class FlagBody(OptionalBody):
    flag: bool = False


@pytest.fixture
def app():  # type: ignore[no-untyped-def]
    app = create_openapi_app(__name__, title="test", version="1", readiness={}, limits=LIMITS)
    port = closed_port()
    engine = make_engine(f"postgresql+psycopg://postgres@127.0.0.1:{port}/nothing")
    cache = redis.Redis(host="127.0.0.1", port=port, socket_connect_timeout=1)

    @app.post("/notes", responses={201: NoteBody, **problems(409)})
    def add_note(body: NoteBody) -> Response:
        return json_response(body, 201)

    @app.post("/flags", responses={200: FlagBody})
    def set_flag(body: FlagBody) -> Response:
        return json_response(body)

    @app.get("/from-the-database")
    def from_the_database() -> Response:
        with engine.connect() as conn:
            conn.execute(sa.text("SELECT 1"))
        return json_response({})

    @app.get("/from-the-cache")
    def from_the_cache() -> Response:
        cache.ping()
        return json_response({})

    yield app
    engine.dispose()


@pytest.fixture
def client(app):  # type: ignore[no-untyped-def]
    return app.test_client()


def problem(response: Any, status: int, slug: str) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body: dict[str, Any] = response.json
    assert body["type"] == f"/problems/{slug}"
    assert body["status"] == status
    return body


@pytest.mark.parametrize("path", ["/from-the-database", "/from-the-cache"])
def test_a_dependency_that_is_down_is_a_503_to_retry_not_a_500(client, path):
    response = client.get(path)
    body = problem(response, 503, "service-unavailable")
    assert int(response.headers["Retry-After"]) > 0
    assert "retry" in body["detail"]


def test_a_wrong_method_is_a_405_that_names_the_allowed_ones(client):
    response = client.delete("/notes")
    problem(response, 405, "method-not-allowed")
    assert "POST" in response.headers["Allow"]


def test_a_body_declared_larger_than_the_limit_is_a_413_before_it_is_read(client):
    response = client.post("/notes", data=json.dumps({"text": "x" * 20_000}), content_type="application/json")
    body = problem(response, 413, "content-too-large")
    assert "10000 bytes" in body["detail"]


def test_a_body_within_the_limit_reaches_the_view(client):
    assert client.post("/notes", json={"text": "hello"}).status_code == 201


def test_a_nul_character_is_refused(client):
    body = problem(client.post("/notes", json={"text": "a\x00b"}), 422, "validation-error")
    assert body["errors"][0]["loc"] == ["text"]


def test_json_nested_too_deeply_for_the_parser_is_a_422(client):
    deep = "[" * 4000 + "]" * 4000  # the issue sent 990 levels; the parser gives up near 1,000
    problem(client.post("/notes", data=deep, content_type="application/json"), 422, "json-too-deep")


class StalledStream:
    """A request body whose client sent ``sent`` and then stopped: reading more times out, as
    gunicorn's socket does once its timeout is set."""

    def __init__(self, sent: bytes) -> None:
        self.sent = io.BytesIO(sent)

    def read(self, size: int = -1) -> bytes:
        data = self.sent.read(size)
        if not data:
            raise TimeoutError("timed out")
        return data


def call(app: Any, environ: dict[str, Any]) -> tuple[str, dict[str, str], bytes]:
    answer: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]]) -> None:
        answer["status"], answer["headers"] = status, dict(headers)

    body = b"".join(BodyLimits(app, LIMITS)(environ, start_response))
    return answer["status"], answer["headers"], body


def never_called(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    raise AssertionError("the app must not see this request")


def test_a_body_that_stops_arriving_is_a_408():
    environ = {
        "REQUEST_METHOD": "POST",
        "CONTENT_LENGTH": "1000",
        "wsgi.input": StalledStream(b'{"outcome"'),
    }
    status, headers, body = call(never_called, environ)
    assert status.startswith("408")
    assert headers["Content-Type"] == "application/problem+json"
    assert json.loads(body)["type"] == "/problems/request-timeout"


def test_a_chunked_body_over_the_limit_is_a_413():
    environ = {
        "REQUEST_METHOD": "POST",
        "HTTP_TRANSFER_ENCODING": "chunked",
        "wsgi.input": io.BytesIO(b"x" * 20_000),
    }
    status, _, body = call(never_called, environ)
    assert status.startswith("413")
    assert json.loads(body)["type"] == "/problems/content-too-large"


def test_the_app_reads_the_whole_body_it_was_sent():
    seen: dict[str, Any] = {}

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        seen["body"] = environ["wsgi.input"].read()
        seen["length"] = environ["CONTENT_LENGTH"]
        start_response("200 OK", [])
        return []

    environ = {
        "REQUEST_METHOD": "POST",
        "HTTP_TRANSFER_ENCODING": "chunked",
        "wsgi.input": io.BytesIO(b"12345"),
    }
    status, _, _ = call(app, environ)
    assert status.startswith("200")
    assert seen == {"body": b"12345", "length": "5"}


def test_every_operation_documents_its_problems(client):
    doc = client.get("/openapi.json").json
    responses = doc["paths"]["/notes"]["post"]["responses"]
    assert {"201", "409", "413", "422", "503"} <= set(responses)
    for status in ("409", "413", "422", "503"):
        content = responses[status]["content"]
        assert content == {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
    assert "Retry-After" in responses["503"]["headers"]
    assert set(doc["components"]["schemas"]["Problem"]["required"]) == {"type", "title", "status"}
    reads = doc["paths"]["/from-the-database"]["get"]["responses"]
    assert "413" not in reads  # takes no body
    # what gunicorn answers itself (shared/http/worker.py), every operation; the body's, where one is read
    assert {"400", "414", "431"} <= set(reads) and {"400", "408", "413", "414", "415", "431"} <= set(
        responses
    )
    assert doc["paths"]["/notes"]["post"]["requestBody"]["required"] is True
    assert doc["paths"]["/flags"]["post"]["requestBody"]["required"] is False  # may be left out


@pytest.mark.parametrize(
    "body",
    [
        {"text": "x", "stars": True},  # a boolean is no integer
        {"text": "x", "stars": "3"},  # nor is a string of digits
        {"text": "x", "stars": 2.5},
        {"text": "x", "pinned": "yes"},
        {"text": "x", "pinned": 1},
        {"text": 5},
        {"text": "x", "title": "   "},  # a title says something
        {"text": "x", "title": "\u3000\t"},
        {"text": "x", "stars": float("nan")},
    ],
)
def test_a_body_is_read_by_its_json_types_as_its_schema_says(client, body):
    """pydantic's lax mode took true and "3" as integers and "yes" as true; the document says integer
    and boolean, and so does the server now."""
    r = client.post("/notes", data=json.dumps(body), content_type="application/json")
    assert r.status_code == 422 and r.json["type"] == "/problems/validation-error", r.json


def test_a_number_without_a_fraction_is_an_integer_as_in_json_schema(client):
    r = client.post("/notes", json={"text": "x", "stars": 3.0, "pinned": True, "title": " Mine "})
    assert r.status_code == 201 and r.json["stars"] == 3 and r.json["title"] == " Mine "


@pytest.mark.parametrize(
    ("data", "content_type", "status"),
    [
        ('"{\\"text\\": \\"x\\"}"', "application/json", 422),  # a JSON string holding an object
        ("null", "application/json", 422),
        ("[]", "application/json", 422),
        ("{nope", "application/json", 422),
        ('{"text": "x"}', "text/plain", 415),  # not a media type the operation takes
        ('{"text": "x"}', None, 415),
    ],
)
def test_a_body_is_an_object_of_the_media_type_its_operation_takes(client, data, content_type, status):
    for path in ("/notes", "/flags"):  # an optional body too: what is sent is read, never taken for none
        r = client.post(path, data=data, headers={"Content-Type": content_type} if content_type else {})
        assert r.status_code == status and r.content_type == "application/problem+json", (path, r.json)
    assert client.post("/flags").status_code == 200  # left out: the defaults


def test_a_verified_token_is_kept_only_until_it_expires_and_a_bad_one_never(monkeypatch):
    """The web servers keep the tokens they verified (no HMAC check per request), with their expiry,
    checked at every use; a token that failed, or signed with another secret, is refused every time."""
    import datetime as dt
    import time
    import uuid

    from shared.http import auth
    from shared.http.problems import Problem

    secret, subject = "k" * 32, uuid.uuid4()
    token = auth.issue_token(secret, subject, {"player"}, ttl=dt.timedelta(seconds=60))
    assert auth.decode_token(token, secret).subject == subject
    assert auth.decode_token(token, secret) == auth.decode_token(token, secret)
    for _ in range(2):
        with pytest.raises(Problem, match="invalid token"):
            auth.decode_token(token, "another secret" * 3)
        with pytest.raises(Problem, match="invalid token"):
            auth.decode_token(token[:-2] + "xx", secret)
    now = time.time()
    monkeypatch.setattr(auth.time, "time", lambda: now + 61)
    with pytest.raises(Problem, match="expired") as refused:
        auth.decode_token(token, secret)
    assert refused.value.status == 401
