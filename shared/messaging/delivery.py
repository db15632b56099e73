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
    try:
        envelope, event = decode(body)
    except (MalformedMessage, UnknownEvent) as exc:
        log.warning("dead-lettering a message: %s", exc)
        return Verdict(f"{type(exc).__name__}: {exc}")
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
        if deferred + 1 >= max_later:
            return Verdict(f"not ready after {deferred + 1} deliveries: {exc}")
        return Verdict(None, later=True)
    except RetryError as exc:
        cause = exc.last_attempt.exception()
        log.error("handler failed %d times on %s %s: %r", attempts, envelope.type, envelope.id, cause)
        return Verdict(f"handler failed {attempts} times: {cause!r}")
    return Verdict(None)


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
    in the batch is then delivered alone, with the usual retries. One message, or no batch handler:
    each alone. The verdicts come back in the order of ``messages``."""
    batch = subscription.batch_handler
    if batch is None or len(messages) < 2:
        return [
            _alone(body, subscription, attempts, backoff, deferred, max_later) for body, deferred in messages
        ]
    verdicts: list[Verdict | None] = [None] * len(messages)
    decoded: list[tuple[int, Envelope, Event]] = []
    for index, (body, _deferred) in enumerate(messages):
        try:
            envelope, event = decode(body)
        except (MalformedMessage, UnknownEvent) as exc:
            log.warning("dead-lettering a message: %s", exc)
            verdicts[index] = Verdict(f"{type(exc).__name__}: {exc}")
            continue
        decoded.append((index, envelope, event))
    try:
        outcomes = batch([(envelope, event) for _, envelope, event in decoded])
    except Exception as exc:  # the batch's commit failed (a deadlock, say): take them one by one
        log.warning(
            "batch of %d on %s failed (%r); delivering one by one", len(decoded), subscription.queue, exc
        )
        outcomes = [exc] * len(decoded)
    for (index, _envelope, _event), outcome in zip(decoded, outcomes, strict=True):
        body, deferred = messages[index]
        if outcome is None:
            verdicts[index] = Verdict(None)
        elif isinstance(outcome, NotReady):
            verdicts[index] = (
                Verdict(f"not ready after {deferred + 1} deliveries: {outcome}")
                if deferred + 1 >= max_later
                else Verdict(None, later=True)
            )
        else:
            verdicts[index] = _alone(body, subscription, attempts, backoff, deferred, max_later)
    return [v if v is not None else Verdict(None) for v in verdicts]


def _alone(
    body: bytes, subscription: Subscription, attempts: int, backoff: float, deferred: int, max_later: int
) -> Verdict:
    return deliver(
        body, subscription.handler, attempts=attempts, backoff=backoff, deferred=deferred, max_later=max_later
    )
