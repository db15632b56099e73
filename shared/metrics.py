"""Every Prometheus metric Arbiter's own code records, in one place (docs/operations.md lists them, and
a test holds the two together).

Web processes add the HTTP metrics of ``prometheus-flask-exporter`` (:mod:`shared.http.app`) and serve
everything on ``/metrics``; under gunicorn the client runs in multiprocess mode (one file per worker
in ``PROMETHEUS_MULTIPROC_DIR``, see ``deploy/gunicorn.conf.py``). The other processes serve
``/metrics`` on their health port (``ARBITER_HEALTH_PORT``, :mod:`shared.health`), from the client's
default registry, which also carries the process's CPU, memory and file descriptors.

Metrics are the client's usual module-level objects: they only count, they wire nothing. A metric
whose value depends on the process that sets it (a gauge) has labels, so no process exports it
before it means something there.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from prometheus_client import Counter, Gauge, Histogram, disable_created_metrics

# no `_created` series beside each counter and histogram: noise to scrape
disable_created_metrics()  # type: ignore[no-untyped-call]

FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
SLOW = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0)

# -- consumers (shared.messaging.delivery, shared.messaging.rabbitmq) ------------------------------------
OUTCOMES = ("done", "duplicate", "not_ready", "dead_lettered", "requeued")
MESSAGES = Counter(
    "arbiter_messages",
    "Messages a consumer finished with, by queue and outcome: done, duplicate (the inbox knew it), "
    "not_ready (parked in <queue>.later), dead_lettered, requeued (given back unhandled on stopping)",
    ["queue", "outcome"],
)
HANDLING = Histogram(
    "arbiter_message_handling_seconds",
    "Time to handle one message, retries and outages included (messages handled together in one "
    "transaction: the batch's time divided among them)",
    ["queue"],
    buckets=FAST,
)
LAG = Histogram(
    "arbiter_message_lag_seconds",
    "Age of a message when its handler finished with it: now minus the envelope's occurred_at "
    "(the outbox, the relay, the broker and the consumer's queue together)",
    ["queue"],
    buckets=SLOW,
)
QUEUE_DEPTH = Gauge(
    "arbiter_queue_messages",
    "Messages ready in a consumer's queue, sampled by the consumer every 15 s",
    ["queue"],
    multiprocess_mode="max",
)
DEAD_LETTERS = Gauge(
    "arbiter_dead_letter_messages",
    "Messages in a queue's dead-letter queue (<queue>.dead), sampled by its consumer every 15 s",
    ["queue"],
    multiprocess_mode="max",
)
RECONNECTS = Counter(
    "arbiter_broker_reconnects",
    "Broker connections opened again after one was lost, by role (consumer, publisher)",
    ["role"],
)

# -- relays (shared.messaging.outbox) -----------------------------------------------------------------
OUTBOX_BACKLOG = Gauge(
    "arbiter_outbox_backlog",
    "Unpublished outbox rows, sampled by the relay every 5 s",
    ["service"],
    multiprocess_mode="max",
)
OUTBOX_AGE = Gauge(
    "arbiter_outbox_oldest_age_seconds",
    "Age of the oldest unpublished outbox row (0: none), sampled by the relay every 5 s",
    ["service"],
    multiprocess_mode="max",
)
RELAYED = Counter("arbiter_relay_published", "Outbox rows published and confirmed", ["service"])
PUBLISH = Histogram(
    "arbiter_relay_publish_seconds",
    "Time for the broker to confirm one batch of the relay's messages",
    ["service"],
    buckets=FAST,
)
OUTBOX_DELAY = Histogram(
    "arbiter_outbox_delay_seconds",
    "From an outbox row's commit to the broker's confirmation of its message",
    ["service"],
    buckets=SLOW,
)

# -- periodic loops (shared.runtime.every: the registration scheduler, the clock ticker) -----------------
TICKS = Counter(
    "arbiter_loop_ticks",
    "Ticks of a periodic loop, by outcome: ok, failed (an error, logged), outage (a server unreachable)",
    ["loop", "outcome"],
)
TICK_SECONDS = Histogram("arbiter_loop_tick_seconds", "Duration of one tick", ["loop"], buckets=FAST)

# -- clocks ----------------------------------------------------------------------------------------------
TICKER_DELAY = Gauge(
    "arbiter_ticker_delay_seconds",
    "How far the clock ticker is behind the earliest deadline that has passed (0: none has), at its "
    "latest tick",
    ["service"],
    multiprocess_mode="max",
)
FLAGS = Counter("arbiter_ticker_games_finished", "Games the ticker ended because a flag fell", ["service"])

# -- pairing ---------------------------------------------------------------------------------------------
PAIRING = Histogram(
    "arbiter_pairing_seconds",
    "Time to pair, by kind: round (a round of a Swiss, round robin or knockout, by the pairing worker), "
    "arena_pass (one pass of an arena's pairing)",
    ["kind"],
    buckets=SLOW,
)
PAIRING_KINDS = ("round", "arena_pass")

# -- web servers (shared.http.worker) -------------------------------------------------------------------
CONNECTION_CLOSES = ("head_timeout", "idle", "evicted")
HTTP_CONNECTIONS_CLOSED = Counter(
    "arbiter_http_connections_closed",
    "Connections a web worker closed before reading a request, by reason: head_timeout (the head did not "
    "arrive in time: 408), idle (a kept-alive connection sent nothing for keepalive seconds), evicted "
    "(closed while waiting for a head, to make room for a new connection in a full worker)",
    ["reason"],
)

ALL = (
    MESSAGES,
    HANDLING,
    LAG,
    QUEUE_DEPTH,
    DEAD_LETTERS,
    RECONNECTS,
    OUTBOX_BACKLOG,
    OUTBOX_AGE,
    RELAYED,
    PUBLISH,
    OUTBOX_DELAY,
    TICKS,
    TICK_SECONDS,
    TICKER_DELAY,
    FLAGS,
    PAIRING,
    HTTP_CONNECTIONS_CLOSED,
)
"""Every metric above (docs/operations.md lists each, with the HTTP metrics of the web processes)."""

F = TypeVar("F", bound=Callable[..., Any])


@contextmanager
def timer(histogram: Histogram) -> Iterator[None]:
    """Observe the block's duration when it completes (an exception observes nothing)."""
    start = time.perf_counter()
    yield
    histogram.observe(time.perf_counter() - start)


def timed(fn: F, histogram: Histogram, **labels: str) -> F:
    """``fn``, observing the duration of each call that returns in ``histogram`` (with ``labels``)."""

    def call(*args: Any, **kwargs: Any) -> Any:
        with timer(histogram.labels(**labels) if labels else histogram):
            return fn(*args, **kwargs)

    return call  # type: ignore[return-value]
