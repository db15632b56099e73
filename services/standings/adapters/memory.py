"""The standings' in-memory fakes: the tournaments repository and the unit of work over in-memory
tables (``shared.testing.memory``). They pass the same contract suite as the SQL ones
(``tests/contract/``), so handler tests run in milliseconds with no database."""

from __future__ import annotations

import uuid
from collections.abc import Iterable

from services.standings.adapters.announced_repository import MemoryAnnouncedTournaments
from services.standings.adapters.arena_repository import MemoryArenaStandings
from services.standings.adapters.group_playoff_pages import MemoryGroupPlayoffPages
from services.standings.adapters.wire import wire
from services.standings.domain.announced import AnnouncedTournament
from services.standings.domain.arena_standings import ArenaStandings
from services.standings.domain.errors import TournamentExists
from services.standings.domain.group_playoff_page import GroupPlayoffPage
from services.standings.domain.tournament import Tournament
from shared.aggregate import Tracking
from shared.testing.memory import MemoryRepository, MemoryTable, MemoryUnitOfWork


def tournaments_table() -> MemoryTable[uuid.UUID, Tournament]:
    return MemoryTable(lambda t: t.id)


class MemoryTournamentRepository(MemoryRepository[uuid.UUID, Tournament]):
    def add(self, t: Tournament) -> None:
        if self.table.read(t.id) is not None:
            raise TournamentExists(f"tournament {t.id} is recorded already")
        t.take_changes()
        super().add(t)

    def save(self, t: Tournament) -> None:
        t.take_changes()  # the whole tournament is stored: what changed needs no statement here
        super().save(t)


class MemoryStandingsUnitOfWork(MemoryUnitOfWork):
    """One unit of work over ``table``; share the table between units to see what they committed."""

    tournaments: MemoryTournamentRepository
    arenas: MemoryArenaStandings
    announced: MemoryAnnouncedTournaments
    group_playoffs: MemoryGroupPlayoffPages

    def __init__(
        self,
        table: MemoryTable[uuid.UUID, Tournament] | None = None,
        arenas: dict[uuid.UUID, ArenaStandings] | None = None,
        announced: dict[uuid.UUID, AnnouncedTournament] | None = None,
        pages: dict[uuid.UUID, GroupPlayoffPage] | None = None,
    ) -> None:
        super().__init__(wire, [table if table is not None else tournaments_table()])
        self.arena_store = {} if arenas is None else arenas  # not rolled back: the arena tests commit
        self.announced_store = {} if announced is None else announced  # nor these
        self.page_store = {} if pages is None else pages  # the same

    def start(self) -> None:
        self.tournaments = MemoryTournamentRepository(self.tables[0])
        self.arenas = MemoryArenaStandings(self.arena_store)
        self.announced = MemoryAnnouncedTournaments(self.announced_store)
        self.group_playoffs = MemoryGroupPlayoffPages(self.page_store)

    def repositories(self) -> Iterable[Tracking]:
        return (self.tournaments, self.arenas, self.announced, self.group_playoffs)  # type: ignore[return-value]
