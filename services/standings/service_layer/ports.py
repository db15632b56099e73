"""What the handlers need from the outside world: the tournaments, in one unit of work with the inbox
and the outbox (the SQL adapters and the in-memory fakes in ``adapters/`` both provide it and pass
the same contract suite, ``tests/contract/``); and what the web reads."""

from __future__ import annotations

import uuid
from typing import Protocol

from services.standings.domain.announced import AnnouncedTournament
from services.standings.domain.arena_standings import ArenaStandings
from services.standings.domain.group_playoff_page import GroupPlayoffPage
from services.standings.domain.listing import Index
from services.standings.domain.snapshot import Snapshot
from services.standings.domain.tournament import Tournament
from services.standings.domain.tournament_info import TournamentInfo
from shared.messagebus import UnitOfWork


class TournamentRepository(Protocol):
    def get(self, tournament_id: uuid.UUID, *, lock: bool = False) -> Tournament | None:
        """The tournament, or None; ``lock`` serialises the changes of one tournament."""

    def add(self, tournament: Tournament) -> None:
        """A new tournament (``TournamentExists`` if it is recorded already)."""

    def save(self, tournament: Tournament) -> None:
        """Write the changes the tournament recorded since it was loaded or last saved."""


class ArenaRepository(Protocol):
    def get(self, arena_id: uuid.UUID, *, lock: bool = False) -> ArenaStandings | None:
        """The arena's standings, or None; ``lock`` serialises the changes of one arena."""

    def add(self, arena: ArenaStandings) -> None: ...
    def save(self, arena: ArenaStandings) -> None: ...


class AnnouncedRepository(Protocol):
    def get(self, tournament_id: uuid.UUID, *, lock: bool = False) -> AnnouncedTournament | None:
        """A tournament announced before its start, or None (never announced here)."""

    def add(self, announced: AnnouncedTournament) -> None: ...
    def save(self, announced: AnnouncedTournament) -> None: ...


class GroupPlayoffPages(Protocol):
    def get(self, tournament_id: uuid.UUID, *, lock: bool = False) -> GroupPlayoffPage | None:
        """A group-playoff event's page, or None; ``lock`` serialises its changes."""

    def add(self, page: GroupPlayoffPage) -> None: ...
    def save(self, page: GroupPlayoffPage) -> None: ...


class StandingsUnitOfWork(UnitOfWork, Protocol):
    @property
    def tournaments(self) -> TournamentRepository: ...
    @property
    def arenas(self) -> ArenaRepository: ...
    @property
    def announced(self) -> AnnouncedRepository: ...
    @property
    def group_playoffs(self) -> GroupPlayoffPages: ...


class TournamentViews(Protocol):
    """What the web reads: nothing here changes a tournament."""

    def summary(self, tournament_id: uuid.UUID) -> tuple[TournamentInfo, Snapshot] | None:
        """What a tournament is and its snapshot (the standings page)."""

    def tournament(self, tournament_id: uuid.UUID) -> Tournament | None:
        """The whole tournament as last saved, its rows and snapshot of one revision."""

    def arena(self, arena_id: uuid.UUID) -> ArenaStandings | None:
        """An arena's standings as last saved."""

    def announced(self, tournament_id: uuid.UUID) -> AnnouncedTournament | None:
        """A tournament announced before its start, as last saved."""

    def index(self, query: str | None, limit: int) -> Index:
        """The tournaments whose name contains ``query`` (any case): running, upcoming, finished."""

    def group_playoff(self, tournament_id: uuid.UUID) -> GroupPlayoffPage | None:
        """A group-playoff event's page as last saved."""
