from __future__ import annotations

import datetime as dt
import logging
import uuid
from collections.abc import Callable

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from services.clocks.adapters.deadlines import DeadlineStore, DeadlineStoreUnavailable
from services.clocks.adapters.repository import GameRepository
from services.clocks.domain.game import Game
from shared.events import Envelope
from shared.unit_of_work import SqlUnitOfWork

log = logging.getLogger(__name__)


class ClocksUnitOfWork(SqlUnitOfWork):
    """The SQL unit of work, plus the deadline store, updated only after the transaction commits
    (a rolled-back move must not move a deadline)."""

    games: GameRepository

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
        super().__init__(session_factory, outbox, inbox, channel=channel, after_commit=after_commit)
        self.deadlines = deadlines
        self._deadlines: dict[uuid.UUID, dt.datetime | None] = {}

    def start(self) -> None:
        self.games = GameRepository(self.session)
        self._deadlines = {}

    def track(self, game: Game) -> None:
        """After commit the store holds the game's deadline, or forgets it once the game is over."""
        self._deadlines[game.id] = game.deadline

    def forget(self, game_id: uuid.UUID) -> None:
        self._deadlines[game_id] = None

    def checkpoint(self) -> object:
        return dict(self._deadlines)

    def restore(self, state: object) -> None:
        assert isinstance(state, dict)
        self._deadlines = state

    def commit(self) -> None:
        changes, self._deadlines = self._deadlines, {}
        super().commit()
        self._update_store(changes)

    def rollback(self) -> None:
        self._deadlines = {}
        super().rollback()

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
