"""The web servers' gunicorn worker (``deploy/gunicorn.conf.py``): gunicorn's gevent worker with three
guards of its own.

**A request head has a deadline.** gunicorn's gevent worker bounds the wait for a request head only
by ``keepalive`` (75 s here), however slowly the head arrives: a client that sends half a head and
then a byte every few seconds holds its connection, and its place among the worker's
``worker_connections``, for as long as that. Here the first head on a connection must arrive whole
within ``ARBITER_HEAD_TIMEOUT_SECONDS`` (10 s) of the connection; on a kept-alive connection the
wait for the next request may last ``keepalive`` (an idle connection costs one greenlet and one
descriptor), and once its first bytes are there the head has the same deadline. A head that misses
it is answered 408 (problem+json) and the connection closes; an idle connection closes silently.

**A full worker makes room.** When a connection takes the worker's last free place, the connection
that has waited longest for a request head (idle or slow, never one whose request is being served)
is closed, so the worker keeps accepting: ``/healthz`` and real requests get through even while
thousands of slow heads arrive at once. A connection waiting for a head is cheap to close: it has
sent no request the server could lose (an idle keep-alive connection's client reconnects).

**gunicorn's own answers are problem+json.** A request gunicorn refuses before the app sees it (a
malformed request line or header, a URI over ``limit_request_line``: 414, headers over
``limit_request_fields``/``limit_request_field_size``: 431) is answered like every other error,
``application/problem+json`` with a stable ``type``, instead of gunicorn's HTML.

Counted in ``arbiter_http_connections_closed_total`` by reason (:mod:`shared.metrics`).
"""

from __future__ import annotations

import contextlib
import io
import json
import socket
import ssl
from types import TracebackType
from typing import Any

import gevent
from gevent.socket import wait_read
from gunicorn.http import errors as http_errors
from gunicorn.workers.ggevent import GeventWorker

from shared.http.problems import PROBLEM_BASE, PROBLEM_JSON
from shared.metrics import HTTP_CONNECTIONS_CLOSED
from shared.settings import CommonSettings


class HeadTimeout(Exception):
    """Thrown into a connection's greenlet: its head is late, or its place is needed."""


class _Idle(Exception):
    """The wait for the next request on a kept-alive connection ended with nothing sent."""


class Connection:
    """What the worker knows of one connection while its greenlet serves it."""

    __slots__ = ("client", "greenlet", "requests", "unreader", "waiting")

    def __init__(self, client: socket.socket) -> None:
        self.client = client
        self.greenlet = gevent.getcurrent()
        self.requests = 0
        self.unreader: Any = None  # gunicorn's read buffer of this connection, once a request was read
        self.waiting: HeadWait | None = None

    def buffered(self) -> bool:
        """Bytes of a next (pipelined) request already read off the socket: no waiting for them."""
        buf = getattr(self.unreader, "buf", None)
        if not isinstance(buf, io.BytesIO):
            return False
        with buf.getbuffer() as view:
            return view.nbytes > 0


class HeadWait:
    """The wait for one request head (``timeout_ctx`` of gunicorn's keep-alive loop, around reading it).

    ``idle``: how long a kept-alive connection may wait for the head's first bytes (None: the head is
    due at once, the connection's first request or one already buffered). Then the head has the
    worker's ``head_timeout``. Either ends with :class:`HeadTimeout` inside the block, which this
    context swallows: gunicorn sees no request and closes the connection."""

    def __init__(self, worker: ArbiterWorker, conn: Connection, idle: float | None) -> None:
        self.worker = worker
        self.conn = conn
        self.idle = idle
        self.started = False  # the head is due (begun, or the connection's first): a 408 if it is late
        self.reason = "head_timeout"
        self.timeout: gevent.Timeout | None = None

    def __enter__(self) -> HeadWait:
        self.conn.waiting = self
        self.worker.waiting[self] = None  # insertion order: the longest waiting first
        if self.idle is not None:
            try:
                wait_read(self.conn.client.fileno(), timeout=self.idle, timeout_exc=_Idle)
            except (_Idle, HeadTimeout) as exc:
                # nothing came (or the place is needed): the block ends at once, no request read
                self.reason = "idle" if isinstance(exc, _Idle) else "evicted"
                self.timeout = gevent.Timeout(0, HeadTimeout)
                self.timeout.start()
                return self
        self.started = True
        self.timeout = gevent.Timeout(self.worker.head_timeout, HeadTimeout)
        self.timeout.start()
        return self

    def evict(self) -> None:
        """From another greenlet: end this wait (on the hub, as a timeout would)."""
        self.reason = "evicted"
        gevent.get_hub().loop.run_callback(self._throw)

    def _throw(self) -> None:
        if self.conn.waiting is self:
            self.conn.greenlet.throw(HeadTimeout())

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> bool:
        if self.timeout is not None:
            self.timeout.close()
        self.conn.waiting = None
        self.worker.waiting.pop(self, None)
        if kind is None or not issubclass(kind, HeadTimeout):
            return False
        HTTP_CONNECTIONS_CLOSED.labels(self.reason).inc()
        if self.started and self.reason != "idle":
            detail = (
                f"the request head did not arrive within {self.worker.head_timeout:g} s"
                if self.reason == "head_timeout"
                else "the server needed this connection: the request head had not arrived"
            )
            send_problem(self.conn.client, 408, "request-timeout", "Request Timeout", detail)
        return True  # no request: gunicorn closes the connection


