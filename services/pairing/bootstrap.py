"""The composition root of the pairing service. Nothing is wired at import time."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.orm import sessionmaker

from services.pairing.adapters import orm
from services.pairing.config import PairingSettings
from services.pairing.domain.tournament import pairers
from services.pairing.service_layer.handlers import Handlers
from services.pairing.service_layer.unit_of_work import PairingUnitOfWork
from shared.database import make_engine, upgrade
from shared.messagebus import MessageBus, event_subscription
from shared.messaging.outbox import OutboxRelay, notify_channel
from shared.messaging.port import Broker, Subscription
from shared.messaging.rabbitmq import RabbitMQBroker
from shared.timesource import Clock, SystemClock

SERVICE = "pairing"
MIGRATIONS = Path(__file__).parent / "migrations"


@dataclass
class Pairing:
    settings: PairingSettings
    engine: sa.Engine
    clock: Clock
    broker: Broker
    bus: MessageBus[PairingUnitOfWork]
    handlers: Handlers
    relay: OutboxRelay
    subscriptions: list[Subscription]  # the consumer's
    worker_subscriptions: list[Subscription]  # the pairing worker's

    migrations: Path = MIGRATIONS

    def uow(self) -> PairingUnitOfWork:
        return self.bus.uow_factory()


def bootstrap(
    settings: PairingSettings | None = None,
    *,
    engine: sa.Engine | None = None,
    broker: Broker | None = None,
    clock: Clock | None = None,
    migrate: bool = False,
    relay_on_commit: bool = False,
) -> Pairing:
    settings = settings or PairingSettings()
    engine = engine or make_engine(settings.database_url)
    if migrate:
        upgrade(MIGRATIONS, engine)
    broker = broker or RabbitMQBroker(settings.amqp_url, prefetch=settings.worker_prefetch, heartbeat=300)
    clock = clock or SystemClock()
    channel = notify_channel(SERVICE)
    relay = OutboxRelay(engine, orm.outbox, broker, channel=channel)
    factory = sessionmaker(engine, expire_on_commit=False)

    def uow_factory() -> PairingUnitOfWork:
        return PairingUnitOfWork(
            factory,
            orm.outbox,
            orm.inbox,
            channel=channel,
            after_commit=(lambda _published: relay.drain()) if relay_on_commit else None,
        )

    handlers = Handlers(clock, pairers())
    bus = MessageBus(uow_factory, {})
    subscriptions = [
        event_subscription(
            "pairing.tournament_started", ("tournament.started",), handlers.on_tournament_started, uow_factory
        ),
        event_subscription(
            "pairing.game_finished", ("game.finished",), handlers.on_game_finished, uow_factory
        ),
    ]
    worker_subscriptions = [
        event_subscription("pairing.round_due", ("pairing.round_due",), handlers.on_round_due, uow_factory),
    ]
    return Pairing(settings, engine, clock, broker, bus, handlers, relay, subscriptions, worker_subscriptions)
