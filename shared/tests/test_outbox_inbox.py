"""The outbox and inbox on both databases."""

from __future__ import annotations

import threading
import uuid

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import sessionmaker

from shared.database import make_engine
from shared.events import RoundCompleted
from shared.messaging.inprocess import InProcessBroker
from shared.messaging.outbox import OutboxRelay
from shared.messaging.port import PublishError
from shared.messaging.tables import messaging_tables
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
    return SqlUnitOfWork(sessionmaker(engine), outbox, inbox, channel="test")


def test_state_and_events_commit_together(db):
    engine, outbox, _, state = db
    broker = InProcessBroker()
    with uow(db) as u:
        u.session.execute(sa.insert(state).values(id=1, n=1))
        for r in (1, 2, 3):
            u.publish(RoundCompleted(tournament_id=T, round=r), T)
        u.commit()
    relay = OutboxRelay(engine, outbox, broker, channel="test")
    assert relay.drain() == 3
    assert [e.payload["round"] for e in broker.published] == [1, 2, 3]
    assert relay.drain() == 0  # published once


def test_rolled_back_work_publishes_nothing(db):
    engine, outbox, _, state = db
    with uow(db) as u:
        u.session.execute(sa.insert(state).values(id=1, n=1))
        u.publish(RoundCompleted(tournament_id=T, round=1), T)
        # leaving without commit
    broker = InProcessBroker()
    assert OutboxRelay(engine, outbox, broker, channel="test").drain() == 0
    with engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(state)).scalar() == 0


class RefusingBroker(InProcessBroker):
    def publish(self, envelopes):
        raise PublishError("no confirm")


def test_unconfirmed_publish_keeps_the_rows(db):
    engine, outbox, _, _ = db
    with uow(db) as u:
        u.publish(RoundCompleted(tournament_id=T, round=1), T)
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


@pytest.mark.integration
@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_two_relays_publish_each_row_once(db):
    engine, outbox, _, _ = db
    for r in range(200):
        with uow(db) as u:
            u.publish(RoundCompleted(tournament_id=T, round=r + 1), T)
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
