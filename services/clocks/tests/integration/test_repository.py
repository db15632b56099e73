"""The game repository on PostgreSQL: round trips, the change history, the overdue sweep."""

from __future__ import annotations

import dataclasses
import datetime as dt
import uuid

import pytest
import sqlalchemy as sa

from services.clocks.domain.clock import Clock, Side, TimeControl
from services.clocks.domain.game import Game, GameStatus, Outcome
from services.clocks.tests.conftest import NOW

pytestmark = pytest.mark.integration


def at(seconds: float) -> dt.datetime:
    return NOW + dt.timedelta(seconds=seconds)


def new_game(base: int = 180, inc: int = 2, tournament_id: uuid.UUID | None = None, board: int = 1) -> Game:
    game = Game.pair(
        game_id=uuid.uuid4(),
        tournament_id=tournament_id or uuid.uuid4(),
        organiser_id=uuid.uuid4(),
        round=3,
        board=board,
        leg=2,
        white=uuid.uuid4(),
        black=uuid.uuid4(),
        control=TimeControl(base, inc),
    )
    game.start(NOW)
    return game


def test_a_game_round_trips_with_its_clock(pg_svc):
    game = new_game()
    with pg_svc.uow() as uow:
        uow.games.add(game, NOW)
        uow.commit()
    game.move(game.white, at(10) + dt.timedelta(microseconds=123))  # a sub-millisecond instant
    game.clock.adjust(Side.BLACK, 60_000, "illegal_move_penalty", at(11))
    with pg_svc.uow() as uow:
        uow.games.save(game)
        uow.commit()
    with pg_svc.uow() as uow:
        loaded = uow.games.get(game.id)
        history = uow.games.history(game.id)
    assert loaded == game
    assert (
        loaded.deadline
        == game.deadline
        == at(10) + dt.timedelta(microseconds=123) + dt.timedelta(seconds=240)
    )
    assert Clock.replay(loaded.control, history) == loaded.clock
    assert [c.reason for c in history] == ["round_start", "move", "illegal_move_penalty"]


def test_the_same_game_cannot_be_added_twice(pg_svc):
    game = new_game()
    with pg_svc.uow() as uow:
        uow.games.add(game, NOW)
        uow.commit()
    with pg_svc.uow() as uow, pytest.raises(sa.exc.IntegrityError):
        uow.games.add(dataclasses.replace(game, clock=Clock.new(game.control)), NOW)
        uow.commit()


def test_the_sweep_finds_running_games_past_their_deadline_earliest_first(pg_svc):
    late, later, future, done = new_game(60, 0), new_game(30, 0), new_game(600, 0), new_game(10, 0)
    done.report_result(Outcome.DRAW, "agreement", at(1))
    with pg_svc.uow() as uow:
        for g in (late, later, future, done):
            uow.games.add(g, NOW)
        uow.commit()
    with pg_svc.uow() as uow:
        assert uow.games.overdue(at(59)) == [later.id]
        assert uow.games.overdue(at(61)) == [later.id, late.id]
        assert uow.games.overdue(at(61), limit=1) == [later.id]


def test_games_by_tournament_and_round(pg_svc):
    tid = uuid.uuid4()
    games = [new_game(tournament_id=tid, board=b) for b in (2, 1)]
    with pg_svc.uow() as uow:
        for g in games:
            uow.games.add(g, NOW)
        uow.commit()
    with pg_svc.uow() as uow:
        assert [g.board for g in uow.games.in_tournament(tid, round=3)] == [1, 2]
        assert uow.games.in_tournament(tid, round=4) == []
        assert {g.status for g in uow.games.unfinished_in(tid, lock=True)} == {GameStatus.RUNNING}
