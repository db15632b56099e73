"""What a consumer does with one message, whatever the broker: decode, hand over, retry, dead-letter.

Shared by both adapters so the in-process bus and RabbitMQ behave identically.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from tenacity import RetryError, Retrying, stop_after_attempt, wait_exponential

from shared.events import MalformedMessage, UnknownEvent, decode
from shared.messaging.port import Handler

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Verdict:
    """``dead_reason`` is None when the message was handled (ack), else why it goes to the DLQ."""

    dead_reason: str | None


def deliver(body: bytes, handler: Handler, *, attempts: int = 3, backoff: float = 0.05) -> Verdict:
    try:
        envelope, event = decode(body)
    except (MalformedMessage, UnknownEvent) as exc:
        log.warning("dead-lettering a message: %s", exc)
        return Verdict(f"{type(exc).__name__}: {exc}")
    try:
        for attempt in Retrying(
            stop=stop_after_attempt(attempts),
            wait=wait_exponential(multiplier=backoff, max=2.0),
            reraise=False,
        ):
            with attempt:
                handler(envelope, event)
    except RetryError as exc:
        cause = exc.last_attempt.exception()
        log.error("handler failed %d times on %s %s: %r", attempts, envelope.type, envelope.id, cause)
        return Verdict(f"handler failed {attempts} times: {cause!r}")
    return Verdict(None)
