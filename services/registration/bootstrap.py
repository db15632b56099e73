"""The composition root: builds registration's adapters, bus and subscriptions. Nothing is
wired at import time."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.orm import sessionmaker

from services.registration.adapters import orm
from services.registration.config import RegistrationSettings
from services.registration.service_layer.handlers import Handlers
from services.registration.service_layer.unit_of_work import RegistrationUnitOfWork
from shared.database import make_engine, upgrade
from shared.messagebus import MessageBus, event_subscription
from shared.messaging.outbox import OutboxRelay, notify_channel
from shared.messaging.port import Broker, Subscription
from shared.messaging.rabbitmq import RabbitMQBroker
from shared.timesource import Clock, SystemClock

SERVICE = "registration"
MIGRATIONS = Path(__file__).parent / "migrations"


@dataclass
class Registration:
    settings: RegistrationSettings
    engine: sa.Engine
    clock: Clock
    broker: Broker
    bus: MessageBus[RegistrationUnitOfWork]
    handlers: Handlers
    relay: OutboxRelay
    subscriptions: list[Subscription]

    migrations: Path = MIGRATIONS

    def uow(self) -> RegistrationUnitOfWork:
        return self.bus.uow_factory()


def bootstrap(
    settings: RegistrationSettings | None = None,
    *,
    engine: sa.Engine | None = None,
    broker: Broker | None = None,
    clock: Clock | None = None,
    migrate: bool = False,
    relay_on_commit: bool = False,
) -> Registration:
    settings = settings or RegistrationSettings()
    engine = engine or make_engine(settings.database_url)
    if migrate:
        upgrade(MIGRATIONS, engine)
    broker = broker or RabbitMQBroker(settings.amqp_url)
    clock = clock or SystemClock()
    channel = notify_channel(SERVICE)
    relay = OutboxRelay(engine, orm.outbox, broker, channel=channel)
    factory = sessionmaker(engine, expire_on_commit=False)

    def uow_factory() -> RegistrationUnitOfWork:
        return RegistrationUnitOfWork(
            factory,
            orm.outbox,
            orm.inbox,
            channel=channel,
            after_commit=(lambda _published: relay.drain()) if relay_on_commit else None,
        )

    handlers = Handlers(clock, dt.timedelta(seconds=settings.min_lead_seconds))
    bus = MessageBus(uow_factory, handlers.table())
    subscriptions = [
        event_subscription(
            "registration.tournament_completed",
            ("tournament.completed",),
            handlers.on_tournament_completed,
            uow_factory,
        ),
    ]
    return Registration(settings, engine, clock, broker, bus, handlers, relay, subscriptions)
