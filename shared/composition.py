"""What every service's composition root builds the same way: the database engine (migrated on
request), the broker, the clock, the outbox relay and the session factory its units of work use."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from shared.database import make_engine, upgrade
from shared.events import Envelope
from shared.messaging.outbox import OutboxRelay, notify_channel
from shared.messaging.port import Broker
from shared.messaging.rabbitmq import RabbitMQBroker
from shared.timesource import SystemClock, TimeSource


@dataclass
class Plumbing:
    engine: sa.Engine
    broker: Broker
    clock: TimeSource
    relay: OutboxRelay
    sessions: sessionmaker[Session]
    outbox: sa.Table
    inbox: sa.Table
    channel: str
    relay_on_commit: bool

    def uow_options(self) -> dict[str, Any]:
        """The arguments every :class:`shared.unit_of_work.SqlUnitOfWork` of this service takes. In the
        embedded mode the outbox is relayed at each commit instead of by a separate process."""
        return {
            "session_factory": self.sessions,
            "outbox": self.outbox,
            "inbox": self.inbox,
            "channel": self.channel,
            "after_commit": self._relay_now if self.relay_on_commit else None,
        }

    def _relay_now(self, _published: list[Envelope]) -> None:
        self.relay.drain()


def plumbing(
    service: str,
    database_url: str,
    amqp_url: str,
    *,
    outbox: sa.Table,
    inbox: sa.Table,
    migrations: Path,
    engine: sa.Engine | None = None,
    broker: Broker | None = None,
    clock: TimeSource | None = None,
    migrate: bool = False,
    relay_on_commit: bool = False,
    broker_options: dict[str, Any] | None = None,
    pool_size: int = 10,
    max_overflow: int = 20,
) -> Plumbing:
    """``pool_size``, ``max_overflow``: the engine's connection pool (``ARBITER_DATABASE_POOL_SIZE``,
    ``ARBITER_DATABASE_MAX_OVERFLOW``; gunicorn sizes them per worker, docs/operations.md)."""
    engine = engine or make_engine(database_url, pool_size=pool_size, max_overflow=max_overflow)
    if migrate:
        upgrade(migrations, engine)
    broker = broker or RabbitMQBroker(amqp_url, **(broker_options or {}))
    channel = notify_channel(service)
    return Plumbing(
        engine=engine,
        broker=broker,
        clock=clock or SystemClock(),
        relay=OutboxRelay(engine, outbox, broker, channel=channel, service=service),
        sessions=sessionmaker(engine, expire_on_commit=False),
        outbox=outbox,
        inbox=inbox,
        channel=channel,
        relay_on_commit=relay_on_commit,
    )
