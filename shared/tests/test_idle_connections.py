"""A relay whose stack is quiet keeps its RabbitMQ connection: it answers the broker's heartbeats while
it waits for work, so the first publish after a long quiet spell goes out on the same connection, with
nothing logged (it used to cost a pika ERROR, two ConnectionResetError tracebacks and a reconnect)."""

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
from shared.testing.wire import TEST_WIRE, RoundClosed
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
            uow.record(RoundClosed(T, number))
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
