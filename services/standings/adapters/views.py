"""The reads behind the HTTP API and the public pages, on their own short sessions: the standings
page reads the tournament's row (what it is, and the snapshot the consumer wrote); the crosstable, a
round, the bracket and the TRF read the whole tournament under a shared lock of its row, so the rows
and the snapshot are of one revision. A knockout reset to its draft is not public: it reads as no
tournament until it is started again. The index reads the tournaments, arenas and announcements
(name, times, how many players and rounds), at most ``limit`` of each list. Nothing here writes."""

from __future__ import annotations

import uuid
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from services.standings.adapters import columns
from services.standings.adapters.announced_repository import load as load_announced
from services.standings.adapters.announced_repository import of_row
from services.standings.adapters.arena_repository import load as load_arena
from services.standings.adapters.group_playoff_pages import load as load_group_playoff
from services.standings.adapters.orm import announced, arena_players, arenas, players, rounds, tournaments
from services.standings.adapters.repository import info_of, load_tournament
from services.standings.domain.announced import AnnouncedTournament
from services.standings.domain.arena_standings import ArenaStandings
from services.standings.domain.group_playoff_page import GroupPlayoffPage
from services.standings.domain.listing import Index, Listed, Progress
from services.standings.domain.snapshot import Snapshot
from services.standings.domain.tournament import Tournament
from services.standings.domain.tournament_info import TournamentInfo
from shared.database import aware, aware_or_none

_ROW = sa.select(tournaments).where(tournaments.c.id == sa.bindparam("tid"))


def _matching(column: sa.Column[str], query: str | None) -> sa.ColumnElement[bool]:
    """Names containing ``query``, any case (``%`` and ``_`` taken as they are)."""
    return column.icontains(query, autoescape=True) if query else sa.true()


def _count(table: sa.Table, key: sa.Column[uuid.UUID], of: sa.Column[uuid.UUID]) -> sa.ScalarSelect[int]:
    return sa.select(sa.func.count()).select_from(table).where(key == of).scalar_subquery()


class SqlTournamentViews:
    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self._sessions = sessions

    def summary(self, tournament_id: uuid.UUID) -> tuple[TournamentInfo, Snapshot] | None:
        """What a tournament is and its snapshot: all the standings page reads."""
        with self._sessions() as session:
            row = session.execute(_ROW, {"tid": tournament_id}).first()
        if row is None or row.reset_at is not None:
            return None
        return info_of(row), columns.snapshot_of(row.snapshot)

    def arena(self, arena_id: uuid.UUID) -> ArenaStandings | None:
        """An arena's standings as last saved (players, games in progress, finished games)."""
        with self._sessions() as session:
            return load_arena(session, arena_id)

    def group_playoff(self, tournament_id: uuid.UUID) -> GroupPlayoffPage | None:
        """A group-playoff event's page as last saved."""
        with self._sessions() as session:
            return load_group_playoff(session, tournament_id)

    def tournament(self, tournament_id: uuid.UUID) -> Tournament | None:
        """The whole tournament as last saved, rows and snapshot of the same revision."""
        with self._sessions() as session:
            found = load_tournament(session, tournament_id, shared_lock=True)
        return None if found is None or found.info.draft else found

    def announced(self, tournament_id: uuid.UUID) -> AnnouncedTournament | None:
        """A tournament announced before its start, as last saved (started or cancelled since, too)."""
        with self._sessions() as session:
            return load_announced(session, tournament_id)

    def index(self, query: str | None, limit: int) -> Index:
        """Every tournament known here whose name contains ``query``: running, upcoming, finished."""
        t, a, n = tournaments.c, arenas.c, announced.c
        paired = (
            sa.select(sa.func.max(rounds.c.number)).where(rounds.c.tournament_id == t.id).scalar_subquery()
        )
        started = sa.select(
            t.id, t.name, t.ruleset, t.variant, t.time_control, t.started_at, t.completed_at, t.total_rounds,
            _count(players, players.c.tournament_id, t.id).label("players"), paired.label("paired"),
        ).where(t.reset_at.is_(None), _matching(t.name, query))  # fmt: skip
        running_arenas = sa.select(
            a.id, a.name, a.started_at, a.completed_at,
            _count(arena_players, arena_players.c.arena_id, a.id).label("players"),
        ).where(_matching(a.name, query))  # fmt: skip
        upcoming = sa.select(announced).where(
            n.started.is_(False),
            n.cancelled.is_(None),
            n.id.not_in(sa.select(t.id)),
            n.id.not_in(sa.select(a.id)),
            _matching(n.name, query),
        )
        listed: list[Listed] = []
        with self._sessions() as session:
            by_phase = (
                (t.completed_at.is_(None), t.started_at.desc()),
                (t.completed_at.is_not(None), t.completed_at.desc()),
            )
            for phase, order in by_phase:
                for row in session.execute(started.where(phase).order_by(order).limit(limit)):
                    listed.append(_listed_tournament(row))
            for row in session.execute(running_arenas.order_by(a.started_at.desc()).limit(2 * limit)):
                listed.append(_listed_arena(row))
            for row in session.execute(upcoming.order_by(n.starts_at).limit(limit)):
                listed.append(_listed_announced(row))
        return Index.of(listed, limit)


def _listed_tournament(row: Any) -> Listed:
    return Listed(
        id=row.id,
        name=row.name,
        phase=Progress.RUNNING if row.completed_at is None else Progress.FINISHED,
        ruleset=row.ruleset,
        variant=row.variant,
        time_control=columns.time_control_of(row.time_control),
        starts_at=aware(row.started_at),
        completed_at=aware_or_none(row.completed_at),
        players=row.players,
        rounds_paired=row.paired or 0,
        rounds_total=row.total_rounds,
    )


def _listed_arena(row: Any) -> Listed:
    return Listed(
        id=row.id,
        name=row.name,
        phase=Progress.RUNNING if row.completed_at is None else Progress.FINISHED,
        ruleset="arena",
        variant="",
        time_control=None,
        starts_at=aware(row.started_at),
        completed_at=aware_or_none(row.completed_at),
        players=row.players,
        arena=True,
    )


def _listed_announced(row: Any) -> Listed:
    a = of_row(row)
    return Listed(
        id=a.id,
        name=a.name,
        phase=Progress.UPCOMING,
        ruleset="arena" if a.arena else a.ruleset.value,
        variant=a.variant,
        time_control=a.time_control,
        starts_at=a.starts_at,
        completed_at=None,
        players=len(a.entries),
        arena=a.arena,
    )
