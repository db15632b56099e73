from __future__ import annotations

import uuid
from collections.abc import Callable

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from services.standings.adapters.repository import TournamentRepository
from services.standings.domain.live_table import LiveTable
from services.standings.service_layer.table_cache import TableCache
from shared.events import Envelope
from shared.unit_of_work import SqlUnitOfWork


class StandingsUnitOfWork(SqlUnitOfWork):
    """The SQL unit of work, plus the consumer's live tables: a table changed in this unit goes
    back to the cache only once the transaction committed."""

    tournaments: TournamentRepository

    def __init__(
        self,
        session_factory: sessionmaker[Session],
        outbox: sa.Table,
        inbox: sa.Table,
        *,
        channel: str,
        tables: TableCache,
        after_commit: Callable[[list[Envelope]], object] | None = None,
    ) -> None:
        super().__init__(session_factory, outbox, inbox, channel=channel, after_commit=after_commit)
        self.tables = tables
        self._kept: dict[uuid.UUID, tuple[int, LiveTable]] = {}

    def start(self) -> None:
        self.tournaments = TournamentRepository(self.session)
        self._kept = {}

    def take(self, tournament_id: uuid.UUID, revision: int) -> LiveTable | None:
        """The live table at ``revision``: one this unit already changed (several events of one
        tournament in one transaction), else the cache's."""
        kept = self._kept.get(tournament_id)
        if kept is not None and kept[0] == revision:
            return kept[1]
        return self.tables.take(tournament_id, revision)

    def restore(self, state: object) -> None:
        """A savepoint was rolled back: the tables this unit holds may have been changed by it in
        memory, so none of them is trusted; they are rebuilt from the rows when next needed."""
        self._kept = {}

    def keep(self, tournament_id: uuid.UUID, revision: int, table: LiveTable) -> None:
        """Cache ``table`` (at ``revision``) when this unit commits."""
        self._kept[tournament_id] = (revision, table)

    def commit(self) -> None:
        kept, self._kept = self._kept, {}
        super().commit()
        for tournament_id, (revision, table) in kept.items():
            self.tables.put(tournament_id, revision, table)

    def rollback(self) -> None:
        self._kept = {}
        super().rollback()
