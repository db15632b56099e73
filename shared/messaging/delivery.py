"""What a consumer does with one message, whatever the broker: decode, hand over, retry, dead-letter.

Shared by both adapters so the in-process bus and RabbitMQ behave identically.

Two kinds of failure, told apart by :func:`shared.messaging.errors.is_infrastructure_error`:

- the **infrastructure's** (the database, Redis or the broker cannot be reached): the message is kept
  and tried again, waiting longer each time up to ``Patience.outage_max``, for as long as the outage
  lasts. It is never dead-lettered for it, and those attempts count neither as failures nor as
  deliveries of a message that is not ready;
- the **message's own** (its handler raises anything else): a few attempts with a short backoff, then
  the dead-letter queue.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from shared import correlation, metrics
from shared.events import Envelope, Event, MalformedMessage, UnknownEvent, decode, utcnow
from shared.messaging.errors import describe, is_infrastructure_error
from shared.messaging.port import DUPLICATE, MAX_LATER, Handled, Handler, NotReady, Subscription

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Verdict:
    """Handled (ack) when all are None/False; ``later`` when it must come back after the others;
    ``requeue`` when the consumer gave it up unhandled (it stopped during an outage): back to its
    queue as it was; else ``dead_reason`` says why it goes to the dead-letter queue."""

    dead_reason: str | None
    later: bool = False
    requeue: bool = False
    duplicate: bool = False  # handled before (the inbox knew it): acked, nothing done

    @property
    def outcome(self) -> str:
        """How the consumer finished with the message (the ``outcome`` label of ``arbiter_messages``)."""
        if self.requeue:
            return "requeued"
        if self.later:
            return "not_ready"
        if self.dead_reason is not None:
            return "dead_lettered"
        return "duplicate" if self.duplicate else "done"


class Interrupted(Exception):
    """Raised by :attr:`Patience.sleep` when the consumer must give the message up while it waits:
    it is stopping, or lost its broker connection. The message is neither acked nor dead-lettered."""


def _no_report(_outage: BaseException | None) -> None:
    return None


@dataclass(frozen=True)
class Patience:
    """How a consumer waits, between a failing handler's attempts and through an outage.

    ``sleep(seconds)`` waits (a broker adapter keeps its connection serviced meanwhile: heartbeats) and
    raises :class:`Interrupted` to give the message up. ``report(exc)`` is told when an outage is
    met (the exception) and when it is over (None): the process's readiness follows it."""

    sleep: Callable[[float], None] = time.sleep
    report: Callable[[BaseException | None], None] = _no_report
    backoff: float = 0.05  # a failing handler: 0.05 s, 0.1 s, … at most 2 s
    outage_backoff: float = 0.1  # an outage: 0.1 s, 0.2 s, … at most outage_max, until it is over
    outage_max: float = 5.0


def deliver(
    body: bytes,
    handler: Handler,
    *,
    attempts: int = 3,
    patience: Patience = Patience(),
    deferred: int = 0,
    max_later: int = MAX_LATER,
    queue: str = "",
) -> Verdict:
    """``deferred``: how many times this message was already put back for later."""
    return deliver_batch(
        [(body, deferred)],
        Subscription(queue, (), handler),
        attempts=attempts,
        patience=patience,
        max_later=max_later,
    )[0]


def deliver_batch(
    messages: Sequence[tuple[bytes, int]],
    subscription: Subscription,
    *,
    attempts: int = 3,
    patience: Patience = Patience(),
    max_later: int = MAX_LATER,
) -> list[Verdict]:
    """Several messages (body, times deferred) of one queue: handled together in one transaction when
    the subscription can (group commit: one commit, one fsync, for all of them); a message that fails
    in the batch is then handled alone, with the usual retries. One message, or no batch handler:
    each alone. The verdicts come back in the order of ``messages``. Once one is interrupted, the
    ones after it are given up too."""
    queue = subscription.queue
    batch = subscription.batch_handler
    decoded = [_decode(body, queue) for body, _deferred in messages]
    good = [(i, d) for i, d in enumerate(decoded) if not isinstance(d, Verdict)]
    verdicts = [d if isinstance(d, Verdict) else Verdict(None) for d in decoded]
    seconds = [0.0] * len(messages)
    outcomes: list[BaseException | Handled] | None = None  # None: each is handled alone
    if batch is not None and len(good) > 1:
        start = time.perf_counter()
        try:
            outcomes = batch([d for _, d in good])
        except Exception as exc:  # the batch's commit failed (a deadlock, an outage): one by one
            log.warning(
                "batch of %d on %s failed (%s); delivering one by one",
                len(good),
                queue,
                describe(exc),
            )
        else:
            share = (time.perf_counter() - start) / len(good)
            for index, _ in good:
                seconds[index] = share
    interrupted = False
    for k, (index, (envelope, event)) in enumerate(good):
        deferred = messages[index][1]
        outcome = None if outcomes is None else outcomes[k]
        if outcomes is not None and not isinstance(outcome, BaseException):
            verdicts[index] = Verdict(None, duplicate=outcome == DUPLICATE)  # done in the batch
        elif interrupted:
            verdicts[index] = Verdict(None, requeue=True)
        elif isinstance(outcome, NotReady):
            verdicts[index] = _not_ready(outcome, deferred, max_later)
        else:
            start = time.perf_counter()
            with correlation.bound(correlation.for_message(envelope, event, queue)):
                verdicts[index] = _handle(
                    envelope, event, subscription.handler, attempts, patience, deferred, max_later
                )
            seconds[index] = time.perf_counter() - start
            interrupted = verdicts[index].requeue
    _account(queue, [(envelope, event, verdicts[i], seconds[i]) for i, (envelope, event) in good])
    return verdicts


