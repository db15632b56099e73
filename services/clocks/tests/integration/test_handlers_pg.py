"""The clocks service's handlers on PostgreSQL with the Redis deadline store."""

from __future__ import annotations

import threading
import uuid

import pytest
import sqlalchemy as sa

from services.clocks.adapters import orm
from services.clocks.domain import errors
from services.clocks.domain.endings import GameStatus
from services.clocks.domain.game import Outcome
from services.clocks.service_layer import commands
from services.clocks.service_layer.commands import Actor, CheckFlags, MakeMove, ReportResult
from services.clocks.tests.conftest import NOW, a_round, announce, published
from shared import events

pytestmark = pytest.mark.integration


def test_a_round_is_played_out_on_postgresql(pg_svc, clock):
    pairing = a_round(3, base=60, increment=1)
    envelope = announce(pg_svc, pairing)
    announce(pg_svc, envelope)  # redelivered
    announce(pg_svc, pairing)  # republished
    assert len(published(pg_svc, "game.started")) == 3
    first, second, third = pairing.games
    assert pg_svc.deadlines.deadline_of(first.game_id) == NOW + (60 * 1000) * (NOW - NOW).__class__(
        milliseconds=1
    )
    clock.advance(5)
    pg_svc.bus.handle(MakeMove(first.game_id, first.white))
    pg_svc.bus.handle(ReportResult(second.game_id, Outcome.DRAW, "agreement", Actor(second.black)))
    pg_svc.bus.handle(ReportResult(second.game_id, Outcome.DRAW, "agreement", Actor(second.white)))
    clock.advance(60)
    assert pg_svc.bus.handle(CheckFlags()) == 2  # board 1: Black; board 3: White
    outcomes = {
        e.payload["game_id"]: (e.payload["outcome"], e.payload["reason"])
        for e in published(pg_svc, "game.finished")
    }
    assert outcomes == {
        str(first.game_id): ("1-0", "time"),
        str(second.game_id): ("1/2-1/2", "agreement"),
        str(third.game_id): ("0-1", "time"),
    }
    assert pg_svc.deadlines.due(clock.now()) == []
    with pg_svc.engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(orm.outbox)).scalar() == 6
        assert conn.execute(sa.select(sa.func.count()).select_from(orm.inbox)).scalar() == 2


def test_a_double_reported_move_presses_once(make_service, clock):
    one, two = make_service(), make_service()
    pairing = a_round(1)
    announce(one, pairing)
    g = pairing.game(1)
    clock.advance(3)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def press(svc):
        barrier.wait()
        try:
            svc.bus.handle(MakeMove(g.game_id, g.white))
            outcomes.append("moved")
        except errors.NotYourTurn:
            outcomes.append("refused")

    threads = [threading.Thread(target=press, args=(svc,)) for svc in (one, two)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["moved", "refused"]
    with one.uow() as uow:
        game = uow.games.get(g.game_id)
    assert game.moves == 1 and game.status is GameStatus.RUNNING


def test_two_consumers_hearing_first_of_a_tournament_at_once_both_succeed(make_service, clock):
    """An appointment and a withdrawal of a tournament nobody knew yet, in two processes: the first
    creates its row, the second waits for it (INSERT … ON CONFLICT DO NOTHING) and locks it."""
    one, two = make_service(), make_service()
    tid, arbiter, player = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    barrier = threading.Barrier(2)
    failures: list[BaseException] = []

    def run(svc, handle):
        barrier.wait()
        try:
            with svc.uow() as uow:
                handle(uow)
                uow.commit()
        except BaseException as exc:  # pragma: no cover - reported below
            failures.append(exc)

    appoint = commands.AppointArbiter(tid, arbiter, None, NOW)
    withdraw = commands.ForfeitWithdrawn(tid, player, False, "ill", None)
    threads = [
        threading.Thread(target=run, args=(one, lambda uow: one.handlers.appoint_arbiter(appoint, uow))),
        threading.Thread(target=run, args=(two, lambda uow: two.handlers.forfeit_withdrawn(withdraw, uow))),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    with one.uow() as uow:
        known = uow.tournaments.get(tid)
    assert set(known.arbiters) == {arbiter} and set(known.withdrawn) == {player}


def test_a_withdrawal_forfeits_on_postgresql(pg_svc):
    pairing = a_round(2)
    announce(pg_svc, pairing)
    quitter = pairing.game(2).black
    event = events.PlayerWithdrawn(tournament_id=pairing.tournament_id, player_id=quitter, reason="ill")
    announce(pg_svc, events.wrap(event, pairing.tournament_id))
    [finished] = published(pg_svc, "game.finished")
    assert (finished.payload["game_id"], finished.payload["outcome"], finished.payload["reason"]) == (
        str(pairing.game(2).game_id),
        "+/-",
        "withdrawal",
    )
