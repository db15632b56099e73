"""The composition root: builds the clocks service's adapters, bus and subscriptions. Nothing is
wired at import time."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

from services.clocks.adapters import orm
from services.clocks.adapters.deadlines import DeadlineStore, RedisDeadlineStore
from services.clocks.config import ClocksSettings
from services.clocks.service_layer.handlers import Handlers
from services.clocks.service_layer.unit_of_work import ClocksUnitOfWork
from shared.composition import plumbing
from shared.messagebus import MessageBus, event_subscription
from shared.messaging.outbox import OutboxRelay
from shared.messaging.port import Broker, Subscription
from shared.timesource import Clock

SERVICE = "clocks"
MIGRATIONS = Path(__file__).parent / "migrations"


@dataclass
class Clocks:
    settings: ClocksSettings
    engine: sa.Engine
    clock: Clock
    broker: Broker
    bus: MessageBus[ClocksUnitOfWork]
    handlers: Handlers
    relay: OutboxRelay
    subscriptions: list[Subscription]
    deadlines: DeadlineStore

    migrations: Path = MIGRATIONS

    def uow(self) -> ClocksUnitOfWork:
        return self.bus.uow_factory()


def bootstrap(
    settings: ClocksSettings | None = None,
    *,
    engine: sa.Engine | None = None,
    broker: Broker | None = None,
    clock: Clock | None = None,
    deadlines: DeadlineStore | None = None,
    migrate: bool = False,
    relay_on_commit: bool = False,
) -> Clocks:
    settings = settings or ClocksSettings()
    p = plumbing(
        SERVICE,
        settings.database_url,
        settings.amqp_url,
        outbox=orm.outbox,
        inbox=orm.inbox,
        migrations=MIGRATIONS,
        engine=engine,
        broker=broker,
        clock=clock,
        migrate=migrate,
        relay_on_commit=relay_on_commit,
        pool_size=settings.database_pool_size,
        max_overflow=settings.database_max_overflow,
    )
    store: DeadlineStore = deadlines or RedisDeadlineStore.from_url(settings.redis_url, settings.redis_prefix)

    def uow_factory() -> ClocksUnitOfWork:
        return ClocksUnitOfWork(deadlines=store, **p.uow_options())

    handlers = Handlers(p.clock)
    bus = MessageBus(uow_factory, handlers.table())
    subscriptions = [
        event_subscription("clocks.round_paired", ("round.paired",), handlers.on_round_paired, uow_factory),
        event_subscription(
            "clocks.round_published", ("round.published",), handlers.on_round_published, uow_factory
        ),
        event_subscription(
            "clocks.match_decided", ("match.decided",), handlers.on_match_decided, uow_factory
        ),
        event_subscription(
            "clocks.tournament_completed",
            ("tournament.completed",),
            handlers.on_tournament_completed,
            uow_factory,
        ),
    ]
    return Clocks(settings, p.engine, p.clock, p.broker, bus, handlers, p.relay, subscriptions, store)
