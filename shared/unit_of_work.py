"""The unit of work every service uses: one database transaction for the state change, the
outgoing events (outbox) and the record of the consumed event (inbox)."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import Self

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from shared.events import Envelope, Event, wrap
from shared.messaging.inbox import first_delivery
from shared.messaging.outbox import add_to_outbox


class SqlUnitOfWork:
    def __init__(
        self,
        session_factory: sessionmaker[Session],
        outbox: sa.Table,
        inbox: sa.Table,
        *,
        channel: str,
        after_commit: Callable[[list[Envelope]], object] | None = None,
    ) -> None:
        self._factory = session_factory
        self._outbox = outbox
        self._inbox = inbox
        self._channel = channel
        self._after_commit = after_commit
        self._pending: list[Envelope] = []
        self.session: Session

    def __enter__(self) -> Self:
        self.session = self._factory()
        self._pending = []
        self.start()
        return self

    def start(self) -> None:
        """Hook for subclasses: build repositories on ``self.session``."""

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        try:
            self.session.rollback()
        finally:
            self.session.close()

    def publish(self, event: Event, tournament_id: uuid.UUID | None) -> Envelope:
        envelope = wrap(event, tournament_id)
        self._pending.append(envelope)
        return envelope

    @contextlib.contextmanager
    def savepoint(self) -> Iterator[None]:
        """A part of the transaction that can fail alone: on an exception its statements, the events
        it published and (through :meth:`checkpoint`/:meth:`restore`) in-memory state are undone; the
        rest of the transaction stands."""
        mark = len(self._pending)
        state = self.checkpoint()
        nested = self.session.begin_nested()
        try:
            yield
        except BaseException:
            nested.rollback()
            del self._pending[mark:]
            self.restore(state)
            raise
        nested.commit()

    def checkpoint(self) -> object:
        """Hook: capture in-memory state a savepoint may change (see :meth:`restore`)."""
        return None

    def restore(self, state: object) -> None:
        """Hook: put back what :meth:`checkpoint` captured, after a savepoint was rolled back."""

    def first_delivery(self, envelope: Envelope, handler: str) -> bool:
        return first_delivery(self.session, self._inbox, envelope.id, handler)

    def commit(self) -> None:
        published, self._pending = self._pending, []
        add_to_outbox(self.session, self._outbox, published, channel=self._channel)
        self.session.commit()
        if self._after_commit is not None and published:
            self._after_commit(published)

    def rollback(self) -> None:
        self._pending = []
        self.session.rollback()
