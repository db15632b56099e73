"""Readiness checks: is a server reachable? Cheap enough for a probe every few seconds."""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa

from shared.database import ping


def database_check(engine: sa.Engine) -> Callable[[], None]:
    return lambda: ping(engine)


def readiness(engine: sa.Engine, **extra: Callable[[], None]) -> dict[str, Callable[[], None]]:
    """What /readyz checks: the service's database, which every request needs, plus ``extra`` (what
    that service's requests use besides). Not the broker: a web process only writes the outbox, and
    its relay publishes when RabbitMQ is back."""
    return {"database": database_check(engine), **extra}
