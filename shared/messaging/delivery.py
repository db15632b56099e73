"""What a consumer does with one message, whatever the broker: decode, hand over, retry, dead-letter.

Shared by both adapters so the in-process bus and RabbitMQ behave identically.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from tenacity import RetryError, Retrying, retry_if_not_exception_type, stop_after_attempt, wait_exponential

from shared.events import MalformedMessage, UnknownEvent, decode
from shared.messaging.port import MAX_LATER, Handler, NotReady

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
