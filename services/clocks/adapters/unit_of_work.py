"""The clocks unit of work on SQL: the shared one (games, outbox, inbox in one transaction), plus the
deadline store kept in step after the commit."""

from __future__ import annotations

import datetime as dt
import functools
import logging
import uuid
from collections.abc import Callable

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from services.clocks.adapters.repository import (
    SqlGameRepository,
    SqlPresenceRepository,
    SqlTournamentRepository,
)
from services.clocks.adapters.wire import wire
from services.clocks.service_layer.ports import DeadlineStore, DeadlineStoreUnavailable
from shared.events import Envelope
from shared.unit_of_work import EventCollector, SqlUnitOfWork

log = logging.getLogger(__name__)


class DeadlineTracking(EventCollector):
    """The deadline store follows the committed games: after a commit it holds the deadline of every
    game the unit of work saw, or has forgotten the game once it is over. Nothing moves before the
    commit (a rolled-back move must not move a deadline), and a savepoint rolled back takes its games'
    deadlines with it.

    The part the SQL unit of work and its in-memory fake share: the deadlines are taken whenever the
    unit of work collects events (at each savepoint's end and at commit)."""

    tracked = ("games", "tournaments")
    deadlines: DeadlineStore
    _deadlines: dict[uuid.UUID, dt.datetime | None]

    def collect(self) -> None:
        super().collect()
        games = self.built("games")  # a unit of work that never used its games moved no deadline
        if games is None:
            return
        for game in games.seen:
            self._deadlines[game.id] = None if game.id in games.removed else game.deadline

    def forget(self, game_id: uuid.UUID) -> None:
        self._deadlines[game_id] = None

    def checkpoint(self) -> object:
        """The deadlines so far, for a savepoint to restore if it fails."""
        self.collect()
        return dict(self._deadlines)

    def restore(self, state: object) -> None:
        assert isinstance(state, dict)
        self._deadlines = state

    def _take_deadlines(self) -> dict[uuid.UUID, dt.datetime | None]:
        changes, self._deadlines = self._deadlines, {}
        return changes

    def _update_store(self, changes: dict[uuid.UUID, dt.datetime | None]) -> None:
        """Best effort by design: the committed games.deadline column is authoritative and the ticker's
        sweep finds what the store missed, so a store outage delays flag falls, never loses them."""
        scheduled = {gid: d for gid, d in changes.items() if d is not None}
        gone = [gid for gid, d in changes.items() if d is None]
        try:
            self.deadlines.schedule(scheduled)
            self.deadlines.cancel(gone)
        except DeadlineStoreUnavailable as exc:
            log.warning("deadlines of %d games not updated (the sweep will cover): %s", len(changes), exc)


class SqlClocksUnitOfWork(DeadlineTracking, SqlUnitOfWork):
    def __init__(
        self,
        session_factory: sessionmaker[Session],
        outbox: sa.Table,
        inbox: sa.Table,
        *,
        channel: str,
        deadlines: DeadlineStore,
        after_commit: Callable[[list[Envelope]], object] | None = None,
    ) -> None:
        super().__init__(
            session_factory, outbox, inbox, channel=channel, wire=wire, after_commit=after_commit
        )
        self.deadlines = deadlines
        self._deadlines = {}

    @functools.cached_property
    def games(self) -> SqlGameRepository:
        return SqlGameRepository(self.session)

    @functools.cached_property
    def tournaments(self) -> SqlTournamentRepository:
        return SqlTournamentRepository(self.session)

    @functools.cached_property
    def presence(self) -> SqlPresenceRepository:
        return SqlPresenceRepository(self.session)

    def start(self) -> None:
        self._deadlines = {}

    def commit(self) -> None:
        super().commit()
        self._update_store(self._take_deadlines())

    def rollback(self) -> None:
        super().rollback()
        self._deadlines = {}
