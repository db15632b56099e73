"""The messaging port: what a service needs from a broker, whatever the broker is.

Delivery is at least once. A consumer handler must be idempotent (the inbox makes it so); it acks
by returning and asks for a retry by raising. A message that cannot be decoded, names an unknown
event, or keeps failing is dead-lettered with its reason and never blocks the queue.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Literal, Protocol

from shared.events import Envelope, Event, encode

DUPLICATE: Final = "duplicate"
Handled = Literal["duplicate"] | None
"""What a handler returns: None when it handled the message, :data:`DUPLICATE` when its inbox had
recorded the event already (a redelivery: nothing was done). Only the metrics tell them apart."""

Handler = Callable[[Envelope, Event], Handled]
BatchHandler = Callable[[Sequence[tuple[Envelope, Event]]], list[BaseException | Handled]]
"""Handles several messages in one transaction (group commit); returns, per message, what
:data:`Handler` returns when it was handled, or the exception it raised (its effect was rolled back
alone, in a savepoint)."""


@dataclass(frozen=True)
class Subscription:
    """One durable queue per consuming handler, bound to the routing keys it handles."""

    queue: str
    routing_keys: tuple[str, ...]
    handler: Handler
    batch_handler: BatchHandler | None = None
    retired_keys: tuple[str, ...] = ()
    """Bindings an earlier release made and this one removes when it declares the queue (a queue whose
    events another queue took over keeps being consumed, bound to nothing, until it is empty)."""


@dataclass(frozen=True)
class StoredEvent:
    """An envelope as the outbox stored it: published as these bytes, never decoded and encoded again."""

    event_id: uuid.UUID
    type: str  # the routing key: the event's type, or ``<type>.<qualifier>`` (shared.events.QUALIFIERS)
    body: bytes

    @classmethod
    def of(cls, envelope: Envelope) -> StoredEvent:
        return cls(envelope.id, envelope.routing_key, encode(envelope))


@dataclass(frozen=True)
class DeadLetter:
    queue: str
    reason: str
    body: bytes


class NotReady(Exception):
    """Raised by a handler for a message that arrived before what it depends on (a result before its
    pairing, say): the message is delivered again later, behind the others, instead of being retried
    on the spot. After ``MAX_LATER`` deliveries it is dead-lettered with this reason."""


MAX_LATER = 120  # × LATER_DELAY_MS: a minute
LATER_DELAY_MS = 500


class PublishError(RuntimeError):
    """The broker did not confirm a publish; the caller keeps the message and retries."""


Report = Callable[[str, str | None], None]
"""How a long-running loop tells its readiness what it depends on: ``report(name, problem)``, the
problem a sentence while ``name`` (e.g. "broker") is unavailable, None once it is fine again."""


def no_report(_name: str, _problem: str | None) -> None:
    return None


class Broker(Protocol):
    def declare(self, subscriptions: Sequence[Subscription]) -> None:
        """Create the exchange, the queues, their bindings and dead-letter queues (idempotent)."""

    def publish(self, envelopes: Sequence[Envelope]) -> None:
        """Publish and wait for the broker's confirmation of every message, or raise PublishError."""

    def publish_stored(self, events: Sequence[StoredEvent]) -> None:
        """The same for events as the outbox stored them (the relay): their bytes go out as they are."""

    def publish_raw(self, routing_key: str, body: bytes) -> None:
        """Publish bytes as they are (tests use it to send poison messages)."""

    def consume(
        self, subscriptions: Sequence[Subscription], stop: threading.Event, report: Report = no_report
    ) -> None:
        """Deliver messages to the handlers until ``stop`` is set; a handler failing for an outage is
        retried until the outage is over (told to ``report``), never dead-lettered for it."""

    def dead_letters(self, queue: str) -> list[DeadLetter]:
        """Read (and remove) what was dead-lettered from a queue: for operators and tests."""

    def keepalive(self) -> None:
        """Service the publishing connection while its owner is idle (answer the broker's heartbeats),
        so the next publish finds it alive, and open it again when it is gone (or was never opened):
        raises :class:`PublishError` when the broker cannot be reached, so an idle publisher knows it
        could not publish (a relay reports it: unready). Call it at least every few seconds from the
        thread that publishes; it blocks only to open a connection."""

    def close(self) -> None: ...
