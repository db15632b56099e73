"""In-memory stand-ins for a service's database: a table of aggregates with transactions, and the
unit of work over such tables. Each service's fake repositories (its ``adapters/memory.py``) build on
them and pass the same contract suite as its SQL repositories, so handler tests run in milliseconds with
no database; like those, they are :class:`~shared.repository.Repository` and track what they hand out.

What a fake must get right is what the SQL side guarantees: nothing is visible to another unit of
work before commit, a rollback (or a rolled-back savepoint) leaves nothing behind, and an aggregate
handed out is a copy, never the stored object.
"""

from __future__ import annotations

import contextlib
import copy
import uuid
from collections.abc import Callable, Hashable, Iterable, Iterator
from types import TracebackType
from typing import Any, Generic, Self, TypeVar

from shared.aggregate import Aggregate
from shared.events import Envelope
from shared.repository import Repository
from shared.unit_of_work import EventCollector
from shared.wire import WireMap

A = TypeVar("A", bound=Aggregate)
K = TypeVar("K", bound=Hashable)

_DELETED: Any = object()


class MemoryTable(Generic[K, A]):
    """Committed rows, and the writes of the transaction in progress (one at a time, as a test runs)."""

    def __init__(self, key: Callable[[A], K]) -> None:
        self.key = key
        self.committed: dict[K, A] = {}
        self.staged: dict[K, A] = {}

    def read(self, key: K) -> A | None:
        row = self.staged.get(key, self.committed.get(key))
        return None if row is None or row is _DELETED else _copy(row)

    def rows(self) -> list[A]:
        merged = {**self.committed, **self.staged}
        return [_copy(row) for row in merged.values() if row is not _DELETED]

    def write(self, aggregate: A) -> None:
        self.staged[self.key(aggregate)] = _copy(aggregate)

    def delete(self, key: K) -> None:
        self.staged[key] = _DELETED

    def commit(self) -> None:
        for key, row in self.staged.items():
            if row is _DELETED:
                self.committed.pop(key, None)
            else:
                self.committed[key] = row
        self.staged = {}

    def rollback(self) -> None:
        self.staged = {}

    def mark(self) -> dict[K, A]:
        return dict(self.staged)

    def back_to(self, mark: dict[K, A]) -> None:
        self.staged = mark


def _copy(aggregate: A) -> A:
    """A deep copy without the events the original recorded: a stored row carries none."""
    clone = copy.deepcopy(aggregate)
    clone.collect_events()
    return clone


class MemoryRepository(Repository[K, A]):
    """``get``/``add``/``save`` over a :class:`MemoryTable` (the base tracks what it handed out)."""

    def __init__(self, table: MemoryTable[K, A]) -> None:
        super().__init__()
        self.table = table

    def _find(self, key: K, *, lock: bool) -> A | None:
        return self.table.read(key)

    def _insert(self, aggregate: A) -> None:
        self.table.write(aggregate)

    def _update(self, aggregate: A) -> None:
        self.table.write(aggregate)


class MemoryUnitOfWork(EventCollector):
    """The unit of work over in-memory tables: commit makes the staged rows visible and appends the
    collected envelopes to ``published`` (the outbox); the inbox is a set of (event, handler)."""

    def __init__(self, wire: WireMap, tables: Iterable[MemoryTable[Any, Any]]) -> None:
        super().__init__(wire)
        self.tables = list(tables)
        self.published: list[Envelope] = []
        self.inbox: set[tuple[uuid.UUID, str]] = set()
        self._inbox_staged: set[tuple[uuid.UUID, str]] = set()
        self.commits = 0

    def __enter__(self) -> Self:
        self._pending = []
        self._inbox_staged = set()
        self.unbuild()
        self.start()
        return self

    def start(self) -> None:
        """Hook for subclasses: what a unit of work holds besides its repositories (each repository
        is a ``functools.cached_property`` built over ``self.tables`` on first use)."""

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.rollback()

    def first_delivery(self, envelope: Envelope, handler: str) -> bool:
        key = (envelope.id, handler)
        if key in self.inbox or key in self._inbox_staged:
            return False
        self._inbox_staged.add(key)
        return True

    @contextlib.contextmanager
    def savepoint(self) -> Iterator[None]:
        marks = [table.mark() for table in self.tables]
        inbox = set(self._inbox_staged)
        with self.events_savepoint():
            try:
                yield
            except BaseException:
                for table, mark in zip(self.tables, marks, strict=True):
                    table.back_to(mark)
                self._inbox_staged = inbox
                raise

    def commit(self) -> None:
        self.published.extend(self.take_pending())
        for table in self.tables:
            table.commit()
        self.inbox |= self._inbox_staged
        self._inbox_staged = set()
        self.commits += 1

    def rollback(self) -> None:
        self._pending = []
        self.discard_uncollected()
        for table in self.tables:
            table.rollback()
        self._inbox_staged = set()
