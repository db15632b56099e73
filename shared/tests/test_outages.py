"""Outages: which errors are the infrastructure's, how long-running loops wait them out, and what the
consumer does with its message and its RabbitMQ connection meanwhile."""

from __future__ import annotations

import errno
import logging
import socket
import threading
import time
import uuid

import pika
import pika.exceptions
import psycopg
import pytest
import redis
import sqlalchemy as sa
from redis.backoff import NoBackoff
from redis.retry import Retry

from shared.events import wrap
from shared.messaging.errors import is_infrastructure_error
from shared.messaging.port import Subscription
from shared.messaging.rabbitmq import RabbitMQBroker
from shared.runtime import every
from shared.testing.brokers import ConsumerHarness
from shared.testing.polling import wait_for
from shared.tests.helpers import T, closed_port, finished, outage


def raised(action) -> BaseException:
    try:
        action()
    except Exception as exc:
        return exc
    raise AssertionError("nothing was raised")


# -- classification ---------------------------------------------------------------------------------
def test_servers_that_do_not_answer_are_infrastructure_errors():
    port = closed_port()
    engine = sa.create_engine(f"postgresql+psycopg://postgres@127.0.0.1:{port}/x", poolclass=sa.NullPool)
    real = [
        raised(engine.connect),  # sqlalchemy.exc.OperationalError
        raised(lambda: psycopg.connect(f"host=127.0.0.1 port={port} user=postgres")),
        raised(lambda: redis.Redis(port=port, retry=Retry(NoBackoff(), 0)).ping()),
        raised(lambda: pika.BlockingConnection(pika.ConnectionParameters("127.0.0.1", port))),
        raised(lambda: socket.create_connection(("127.0.0.1", port))),
    ]
    for exc in real:
        assert is_infrastructure_error(exc), repr(exc)
    shutting_down = [
        psycopg.errors.AdminShutdown("terminating connection due to administrator command"),
        psycopg.errors.CannotConnectNow("the database system is starting up"),
        psycopg.errors.TooManyConnections("sorry, too many clients already"),
        psycopg.InterfaceError("the connection is closed"),
        sa.exc.OperationalError("SELECT 1", {}, psycopg.errors.AdminShutdown("shutting down")),
        redis.exceptions.TimeoutError("Timeout reading from socket"),
        pika.exceptions.StreamLostError("Transport indicated EOF"),
        OSError(errno.EHOSTUNREACH, "No route to host"),
    ]
    for exc in shutting_down:
        assert is_infrastructure_error(exc), repr(exc)


def test_an_outage_behind_another_exception_still_counts():
    try:
        try:
            raise outage()
        except sa.exc.OperationalError as exc:
            raise RuntimeError("could not load the tournament") from exc
    except RuntimeError as wrapped:
        assert is_infrastructure_error(wrapped)


def test_the_message_s_own_failures_are_not_infrastructure_errors():
    for exc in [
        RuntimeError("bad result"),
        ValueError("no such game"),
        KeyError("white"),
        FileNotFoundError(errno.ENOENT, "missing"),
        psycopg.errors.DeadlockDetected("deadlock detected"),
        psycopg.errors.QueryCanceled("canceling statement due to statement timeout"),
        psycopg.errors.UniqueViolation("duplicate key"),
        sa.exc.IntegrityError("INSERT", {}, psycopg.errors.UniqueViolation("duplicate key")),
        sa.exc.OperationalError("SELECT", {}, psycopg.errors.DeadlockDetected("deadlock detected")),
        redis.exceptions.ResponseError("WRONGTYPE"),
        pika.exceptions.ChannelClosedByBroker(404, "NOT_FOUND - no exchange"),
    ]:
        assert not is_infrastructure_error(exc), repr(exc)


# -- periodic loops -----------------------------------------------------------------------------------
def test_a_periodic_loop_waits_out_an_outage_and_says_so():
    reports: list[tuple[str, str | None]] = []
    calls: list[int] = []
    stop = threading.Event()
    script: list[BaseException | None] = [outage(), outage(), None, RuntimeError("a bug"), None]

    def tick() -> None:
        calls.append(len(calls))
        if not script:
            stop.set()
            return
        failure = script.pop(0)
        if failure is not None:
            raise failure

    every(0.0, tick, stop, name="test-loop", report=lambda n, p: reports.append((n, p)), outage_max=0.01)
    assert len(calls) == 6  # the loop went on through the outage and the bug
    assert [n for n, _ in reports] == ["infrastructure", "infrastructure", "infrastructure"]
    assert [p is None for _, p in reports] == [False, False, True]
    assert "OperationalError" in str(reports[0][1])


