"""A relay whose stack is quiet keeps its RabbitMQ connection: it answers the broker's heartbeats while
it waits for work, so the first publish after a long quiet spell goes out on the same connection, with
nothing logged (it used to cost a pika ERROR, two ConnectionResetError tracebacks and a reconnect); and
it says it is unready while the broker is away, with nothing to publish (issue 22)."""

from __future__ import annotations

import logging
import threading
import time
import uuid

import pytest
import sqlalchemy as sa
from prometheus_client import REGISTRY
from sqlalchemy.orm import sessionmaker

from shared.database import make_engine
from shared.messaging.outbox import OutboxRelay
from shared.messaging.port import Subscription
from shared.messaging.rabbitmq import RabbitMQBroker
from shared.messaging.tables import messaging_tables
from shared.testing.brokers import ConsumerHarness
from shared.testing.polling import wait_for
from shared.testing.proxy import TcpProxy
from shared.testing.wire import TEST_WIRE, SampleRoundClosed
from shared.unit_of_work import SqlUnitOfWork

pytestmark = pytest.mark.integration

HEARTBEAT = 2  # seconds; RabbitMQ closes a connection that stays silent for two to three of them
T = uuid.uuid4()


def reconnects() -> float:
    return REGISTRY.get_sample_value("arbiter_broker_reconnects_total", {"role": "publisher"}) or 0.0


def test_an_idle_relay_keeps_its_connection_and_publishes(servers, caplog):
    engine = make_engine(servers.create_database(f"idle_{uuid.uuid4().hex[:6]}"))
    outbox, inbox = messaging_tables(sa.MetaData())
    outbox.metadata.create_all(engine)
    url = servers.create_vhost("idle")
    relay_broker = RabbitMQBroker(url, heartbeat=HEARTBEAT)
    relay = OutboxRelay(engine, outbox, relay_broker, channel="idle_test")
    received: list[int] = []

    def write(number: int) -> None:
        with SqlUnitOfWork(sessionmaker(engine), outbox, inbox, channel="idle_test", wire=TEST_WIRE) as uow:
            uow.record(SampleRoundClosed(T, number))
            uow.commit()

    stop = threading.Event()
    runner = threading.Thread(target=relay.run, args=(stop,), daemon=True)
    receiver = RabbitMQBroker(url)
    caplog.set_level(logging.INFO)
    with ConsumerHarness(receiver) as harness:
        harness.start(
            [Subscription("idle.rounds", ("round.completed",), lambda env, ev: received.append(ev.round))]
        )
        runner.start()
        try:
            write(1)
            wait_for(lambda: received == [1], timeout=30, what="the first message")
            before = reconnects()
            caplog.clear()
            # the relay now has nothing to do for four heartbeat intervals: RabbitMQ closes a
            # connection that answers none of its heartbeats meanwhile (measured: after 6-7 s at 2 s)
            quiet_until = time.monotonic() + 4 * HEARTBEAT
            wait_for(lambda: time.monotonic() > quiet_until, timeout=30, what="the quiet spell")
            write(2)
            wait_for(lambda: received == [1, 2], timeout=30, what="the message after the quiet spell")
        finally:
            stop.set()
            runner.join(timeout=10)
    relay_broker.close()
    receiver.close()
    engine.dispose()
    assert reconnects() == before, "the relay had to reconnect after its quiet spell"
    problems = [
        f"{r.name} {r.levelname} {r.getMessage()}" for r in caplog.records if r.levelno >= logging.WARNING
    ]
    assert problems == []


def test_an_idle_relay_is_unready_while_the_broker_is_away(servers, tmp_path):
    """With nothing to publish a relay still keeps a connection to RabbitMQ, so it knows when the broker
    goes away and says so (unready), and when it is back (it used to stay ready all along). The broker
    is taken away through a TCP proxy of this test's own."""
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'outbox.sqlite'}")
    outbox, _ = messaging_tables(sa.MetaData())
    outbox.metadata.create_all(engine)
    url = servers.create_vhost("idle")
    proxy = TcpProxy.to(url, 5672).start()
    broker = RabbitMQBroker(proxy.url(url), heartbeat=HEARTBEAT)
    relay = OutboxRelay(engine, outbox, broker, channel="idle_ready")
    reports: list[tuple[str, str | None]] = []
    stop = threading.Event()
    runner = threading.Thread(
        target=relay.run,
        args=(stop,),
        kwargs={"poll_seconds": 0.1, "outage_max": 0.5, "report": lambda n, p: reports.append((n, p))},
        daemon=True,
    )
    runner.start()
    try:
        wait_for(lambda: proxy.connections == 1, timeout=30, what="the idle relay's connection")
        assert reports == []
        proxy.cut()
        wait_for(lambda: ("broker", None) not in reports and reports, timeout=30, what="the relay unready")
        assert reports[0][0] == "broker" and reports[0][1] is not None
        proxy.restore()
        wait_for(lambda: reports[-1] == ("broker", None), timeout=30, what="the relay ready again")
    finally:
        stop.set()
        runner.join(timeout=10)
        proxy.close()
        broker.close()
        engine.dispose()
    assert {name for name, _ in reports} == {"broker"}