def _account(queue: str, finished: Sequence[tuple[Envelope, Event, Verdict, float]]) -> None:
    """The metrics and the log lines of the messages the consumer finished with, once per batch: a
    message alone gets its own line (``grep <correlation id>`` follows an action across processes);
    a batch one line at INFO with its counts and its messages' correlation ids, each message's own
    line at DEBUG. A dead-lettered message always gets its own line, at WARNING."""
    if not finished:
        return
    now = utcnow()
    handling = metrics.HANDLING.labels(queue)
    lag = metrics.LAG.labels(queue)
    outcomes: Counter[str] = Counter()
    for envelope, _event, verdict, seconds in finished:
        outcome = verdict.outcome
        outcomes[outcome] += 1
        if outcome in ("done", "duplicate"):
            handling.observe(seconds)
            lag.observe(max(0.0, (now - envelope.occurred_at).total_seconds()))
    for outcome, count in outcomes.items():
        metrics.MESSAGES.labels(queue, outcome).inc(count)
    alone = len(finished) == 1
    debug = not alone and log.isEnabledFor(logging.DEBUG)
    for envelope, event, verdict, seconds in finished:
        if alone or debug or verdict.dead_reason is not None:
            _log_message(queue, envelope, event, verdict, seconds, logging.INFO if alone else logging.DEBUG)
    if not alone and log.isEnabledFor(logging.INFO):
        log.info(
            "%d messages on %s: %s in %.1f ms",
            len(finished),
            queue,
            ", ".join(f"{n} {outcome}" for outcome, n in sorted(outcomes.items())),
            sum(seconds for *_, seconds in finished) * 1000,
            extra={
                "queue": queue,
                "correlation_ids": sorted({e.correlation_id or str(e.id) for e, *_ in finished}),
            },
        )


def _log_message(
    queue: str, envelope: Envelope, event: Event, verdict: Verdict, seconds: float, level: int
) -> None:
    """The one line of a message, in its context."""
    outcome = verdict.outcome
    with correlation.bound(correlation.for_message(envelope, event, queue)):
        log.log(
            logging.WARNING if outcome == "dead_lettered" else level,
            "%s %s on %s: %s in %.1f ms",
            envelope.type,
            envelope.id,
            queue,
            outcome,
            seconds * 1000,
        )


def _decode(body: bytes, queue: str) -> tuple[Envelope, Event] | Verdict:
    """The message, or the verdict that dead-letters it."""
    try:
        return decode(body)
    except (MalformedMessage, UnknownEvent) as exc:
        log.warning("dead-lettering a message from %s: %s", queue, exc)
        metrics.MESSAGES.labels(queue, "dead_lettered").inc()
        return Verdict(f"{type(exc).__name__}: {exc}")


def _handle(
    envelope: Envelope,
    event: Event,
    handler: Handler,
    attempts: int,
    patience: Patience,
    deferred: int,
    max_later: int,
) -> Verdict:
    """Up to ``attempts`` failures of the handler itself (waiting ``patience.backoff``, then twice as
    long each time, at most 2 s, between them), each attempt waiting out any outage first. Plain loops:
    a message that succeeds at once (nearly all of them) pays for no retry machinery."""
    failures = 0
    while True:
        try:
            handled = _through_outages(envelope, handler, event, patience)
        except NotReady as exc:
            return _not_ready(exc, deferred, max_later)
        except Interrupted as exc:
            return _given_back(envelope, exc)
        except Exception as cause:
            failures += 1
            if failures >= attempts:
                log.error("handler failed %d times on %s %s: %r", attempts, envelope.type, envelope.id, cause)
                return Verdict(f"handler failed {attempts} times: {cause!r}")
            try:
                patience.sleep(min(2.0, patience.backoff * 2 ** (failures - 1)))
            except Interrupted as exc:
                return _given_back(envelope, exc)
            continue
        return Verdict(None, duplicate=handled == DUPLICATE)


def _given_back(envelope: Envelope, exc: Interrupted) -> Verdict:
    log.info("%s %s given back unhandled: %s", envelope.type, envelope.id, exc)
    return Verdict(None, requeue=True)


def _through_outages(envelope: Envelope, handler: Handler, event: Event, patience: Patience) -> Handled:
    """One attempt of the handler, repeated for as long as it fails for an infrastructure error
    (waiting ``patience.outage_backoff``, then twice as long each time, at most ``outage_max``)."""
    waits = 0
    while True:
        try:
            handled = handler(envelope, event)
        except Interrupted:
            raise
        except Exception as exc:
            if not is_infrastructure_error(exc):  # whatever failed, the servers answered
                if waits:
                    _back(envelope, patience)
                raise
            waits += 1
            pause = min(patience.outage_max, patience.outage_backoff * 2 ** (waits - 1))
            patience.report(exc)
            log.log(
                logging.WARNING if waits == 1 or waits % 10 == 0 else logging.INFO,
                "infrastructure unavailable while handling %s %s (%s); keeping the message, retry %d in %.1f s",
                envelope.type,
                envelope.id,
                describe(exc),
                waits,
                pause,
            )
            patience.sleep(pause)
            continue
        if waits:
            _back(envelope, patience)
        return handled


def _back(envelope: Envelope, patience: Patience) -> None:
    patience.report(None)
    log.warning("infrastructure back: %s %s delivered again", envelope.type, envelope.id)


def _not_ready(exc: NotReady, deferred: int, max_later: int) -> Verdict:
    """Back for later, unless it has come back too often already (then dead-lettered)."""
    if deferred + 1 >= max_later:
        return Verdict(f"not ready after {deferred + 1} deliveries: {exc}")
    return Verdict(None, later=True)