def test_a_periodic_loop_logs_an_outage_once_when_it_begins_and_once_when_it_ends(caplog):
    """Thirty failed ticks are two lines, without a traceback (the pairing worker's arena loop logged a
    traceback on every pass: 514 of them, 4.4 MB, in one outage)."""
    stop = threading.Event()
    script: list[BaseException | None] = [*(outage() for _ in range(30)), None, None]

    def tick() -> None:
        if not script:
            stop.set()
            return
        failure = script.pop(0)
        if failure is not None:
            raise failure

    with caplog.at_level(logging.DEBUG, logger="test-loop"):
        every(0.0, tick, stop, name="test-loop", outage_max=0.001)
    lines = [r for r in caplog.records if r.name == "test-loop" and r.levelno >= logging.INFO]
    assert [r.levelname for r in lines] == ["WARNING", "WARNING"], [r.getMessage() for r in lines]
    assert lines[0].getMessage().startswith("test-loop: unavailable (OperationalError")
    assert lines[1].getMessage().startswith("test-loop: available again after ")
    assert "(30 failed ticks)" in lines[1].getMessage()
    assert all(r.exc_info is None for r in caplog.records if r.name == "test-loop")
    assert len([r for r in caplog.records if r.name == "test-loop"]) == 31  # the attempts at DEBUG


# -- the RabbitMQ consumer during an outage ------------------------------------------------------------
@pytest.mark.integration
def test_a_consumer_waiting_out_an_outage_keeps_its_connection(servers):
    """Longer than RabbitMQ waits for missed heartbeats (about twice the 1 s heartbeat): the consumer
    keeps answering them while its handler waits, so it handles the message on the same connection."""
    broker = RabbitMQBroker(servers.create_vhost("outages"), heartbeat=1, outage_max=0.5)
    reports: list[tuple[str, str | None]] = []
    done: list[uuid.UUID] = []
    back_at = time.monotonic() + 6  # the outage lasts six seconds

    def handler(env, ev):
        if time.monotonic() < back_at:
            raise outage()
        done.append(env.id)

    sent = wrap(finished(), T)
    with ConsumerHarness(broker) as h:
        h.start(
            [Subscription("outages.heartbeat", ("game.finished",), handler)],
            report=lambda n, p: reports.append((n, p)),
        )
        broker.publish([sent])
        wait_for(lambda: done, timeout=60, what="the message, after the outage")
    assert done == [sent.id]
    assert [r for r in reports if r[0] == "broker"] == [("broker", "connecting"), ("broker", None)]
    handlers = [r for r in reports if r[0] == "handlers"]
    assert handlers[0][1] is not None and handlers[-1] == ("handlers", None)
    assert broker.dead_letters("outages.heartbeat") == []
    broker.close()


@pytest.mark.integration
def test_a_consumer_stopped_during_an_outage_gives_the_message_back(servers):
    url = servers.create_vhost("outages")
    first = RabbitMQBroker(url, outage_max=0.2)
    tried: list[uuid.UUID] = []

    def down(env, ev):
        tried.append(env.id)
        raise outage()

    sub = Subscription("outages.stopped", ("game.finished",), down)
    sent = wrap(finished(), T)
    with ConsumerHarness(first) as h:
        h.start([sub])
        first.publish([sent])
        wait_for(lambda: len(tried) >= 2, timeout=30, what="the handler waiting out the outage")
    first.close()

    second = RabbitMQBroker(url)
    done: list[uuid.UUID] = []
    with ConsumerHarness(second) as h:
        h.start([Subscription("outages.stopped", ("game.finished",), lambda env, ev: done.append(env.id))])
        wait_for(lambda: done, timeout=30, what="the message, given back to its queue")
    assert done == [sent.id]
    assert second.dead_letters("outages.stopped") == []
    second.close()


def test_during_an_outage_the_loop_ticks_only_once_its_probe_answers():
    """A tick that does not need the database (most of the ticker's) does not end the outage."""
    reports: list[tuple[str, str | None]] = []
    probes = [outage(), outage(), None]  # the database answers the third probe
    ticks: list[int] = []
    stop = threading.Event()

    def probe() -> None:
        failure = probes.pop(0)
        if failure is not None:
            raise failure

    def tick() -> None:
        ticks.append(len(ticks))
        if len(ticks) == 1:
            raise outage()
        stop.set()

    every(
        0.0,
        tick,
        stop,
        name="test-loop",
        report=lambda n, p: reports.append((n, p)),
        probe=probe,
        outage_max=0.01,
    )
    assert ticks == [0, 1]  # no tick while the probe failed
    assert probes == []
    assert [p is None for _, p in reports] == [False, False, False, True]
