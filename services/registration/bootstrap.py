"""The composition root: builds registration's adapters, bus and subscriptions. Nothing is
wired at import time."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

from services.registration.adapters import orm
from services.registration.config import RegistrationSettings
from services.registration.service_layer.handlers import Handlers
from services.registration.service_layer.unit_of_work import RegistrationUnitOfWork
from shared.composition import plumbing
from shared.messagebus import MessageBus, event_subscription
from shared.messaging.outbox import OutboxRelay
from shared.messaging.port import Broker, Subscription
from shared.timesource import Clock

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
    )

    def uow_factory() -> RegistrationUnitOfWork:
        return RegistrationUnitOfWork(**p.uow_options())

    handlers = Handlers(p.clock, dt.timedelta(seconds=settings.min_lead_seconds))
    bus = MessageBus(uow_factory, handlers.table())
    subscriptions = [
        event_subscription(
            "registration.tournament_completed",
            ("tournament.completed",),
            handlers.on_tournament_completed,
            uow_factory,
        ),
    ]
    return Registration(settings, p.engine, p.clock, p.broker, bus, handlers, p.relay, subscriptions)
