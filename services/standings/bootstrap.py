"""The composition root of the standings service. Nothing is wired at import time."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

from services.standings.adapters import orm
from services.standings.config import StandingsSettings
from services.standings.service_layer.handlers import Handlers
from services.standings.service_layer.table_cache import TableCache
from services.standings.service_layer.unit_of_work import StandingsUnitOfWork
from shared.composition import plumbing
from shared.messagebus import MessageBus, event_subscription
from shared.messaging.outbox import OutboxRelay
from shared.messaging.port import Broker, Subscription
from shared.timesource import Clock

SERVICE = "standings"
MIGRATIONS = Path(__file__).parent / "migrations"


@dataclass
class StandingsService:
    settings: StandingsSettings
    engine: sa.Engine
    clock: Clock
    broker: Broker
    bus: MessageBus[StandingsUnitOfWork]
    handlers: Handlers
    relay: OutboxRelay
    subscriptions: list[Subscription]  # the consumer's
    tables: TableCache  # the consumer's live tables

    migrations: Path = MIGRATIONS

    def uow(self) -> StandingsUnitOfWork:
        return self.bus.uow_factory()


def bootstrap(
    settings: StandingsSettings | None = None,
    *,
    engine: sa.Engine | None = None,
    broker: Broker | None = None,
    clock: Clock | None = None,
    migrate: bool = False,
    relay_on_commit: bool = False,
) -> StandingsService:
    settings = settings or StandingsSettings()
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
    tables = TableCache(settings.table_cache_size)

    def uow_factory() -> StandingsUnitOfWork:
        return StandingsUnitOfWork(tables=tables, **p.uow_options())

    handlers = Handlers(p.clock)
    bus = MessageBus(uow_factory, {})
    # in causal order: the in-process broker delivers its queues in this order (RabbitMQ gives none)
    subscriptions = [
        event_subscription(
            "standings.tournament_started",
            ("tournament.started",),
            handlers.on_tournament_started,
            uow_factory,
        ),
        event_subscription(
            "standings.round_paired", ("round.paired",), handlers.on_round_paired, uow_factory
        ),
        event_subscription(
            "standings.round_published", ("round.published",), handlers.on_round_published, uow_factory
        ),
        event_subscription(
            "standings.game_finished", ("game.finished",), handlers.on_game_finished, uow_factory
        ),
        event_subscription(
            "standings.game_cancelled", ("game.cancelled",), handlers.on_game_cancelled, uow_factory
        ),
        event_subscription(
            "standings.match_decided", ("match.decided",), handlers.on_match_decided, uow_factory
        ),
        event_subscription(
            "standings.tournament_completed",
            ("tournament.completed",),
            handlers.on_tournament_completed,
            uow_factory,
        ),
    ]
    return StandingsService(
        settings, p.engine, p.clock, p.broker, bus, handlers, p.relay, subscriptions, tables
    )