def problem_bytes(status: int, slug: str, title: str, detail: str) -> bytes:
    """A whole HTTP/1.1 response carrying a problem, after which the connection closes."""
    body = json.dumps(
        {"type": PROBLEM_BASE + slug, "title": title, "status": status, "detail": detail}
    ).encode()
    head = (
        f"HTTP/1.1 {status} {title}\r\nConnection: close\r\nContent-Type: {PROBLEM_JSON}\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


def send_problem(client: socket.socket, status: int, slug: str, title: str, detail: str) -> None:
    """Best effort, never waiting: a client that reads nothing does not hold the greenlet."""
    with contextlib.suppress(OSError):
        client.setblocking(False)
        client.send(problem_bytes(status, slug, title, detail))


# gunicorn's refusals of a request it could not read, by exception: (status, slug, title)
REFUSALS: tuple[tuple[type[BaseException], int, str, str], ...] = (
    (http_errors.LimitRequestLine, 414, "uri-too-long", "URI Too Long"),
    (
        http_errors.LimitRequestHeaders,
        431,
        "request-header-fields-too-large",
        "Request Header Fields Too Large",
    ),
    (http_errors.ExpectationFailed, 417, "expectation-failed", "Expectation Failed"),
    (http_errors.UnsupportedTransferCoding, 501, "not-implemented", "Not Implemented"),
    (http_errors.ForbiddenProxyRequest, 403, "forbidden", "Forbidden"),
    (ssl.SSLError, 403, "forbidden", "Forbidden"),
)
# raised while parsing, but the server's fault, not the request's
SERVER_FAULTS = (
    http_errors.ConfigurationProblem,
    http_errors.InvalidResponseHeader,
    http_errors.InvalidResponseHeaderName,
)


def refusal(exc: BaseException) -> tuple[int, str, str] | None:
    """The status, slug and title of a request gunicorn refused, or None (not the request's fault)."""
    if isinstance(exc, SERVER_FAULTS):
        return None
    for kind, status, slug, title in REFUSALS:
        if isinstance(exc, kind):
            return status, slug, title
    if isinstance(exc, http_errors.ParseException):
        return 400, "bad-request", "Bad Request"
    return None


class ArbiterWorker(GeventWorker):  # type: ignore[misc]
    """gunicorn's gevent worker with a deadline for request heads, room made for new connections,
    and its own refusals as problem+json (the module's docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.head_timeout = CommonSettings().head_timeout_seconds
        self.connections: dict[Any, Connection] = {}  # by greenlet
        self.waiting: dict[HeadWait, None] = {}  # the connections waiting for a head, longest first

    def handle(self, listener: Any, client: socket.socket, addr: Any) -> None:
        conn = Connection(client)
        self.connections[conn.greenlet] = conn
        try:
            if len(self.connections) >= self.worker_connections:
                self._make_room()
            super().handle(listener, client, addr)
        finally:
            del self.connections[conn.greenlet]

    def _make_room(self) -> None:
        """This connection took the last free place: close the one waiting longest for a head."""
        for wait in self.waiting:
            if wait.reason != "evicted":
                wait.evict()
                return

    def timeout_ctx(self) -> HeadWait | contextlib.AbstractContextManager[None]:
        conn = self.connections.get(gevent.getcurrent())
        if conn is None:  # not a connection's greenlet (not expected): gunicorn's own wait
            return gevent.Timeout(self.cfg.keepalive, False)  # type: ignore[no-any-return]
        idle = None if conn.requests == 0 or conn.buffered() else float(self.cfg.keepalive)
        return HeadWait(self, conn, idle)

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        conn = self.connections.get(gevent.getcurrent())
        if conn is not None:
            conn.requests += 1
            conn.unreader = getattr(req, "unreader", None)
        return super().handle_request(listener_name, req, sock, addr)

    def handle_error(self, req: Any, client: socket.socket, addr: Any, exc: BaseException) -> None:
        """gunicorn's answer to a request it could not read (or to a failure before the app answered),
        as problem+json; logged as gunicorn logs it."""
        answer = refusal(exc)
        ip = (addr or ("", -1))[0]
        if answer is None:
            self.log.exception("Error handling request %s", getattr(req, "uri", "(no URI read)"))
            status, slug, title = 500, "internal-error", "Internal error"
            detail = "the server failed; the error was logged"
        else:
            status, slug, title = answer
            detail = str(exc) or title
            self.log.warning("Invalid request from ip=%s: %s", ip, exc)
        send_problem(client, status, slug, title, detail)
