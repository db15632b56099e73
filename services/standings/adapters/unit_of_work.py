"""The standings unit of work on SQL: one transaction for the tournament's changes, the events its
tournaments recorded (outbox) and the consumed event (inbox), plus the consumer's live tables: a
tournament locked in this unit goes back to the cache only once the transaction committed."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from services.standings.adapters.announced_repository import SqlAnnouncedTournaments
from services.standings.adapters.arena_repository import SqlArenaStandings
from services.standings.adapters.group_playoff_pages import SqlGroupPlayoffPages
from services.standings.adapters.repository import SqlTournamentRepository
from services.standings.adapters.table_cache import TableCache
from services.standings.adapters.wire import wire
from shared.aggregate import Tracking
from shared.events import Envelope
from shared.unit_of_work import SqlUnitOfWork


class SqlStandingsUnitOfWork(SqlUnitOfWork):
    tournaments: SqlTournamentRepository
    arenas: SqlArenaStandings
    announced: SqlAnnouncedTournaments
    group_playoffs: SqlGroupPlayoffPages

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

    def start(self) -> None:
        self.tournaments = SqlTournamentRepository(self.session, self.tables)
        self.arenas = SqlArenaStandings(self.session)
        self.announced = SqlAnnouncedTournaments(self.session)
        self.group_playoffs = SqlGroupPlayoffPages(self.session)

    def repositories(self) -> Iterable[Tracking]:
        return (self.tournaments, self.arenas, self.announced, self.group_playoffs)  # type: ignore[return-value]

    def restore(self, state: object) -> None:
        """A savepoint was rolled back: the tournaments this unit holds may have been changed by it
        in memory, so none of them is trusted; they are loaded from the rows when next needed."""
        self.tournaments.forget()

    @contextlib.contextmanager
    def savepoint(self) -> Iterator[None]:
        """The tournaments' rows are written before the savepoint ends: one rolled back later must
        not take them along."""
        with super().savepoint():
            yield
            self.tournaments.flush()

    def commit(self) -> None:
        self.tournaments.flush()
        held = self.tournaments.held()
        super().commit()
        if self.tables is not None:
            for tournament in held:
                self.tables.put(tournament)

    def rollback(self) -> None:
        self.tournaments.forget()
        super().rollback()
