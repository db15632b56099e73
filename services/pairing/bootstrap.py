"""The composition root of the pairing service. Nothing is wired at import time."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

from services.pairing.adapters import orm, wire
from services.pairing.adapters.arena_pool import RedisArenaPool
from services.pairing.adapters.unit_of_work import SqlPairingUnitOfWork
from services.pairing.adapters.views import PairingViews
from services.pairing.config import PairingSettings
from services.pairing.domain.rounds.pairers import fide_pairers, pairers
from services.pairing.service_layer.arena import ArenaHandlers
from services.pairing.service_layer.arena_ports import ArenaPool
from services.pairing.service_layer.flows import Flows
from services.pairing.service_layer.flows.elimination import EliminationFlow, draw_white
from services.pairing.service_layer.flows.group_playoff import GroupPlayoffFlow
from services.pairing.service_layer.flows.rounds import RoundsFlow
from services.pairing.service_layer.handlers import Handlers
from services.pairing.service_layer.ports import PairingUnitOfWork
from shared import metrics
from shared.composition import plumbing
from shared.messagebus import MessageBus, event_subscription, rebound, retired
from shared.messaging.outbox import OutboxRelay
from shared.messaging.port import Broker, Subscription
from shared.openings import OpeningTable
from shared.timesource import TimeSource

SERVICE = "pairing"
MIGRATIONS = Path(__file__).parent / "migrations"


@dataclass
class Pairing:
    settings: PairingSettings
    engine: sa.Engine
    clock: TimeSource
    broker: Broker
    bus: MessageBus[PairingUnitOfWork]
    handlers: Handlers
    relay: OutboxRelay
    views: PairingViews
    subscriptions: list[Subscription]  # the consumer's
    worker_subscriptions: list[Subscription]  # the pairing worker's
    arena_pool: ArenaPool

    migrations: Path = MIGRATIONS

    def uow(self) -> PairingUnitOfWork:
        return self.bus.uow_factory()

    def run_arena_passes(self, token: str) -> int:
        """One tick of a pairing worker's arena loop: the games made (docs/arena.md)."""
        return self.handlers.arena.run_passes(token, self.bus.uow_factory)


def flows(
    clock: TimeSource, italian: OpeningTable | None = None, draw_white: Callable[[], int] = draw_white
) -> Flows:
    """The formats this service pairs: round robins and Swiss tournaments (fide-rapid among them), knockouts,
    group-playoff events (``italian``: the Italian opening table, where one is configured; ``draw_white``:
    where a knockout match's first colours are drawn, random but for a demo that repeats its seed)."""
    return Flows(
        [
            RoundsFlow(clock, pairers(), fide_pairers(), italian),
            EliminationFlow(clock, draw_white),
            GroupPlayoffFlow(clock),
        ]
    )


def subscriptions(
    handlers: Handlers, uow_factory: Callable[[], PairingUnitOfWork]
) -> tuple[list[Subscription], list[Subscription]]:
    """The consumer's queues and the pairing worker's, each handing its handler the command the wire
    module makes of the event."""
    consumer = [
        event_subscription(
            "pairing.tournament_started",
            ("tournament.started",),
            handlers.on_tournament_started,
            uow_factory,
            translate=wire.start,
        ),
        event_subscription(  # one queue, in order: a game's start and its end (or cancellation), each heard once
            "pairing.game_finished",
            ("game.finished", "game.started", "game.cancelled"),
            handlers.on_game,
            uow_factory,
            translate=wire.game,
        ),
        event_subscription(
            "pairing.player_withdrawn",
            ("player.withdrawn",),
            handlers.on_player_withdrawn,
            uow_factory,
            translate=wire.withdrawal,
        ),
        event_subscription(
            "pairing.player_joined",
            ("player.joined",),
            handlers.on_player_joined,
            uow_factory,
            translate=wire.joined,
        ),
        event_subscription(
            "pairing.arbiters",
            ("arbiter.appointed", "arbiter.revoked"),
            handlers.on_arbiter,
            uow_factory,
            translate=wire.arbiter,
        ),
        rebound(  # one queue, in order: an arena's start and its entries
            event_subscription(
                "pairing.arena",
                ("tournament.started.arena", "player.joined.arena", "player.paused", "player.left.arena"),
                handlers.on_arena,
                uow_factory,
                translate=wire.arena,
            ),
            retired=("tournament.started", "player.joined", "player.left"),  # before the qualifiers
        ),
        retired(  # the games' markers before pairing.game_finished took them over: drained, unbound
            event_subscription(
                "pairing.playing",
                ("game.started", "game.finished", "game.cancelled"),
                handlers.on_playing,
                uow_factory,
                translate=wire.playing,
            )
        ),
        event_subscription(
            "pairing.colours_swapped",
            ("game.colours_swapped",),
            handlers.on_colours_swapped,
            uow_factory,
            translate=wire.colours,
        ),
    ]
    worker = [
        event_subscription(
            "pairing.round_due",
            (wire.RoundDue.TYPE,),
            metrics.timed(handlers.on_round_due, metrics.PAIRING, kind="round"),  # an arena's: "arena_pass"
            uow_factory,
            translate=wire.round_due,
        ),
    ]
    return consumer, worker


def bootstrap(
    settings: PairingSettings | None = None,
    *,
    engine: sa.Engine | None = None,
    broker: Broker | None = None,
    clock: TimeSource | None = None,
    migrate: bool = False,
    relay_on_commit: bool = False,
    arena_pool: ArenaPool | None = None,
    draw_white: Callable[[], int] = draw_white,
) -> Pairing:
    """``draw_white``: where a knockout match's first colours are drawn (the embedded demos seed it)."""
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
        return SqlPairingUnitOfWork(**p.uow_options())

    pool = arena_pool or RedisArenaPool.from_url(settings.redis_url, settings.redis_prefix)
    arena = ArenaHandlers(pool, p.clock, lease_ms=int(settings.arena_lease_seconds * 1000))
    handlers = Handlers(flows(p.clock, settings.italian_table(), draw_white), arena)
    bus = MessageBus(uow_factory, handlers.table())
    consumer, worker = subscriptions(handlers, uow_factory)
    return Pairing(
        settings,
        p.engine,
        p.clock,
        p.broker,
        bus,
        handlers,
        p.relay,
        PairingViews(p.sessions),
        consumer,
        worker,
        pool,
    )
