"""The outbox and inbox on both databases."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import sessionmaker

from shared.database import make_engine
from shared.events import RoundCompleted
from shared.messaging.inprocess import InProcessBroker
from shared.messaging.outbox import OutboxRelay
from shared.messaging.port import PublishError
from shared.messaging.tables import messaging_tables
from shared.testing.polling import wait_for
from shared.testing.wire import TEST_WIRE, SampleRoundClosed
from shared.tests.helpers import closed_port
from shared.unit_of_work import SqlUnitOfWork

T = uuid.uuid4()


@pytest.fixture
def db(database_url):
    engine = make_engine(database_url)
    metadata = sa.MetaData()
    outbox, inbox = messaging_tables(metadata)
    state = sa.Table(
        "state", metadata, sa.Column("id", sa.Integer, primary_key=True), sa.Column("n", sa.Integer)
    )
    metadata.create_all(engine)
    yield engine, outbox, inbox, state
    engine.dispose()


def uow(db) -> SqlUnitOfWork:
    engine, outbox, inbox, _ = db
    return SqlUnitOfWork(sessionmaker(engine), outbox, inbox, channel="test", wire=TEST_WIRE)


def test_state_and_events_commit_together(db):
    engine, outbox, _, state = db
    broker = InProcessBroker()
    with uow(db) as u:
        u.session.execute(sa.insert(state).values(id=1, n=1))
        for r in (1, 2, 3):
            u.record(SampleRoundClosed(T, r))
        u.commit()
    relay = OutboxRelay(engine, outbox, broker, channel="test")
    assert relay.drain() == 3
    assert [e.payload["round"] for e in broker.published] == [1, 2, 3]
    assert relay.drain() == 0  # published once


def test_rolled_back_work_publishes_nothing(db):
    engine, outbox, _, state = db
    with uow(db) as u:
        u.session.execute(sa.insert(state).values(id=1, n=1))
        u.record(SampleRoundClosed(T, 1))
        # leaving without commit
    broker = InProcessBroker()
    assert OutboxRelay(engine, outbox, broker, channel="test").drain() == 0
    with engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(state)).scalar() == 0


class RefusingBroker(InProcessBroker):
    def publish_stored(self, events):
        raise PublishError("no confirm")


def test_unconfirmed_publish_keeps_the_rows(db):
    engine, outbox, _, _ = db
    with uow(db) as u:
        u.record(SampleRoundClosed(T, 1))
        u.commit()
    with pytest.raises(PublishError):
        OutboxRelay(engine, outbox, RefusingBroker(), channel="test").relay_once()
    broker = InProcessBroker()
    assert OutboxRelay(engine, outbox, broker, channel="test").drain() == 1


def test_inbox_makes_redelivery_a_no_op(db):
    engine, _, _, state = db
    envelope_id = uuid.uuid4()
    from shared.events import wrap

    env = wrap(RoundCompleted(tournament_id=T, round=1), T).model_copy(update={"id": envelope_id})
    for _ in range(3):
        with uow(db) as u:
            if u.first_delivery(env, "handler-a"):
                u.session.execute(sa.insert(state).values(n=1))
            u.commit()
    with uow(db) as u:  # another handler sees the same event for the first time
        assert u.first_delivery(env, "handler-b")
    with engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(state)).scalar() == 1


def test_the_inbox_takes_a_batch_in_one_statement(db):
    """A batch's inbox rows in one statement: what was recorded before is a redelivery, an event twice
    in the batch is its first delivery once; a second handler has its own rows."""
    engine, _, _, _ = db
    from shared.events import wrap

    old, new = (wrap(RoundCompleted(tournament_id=T, round=r), T) for r in (1, 2))
    with uow(db) as u:
        assert u.first_delivery(old, "handler-a")
        u.commit()
    statements: list[str] = []

    def count(_conn, _cursor, statement, *_rest):  # type: ignore[no-untyped-def]
        statements.append(statement)

    sa.event.listen(engine, "before_cursor_execute", count)
    try:
        with uow(db) as u:
            assert u.first_deliveries([old, new, new], "handler-a") == [False, True, False]
            u.commit()
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)
    assert len([s for s in statements if "INSERT INTO inbox" in s]) == 1
    with uow(db) as u:
        assert u.first_deliveries([new, old], "handler-b") == [True, True]
        assert u.first_deliveries([new], "handler-a") == [False]


@pytest.mark.integration
@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_two_relays_publish_each_row_once(db):
    engine, outbox, _, _ = db
    for r in range(200):
        with uow(db) as u:
            u.record(SampleRoundClosed(T, r + 1))
            u.commit()
    broker = InProcessBroker()
    relays = [OutboxRelay(engine, outbox, broker, channel="test", batch=7) for _ in range(2)]
    threads = [threading.Thread(target=r.drain) for r in relays]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    rounds = sorted(e.payload["round"] for e in broker.published)
    assert rounds == list(range(1, 201))


# -- the relay through outages ------------------------------------------------------------------------
class Relaying:
    """A relay running in a thread, as its process runs it, with what it reported."""

    def __init__(self, relay: OutboxRelay, poll_seconds: float = 1.0) -> None:
        self.relay = relay
        self.reports: list[tuple[str, str | None]] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(
            target=relay.run,
            args=(self.stop,),
            kwargs={"poll_seconds": poll_seconds, "report": self._report, "outage_max": 0.2},
            daemon=True,
        )
        self.thread.start()

    def _report(self, name: str, problem: str | None) -> None:
        self.reports.append((name, problem))

    def close(self, wake: Callable[[], object] = lambda: None) -> None:
        self.stop.set()
        wake()
        self.thread.join(timeout=30)
        assert not self.thread.is_alive()


class FlakyBroker(InProcessBroker):
    def __init__(self, refusals: int) -> None:
        super().__init__()
        self.refusals = refusals

    def publish_stored(self, events):
        if self.refusals:
            self.refusals -= 1
            raise PublishError("no confirm")
        super().publish_stored(events)


def test_the_relay_keeps_its_rows_until_the_broker_is_back(db):
    engine, outbox, _, _ = db
    with uow(db) as u:
        u.record(SampleRoundClosed(T, 1))
        u.commit()
    broker = FlakyBroker(refusals=3)
    relaying = Relaying(OutboxRelay(engine, outbox, broker, channel="test"), poll_seconds=0.05)
    try:
        wait_for(lambda: broker.published, timeout=30, what="the row, once the broker confirms")
    finally:
        relaying.close()
    assert [e.payload["round"] for e in broker.published] == [1]
    assert [r for r in relaying.reports if r[0] == "broker"][-1] == ("broker", None)
    assert relaying.reports[0] == ("broker", "PublishError: no confirm")


def test_the_relay_waits_out_an_unreachable_database():
    engine = make_engine(f"postgresql+psycopg://postgres@127.0.0.1:{closed_port()}/none")
    outbox, _ = messaging_tables(sa.MetaData())
    relaying = Relaying(OutboxRelay(engine, outbox, InProcessBroker(), channel="test"))
    try:
        wait_for(lambda: len(relaying.reports) >= 2, timeout=30, what="two failed attempts")
    finally:
        relaying.close()
    assert {name for name, _ in relaying.reports} == {"database"}
    assert all("OperationalError" in str(problem) for _, problem in relaying.reports)


@pytest.mark.integration
@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_the_relay_listens_again_after_losing_its_connection(db):
    """Its LISTEN backend is terminated (as a database restart would): the relay listens again, and a
    NOTIFY wakes it. Its poll is an hour, so nothing else could."""
    engine, outbox, _, _ = db
    channel = f"test_{uuid.uuid4().hex[:8]}"
    broker = InProcessBroker()
    relaying = Relaying(OutboxRelay(engine, outbox, broker, channel=channel), poll_seconds=3600)

    def listener() -> int | None:
        with engine.connect() as conn:
            return conn.execute(
                sa.text("SELECT pid FROM pg_stat_activity WHERE query = :q"), {"q": f'LISTEN "{channel}"'}
            ).scalar()

    def commit_round(n: int) -> None:
        with SqlUnitOfWork(sessionmaker(engine), outbox, db[2], channel=channel, wire=TEST_WIRE) as u:
            u.record(SampleRoundClosed(T, n))
            u.commit()

    def published() -> list[int]:
        return [e.payload["round"] for e in broker.published]

    def wake() -> None:
        with engine.begin() as conn:
            conn.execute(sa.text("SELECT pg_notify(:c, '')"), {"c": channel})

    try:
        first = wait_for(listener, timeout=30, what="the relay's LISTEN")
        commit_round(1)
        wait_for(lambda: published() == [1], timeout=30, what="round 1, woken by NOTIFY")
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": first}).scalar()
        second = wait_for(lambda: (pid := listener()) != first and pid, timeout=30, what="LISTEN again")
        commit_round(2)
        wait_for(lambda: published() == [1, 2], timeout=30, what="round 2")
        commit_round(3)  # committed after the relay is listening again: only NOTIFY can wake it
        wait_for(lambda: published() == [1, 2, 3], timeout=30, what="round 3, woken by NOTIFY")
        assert listener() == second
    finally:
        relaying.close(wake)
