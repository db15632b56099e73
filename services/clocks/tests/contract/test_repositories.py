"""The game repository's contract: the SQL repository (SQLite, PostgreSQL) and its in-memory fake
pass the same tests."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.clocks.domain import errors
from services.clocks.domain.clock import Side
from services.clocks.domain.endings import GameStatus
from services.clocks.domain.game import Outcome
from services.clocks.tests.contract.conftest import NOW, Backend, at, new_game, stored


def test_a_game_round_trips_with_its_clock(backend: Backend):
    game = new_game()
    stored(backend, game)
    game.move(game.white, at(10) + dt.timedelta(microseconds=123))  # a sub-millisecond instant
    game.clock.adjust(Side.BLACK, 60_000, "illegal_move_penalty", at(11))
    with backend.uow() as uow:
        uow.games.save(game)
        uow.commit()
    with backend.uow() as uow:
        loaded = uow.games.get(game.id)
    assert loaded == game
    assert loaded is not game and loaded.clock.changes == [] and loaded.collect_events() == []
    assert loaded.deadline == at(10) + dt.timedelta(microseconds=123) + dt.timedelta(seconds=240)
    assert loaded.created_at == NOW


def test_a_leg_1_keeps_its_leg_2(backend: Backend):
    first, second = new_game(), new_game(start=False)
    first.next_leg = second.id
    stored(backend, first, second)
    with backend.uow() as uow:
        assert uow.games.get(first.id).next_leg == second.id
        assert uow.games.get(second.id, lock=True).next_leg is None


def test_an_unknown_game_is_none(backend: Backend):
    with backend.uow() as uow:
        assert uow.games.get(uuid.uuid4()) is None
        assert uow.games.get(uuid.uuid4(), lock=True) is None


def test_the_same_game_cannot_be_added_twice(backend: Backend):
    game = new_game()
    stored(backend, game)
    with backend.uow() as uow, pytest.raises(errors.GameExists):
        uow.games.add(new_game())
        uow.games.add(game)


def test_nothing_is_kept_without_commit(backend: Backend):
    game = new_game()
    with backend.uow() as uow:
        uow.games.add(game)
    with backend.uow() as uow:
        assert uow.games.get(game.id) is None
        assert uow.games.existing([game.id]) == set()


def test_a_saved_change_is_seen_in_the_same_unit_of_work(backend: Backend):
    game = new_game()
    stored(backend, game)
    with backend.uow() as uow:
        mine = uow.games.get(game.id, lock=True)
        mine.report_result(Outcome.DRAW, "agreement", at(5))
        uow.games.save(mine)
        assert uow.games.get(game.id).status is GameStatus.FINISHED
        assert uow.games.unfinished_in(game.tournament_id) == []


def test_which_games_exist(backend: Backend):
    one, two = new_game(), new_game()
    stored(backend, one, two)
    ghost = uuid.uuid4()
    with backend.uow() as uow:
        assert uow.games.existing([one.id, ghost, two.id]) == {one.id, two.id}
        assert uow.games.existing([]) == set()


def test_a_rounds_games_by_board(backend: Backend):
    tid = uuid.uuid4()
    games = [new_game(tournament_id=tid, board=b) for b in (2, 3, 1)]
    other_round = new_game(tournament_id=tid, round=4)
    other_tournament = new_game(round=3)
    stored(backend, *games, other_round, other_tournament)
    with backend.uow() as uow:
        assert [g.board for g in uow.games.of_round(tid, 3)] == [1, 2, 3]
        assert [g.id for g in uow.games.of_round(tid, 4)] == [other_round.id]
        assert uow.games.of_round(tid, 5) == []


def test_a_matchs_games_in_their_order(backend: Backend):
    tid = uuid.uuid4()
    games = [new_game(tournament_id=tid, match_id="winners:1:1", number=n, start=False) for n in (3, 1, 2)]
    other = new_game(tournament_id=tid, match_id="winners:1:2", number=1)
    stored(backend, *games, other)
    with backend.uow() as uow:
        assert [g.number for g in uow.games.in_match(tid, "winners:1:1")] == [1, 2, 3]
        assert [g.id for g in uow.games.in_match(tid, "winners:1:2")] == [other.id]
        assert uow.games.in_match(uuid.uuid4(), "winners:1:1") == []


def test_the_unfinished_games_of_a_tournament(backend: Backend):
    tid = uuid.uuid4()
    running, pending, finished, cancelled = (
        new_game(tournament_id=tid, board=1),
        new_game(tournament_id=tid, board=2, start=False),
        new_game(tournament_id=tid, board=3),
        new_game(tournament_id=tid, board=4),
    )
    finished.report_result(Outcome.WHITE_WIN, "resignation", at(1))
    cancelled.cancel(at(1))
    stored(backend, running, pending, finished, cancelled, new_game())
    with backend.uow() as uow:
        found = uow.games.unfinished_in(tid)
    assert {g.id for g in found} == {running.id, pending.id, cancelled.id}
    assert [g.id for g in found] == sorted(g.id for g in found)


def test_the_sweep_finds_running_games_past_their_deadline_earliest_first(backend: Backend):
    late, later, future, done = new_game(60, 0), new_game(30, 0), new_game(600, 0), new_game(10, 0)
    done.report_result(Outcome.DRAW, "agreement", at(1))
    stored(backend, late, later, future, done, new_game(5, 0, start=False))
    with backend.uow() as uow:
        assert uow.games.overdue(at(29)) == []
        assert uow.games.overdue(at(30)) == [later.id]  # due at the deadline itself
        assert uow.games.overdue(at(61)) == [later.id, late.id]
        assert uow.games.overdue(at(61), limit=1) == [later.id]


def test_the_repository_sees_what_it_hands_out_and_takes_in(backend: Backend):
    tid = uuid.uuid4()
    one, two = new_game(tournament_id=tid, board=1), new_game(tournament_id=tid, board=2)
    stored(backend, one)
    with backend.uow() as uow:
        got = uow.games.get(one.id)
        uow.games.add(two)
        in_round = uow.games.of_round(tid, 3)
        assert [g.id for g in uow.games.seen] == [one.id, two.id, one.id, two.id]
        assert list(uow.games.seen)[:2] == [got, two] and list(uow.games.seen)[2:] == in_round
