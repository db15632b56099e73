"""The composition root of the standings service. Nothing is wired at import time."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.orm import sessionmaker

from services.standings.adapters import orm
from services.standings.config import StandingsSettings
from services.standings.service_layer.handlers import Handlers
from services.standings.service_layer.table_cache import TableCache
from services.standings.service_layer.unit_of_work import StandingsUnitOfWork
from shared.database import make_engine, upgrade
from shared.messagebus import MessageBus, event_subscription
from shared.messaging.outbox import OutboxRelay, notify_channel
from shared.messaging.port import Broker, Subscription
from shared.messaging.rabbitmq import RabbitMQBroker
from shared.timesource import Clock, SystemClock

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
    engine = engine or make_engine(settings.database_url)
    if migrate:
        upgrade(MIGRATIONS, engine)
    broker = broker or RabbitMQBroker(settings.amqp_url)
    clock = clock or SystemClock()
    channel = notify_channel(SERVICE)
    relay = OutboxRelay(engine, orm.outbox, broker, channel=channel)
    factory = sessionmaker(engine, expire_on_commit=False)
    tables = TableCache(settings.table_cache_size)

    def uow_factory() -> StandingsUnitOfWork:
        return StandingsUnitOfWork(
            factory,
            orm.outbox,
            orm.inbox,
            channel=channel,
            tables=tables,
            after_commit=(lambda _published: relay.drain()) if relay_on_commit else None,
        )

    handlers = Handlers(clock)
    bus = MessageBus(uow_factory, {})
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
            "standings.game_finished", ("game.finished",), handlers.on_game_finished, uow_factory
        ),
        event_subscription(
            "standings.tournament_completed",
            ("tournament.completed",),
            handlers.on_tournament_completed,
            uow_factory,
        ),
    ]
    return StandingsService(settings, engine, clock, broker, bus, handlers, relay, subscriptions, tables)
