"""What a consumer does with one message, whatever the broker: decode, hand over, retry, dead-letter.

Shared by both adapters so the in-process bus and RabbitMQ behave identically.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from tenacity import RetryError, Retrying, retry_if_not_exception_type, stop_after_attempt, wait_exponential

from shared.events import Envelope, Event, MalformedMessage, UnknownEvent, decode
from shared.messaging.port import MAX_LATER, Handler, NotReady, Subscription

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Verdict:
    """Handled (ack) when both are None/False; ``later`` when it must come back after the others;
    else ``dead_reason`` says why it goes to the dead-letter queue."""

    dead_reason: str | None
    later: bool = False


def deliver(
    body: bytes,
    handler: Handler,
    *,
    attempts: int = 3,
    backoff: float = 0.05,
    deferred: int = 0,
    max_later: int = MAX_LATER,
) -> Verdict:
    """``deferred``: how many times this message was already put back for later."""
    decoded = _decode(body)
    if isinstance(decoded, Verdict):
        return decoded
    return _handle(*decoded, handler, attempts, backoff, deferred, max_later)


def deliver_batch(
    messages: Sequence[tuple[bytes, int]],
    subscription: Subscription,
    *,
    attempts: int = 3,
    backoff: float = 0.05,
    max_later: int = MAX_LATER,
) -> list[Verdict]:
    """Several messages (body, times deferred) of one queue: handled together in one transaction when
    the subscription can (group commit: one commit, one fsync, for all of them); a message that fails
    in the batch is then handled alone, with the usual retries. One message, or no batch handler:
    each alone. The verdicts come back in the order of ``messages``."""
    batch = subscription.batch_handler
    decoded = [_decode(body) for body, _deferred in messages]
    good = [(i, d) for i, d in enumerate(decoded) if not isinstance(d, Verdict)]
    verdicts = [d if isinstance(d, Verdict) else Verdict(None) for d in decoded]
    outcomes: list[BaseException | None] | None = None  # None: each is handled alone
    if batch is not None and len(good) > 1:
        try:
            outcomes = batch([d for _, d in good])
        except Exception as exc:  # the batch's commit failed (a deadlock, say): take them one by one
            log.warning(
                "batch of %d on %s failed (%r); delivering one by one", len(good), subscription.queue, exc
            )
    for k, (index, (envelope, event)) in enumerate(good):
        deferred = messages[index][1]
        outcome = None if outcomes is None else outcomes[k]
        if outcomes is not None and outcome is None:
            continue  # done in the batch
        if isinstance(outcome, NotReady):
            verdicts[index] = _not_ready(outcome, deferred, max_later)
        else:
            verdicts[index] = _handle(
                envelope, event, subscription.handler, attempts, backoff, deferred, max_later
            )
    return verdicts


def _decode(body: bytes) -> tuple[Envelope, Event] | Verdict:
    """The message, or the verdict that dead-letters it."""
    try:
        return decode(body)
    except (MalformedMessage, UnknownEvent) as exc:
        log.warning("dead-lettering a message: %s", exc)
        return Verdict(f"{type(exc).__name__}: {exc}")


def _handle(
    envelope: Envelope,
    event: Event,
    handler: Handler,
    attempts: int,
    backoff: float,
    deferred: int,
    max_later: int,
) -> Verdict:
    try:
        for attempt in Retrying(
            retry=retry_if_not_exception_type(NotReady),
            stop=stop_after_attempt(attempts),
            wait=wait_exponential(multiplier=backoff, max=2.0),
            reraise=False,
        ):
            with attempt:
                handler(envelope, event)
    except NotReady as exc:
        return _not_ready(exc, deferred, max_later)
    except RetryError as exc:
        cause = exc.last_attempt.exception()
        log.error("handler failed %d times on %s %s: %r", attempts, envelope.type, envelope.id, cause)
        return Verdict(f"handler failed {attempts} times: {cause!r}")
    return Verdict(None)


def _not_ready(exc: NotReady, deferred: int, max_later: int) -> Verdict:
    """Back for later, unless it has come back too often already (then dead-lettered)."""
    if deferred + 1 >= max_later:
        return Verdict(f"not ready after {deferred + 1} deliveries: {exc}")
    return Verdict(None, later=True)
