"""The composition root of the standings service. Nothing is wired at import time."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from services.standings.adapters import orm
from services.standings.adapters.table_cache import TableCache
from services.standings.adapters.unit_of_work import SqlStandingsUnitOfWork
from services.standings.adapters.views import SqlTournamentViews
from services.standings.adapters.wire import announcement as announcement_translation
from services.standings.adapters.wire import arena as arena_translation
from services.standings.adapters.wire import group_playoff as group_playoff_translation
from services.standings.adapters.wire import translate
from services.standings.config import StandingsSettings
from services.standings.service_layer.handlers import Handlers
from services.standings.service_layer.ports import StandingsUnitOfWork, TournamentViews
from shared.composition import plumbing
from shared.events import EXACT
from shared.messagebus import event_subscription, rebound
from shared.messaging.outbox import OutboxRelay
from shared.messaging.port import Broker, Subscription
from shared.timesource import TimeSource
from shared.vocabulary import Ruleset

SERVICE = "standings"
MIGRATIONS = Path(__file__).parent / "migrations"


@dataclass
class StandingsService:
    settings: StandingsSettings
    engine: sa.Engine
    clock: TimeSource
    broker: Broker
    relay: OutboxRelay
    subscriptions: list[Subscription]  # the consumer's: every change comes as an event
    tables: TableCache  # the consumer's live tables
    views: TournamentViews  # what the web reads

    migrations: Path = MIGRATIONS


def bootstrap(
    settings: StandingsSettings | None = None,
    *,
    engine: sa.Engine | None = None,
    broker: Broker | None = None,
    clock: TimeSource | None = None,
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
        return SqlStandingsUnitOfWork(tables=tables, **p.uow_options())

    subscriptions = subscriptions_of(Handlers(p.clock), uow_factory)
    views = SqlTournamentViews(p.sessions)
    return StandingsService(settings, p.engine, p.clock, p.broker, p.relay, subscriptions, tables, views)


def subscriptions_of(
    handlers: Handlers, uow_factory: Callable[[], StandingsUnitOfWork]
) -> list[Subscription]:
    """The consumer's queues, each event translated into its handler's command (``adapters/wire.py``);
    in causal order: the in-process broker delivers its queues in this order (RabbitMQ gives none)."""
    queues: list[tuple[str, str, Callable[[Any, StandingsUnitOfWork], None]]] = [
        ("standings.tournament_started", "tournament.started", handlers.record_tournament),
        ("standings.tournament_reset", "tournament.reset", handlers.reset_tournament),
        ("standings.player_joined", "player.joined", handlers.add_player),
        ("standings.player_withdrawn", "player.withdrawn", handlers.record_withdrawal),
        ("standings.round_paired", "round.paired", handlers.record_pairing),
        ("standings.round_published", "round.published", handlers.publish_round),
        ("standings.game_colours_swapped", "game.colours_swapped", handlers.swap_colours),
        ("standings.game_finished", "game.finished", handlers.record_result),
        ("standings.game_result_corrected", "game.result_corrected", handlers.correct_result),
        ("standings.game_penalised", "game.penalised", handlers.record_penalty),
        ("standings.game_cancelled", "game.cancelled", handlers.cancel_game),
        ("standings.match_decided", "match.decided", handlers.record_decision),
        ("standings.tournament_completed", "tournament.completed", handlers.complete_tournament),
    ]
    next_round = event_subscription(  # one queue, in order: a bye asked for and taken back, excuses
        "standings.next_round",
        ("bye.requested", "bye.taken_back", "absence.excused"),
        handlers.record_next_round,
        uow_factory,
        translate=translate,
    )
    arena = rebound(  # one queue, in order: an arena's start, its later entries, its games
        event_subscription(
            "standings.arena",
            ("tournament.started.arena", "player.joined.arena", "arena.paired"),
            handlers.record_arena,
            uow_factory,
            translate=arena_translation,
        ),
        retired=("tournament.started", "player.joined"),  # every tournament's, before the qualifiers
    )
    announcements = event_subscription(  # one queue, in order: a scheduled tournament and its entries
        "standings.announced",
        (
            "tournament.scheduled",
            "player.joined",
            "player.left",
            "tournament.started",
            "tournament.cancelled",
        ),
        handlers.record_announcement,
        uow_factory,
        translate=announcement_translation,
    )
    group_playoff = event_subscription(  # one queue, in causal order: a group-playoff event's page
        "standings.group_playoff",
        (
            "tournament.started",
            "group_playoff.announced",
            "round.paired",
            # the results of group-playoff events, and those published without a ruleset (a game created
            # before clocks knew its tournament's, or by a release before the qualifier): not the others
            f"game.finished.{Ruleset.GROUP_PLAYOFF}",
            f"{EXACT}game.finished",
            f"{EXACT}game.finished.decided",
            "player.withdrawn",
            "tournament.completed",
        ),
        handlers.record_group_playoff,
        uow_factory,
        translate=group_playoff_translation,
    )
    return [
        event_subscription(queue, (key,), effect, uow_factory, translate=translate)
        for queue, key, effect in queues
    ] + [next_round, arena, announcements, group_playoff]
