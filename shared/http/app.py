"""The parts of a Flask app every service has: OpenAPI, problem+json, health probes, request ids
and metrics."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from flask import Request, Response, json, redirect, request
from flask.json.provider import DefaultJSONProvider
from flask_openapi3.models.info import Info
from flask_openapi3.openapi import OpenAPI
from flask_openapi3_swagger.plugins import RegisterPlugin as Swagger
from prometheus_client import CollectorRegistry
from prometheus_flask_exporter import PrometheusMetrics
from pydantic import BaseModel
from werkzeug.wrappers import Response as WerkzeugResponse

from shared import correlation
from shared.http.limits import BODY_METHODS, BodyLimits, HttpLimits, WSGIApp
from shared.http.openapi import document_problems, memoise_model_schemas, openapi_path, short_operation_ids
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
    memoise_model_schemas()
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
    app.wsgi_app = RequestIds(app.wsgi_app)  # type: ignore[method-assign]  # outermost: every response
    install_error_handlers(app)
    install_metrics(app, service_of(import_name))

    taken: dict[tuple[str, str], frozenset[str] | None] = {}

    def media_types(rule: str, method: str) -> frozenset[str] | None:
        """The media types an operation's document gives its request body (None: it takes no body)."""
        if (rule, method) not in taken:
            operation = app.api_doc.get("paths", {}).get(openapi_path(rule), {}).get(method.lower(), {})
            body = operation.get("requestBody")
            taken[(rule, method)] = frozenset(body.get("content", {})) if body else None
        return taken[(rule, method)]

    @app.before_request
    def a_body_as_the_document_says() -> None:
        """A body sent to an operation that takes one is of a media type its document names (else 415)
        and, as JSON, an object (else 422): a body that is no JSON, or ``null``, is not taken for no
        body, and a JSON string is not read as JSON a second time (flask-openapi3 would)."""
        if request.method not in BODY_METHODS or request.url_rule is None or not request.content_length:
            return
        types = media_types(request.url_rule.rule, request.method)
        if types is None:  # takes no body: what it is sent is not read
            return
        if request.mimetype not in types:
            given = request.mimetype or "without a media type"
            raise Problem(
                415,
                "unsupported-media-type",
                "Unsupported Media Type",
                f"the body is {given}; this takes {', '.join(sorted(types))}",
            )
        if request.is_json and not isinstance(request.get_json(silent=True), dict):
            issue = {"loc": [], "msg": "Input should be a JSON object", "type": "model_type"}
            detail = "the request does not match its schema"
            raise Problem(422, "validation-error", "Invalid request", detail, errors=[issue])

    @app.before_request
    def what_the_request_is_about() -> None:
        args = request.view_args or {}
        if "tournament_id" in args or "game_id" in args:
            correlation.refine(tournament_id=args.get("tournament_id"), game_id=args.get("game_id"))

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

    install_docs_page(app)
    document: dict[str, Any] = {}

    @app.get("/openapi.json", doc_ui=False)
    def openapi_document() -> Response:
        if not document:  # built once, after every route was registered
            document.update(document_problems(short_operation_ids(app.api_doc, app.url_map.iter_rules())))
        return json_response(document)

    return app


DOCS = "/docs"


def install_docs_page(app: OpenAPI) -> None:
    """The browsable API documentation at ``/docs`` (Swagger UI, served from the pinned
    flask-openapi3-swagger package, its scripts included: no network needed) over ``/openapi.json``,
    the document with the problem answers. ``/docs`` redirects to the page, ``/docs/swagger``."""
    app.register_blueprint(Swagger.register(doc_url="/openapi.json"), url_prefix=DOCS)

    @app.get(DOCS, doc_ui=False)
    def docs() -> WerkzeugResponse:
        return redirect(f"{DOCS}/{Swagger.name}")


class RequestIds:
    """WSGI middleware: each request works in a correlation context (:mod:`shared.correlation`) whose
    id is the request's valid ``X-Request-ID`` or a new one, and the response says which in its own
    ``X-Request-ID``. The events the request writes carry the id, and so do its log lines."""

    def __init__(self, app: WSGIApp) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        request_id = correlation.accepted(environ.get("HTTP_X_REQUEST_ID")) or correlation.new_id()

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            kept = [(k, v) for k, v in headers if k.lower() != "x-request-id"]
            return start_response(status, [*kept, (correlation.HEADER, request_id)], exc_info)

        token = correlation.enter(correlation.Context(request_id))
        try:
            return self.app(environ, start)
        finally:
            correlation.leave(token)


def service_of(import_name: str) -> str:
    """``services.clocks.entrypoints.app`` → ``clocks``."""
    parts = import_name.split(".")
    return parts[1] if len(parts) > 2 and parts[0] == "services" else import_name


def route(req: Request) -> str:
    """The label of a request in the HTTP metrics: its route's rule (``/games/<uuid:game_id>``), so
    ids do not make a series each."""
    return req.url_rule.rule if req.url_rule is not None else "unmatched"


def install_metrics(app: OpenAPI, service: str) -> PrometheusMetrics:
    """HTTP metrics by route, method and status (``arbiter_http_request_duration_seconds`` and
    ``arbiter_http_request_total``, from ``prometheus-flask-exporter``) and ``GET /metrics``, which
    is left out of the OpenAPI document and of the counts, like the health probes. Under gunicorn
    (``PROMETHEUS_MULTIPROC_DIR`` set by ``deploy/gunicorn.conf.py``) ``/metrics`` adds up every
    worker's files; elsewhere (tests, embedded) each app counts for itself."""
    options: dict[str, Any] = {
        "defaults_prefix": "arbiter",
        "group_by": route,
        "default_labels": {"service": service},
        "excluded_paths": ["^/healthz$", "^/readyz$"],
    }
    if "PROMETHEUS_MULTIPROC_DIR" in os.environ:
        from prometheus_flask_exporter.multiprocess import GunicornInternalPrometheusMetrics

        return GunicornInternalPrometheusMetrics(app, **options)
    return PrometheusMetrics(app, registry=CollectorRegistry(auto_describe=True), **options)


def json_response(body: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    if isinstance(body, BaseModel):
        text = body.model_dump_json()
    else:
        text = json.dumps(body)
    response = Response(text, status=status, mimetype="application/json")
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response
