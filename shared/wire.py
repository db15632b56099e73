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
Qualifiers = str | tuple[str | None, ...] | None
"""A routing key's qualifiers (``shared.events.QUALIFIERS``): one, several in their order, or none."""


class WireMap:
    def __init__(self, *, superseded: tuple[str, ...] = ()) -> None:
        """``superseded``: wire types that carry a whole state (a table, say), so that within one
        transaction the last one about a tournament stands for the ones before it (see :meth:`latest`)."""
        self._mappers: dict[type[DomainEvent], Callable[[Any], Event]] = {}
        self._qualifiers: dict[type[DomainEvent], Callable[[Any], Qualifiers]] = {}
        self.superseded = frozenset(superseded)

    def maps(
        self, kind: type[D], *, qualifier: Callable[[D], Qualifiers] | None = None
    ) -> Callable[[Callable[[D], Event]], Callable[[D], Event]]:
        """Decorator: ``@wire.maps(GameFinished)`` on the function that builds its wire event.
        ``qualifier``: the routing key's qualifiers of a domain event only some queues want
        (``shared.events.QUALIFIERS``; a tuple for several kinds, in their order), or None."""

        def register(fn: Callable[[D], Event]) -> Callable[[D], Event]:
            if kind in self._mappers:
                raise RuntimeError(f"{kind.__name__} is mapped twice")
            self._mappers[kind] = fn
            if qualifier is not None:
                self._qualifiers[kind] = qualifier
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
        envelope = wrap(wire, getattr(wire, "tournament_id", None))
        qualifier = self._qualifiers.get(type(event))
        if qualifier is None:
            return envelope
        qualifiers = qualifier(event)
        return envelope.qualified(*(qualifiers if isinstance(qualifiers, tuple) else (qualifiers,)))

    def latest(self, envelopes: list[Envelope]) -> list[Envelope]:
        """The envelopes one transaction publishes, less those a later one of the same superseded type
        about the same tournament replaces: a consumer's batch of results publishes one table per
        tournament, the last, where it stands in the order of that tournament's events."""
        if not self.superseded:
            return envelopes
        last: dict[tuple[str, object], int] = {}
        for i, e in enumerate(envelopes):
            if e.type in self.superseded:
                last[(e.type, e.tournament_id)] = i
        return [
            e
            for i, e in enumerate(envelopes)
            if e.type not in self.superseded or last[(e.type, e.tournament_id)] == i
        ]

    def kinds(self) -> frozenset[type[DomainEvent]]:
        return frozenset(self._mappers)
