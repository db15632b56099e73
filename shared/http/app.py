"""The parts of a Flask app every service has: OpenAPI, problem+json, health probes."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from flask import Response, json
from flask.json.provider import DefaultJSONProvider
from flask_openapi3.models.info import Info
from flask_openapi3.openapi import OpenAPI
from pydantic import BaseModel

from shared.http.limits import BodyLimits, HttpLimits
from shared.http.openapi import document_problems
from shared.http.problems import Problem, install_error_handlers, validation_problem

log = logging.getLogger(__name__)

BEARER = {"bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}}
SECURITY: list[dict[str, list[str]]] = [{"bearer": []}]
# reads that show more to an organiser who sends a token, and everything to anyone without one
OPTIONAL_SECURITY: list[dict[str, list[str]]] = [{}, {"bearer": []}]


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON, with a document nested too deeply for the parser a 422 instead of a crash."""

    sort_keys = False

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            return super().loads(s, **kwargs)
        except RecursionError:
            raise Problem(
                422, "json-too-deep", "Unprocessable request", "the JSON document is nested too deeply"
            ) from None


def create_openapi_app(
    import_name: str,
    *,
    title: str,
    version: str,
    readiness: Mapping[str, Callable[[], None]],
    limits: HttpLimits | None = None,
) -> OpenAPI:
    limits = limits or HttpLimits()
    app = OpenAPI(
        import_name,
        info=Info(title=title, version=version),
        security_schemes=BEARER,  # type: ignore[arg-type]
        validation_error_status=422,
        validation_error_callback=validation_problem,
        doc_ui=False,
    )
    app.json = JSONProvider(app)
    app.config["MAX_CONTENT_LENGTH"] = limits.max_body_bytes
    app.wsgi_app = BodyLimits(app.wsgi_app, limits)  # type: ignore[method-assign]
    install_error_handlers(app)

    @app.get("/healthz", doc_ui=False)
    def healthz() -> Response:
        return json_response({"status": "ok"})

    @app.get("/readyz", doc_ui=False)
    def readyz() -> Response:
        checks: dict[str, str] = {}
        ok = True
        for name, check in readiness.items():
            try:
                check()
                checks[name] = "ok"
            except Exception as exc:
                ok = False
                checks[name] = f"unavailable: {type(exc).__name__}"
                log.warning("readiness check %s failed: %r", name, exc)
        return json_response({"status": "ok" if ok else "unavailable", "checks": checks}, 200 if ok else 503)

    document: dict[str, Any] = {}

    @app.get("/openapi.json", doc_ui=False)
    def openapi_document() -> Response:
        if not document:  # built once, after every route was registered
            document.update(document_problems(app.api_doc))
        return json_response(document)

    return app


def json_response(body: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    if isinstance(body, BaseModel):
        text = body.model_dump_json()
    else:
        text = json.dumps(body)
    response = Response(text, status=status, mimetype="application/json")
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response
