"""Readiness: is a server reachable, and is a long-running process able to do its work?

Web processes answer ``/healthz`` and ``/readyz`` through Flask (:mod:`shared.http.app`), with the
checks :func:`readiness` lists. Consumers, relays and the other long-running processes have no web
server; with ``ARBITER_HEALTH_PORT`` set, :func:`serve_health` gives each one a tiny HTTP server on
that port with the same two paths:

- ``GET /healthz``: 200 while the process runs;
- ``GET /readyz``: 200 when every check passes (its database answers) and nothing the process reported
  is wrong (its broker connection, an outage its handlers are waiting out); else 503. The body is
  ``{"status": "ok" | "unavailable", "checks": {name: "ok" | "unavailable: …"}}`` either way;
- ``GET /metrics``: the process's Prometheus metrics (:mod:`shared.metrics`, and the client's own:
  CPU, memory, file descriptors, garbage collection).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import sqlalchemy as sa
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from shared.database import ping

log = logging.getLogger(__name__)


def database_check(engine: sa.Engine) -> Callable[[], None]:
    return lambda: ping(engine)


def readiness(engine: sa.Engine, **extra: Callable[[], None]) -> dict[str, Callable[[], None]]:
    """What /readyz checks: the service's database, which every request needs, plus ``extra`` (what
    that service's requests use besides). Not the broker: a web process only writes the outbox, and
    its relay publishes when RabbitMQ is back."""
    return {"database": database_check(engine), **extra}


class Readiness:
    """What a long-running process's ``/readyz`` says: ``checks`` run at each probe (its database),
    and the conditions the process reports as they change (``report("broker", "connecting")``, then
    ``report("broker", None)`` once connected). Thread-safe: the process reports from its loop, the
    probe reads from the server's thread."""

    def __init__(self, checks: Mapping[str, Callable[[], None]] | None = None) -> None:
        self.checks = dict(checks or {})
        self._problems: dict[str, str] = {}
        self._was_ok: set[str] = set()  # conditions that have been fine at least once
        self._lock = threading.Lock()

    def report(self, name: str, problem: str | None) -> None:
        """A problem is a WARNING once ``name`` has been fine: before that (a consumer connecting for
        the first time) the process is only starting, which is no news for an operator."""
        with self._lock:
            before = self._problems.get(name)
            starting = name not in self._was_ok
            if problem is None:
                self._problems.pop(name, None)
                self._was_ok.add(name)
            else:
                self._problems[name] = problem
        if (before is None) != (problem is None):
            log.log(
                logging.INFO if problem is None or starting else logging.WARNING,
                "readiness: %s %s",
                name,
                "ok" if problem is None else f"unavailable ({problem})",
            )

    def status(self) -> tuple[bool, dict[str, str]]:
        """(ready?, each check and reported condition: "ok" or "unavailable: why")."""
        checks: dict[str, str] = {}
        for name, check in self.checks.items():
            try:
                check()
                checks[name] = "ok"
            except Exception as exc:
                checks[name] = f"unavailable: {type(exc).__name__}"
        with self._lock:
            checks.update({name: f"unavailable: {why}" for name, why in self._problems.items()})
        return all(v == "ok" for v in checks.values()), checks


class HealthServer:
    """``/healthz``, ``/readyz`` and ``/metrics`` on ``port`` (0: any free one), served by a daemon
    thread."""

    def __init__(
        self, readiness: Readiness, port: int, host: str = "0.0.0.0", registry: CollectorRegistry = REGISTRY
    ) -> None:
        self.readiness = readiness
        self._server = ThreadingHTTPServer((host, port), _handler(readiness, registry))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.1}, name="health", daemon=True
        )

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    def start(self) -> HealthServer:
        self._thread.start()
        log.info("health: /healthz, /readyz and /metrics on port %d", self.port)
        return self

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def serve_health(readiness: Readiness, port: int | None) -> HealthServer | None:
    """Start the health server when a port is configured (``ARBITER_HEALTH_PORT``)."""
    return None if port is None else HealthServer(readiness, port).start()


def _handler(readiness: Readiness, registry: CollectorRegistry) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = self.path.partition("?")[0]
            if path == "/healthz":
                self._send(200, {"status": "ok"})
            elif path == "/metrics":
                self._send_bytes(200, CONTENT_TYPE_LATEST, generate_latest(registry))
            elif path == "/readyz":
                ready, checks = readiness.status()
                self._send(
                    200 if ready else 503, {"status": "ok" if ready else "unavailable", "checks": checks}
                )
            else:
                self._send(404, {"status": "not found"})

        def _send(self, status: int, body: dict[str, Any]) -> None:
            self._send_bytes(status, "application/json", json.dumps(body).encode())

        def _send_bytes(self, status: int, content_type: str, data: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:  # probes every few seconds: not INFO
            log.debug(format, *args)

    return Handler
