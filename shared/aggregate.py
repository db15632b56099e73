"""Aggregates record what happened to them; the unit of work collects it.

A handler loads an aggregate from its repository, calls the domain, and saves it. Each change the
domain makes is recorded as a domain event (a frozen dataclass of the service's ``domain/events.py``).
At commit the unit of work takes the events of every aggregate its repositories have seen, maps them
to the versioned wire models (each service's ``adapters/wire.py``) and writes them to the outbox in the
same transaction. Pure code: no framework, no wire model.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, Protocol, TypeVar


class DomainEvent:
    """Base of every domain event: something that happened, named in the past tense."""

    __slots__ = ()


class Aggregate:
    """Mixin of every aggregate: the events recorded since it was loaded or last collected."""

    _recorded: list[DomainEvent]

    def record(self, event: DomainEvent) -> None:
        try:
            self._recorded.append(event)
        except AttributeError:
            self._recorded = [event]

    def collect_events(self) -> list[DomainEvent]:
        """The events recorded so far, in order; afterwards the aggregate has none pending."""
        recorded = getattr(self, "_recorded", [])
        self._recorded = []
        return recorded


A = TypeVar("A", bound=Aggregate)


class Seen(Generic[A]):
    """What a repository has handed out or taken in during one unit of work: the aggregates whose
    events the unit of work collects. SQL repositories and their in-memory fakes both keep one."""

    def __init__(self) -> None:
        self._items: dict[int, A] = {}

    def add(self, aggregate: A) -> A:
        self._items[id(aggregate)] = aggregate
        return aggregate

    def __iter__(self) -> Iterator[A]:
        return iter(list(self._items.values()))

    def clear(self) -> None:
        self._items.clear()


class Tracking(Protocol):
    """A repository as the unit of work sees it: the aggregates it handed out or took in."""

    @property
    def seen(self) -> Seen[Aggregate]: ...
