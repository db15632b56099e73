"""The SQL side on PostgreSQL beyond the repository contract (``tests/contract/``): the clock history a
save appends to, and the API's views."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.clocks.domain.clock import Clock, Side
from services.clocks.tests.contract.conftest import at, new_game

pytestmark = pytest.mark.integration


def test_the_history_replays_to_the_stored_clock(pg_svc):
    game = new_game()
    with pg_svc.uow() as uow:
        uow.games.add(game)
        uow.commit()
    game.move(game.white, at(10) + dt.timedelta(microseconds=123))  # a sub-millisecond instant
    game.clock.adjust(Side.BLACK, 60_000, "illegal_move_penalty", at(11))
    with pg_svc.uow() as uow:
        uow.games.save(game)
        uow.commit()
    loaded = pg_svc.views.game(game.id)
    history = pg_svc.views.history(game.id)
    assert loaded == game
    assert Clock.replay(loaded.control, history) == loaded.clock
    assert [c.reason for c in history] == ["round_start", "move", "illegal_move_penalty"]


def test_the_views_list_a_tournaments_games_by_round_and_board(pg_svc):
    tid = uuid.uuid4()
    games = [new_game(tournament_id=tid, round=r, board=b) for r, b in ((2, 1), (1, 2), (1, 1))]
    with pg_svc.uow() as uow:
        for g in games:
            uow.games.add(g)
        uow.commit()
    assert [(g.round, g.board) for g in pg_svc.views.games(tid)] == [(1, 1), (1, 2), (2, 1)]
    assert [g.id for g in pg_svc.views.games(tid, 2)] == [games[0].id]
    assert pg_svc.views.games(tid, 3) == [] and pg_svc.views.game(uuid.uuid4()) is None
