"""The reads behind the HTTP API and the public pages, on their own short sessions: the standings
page reads the tournament's row (what it is, and the snapshot the consumer wrote); the crosstable, a
round, the bracket and the TRF read the whole tournament under a shared lock of its row, so the rows
and the snapshot are of one revision. A knockout reset to its draft is not public: it reads as no
tournament until it is started again. Nothing here writes."""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from services.standings.adapters import columns
from services.standings.adapters.arena_repository import load as load_arena
from services.standings.adapters.group_playoff_pages import load as load_group_playoff
from services.standings.adapters.orm import tournaments
from services.standings.adapters.repository import info_of, load_tournament
from services.standings.domain.arena_standings import ArenaStandings
from services.standings.domain.group_playoff_page import GroupPlayoffPage
from services.standings.domain.snapshot import Snapshot
from services.standings.domain.tournament import Tournament, TournamentInfo

_ROW = sa.select(tournaments).where(tournaments.c.id == sa.bindparam("tid"))


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
