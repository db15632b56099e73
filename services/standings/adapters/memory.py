"""The standings' in-memory fakes: the tournaments, arenas, announced tournaments and group-playoff pages
repositories and the unit of work over in-memory tables (``shared.testing.memory``). They pass the same
contract suites as the SQL ones (``tests/contract/``), rollback included, so handler tests run in
milliseconds with no database."""

from __future__ import annotations

import functools
import uuid
from dataclasses import dataclass, field

from services.standings.adapters.wire import wire
from services.standings.domain.announced import AnnouncedTournament
from services.standings.domain.arena_standings import ArenaStandings
from services.standings.domain.errors import TournamentExists
from services.standings.domain.group_playoff_page import GroupPlayoffPage
from services.standings.domain.tournament import Tournament
from shared.testing.memory import MemoryRepository, MemoryTable, MemoryUnitOfWork


def tournaments_table() -> MemoryTable[uuid.UUID, Tournament]:
    return MemoryTable(lambda t: t.id)


class MemoryTournamentRepository(MemoryRepository[uuid.UUID, Tournament]):
    def _insert(self, t: Tournament) -> None:
        if self.table.read(t.id) is not None:
            raise TournamentExists(f"tournament {t.id} is recorded already")
        t.take_changes()
        super()._insert(t)

    def _update(self, t: Tournament) -> None:
        t.take_changes()  # the whole tournament is stored: what changed needs no statement here
        super()._update(t)


class MemoryArenaStandings(MemoryRepository[uuid.UUID, ArenaStandings]):
    def _insert(self, a: ArenaStandings) -> None:
        if self.table.read(a.id) is not None:
            raise KeyError(f"arena {a.id} exists")
        self._update(a)

    def _update(self, a: ArenaStandings) -> None:
        a.take_changes()  # the whole arena is stored
        super()._update(a)


class MemoryAnnouncedTournaments(MemoryRepository[uuid.UUID, AnnouncedTournament]):
    def _insert(self, a: AnnouncedTournament) -> None:
        if self.table.read(a.id) is not None:
            raise KeyError(f"tournament {a.id} is announced already")
        self._update(a)

    def _update(self, a: AnnouncedTournament) -> None:
        a.take_changes()  # the whole tournament is stored
        super()._update(a)


class MemoryGroupPlayoffPages(MemoryRepository[uuid.UUID, GroupPlayoffPage]):
    def _insert(self, page: GroupPlayoffPage) -> None:
        if self.table.read(page.id) is not None:
            raise KeyError(f"group-playoff page {page.id} exists")
        super()._insert(page)


@dataclass
class MemoryStandingsStore:
    """The standings' database in memory: the units of work of one test share one."""

    tournaments: MemoryTable[uuid.UUID, Tournament] = field(default_factory=tournaments_table)
    arenas: MemoryTable[uuid.UUID, ArenaStandings] = field(
        default_factory=lambda: MemoryTable(lambda a: a.id)
    )
    announced: MemoryTable[uuid.UUID, AnnouncedTournament] = field(
        default_factory=lambda: MemoryTable(lambda a: a.id)
    )
    pages: MemoryTable[uuid.UUID, GroupPlayoffPage] = field(
        default_factory=lambda: MemoryTable(lambda p: p.id)
    )


class MemoryStandingsUnitOfWork(MemoryUnitOfWork):
    """One unit of work over ``store``; share the store between units to see what they committed."""

    tracked = ("tournaments", "arenas", "announced", "group_playoffs")

    def __init__(self, store: MemoryStandingsStore | None = None) -> None:
        self.store = MemoryStandingsStore() if store is None else store
        s = self.store
        super().__init__(wire, [s.tournaments, s.arenas, s.announced, s.pages])

    @functools.cached_property
    def tournaments(self) -> MemoryTournamentRepository:
        return MemoryTournamentRepository(self.store.tournaments)

    @functools.cached_property
    def arenas(self) -> MemoryArenaStandings:
        return MemoryArenaStandings(self.store.arenas)

    @functools.cached_property
    def announced(self) -> MemoryAnnouncedTournaments:
        return MemoryAnnouncedTournaments(self.store.announced)

    @functools.cached_property
    def group_playoffs(self) -> MemoryGroupPlayoffPages:
        return MemoryGroupPlayoffPages(self.store.pages)
