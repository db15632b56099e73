"""The composition root: builds the clocks service's adapters, bus and subscriptions. Nothing is
wired at import time."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

from services.clocks.adapters import orm, wire
from services.clocks.adapters.deadlines import RedisDeadlineStore
from services.clocks.adapters.unit_of_work import SqlClocksUnitOfWork
from services.clocks.adapters.views import GameViews
from services.clocks.config import ClocksSettings
from services.clocks.service_layer.handlers import Handlers
from services.clocks.service_layer.ports import ClocksUnitOfWork, DeadlineStore
from shared.composition import plumbing
from shared.messagebus import MessageBus, event_subscription
from shared.messaging.outbox import OutboxRelay
from shared.messaging.port import Broker, Subscription
from shared.timesource import TimeSource

SERVICE = "clocks"
MIGRATIONS = Path(__file__).parent / "migrations"


@dataclass
class Clocks:
    settings: ClocksSettings
    engine: sa.Engine
    clock: TimeSource
    broker: Broker
    bus: MessageBus[ClocksUnitOfWork]
    handlers: Handlers
    relay: OutboxRelay
    subscriptions: list[Subscription]
    deadlines: DeadlineStore
    views: GameViews

    migrations: Path = MIGRATIONS

    def uow(self) -> ClocksUnitOfWork:
        return self.bus.uow_factory()


def subscriptions(handlers: Handlers, uow_factory: Callable[[], ClocksUnitOfWork]) -> list[Subscription]:
    """The events the clocks consume, each on its own queue, as the commands ``adapters/wire.py``
    makes of them."""
    return [
        event_subscription(  # a reset shares round.paired's queue: it comes before the new round 1
            "clocks.round_paired",
            ("round.paired", "tournament.reset", "arena.paired"),
            handlers.from_pairing,
            uow_factory,
            translate=wire.from_pairing,
        ),
        event_subscription(
            "clocks.round_published",
            ("round.published",),
            handlers.release_round,
            uow_factory,
            translate=wire.release_round,
        ),
        event_subscription(
            "clocks.match_decided",
            ("match.decided",),
            handlers.cancel_games,
            uow_factory,
            translate=wire.cancel_games,
        ),
        event_subscription(
            "clocks.tournament_completed",
            ("tournament.completed",),
            handlers.close_tournament,
            uow_factory,
            translate=wire.close_tournament,
        ),
        event_subscription(
            "clocks.tournament_started",
            ("tournament.started",),
            handlers.record_tournament,
            uow_factory,
            translate=wire.record_tournament,
        ),
        event_subscription(  # one queue: appointments and revocations in the order they were decided
            "clocks.arbiters",
            ("arbiter.appointed", "arbiter.revoked"),
            handlers.from_arbiters,
            uow_factory,
            translate=wire.from_arbiters,
        ),
        event_subscription(
            "clocks.player_withdrawn",
            ("player.withdrawn",),
            handlers.forfeit_withdrawn,
            uow_factory,
            translate=wire.forfeit_withdrawn,
        ),
        event_subscription(  # an overdue group-playoff game decided by the organiser's lot
            "clocks.group_playoff_lots",
            ("group_playoff.announced",),
            handlers.decide_by_lot,
            uow_factory,
            translate=wire.decide_by_lot,
        ),
        event_subscription(
            "clocks.result_corrected",
            ("game.result_corrected",),
            handlers.correct_result,
            uow_factory,
            translate=wire.correct_result,
        ),
    ]


def bootstrap(
    settings: ClocksSettings | None = None,
    *,
    engine: sa.Engine | None = None,
    broker: Broker | None = None,
    clock: TimeSource | None = None,
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
        return SqlClocksUnitOfWork(deadlines=store, **p.uow_options())

    handlers = Handlers(p.clock)
    bus = MessageBus(uow_factory, handlers.table())
    return Clocks(
        settings,
        p.engine,
        p.clock,
        p.broker,
        bus,
        handlers,
        p.relay,
        subscriptions(handlers, uow_factory),
        store,
        GameViews(p.engine),
    )
