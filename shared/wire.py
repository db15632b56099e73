"""From domain events to the versioned wire events, one mapping function per domain event type.

Each service builds one :class:`WireMap` in its ``adapters/wire.py``; the unit of work uses it to turn
what the aggregates recorded into outbox rows. The envelope's ``tournament_id`` is the wire event's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from shared.aggregate import DomainEvent
from shared.events import Envelope, Event, wrap

D = TypeVar("D", bound=DomainEvent)


class WireMap:
    def __init__(self) -> None:
        self._mappers: dict[type[DomainEvent], Callable[[Any], Event]] = {}

    def maps(self, kind: type[D]) -> Callable[[Callable[[D], Event]], Callable[[D], Event]]:
        """Decorator: ``@wire.maps(GameFinished)`` on the function that builds its wire event."""

        def register(fn: Callable[[D], Event]) -> Callable[[D], Event]:
            if kind in self._mappers:
                raise RuntimeError(f"{kind.__name__} is mapped twice")
            self._mappers[kind] = fn
            return fn

        return register

    def to_wire(self, event: DomainEvent) -> Event:
        try:
            mapper = self._mappers[type(event)]
        except KeyError:
            raise TypeError(f"no wire mapping for the domain event {type(event).__name__}") from None
        return mapper(event)

    def envelope(self, event: DomainEvent) -> Envelope:
        wire = self.to_wire(event)
        return wrap(wire, getattr(wire, "tournament_id", None))

    def kinds(self) -> frozenset[type[DomainEvent]]:
        return frozenset(self._mappers)
