"""Pairing's unit of work on SQL: one transaction for the aggregates' changes, the events they
recorded (outbox, through :data:`~services.pairing.adapters.wire.wire`) and the consumed event (inbox).
Each repository is built on first use, on the unit of work's session and row locks."""

from __future__ import annotations

import functools
import uuid
from typing import Any

from services.pairing.adapters.arbiters import SqlArbiters
from services.pairing.adapters.arena_repository import SqlArenas
from services.pairing.adapters.eliminations import SqlEliminations, SqlResets
from services.pairing.adapters.group_playoffs import SqlGroupPlayoffs
from services.pairing.adapters.rosters import SqlRosters
from services.pairing.adapters.round_results import SqlRoundResults
from services.pairing.adapters.rows import RowLocks, tournament_of_game
from services.pairing.adapters.tournaments import SqlTournaments
from services.pairing.adapters.wire import wire
from shared.unit_of_work import SqlUnitOfWork
from shared.vocabulary import System


class SqlPairingUnitOfWork(SqlUnitOfWork):
    tracked = ("tournaments", "results", "eliminations", "arbiters", "arenas", "group_playoffs", "rosters")

    def __init__(self, **options: Any) -> None:
        super().__init__(**options, wire=wire)

    def start(self) -> None:
        self._locks = RowLocks(self.session)

    @functools.cached_property
    def tournaments(self) -> SqlTournaments:
        return SqlTournaments(self.session, self._locks)

    @functools.cached_property
    def results(self) -> SqlRoundResults:
        return SqlRoundResults(self.session, self._locks)

    @functools.cached_property
    def eliminations(self) -> SqlEliminations:
        return SqlEliminations(self.session, self._locks)

    @functools.cached_property
    def arbiters(self) -> SqlArbiters:
        return SqlArbiters(self.session)

    @functools.cached_property
    def resets(self) -> SqlResets:
        return SqlResets(self.session)

    @functools.cached_property
    def arenas(self) -> SqlArenas:
        return SqlArenas(self.session)

    @functools.cached_property
    def group_playoffs(self) -> SqlGroupPlayoffs:
        return SqlGroupPlayoffs(self.session, self._locks)

    @functools.cached_property
    def rosters(self) -> SqlRosters:
        return SqlRosters(self.session)

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
