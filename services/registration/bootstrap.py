"""The composition root: builds registration's adapters, bus and subscriptions. Nothing is
wired at import time."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

from services.registration.adapters import orm, wire
from services.registration.adapters.unit_of_work import SqlRegistrationUnitOfWork
from services.registration.config import RegistrationSettings
from services.registration.service_layer.handlers import Handlers
from services.registration.service_layer.ports import UnitOfWork
from shared.composition import plumbing
from shared.events import Envelope, Event
from shared.messagebus import MessageBus, event_subscription, rebound
from shared.messaging.outbox import OutboxRelay
from shared.messaging.port import Broker, Handled, Subscription
from shared.seed_draw import new_draw_seed
from shared.timesource import TimeSource

SERVICE = "registration"
MIGRATIONS = Path(__file__).parent / "migrations"


@dataclass
class Registration:
    settings: RegistrationSettings
    engine: sa.Engine
    clock: TimeSource
    broker: Broker
    bus: MessageBus[UnitOfWork]
    handlers: Handlers
    relay: OutboxRelay
    subscriptions: list[Subscription]

    migrations: Path = MIGRATIONS


def bootstrap(
    settings: RegistrationSettings | None = None,
    *,
    engine: sa.Engine | None = None,
    broker: Broker | None = None,
    clock: TimeSource | None = None,
    migrate: bool = False,
    relay_on_commit: bool = False,
    draw_seed: Callable[[], int] = new_draw_seed,
    new_id: Callable[[], uuid.UUID] = uuid.uuid4,
) -> Registration:
    """``draw_seed``: where a knockout's random seeding draws its recorded seed (tests pin it);
    ``new_id``: where new tournaments and hand-entered players get their ids (the demos seed it)."""
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
        pool_size=settings.database_pool_size,
        max_overflow=settings.database_max_overflow,
    )

    def uow_factory() -> UnitOfWork:
        return SqlRegistrationUnitOfWork(**p.uow_options())

    handlers = Handlers(
        p.clock,
        dt.timedelta(seconds=settings.min_lead_seconds),
        draw_seed,
        settings.italian_table(),
        arena_min_minutes=settings.arena_min_minutes,
        new_id=new_id,
    )
    bus: MessageBus[UnitOfWork] = MessageBus(uow_factory, handlers.table())
    return Registration(
        settings, p.engine, p.clock, p.broker, bus, handlers, p.relay, subscriptions(handlers, uow_factory)
    )


def subscriptions(handlers: Handlers, uow_factory: Callable[[], UnitOfWork]) -> list[Subscription]:
    """What registration consumes, each event translated to its command by ``adapters/wire.py``."""
    return [
        event_subscription(
            "registration.tournament_completed",
            ("tournament.completed",),
            handlers.on_tournament_completed,
            uow_factory,
            translate=wire.completion,
        ),
        event_subscription(
            "registration.tournament_reset",
            ("tournament.reset",),
            handlers.on_tournament_reset,
            uow_factory,
            translate=wire.reset,
        ),
        event_subscription(
            "registration.round_paired",
            ("round.paired",),
            handlers.on_round_paired,
            uow_factory,
            translate=wire.round_paired,
        ),
        event_subscription(
            "registration.ratings",
            ("game.finished",),
            handlers.on_game_finished,
            uow_factory,
            translate=wire.game_finished,
        ),
        event_subscription(
            "registration.absence_unexcused",
            ("absence.unexcused",),
            handlers.on_absence_unexcused,
            uow_factory,
            translate=wire.absence_unexcused,
        ),
        rebound(
            decisions_only(  # what the queue held of every game.finished before the qualifier
                event_subscription(
                    "registration.audit",
                    wire.AUDITED,
                    handlers.on_decision,
                    uow_factory,
                    translate=wire.decision_heard,
                )
            ),
            retired=("game.finished",),  # every result, before clocks qualified the entered ones
        ),
    ]


def decisions_only(subscription: Subscription) -> Subscription:
    """Most ``game.finished`` are played out on the server and carry no decision: they are acknowledged
    without a transaction (there is nothing to record, so nothing to record twice), and only the
    decisions reach the audit log's handler and its inbox."""

    def on_message(envelope: Envelope, event: Event) -> Handled:
        if wire.is_decision(event):
            return subscription.handler(envelope, event)
        return None

    def on_batch(items: Sequence[tuple[Envelope, Event]]) -> list[BaseException | Handled]:
        outcomes: list[BaseException | Handled] = [None] * len(items)
        kept = [i for i, (_, event) in enumerate(items) if wire.is_decision(event)]
        if kept:
            assert subscription.batch_handler is not None  # event_subscription builds one
            for i, outcome in zip(kept, subscription.batch_handler([items[i] for i in kept]), strict=True):
                outcomes[i] = outcome
        return outcomes

    return Subscription(subscription.queue, subscription.routing_keys, on_message, on_batch)
