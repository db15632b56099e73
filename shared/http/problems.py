"""RFC 9457 problem details. Every error a client sees is one of these, with a stable ``type``;
no stack trace ever reaches a client."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, json
from pydantic import ValidationError
from werkzeug.exceptions import HTTPException

log = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"
PROBLEM_BASE = "/problems/"


class Problem(Exception):
    """Raise from a view or a service layer to answer with problem+json."""

    def __init__(self, status: int, slug: str, title: str, detail: str | None = None, **extensions: Any):
        super().__init__(detail or title)
        self.status = status
        self.slug = slug
        self.title = title
        self.detail = detail
        self.extensions = extensions
        self.headers: dict[str, str] = {}

    def body(self, instance: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"type": PROBLEM_BASE + self.slug, "title": self.title, "status": self.status}
        if self.detail:
            out["detail"] = self.detail
        if instance:
            out["instance"] = instance
        out.update(self.extensions)
        return out


def not_found(what: str, ident: object) -> Problem:
    return Problem(404, f"{what}-not-found", f"Unknown {what}", f"no {what} {ident}")


def unauthorized(detail: str) -> Problem:
    problem = Problem(401, "unauthorized", "Authentication required", detail)
    problem.headers["WWW-Authenticate"] = 'Bearer realm="arbiter"'
    return problem


def forbidden(detail: str, slug: str = "forbidden") -> Problem:
    return Problem(403, slug, "Forbidden", detail)


def unprocessable(slug: str, detail: str, **extensions: Any) -> Problem:
    return Problem(422, slug, "Unprocessable request", detail, **extensions)


def problem_response(problem: Problem, instance: str | None = None) -> Response:
    response = Response(json.dumps(problem.body(instance)), status=problem.status, mimetype=PROBLEM_JSON)
    for key, value in problem.headers.items():
        response.headers[key] = value
    return response


def validation_problem(exc: ValidationError) -> Response:
    """flask-openapi3's validation_error_callback: 422 with each error's location and message."""
    errors = [
        {"loc": [str(p) for p in err.get("loc", ())], "msg": err.get("msg", ""), "type": err.get("type", "")}
        for err in exc.errors(include_url=False)
    ]
    problem = Problem(
        422, "validation-error", "Invalid request", "the request does not match its schema", errors=errors
    )
    return problem_response(problem)


RETRY_AFTER_SECONDS = 5
# werkzeug's names where RFC 9110 has a newer one
HTTP_SLUGS = {413: "content-too-large"}


def service_unavailable(detail: str) -> Problem:
    """A dependency (the database, Redis) is down or timed out: the request may be retried later."""
    problem = Problem(503, "service-unavailable", "Service Unavailable", detail)
    problem.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return problem


def infrastructure_errors() -> tuple[type[Exception], ...]:
    """The errors that mean a dependency could not be reached, not that the request was wrong."""
    import redis.exceptions
    import sqlalchemy.exc

    return (
        sqlalchemy.exc.OperationalError,
        sqlalchemy.exc.InterfaceError,
        sqlalchemy.exc.DisconnectionError,
        sqlalchemy.exc.TimeoutError,  # no pooled connection came free in time
        redis.exceptions.ConnectionError,
        redis.exceptions.TimeoutError,
    )


def install_error_handlers(app: Flask) -> None:
    from flask import request

    @app.errorhandler(Problem)
    def _problem(exc: Problem) -> Response:
        return problem_response(exc, request.path)

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Response:
        # abort(response) from flask-openapi3's validation carries a ready response
        if exc.response is not None:
            return exc.response  # type: ignore[return-value]
        code = exc.code or 500
        slug = HTTP_SLUGS.get(code) or (exc.name or "error").lower().replace(" ", "-")
        problem = Problem(code, slug, exc.name or "Error", exc.description)
        # e.g. Allow on a 405, WWW-Authenticate on a 401
        for key, value in exc.get_headers():
            if key.lower() != "content-type":
                problem.headers[key] = value
        return problem_response(problem, request.path)

    def _unavailable(exc: Exception) -> Response:
        log.warning("dependency unavailable on %s %s: %r", request.method, request.path, exc)
        detail = f"a service this one depends on is unavailable ({type(exc).__name__}); retry later"
        return problem_response(service_unavailable(detail), request.path)

    for cls in infrastructure_errors():
        app.register_error_handler(cls, _unavailable)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> Response:
        log.exception("unhandled error on %s %s", request.method, request.path)
        return problem_response(
            Problem(500, "internal-error", "Internal error", "the server failed; the error was logged"),
            request.path,
        )


def install_domain_errors(app: Flask, statuses: dict[type[Exception], int]) -> None:
    """Map a service's domain error classes (each with ``slug`` and ``detail``) to problem+json.

    The most specific class listed wins; titles come from the HTTP status.
    """
    from http import HTTPStatus

    from flask import request

    ordered = sorted(statuses.items(), key=lambda kv: -len(kv[0].__mro__))

    def handle(exc: Exception) -> Response:
        status = next(code for cls, code in ordered if isinstance(exc, cls))
        slug = getattr(exc, "slug", "error")
        detail = getattr(exc, "detail", str(exc))
        return problem_response(Problem(status, slug, HTTPStatus(status).phrase, detail), request.path)

    for cls in statuses:
        app.register_error_handler(cls, handle)
