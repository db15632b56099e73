"""The message bus each service's composition root builds: commands go to exactly one handler;
events from the broker go to subscription handlers that record the event in the inbox in the same
transaction as their effect."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Generic, Protocol, TypeVar

from shared import correlation
from shared.events import Envelope, Event
from shared.messaging.port import DUPLICATE, Handled, Subscription

log = logging.getLogger(__name__)


class UnitOfWork(Protocol):
    def __enter__(self) -> Any: ...
    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None: ...
    def first_delivery(self, envelope: Envelope, handler: str) -> bool: ...
    def savepoint(self) -> AbstractContextManager[None]: ...
    def commit(self) -> None: ...


U = TypeVar("U", bound=UnitOfWork)


class MessageBus(Generic[U]):
    def __init__(
        self, uow_factory: Callable[[], U], handlers: Mapping[type, Callable[[Any, U], Any]]
    ) -> None:
        self.uow_factory = uow_factory
        self.handlers = dict(handlers)

    def handle(self, command: object) -> Any:
        try:
            handler = self.handlers[type(command)]
        except KeyError:
            raise TypeError(f"no handler for {type(command).__name__}") from None
        return handler(command, self.uow_factory())


def event_subscription(
    queue: str,
    routing_keys: tuple[str, ...],
    effect: Callable[[Any, U], None],
    uow_factory: Callable[[], U],
    *,
    translate: Callable[[Event], Any] | None = None,
) -> Subscription:
    """A broker handler running ``effect(message, uow)`` at most once per event id; messages that
    arrive together share one transaction, each in its own savepoint. ``message`` is the wire event,
    or what ``translate`` (the service's wire mapping) makes of it. Each effect runs in its message's
    correlation context, so the events it writes follow from that message."""

    def message(event: Event) -> Any:
        return event if translate is None else translate(event)

    def on_message(envelope: Envelope, event: Event) -> Handled:
        with correlation.bound(correlation.for_message(envelope, event, queue)), uow_factory() as uow:
            if not uow.first_delivery(envelope, queue):
                return DUPLICATE
            effect(message(event), uow)
            uow.commit()
        return None

    def at_once(items: Sequence[tuple[Envelope, Event]]) -> list[BaseException | Handled]:
        """The whole batch in one transaction without savepoints: the inbox rows in one statement,
        each effect, one commit. Raises whatever a message raised; the transaction is then rolled
        back whole (nothing of the batch stands)."""
        outcomes: list[BaseException | Handled] = []
        with uow_factory() as uow:
            for (envelope, event), first in zip(items, first_deliveries(uow, items, queue), strict=True):
                if first:
                    with correlation.bound(correlation.for_message(envelope, event, queue)):
                        effect(message(event), uow)
                outcomes.append(None if first else DUPLICATE)
            uow.commit()
        return outcomes

    def one_by_one(items: Sequence[tuple[Envelope, Event]]) -> list[BaseException | Handled]:
        """The batch in one transaction, each message in its own savepoint: a message that fails is
        rolled back alone and its exception returned in its place."""
        outcomes: list[BaseException | Handled] = []
        with uow_factory() as uow:
            for envelope, event in items:
                try:
                    with correlation.bound(correlation.for_message(envelope, event, queue)), uow.savepoint():
                        first = uow.first_delivery(envelope, queue)
                        if first:
                            effect(message(event), uow)
                except Exception as exc:
                    outcomes.append(exc)
                else:
                    outcomes.append(None if first else DUPLICATE)
            uow.commit()
        return outcomes

    def on_batch(items: Sequence[tuple[Envelope, Event]]) -> list[BaseException | Handled]:
        """Optimistic: the batch at once (two round trips per message fewer: no savepoint, one inbox
        statement), and only when a message fails there, again in savepoints to tell which. (Through
        an outage that fails too, and the caller delivers one by one, waiting it out.)"""
        try:
            return at_once(items)
        except Exception as exc:
            log.info("batch of %d on %s: %r; again, a savepoint per message", len(items), queue, exc)
        return one_by_one(items)

    return Subscription(queue, routing_keys, on_message, on_batch)


def rebound(subscription: Subscription, *, retired: tuple[str, ...]) -> Subscription:
    """A queue bound to fewer keys than an earlier release bound it to: those (``retired``) are removed
    when it is declared."""
    return dataclasses.replace(subscription, retired_keys=retired)


def retired(subscription: Subscription) -> Subscription:
    """A queue whose events another queue took over: still consumed, to drain what it held when the
    release that retired it was deployed, but bound to nothing (its former bindings are removed when it
    is declared). The release after can drop it."""
    return dataclasses.replace(subscription, routing_keys=(), retired_keys=subscription.routing_keys)


def first_deliveries(uow: UnitOfWork, items: Sequence[tuple[Envelope, Event]], handler: str) -> list[bool]:
    """Whether each message is its event's first delivery to ``handler``, recorded in the inbox: in one
    statement where the unit of work can (``first_deliveries``), else one by one."""
    many = getattr(uow, "first_deliveries", None)
    if many is not None:
        result: list[bool] = many([e for e, _ in items], handler)
        return result
    return [uow.first_delivery(envelope, handler) for envelope, _ in items]
