"""The standings unit of work on SQL: one transaction for the tournament's changes, the events its
tournaments recorded (outbox) and the consumed event (inbox), plus the consumer's live tables: a
tournament locked in this unit goes back to the cache only once the transaction committed. Each
repository is built on first use: a result builds the tournaments' alone."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from services.standings.adapters.announced_repository import SqlAnnouncedTournaments
from services.standings.adapters.arena_repository import SqlArenaStandings
from services.standings.adapters.group_playoff_pages import SqlGroupPlayoffPages
from services.standings.adapters.repository import SqlTournamentRepository
from services.standings.adapters.table_cache import TableCache
from services.standings.adapters.wire import wire
from shared.events import Envelope
from shared.unit_of_work import SqlUnitOfWork


class SqlStandingsUnitOfWork(SqlUnitOfWork):
    tracked = ("tournaments", "arenas", "announced", "group_playoffs")

    def __init__(
        self,
        session_factory: sessionmaker[Session],
        outbox: sa.Table,
        inbox: sa.Table,
        *,
        channel: str,
        tables: TableCache | None = None,
        after_commit: Callable[[list[Envelope]], object] | None = None,
    ) -> None:
        super().__init__(
            session_factory, outbox, inbox, channel=channel, wire=wire, after_commit=after_commit
        )
        self.tables = tables

    @functools.cached_property
    def tournaments(self) -> SqlTournamentRepository:
        return SqlTournamentRepository(self.session, self.tables)

    @functools.cached_property
    def arenas(self) -> SqlArenaStandings:
        return SqlArenaStandings(self.session)

    @functools.cached_property
    def announced(self) -> SqlAnnouncedTournaments:
        return SqlAnnouncedTournaments(self.session)

    @functools.cached_property
    def group_playoffs(self) -> SqlGroupPlayoffPages:
        return SqlGroupPlayoffPages(self.session)

    def _tournaments(self) -> SqlTournamentRepository | None:
        """The tournaments' repository if this unit of work used it (nothing to flush or forget else)."""
        built: SqlTournamentRepository | None = self.built("tournaments")
        return built

    def restore(self, state: object) -> None:
        """A savepoint was rolled back: the tournaments this unit holds may have been changed by it
        in memory, so none of them is trusted; they are loaded from the rows when next needed."""
        if (tournaments := self._tournaments()) is not None:
            tournaments.forget()

    @contextlib.contextmanager
    def savepoint(self) -> Iterator[None]:
        """The tournaments' rows are written before the savepoint ends: one rolled back later must
        not take them along."""
        with super().savepoint():
            yield
            if (tournaments := self._tournaments()) is not None:
                tournaments.flush()

    def commit(self) -> None:
        tournaments = self._tournaments()
        if tournaments is not None:
            tournaments.flush()
        held = [] if tournaments is None else tournaments.held()
        super().commit()
        if self.tables is not None:
            for tournament in held:
                self.tables.put(tournament)

    def rollback(self) -> None:
        if (tournaments := self._tournaments()) is not None:
            tournaments.forget()
        super().rollback()
