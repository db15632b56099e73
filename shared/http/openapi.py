"""The error answers every OpenAPI document states: each operation lists the problem+json statuses
it can answer, with one ``Problem`` schema, so a client (and the fuzzing test) knows every status
an operation may return.

A route names its own (401, 403, 404, 409) with :func:`problems`; :func:`document_problems` adds what
every operation can answer: 422 (its parameters or body do not validate), 413 (a body over the
limit) where it takes a body, 404 where its path has parameters (a malformed id names nothing), and
503 (a dependency is down).
"""

from __future__ import annotations

import copy
from http import HTTPStatus
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from shared.http.problems import PROBLEM_JSON

REF = "#/components/schemas/Problem"
METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
WHY = {
    401: "no valid bearer token",
    403: "the token's account may not do this",
    404: "no such resource",
    405: "the path does not take this method (see Allow)",
    408: "the request body did not arrive in time",
    409: "the resource's state does not allow it",
    413: "the request body is larger than the limit",
    422: "the parameters or the body do not validate",
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


def _response(status: int) -> dict[str, Any]:
    out: dict[str, Any] = {
        "description": f"{HTTPStatus(status).phrase}: {WHY.get(status, 'see the problem type')}",
        "content": {PROBLEM_JSON: {"schema": {"$ref": REF}}},
    }
    if status == 503:
        out["headers"] = {"Retry-After": {"schema": {"type": "integer"}, "description": "seconds"}}
    if status == 405:
        out["headers"] = {"Allow": {"schema": {"type": "string"}, "description": "the methods it takes"}}
    return out


def problems(*statuses: int) -> dict[str | int, dict[str, Any]]:
    """The problem answers of one route, for its ``responses={...}``."""
    return {status: _response(status) for status in statuses}


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
            universal = [422, 503]
            if "requestBody" in operation:
                universal.append(413)
            if any(p.get("in") == "path" for p in operation.get("parameters", [])):
                universal.append(404)  # an id that is no id (not a UUID) names nothing
            for status in universal:
                responses.setdefault(str(status), _response(status))
            for status, answer in responses.items():
                if status.isdigit() and int(status) >= 400:
                    answer["content"] = {PROBLEM_JSON: {"schema": {"$ref": REF}}}
                    answer.setdefault("description", HTTPStatus(int(status)).phrase)
    return doc
