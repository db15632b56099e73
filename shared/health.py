"""Readiness checks: is a server reachable? Cheap enough for a probe every few seconds."""

from __future__ import annotations

import socket
import urllib.parse
from collections.abc import Callable

import sqlalchemy as sa

from shared.database import ping

DEFAULT_PORTS = {"amqp": 5672, "amqps": 5671, "redis": 6379, "rediss": 6379}


def tcp_check(url: str, timeout: float = 1.0) -> Callable[[], None]:
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or "127.0.0.1"
    port = parts.port or DEFAULT_PORTS.get(parts.scheme, 0)

    def check() -> None:
        with socket.create_connection((host, port), timeout=timeout):
            pass

    return check


def database_check(engine: sa.Engine) -> Callable[[], None]:
    return lambda: ping(engine)


def readiness(
    engine: sa.Engine, amqp_url: str, redis_url: str, **extra: Callable[[], None]
) -> dict[str, Callable[[], None]]:
    """What /readyz checks for every service: its database, the broker and Redis (plus ``extra``)."""
    return {
        "database": database_check(engine),
        "broker": tcp_check(amqp_url),
        "redis": tcp_check(redis_url),
        **extra,
    }
