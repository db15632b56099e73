"""Limits on what a request may send: the body's size (413) and how long it may take to arrive (408).

:class:`BodyLimits` is WSGI middleware in front of each service's app. It reads the whole request body
before the app sees it, within ``max_bytes`` and ``timeout_seconds``, so a view never blocks on a slow
client and never reads more than the limit. A declared ``Content-Length`` over the limit is refused
before anything is read.

What keeps the *server* responsive while slow clients hold their connections is the gevent worker
(``deploy/gunicorn.conf.py``): each connection waits in its own greenlet, not in one of a few threads.
This middleware makes those connections end: gunicorn's socket is given a timeout for each read, and
under gevent the whole body is bounded by ``timeout_seconds`` (a client trickling one byte at a time
cannot stretch it), after which the client gets a 408 and the connection is closed.
"""

from __future__ import annotations

import contextlib
import io
import json
import socket
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from shared.http.problems import PROBLEM_BASE, PROBLEM_JSON
from shared.settings import CommonSettings

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
CHUNK = 64 * 1024
# the methods whose requests may carry a body the apps read
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass(frozen=True)
class HttpLimits:
    max_body_bytes: int = 1024 * 1024
    body_timeout_seconds: float = 10.0


def http_limits(settings: CommonSettings) -> HttpLimits:
    return HttpLimits(settings.max_body_bytes, settings.body_timeout_seconds)


class _BodyTimeout(Exception):
    pass


class _BodyTooLarge(Exception):
    pass


class BodyLimits:
    def __init__(self, app: WSGIApp, limits: HttpLimits) -> None:
        self.app = app
        self.limits = limits

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        declared = _content_length(environ)
        if declared is None and environ.get("CONTENT_LENGTH"):
            return _problem(
                start_response, 400, "bad-request", "Bad Request", "Content-Length is not a number"
            )
        if declared is not None and declared > self.limits.max_body_bytes:
            return self._too_large(environ, start_response)
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if environ.get("REQUEST_METHOD") in BODY_METHODS and (declared or chunked):
            try:
                body = self._read(environ, declared)
            except _BodyTooLarge:
                return self._too_large(environ, start_response)
            except _BodyTimeout:
                return _closing(
                    environ,
                    _problem(
                        start_response,
                        408,
                        "request-timeout",
                        "Request Timeout",
                        f"the request body did not arrive within {self.limits.body_timeout_seconds:g} s",
                    ),
                )
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
            environ["wsgi.input_terminated"] = True
        return self.app(environ, start_response)

    def _too_large(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        return _problem(
            start_response,
            413,
            "content-too-large",
            "Content Too Large",
            f"a request body may have at most {self.limits.max_body_bytes} bytes",
        )

    def _read(self, environ: dict[str, Any], declared: int | None) -> bytes:
        """The whole body, or _BodyTimeout / _BodyTooLarge; a client that disconnects half way sent
        what it sent (the app then refuses the incomplete document)."""
        limit = self.limits.max_body_bytes
        deadline = time.monotonic() + self.limits.body_timeout_seconds
        stream = environ["wsgi.input"]
        sock = environ.get("gunicorn.socket")
        parts: list[bytes] = []
        size = 0
        with _deadline(self.limits.body_timeout_seconds), _socket_timeout(sock) as set_timeout:
            try:
                while declared is None or size < declared:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise _BodyTimeout
                    set_timeout(left)
                    want = CHUNK if declared is None else min(CHUNK, declared - size)
                    chunk = stream.read(min(want, limit + 1 - size))
                    if not chunk:
                        break
                    parts.append(chunk)
                    size += len(chunk)
                    if size > limit:
                        raise _BodyTooLarge
            except TimeoutError:
                raise _BodyTimeout from None
        return b"".join(parts)


def _content_length(environ: dict[str, Any]) -> int | None:
    raw = environ.get("CONTENT_LENGTH")
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        return None
    return value if value >= 0 else None


@contextlib.contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Under gevent, bound the whole read (a socket timeout bounds each read only)."""
    try:
        from gevent import Timeout
        from gevent.monkey import is_module_patched
    except ImportError:
        yield
        return
    if not is_module_patched("socket"):
        yield
        return
    with Timeout(seconds, _BodyTimeout):
        yield


@contextlib.contextmanager
def _socket_timeout(sock: socket.socket | None) -> Iterator[Callable[[float], None]]:
    """A setter for the connection's read timeout, restored afterwards (no socket: a test client)."""
    if sock is None:
        yield lambda _seconds: None
        return
    before = sock.gettimeout()
    try:
        yield sock.settimeout
    finally:
        with contextlib.suppress(OSError):
            sock.settimeout(before)


def _problem(
    start_response: Callable[..., Any], status: int, slug: str, title: str, detail: str
) -> list[bytes]:
    body = json.dumps({"type": PROBLEM_BASE + slug, "title": title, "status": status, "detail": detail})
    data = body.encode()
    start_response(
        f"{status} {title}",
        [("Content-Type", PROBLEM_JSON), ("Content-Length", str(len(data))), ("Connection", "close")],
    )
    return [data]


class _closing:
    """A response after which the connection is closed: the client stalled, and whatever it still
    sends is not read (gunicorn would otherwise wait to drain the rest of the body)."""

    def __init__(self, environ: dict[str, Any], body: list[bytes]) -> None:
        self.sock: socket.socket | None = environ.get("gunicorn.socket")
        self.body = body

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.body)

    def close(self) -> None:
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.shutdown(socket.SHUT_RD)
