"""Two tickers on the same due games, in two services' worth of adapters sharing PostgreSQL and
Redis: every game is finished, each exactly once."""

from __future__ import annotations

import threading

import pytest
import sqlalchemy as sa

from services.clocks.adapters import orm
from services.clocks.domain.endings import GameStatus
from services.clocks.service_layer.commands import CheckFlags
from services.clocks.tests.conftest import a_round, announce, double_round
from shared.events import Envelope

pytestmark = pytest.mark.integration


def test_two_tickers_finish_each_game_exactly_once(make_service, clock):
    one, two = make_service(), make_service()
    pairing = a_round(24, base=60, increment=0)
    announce(one, pairing)
    clock.advance(61)  # every flag has fallen
    barrier = threading.Barrier(2)
    counts: list[int] = []

    def tick(svc):
        barrier.wait()
        counts.append(svc.bus.handle(CheckFlags(sweep=True)))

    threads = [threading.Thread(target=tick, args=(svc,)) for svc in (one, two)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(counts) == 24
    with one.engine.connect() as conn:
        finished = (
            conn.execute(sa.select(orm.outbox.c.body).where(orm.outbox.c.type == "game.finished"))
            .scalars()
            .all()
        )
        statuses = set(conn.execute(sa.select(orm.games.c.status)).scalars())
    game_ids = sorted(Envelope.model_validate_json(body).payload["game_id"] for body in finished)
    assert game_ids == sorted(str(g.game_id) for g in pairing.games)  # 24 events, no game twice
    assert statuses == {GameStatus.FINISHED.value}
    assert one.bus.handle(CheckFlags()) == 0 and one.deadlines.due(clock.now()) == []


def test_two_tickers_hand_each_leg_1_over_to_its_leg_2_exactly_once(make_service, clock):
    """Double rounds: each leg 1's flag falls; whichever ticker finishes it starts its leg 2, once."""
    one, two = make_service(), make_service()
    pairing = double_round(12, base=60)
    announce(one, pairing)
    clock.advance(61)  # every leg 1's flag has fallen; no leg 2 has started
    barrier = threading.Barrier(2)

    def tick(svc):
        barrier.wait()
        svc.bus.handle(CheckFlags(sweep=True))

    threads = [threading.Thread(target=tick, args=(svc,)) for svc in (one, two)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with one.engine.connect() as conn:
        bodies = conn.execute(sa.select(orm.outbox.c.type, orm.outbox.c.body)).all()
        rows = conn.execute(sa.select(orm.games.c.leg, orm.games.c.status, orm.games.c.started_at)).all()
    started = sorted(
        Envelope.model_validate_json(b).payload["game_id"] for t, b in bodies if t == "game.started"
    )
    assert started == sorted(str(g.game_id) for g in pairing.games)  # 12 legs 1, then 12 legs 2: once each
    assert {(leg, status) for leg, status, _ in rows} == {
        (1, GameStatus.FINISHED.value),
        (2, GameStatus.RUNNING.value),
    }
    assert {started_at for leg, _, started_at in rows if leg == 2} == {clock.now()}
