"""Pairing's unit of work on SQL: one transaction for the aggregates' changes, the events they
recorded (outbox, through :data:`~services.pairing.adapters.wire.wire`) and the consumed event (inbox)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any

from services.pairing.adapters.arena_repository import SqlArenas
from services.pairing.adapters.group_playoffs import SqlGroupPlayoffs
from services.pairing.adapters.repository import (
    RowLocks,
    SqlArbiters,
    SqlEliminations,
    SqlResets,
    SqlRoundResults,
    SqlTournaments,
    tournament_of_game,
)
from services.pairing.adapters.rosters import SqlRosters
from services.pairing.adapters.wire import wire
from shared.aggregate import Tracking
from shared.unit_of_work import SqlUnitOfWork
from shared.vocabulary import System


class SqlPairingUnitOfWork(SqlUnitOfWork):
    tournaments: SqlTournaments
    results: SqlRoundResults
    eliminations: SqlEliminations
    arbiters: SqlArbiters
    resets: SqlResets
    arenas: SqlArenas
    group_playoffs: SqlGroupPlayoffs
    rosters: SqlRosters

    def __init__(self, **options: Any) -> None:
        super().__init__(**options, wire=wire)

    def start(self) -> None:
        self._locks = RowLocks(self.session)
        self.tournaments = SqlTournaments(self.session, self._locks)
        self.results = SqlRoundResults(self.session, self._locks)
        self.eliminations = SqlEliminations(self.session, self._locks)
        self.arbiters = SqlArbiters(self.session)
        self.resets = SqlResets(self.session)
        self.arenas = SqlArenas(self.session)
        self.group_playoffs = SqlGroupPlayoffs(self.session, self._locks)
        self.rosters = SqlRosters(self.session)

    def repositories(self) -> Iterable[Tracking]:
        return (
            self.tournaments,
            self.results,
            self.eliminations,
            self.arbiters,
            self.arenas,
            self.group_playoffs,
            self.rosters,
        )  # type: ignore[return-value]

    def lock(self, tournament_id: uuid.UUID) -> System | None:
        return self._locks.take(tournament_id)

    def tournament_of_game(self, game_id: uuid.UUID) -> uuid.UUID | None:
        return tournament_of_game(self.session, game_id)

    def checkpoint(self) -> object:
        """A savepoint takes its locks afresh: rolled back, it would release those it took."""
        self._locks.forget()
        return None

    def restore(self, state: object) -> None:
        self._locks.forget()
