"""The error answers every OpenAPI document states: each operation lists the problem+json statuses
it can answer, with one ``Problem`` schema, so a client (and the fuzzing test) knows every status
an operation may return.

A route names its own (401, 403, 404, 409) with :func:`problems`; :func:`document_problems` adds what
every operation can answer: 400 (a request the server cannot read), 414 (a request line over
gunicorn's limit) and 431 (headers over its limits), which gunicorn answers itself
(``shared/http/worker.py``); 422 (its parameters or body do not validate); 408 (the body did not
arrive in time), 413 (a body over the limit) and 415 (a body of another media type) where it takes
a body; 404 where its path has parameters (a malformed id names nothing); and 503 (a dependency is
down).

It also makes the document read as the API is: an operation that cannot answer 401 takes no token
(``security: []``, whatever its blueprint's default), and each operation's id is its view's name
(``get_tournament``), the blueprint's too only where two views of one service share a name.
"""

from __future__ import annotations

import copy
import functools
import re
import threading
from collections import Counter
from collections.abc import Callable, Iterable
from http import HTTPStatus
from typing import Any, Protocol

import flask_openapi3.openapi
import flask_openapi3.utils
from pydantic import BaseModel, ConfigDict, Field

from shared.http.problems import PROBLEM_JSON

REF = "#/components/schemas/Problem"
METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
WHY = {
    400: "the server cannot read the request (a malformed request line, header or Content-Length)",
    401: "no valid bearer token",
    403: "the token's account may not do this",
    404: "no such resource",
    405: "the path does not take this method (see Allow)",
    409: "the resource's state does not allow it",
    408: "the request head or body did not arrive in time; the connection closes",
    413: "the request body is larger than the limit",
    414: "the request line (path and query) is longer than 8,190 bytes",
    415: "the body is of a media type this operation does not take",
    422: "the parameters or the body do not validate",
    431: "a header is longer than 8,190 bytes, or there are more than 100",
    503: "a dependency (database, Redis) is unavailable; retry after Retry-After seconds",
}


class ValidationIssue(BaseModel):
    loc: list[str]
    msg: str
    type: str


class ProblemOut(BaseModel):
    """RFC 9457 problem details; ``type`` is stable (``/problems/<slug>``)."""

    model_config = ConfigDict(extra="allow", title="Problem")

    type: str = Field(examples=["/problems/tournament-not-found"])
    title: str
    status: int
    detail: str | None = None
    instance: str | None = None
    errors: list[ValidationIssue] | None = Field(None, description="validation-error: each failing field")


def _response(status: int, retry_after: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {
        "description": f"{HTTPStatus(status).phrase}: {WHY.get(status, 'see the problem type')}",
        "content": {PROBLEM_JSON: {"schema": {"$ref": REF}}},
    }
    if status == 503 or retry_after:
        out["headers"] = {"Retry-After": {"schema": {"type": "integer"}, "description": "seconds"}}
    if status == 405:
        out["headers"] = {"Allow": {"schema": {"type": "string"}, "description": "the methods it takes"}}
    return out


def problems(*statuses: int, retry_after: tuple[int, ...] = ()) -> dict[str | int, dict[str, Any]]:
    """The problem answers of one route, for its ``responses={...}``; those in ``retry_after`` may say
    when to ask again (``Retry-After``, as a 503 always does)."""
    return {status: _response(status, status in retry_after) for status in statuses}


class Rule(Protocol):
    """What :func:`short_operation_ids` reads of a werkzeug routing rule."""

    rule: str
    endpoint: str
    methods: set[str] | None


def openapi_path(rule: str) -> str:
    """``/tournaments/<uuid:tournament_id>`` → ``/tournaments/{tournament_id}``."""
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule)


def short_operation_ids(doc: dict[str, Any], rules: Iterable[Rule]) -> dict[str, Any]:
    """A copy of ``doc`` whose operation ids are the views' names (flask-openapi3 writes the blueprint,
    the view, the path and the method into one: ``tournaments_get_tournament_tournaments__uuid_...``)."""
    doc = copy.deepcopy(doc)
    found: list[tuple[dict[str, Any], str]] = []
    for rule in rules:
        operations = doc.get("paths", {}).get(openapi_path(rule.rule), {})
        for method in sorted(rule.methods or ()):
            operation = operations.get(method.lower())
            if operation is not None and "operationId" in operation:
                found.append((operation, rule.endpoint))
    names = Counter(endpoint.rsplit(".", 1)[-1] for _, endpoint in found)
    for operation, endpoint in found:
        short = endpoint.rsplit(".", 1)[-1]
        operation["operationId"] = short if names[short] == 1 else endpoint.replace(".", "_")
    return doc


def document_problems(doc: dict[str, Any]) -> dict[str, Any]:
    """A copy of an OpenAPI document with the Problem schema and every operation's error answers."""
    doc = copy.deepcopy(doc)
    schemas = doc.setdefault("components", {}).setdefault("schemas", {})
    schema = ProblemOut.model_json_schema(ref_template="#/components/schemas/{model}")
    for name, definition in schema.pop("$defs", {}).items():
        schemas[name] = definition
    schemas["Problem"] = schema
    schemas.pop("ValidationErrorModel", None)  # flask-openapi3's own 422 model; ours is a Problem
    for path in doc.get("paths", {}).values():
        for method in METHODS:
            operation = path.get(method)
            if operation is None:
                continue
            responses = operation.setdefault("responses", {})
            if "401" not in responses:
                operation["security"] = []  # no token needed: a public read
            elif "security" in operation:  # the blueprint's default and the route's, once each
                unique = {repr(s): s for s in operation["security"]}
                operation["security"] = list(unique.values())
            if "requestBody" in operation:  # flask-openapi3 leaves it out for raw bodies: they are read
                operation["requestBody"].setdefault("required", True)
            universal = [400, 414, 422, 431, 503]
            if "requestBody" in operation:
                universal += [408, 413, 415]
            if any(p.get("in") == "path" for p in operation.get("parameters", [])):
                universal.append(404)  # an id that is no id (not a UUID) names nothing
            for status in universal:
                responses.setdefault(str(status), _response(status))
            for status, answer in responses.items():
                if status.isdigit() and int(status) >= 400:
                    answer["content"] = {PROBLEM_JSON: {"schema": {"$ref": REF}}}
                    answer.setdefault("description", HTTPStatus(int(status)).phrase)
    return doc


_memoised = threading.Lock()


def memoise_model_schemas() -> None:
    """flask-openapi3 builds every request and response model's JSON schema each time an app is
    created (about half a second for a service, mostly pydantic's schema generation); a model's schema
    does not change, so each is built once per process and every app gets its own copy of it (the
    documents built from them are edited in place). The same schemas as before, once: the tests and
    the embedded mode create the apps many times."""
    with _memoised:
        build = flask_openapi3.utils.get_model_schema
        if getattr(build, "memoised", False):
            return
        cached = functools.cache(build)

        def get_model_schema(model: type[BaseModel], mode: Any = "validation") -> dict[str, Any]:
            return copy.deepcopy(cached(model, mode))

        memo: Callable[..., dict[str, Any]] = get_model_schema
        memo.memoised = True  # type: ignore[attr-defined]
        flask_openapi3.utils.get_model_schema = memo
        flask_openapi3.openapi.get_model_schema = memo  # type: ignore[attr-defined]
