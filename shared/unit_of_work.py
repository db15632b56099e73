"""The unit of work every service uses: one database transaction for the state change, the
outgoing events (outbox) and the record of the consumed event (inbox).

Handlers load aggregates from the repositories, call the domain and save them. The aggregates record
domain events as they change; at commit the unit of work collects the events of every aggregate its
repositories have seen, maps them to wire events with the service's :class:`~shared.wire.WireMap` and
writes them to the outbox in the same transaction.

A unit of work builds each repository on first use (a ``functools.cached_property`` named in
:attr:`EventCollector.tracked` when its aggregates' events are collected): a handler that reads one
repository builds one, not every repository the service has.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import TracebackType
from typing import Any, ClassVar, Self

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from shared.aggregate import DomainEvent, Tracking
from shared.events import Envelope
from shared.messaging.inbox import first_deliveries, first_delivery
from shared.messaging.outbox import add_to_outbox
from shared.wire import WireMap


class EventCollector:
    """The part of a unit of work that turns recorded domain events into envelopes: shared by the SQL
    unit of work and the in-memory ones the tests use, so both publish exactly the same."""

    tracked: ClassVar[tuple[str, ...]] = ()
    """The repositories whose aggregates' events are collected, by name, in the order they are."""

    def __init__(self, wire: WireMap) -> None:
        self.wire = wire
        self._pending: list[Envelope] = []

    def repositories(self) -> Iterable[Tracking]:
        """The repositories of :attr:`tracked` this unit of work has built, in that order: one never
        used has seen nothing."""
        return [self.__dict__[name] for name in self.tracked if name in self.__dict__]

    def built(self, name: str) -> Any:
        """The repository ``name`` if this unit of work has built it, else None: what a commit or a
        rollback looks at without building it."""
        return self.__dict__.get(name)

    def unbuild(self) -> None:
        """Forget the repositories built (the ``functools.cached_property`` attributes): a unit of work
        entered again builds its own on first use."""
        for name in list(self.__dict__):
            if isinstance(getattr(type(self), name, None), functools.cached_property):
                del self.__dict__[name]

    def record(self, event: DomainEvent) -> None:
        """An event that belongs to no aggregate (rare: most are recorded by the aggregate itself),
        after everything the aggregates recorded so far."""
        self.collect()
        self._pending.append(self.wire.envelope(event))

    def collect(self) -> None:
        """Move what the aggregates recorded so far into the pending envelopes: each aggregate's in
        order, the aggregates in the order the repositories saw them."""
        for repository in self.repositories():
            for aggregate in repository.seen:
                for event in aggregate.collect_events():
                    self._pending.append(self.wire.envelope(event))

    def discard_uncollected(self) -> None:
        """Forget what was recorded and not collected (a savepoint rolled back), and the aggregates
        the repositories saw: their in-memory state is no longer trusted."""
        for repository in self.repositories():
            for aggregate in repository.seen:
                aggregate.collect_events()
            repository.seen.clear()

    def take_pending(self) -> list[Envelope]:
        self.collect()
        pending, self._pending = self._pending, []
        return self.wire.latest(pending)

    @contextlib.contextmanager
    def events_savepoint(self) -> Iterator[None]:
        """Events recorded inside the block are kept only if it completes."""
        self.collect()
        mark = len(self._pending)
        try:
            yield
        except BaseException:
            self.discard_uncollected()
            del self._pending[mark:]
            raise
        self.collect()


class SqlUnitOfWork(EventCollector):
    def __init__(
        self,
        session_factory: sessionmaker[Session],
        outbox: sa.Table,
        inbox: sa.Table,
        *,
        channel: str,
        wire: WireMap | None = None,
        after_commit: Callable[[list[Envelope]], object] | None = None,
    ) -> None:
        super().__init__(wire or WireMap())
        self._factory = session_factory
        self._outbox = outbox
        self._inbox = inbox
        self._channel = channel
        self._after_commit = after_commit
        self.session: Session

    def __enter__(self) -> Self:
        self.session = self._factory()
        self._pending = []
        self.unbuild()
        self.start()
        return self

    def start(self) -> None:
        """Hook for subclasses: what a unit of work holds besides its repositories (each repository
        is a ``functools.cached_property`` built on ``self.session`` on first use)."""

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        try:
            self.session.rollback()
        finally:
            self.session.close()

    @contextlib.contextmanager
    def savepoint(self) -> Iterator[None]:
        """A part of the transaction that can fail alone: on an exception its statements, the events
        recorded in it and (through :meth:`checkpoint`/:meth:`restore`) in-memory state are undone;
        the rest of the transaction stands."""
        state = self.checkpoint()
        with self.events_savepoint():
            nested = self.session.begin_nested()
            try:
                yield
            except BaseException:
                nested.rollback()
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

    def first_deliveries(self, envelopes: Sequence[Envelope], handler: str) -> list[bool]:
        """:meth:`first_delivery` of a batch, in one statement."""
        return first_deliveries(self.session, self._inbox, [e.id for e in envelopes], handler)

    def commit(self) -> None:
        published = self.take_pending()
        add_to_outbox(self.session, self._outbox, published, channel=self._channel)
        self.session.commit()
        if self._after_commit is not None and published:
            self._after_commit(published)

    def rollback(self) -> None:
        self._pending = []
        self.discard_uncollected()
        self.session.rollback()
