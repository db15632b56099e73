"""On PostgreSQL the tournament's row lock serialises the work on one tournament: a result that waits
for the lock reads its round as the lock's previous holder left it, so the last two results of a round
arriving together close it once, whichever commits first."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from services.pairing.adapters import wire
from services.pairing.adapters.orm import outbox
from services.pairing.bootstrap import MIGRATIONS, Pairing, bootstrap
from services.pairing.config import PairingSettings
from services.pairing.service_layer import commands
from services.pairing.tests.helpers import NOW, started
from shared.events import Envelope
from shared.messaging.inprocess import InProcessBroker
from shared.scoring import Outcome
from shared.testing.polling import wait_for
from shared.timesource import FakeClock

pytestmark = pytest.mark.integration


@pytest.fixture
def pg(servers) -> Iterator[Pairing]:
    url = servers.create_database(f"pairing_{uuid.uuid4().hex[:8]}", MIGRATIONS)
    svc = bootstrap(
        PairingSettings(ARBITER_PAIRING_DATABASE_URL=url),
        broker=InProcessBroker(),
        clock=FakeClock(NOW),
        migrate=True,
    )
    yield svc
    svc.engine.dispose()


def handle(svc: Pairing, effect, cmd) -> None:  # type: ignore[no-untyped-def]
    with svc.uow() as uow:
        effect(cmd, uow)
        uow.commit()


def waiting_for_a_lock(svc: Pairing) -> bool:
    query = sa.text(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
    )
    with svc.engine.connect() as conn:
        return bool(conn.execute(query).scalar_one())


def test_the_last_two_results_of_a_round_together_close_it_once(pg: Pairing) -> None:
    ev = started(5)  # a round robin of five: two games and a bye a round
    handle(pg, pg.handlers.on_tournament_started, wire.start(ev))
    handle(pg, pg.handlers.on_round_due, commands.PairRound(ev.tournament_id, 1))
    with pg.uow() as uow:
        t = uow.tournaments.get(ev.tournament_id)
    assert t is not None
    first, second = (
        commands.RecordResult(ev.tournament_id, g.game_id, 1, Outcome.DRAW, NOW) for g in t.rounds[0].games
    )

    holder = pg.uow()
    holder.__enter__()
    pg.handlers.on_game_finished(first, holder)  # holds the row lock, not committed yet
    waiter = threading.Thread(target=handle, args=(pg, pg.handlers.on_game_finished, second))
    waiter.start()
    try:
        wait_for(lambda: waiting_for_a_lock(pg), timeout=10, what="the second result waiting for the lock")
        holder.commit()
    finally:
        holder.__exit__(None, None, None)
        waiter.join(timeout=30)
    assert not waiter.is_alive()

    with pg.engine.connect() as conn:
        bodies = conn.execute(sa.select(outbox.c.body).order_by(outbox.c.id)).scalars()
        kinds = [(e.type, e.payload.get("round")) for e in map(Envelope.model_validate_json, bodies)]
    assert kinds.count(("round.completed", 1)) == 1
    assert kinds.count(("pairing.round_due", 2)) == 1
    with pg.uow() as uow:
        results = uow.results.get((ev.tournament_id, 1))
    assert results is not None and results.completed
    assert set(results.outcomes.values()) == {Outcome.DRAW}
