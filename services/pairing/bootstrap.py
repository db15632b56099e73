"""The composition root of the pairing service. Nothing is wired at import time."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

from services.pairing.adapters import orm
from services.pairing.config import PairingSettings
from services.pairing.domain.tournament import pairers
from services.pairing.service_layer.brackets import BracketHandlers
from services.pairing.service_layer.handlers import Handlers
from services.pairing.service_layer.unit_of_work import PairingUnitOfWork
from shared import metrics
from shared.composition import plumbing
from shared.messagebus import MessageBus, event_subscription
from shared.messaging.outbox import OutboxRelay
from shared.messaging.port import Broker, Subscription
from shared.timesource import Clock

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
        broker_options={"prefetch": settings.worker_prefetch, "heartbeat": 300},
    )

    def uow_factory() -> PairingUnitOfWork:
        return PairingUnitOfWork(**p.uow_options())

    handlers = Handlers(p.clock, pairers(), BracketHandlers(p.clock))
    bus = MessageBus(uow_factory, handlers.table())
    subscriptions = [
        event_subscription(
            "pairing.tournament_started", ("tournament.started",), handlers.on_tournament_started, uow_factory
        ),
        event_subscription(
            "pairing.game_finished", ("game.finished",), handlers.on_game_finished, uow_factory
        ),
    ]
    worker_subscriptions = [
        event_subscription(
            "pairing.round_due",
            ("pairing.round_due",),
            metrics.timed(handlers.on_round_due, metrics.PAIRING, kind="round"),  # an arena's: "arena_pass"
            uow_factory,
        ),
    ]
    return Pairing(
        settings, p.engine, p.clock, p.broker, bus, handlers, p.relay, subscriptions, worker_subscriptions
    )
