"""The clocks unit of work's contract, on SQL (SQLite, PostgreSQL) and in memory: the games' events
go out at commit, and the deadline store follows the committed games only."""

from __future__ import annotations

import uuid

import pytest

from services.clocks.adapters.deadlines import DeadlineStoreUnavailable, InMemoryDeadlineStore
from services.clocks.domain.game import Outcome
from services.clocks.tests.contract.conftest import Backend, at, new_game, stored


def test_commit_publishes_what_the_games_recorded_in_order(backend: Backend):
    game = new_game(start=False)
    with backend.uow() as uow:
        game.start(at(0))
        uow.games.add(game)
        uow.commit()
    with backend.uow() as uow:
        mine = uow.games.get(game.id, lock=True)
        mine.move(mine.white, at(3))
        mine.report_result(Outcome.WHITE_WIN, "resignation", at(4))
        uow.games.save(mine)
        uow.commit()
    assert [(kind, p["game_id"]) for kind, p in backend.published()] == [
        ("game.started", str(game.id)),
        ("game.finished", str(game.id)),
    ]
    assert backend.published()[1][1]["moves"] == 1


def test_nothing_is_published_or_scheduled_without_commit(backend: Backend):
    game = new_game()
    with backend.uow() as uow:
        uow.games.add(game)
    assert backend.published() == [] and backend.deadlines.deadline_of(game.id) is None


def test_deadlines_follow_the_committed_games(backend: Backend):
    game = new_game(180, 2)
    stored(backend, game)
    assert backend.deadlines.deadline_of(game.id) == at(180)
    with backend.uow() as uow:
        mine = uow.games.get(game.id, lock=True)
        mine.move(mine.white, at(10))  # Black's deadline: 190 s
        uow.games.save(mine)
        assert backend.deadlines.deadline_of(game.id) == at(180)  # not before the commit
        uow.commit()
    assert backend.deadlines.deadline_of(game.id) == at(190)
    with backend.uow() as uow:
        mine = uow.games.get(game.id, lock=True)
        mine.move(mine.black, at(20))
        uow.games.save(mine)
        uow.rollback()  # a rolled-back move moves no deadline
    assert backend.deadlines.deadline_of(game.id) == at(190)
    with backend.uow() as uow:
        mine = uow.games.get(game.id, lock=True)
        mine.report_result(Outcome.DRAW, "agreement", at(30))
        uow.games.save(mine)
        uow.commit()
    assert backend.deadlines.deadline_of(game.id) is None  # over: forgotten


def test_a_game_only_looked_at_gets_its_deadline_back(backend: Backend):
    game = new_game(180, 2)
    stored(backend, game)
    backend.deadlines.schedule({game.id: at(5)})  # the store is behind
    with backend.uow() as uow:
        uow.games.get(game.id, lock=True)
        uow.commit()
    assert backend.deadlines.deadline_of(game.id) == at(180)


def test_a_forgotten_game_leaves_the_store_at_commit(backend: Backend):
    ghost = uuid.uuid4()
    backend.deadlines.schedule({ghost: at(1)})
    with backend.uow() as uow:
        uow.forget(ghost)
        assert backend.deadlines.deadline_of(ghost) == at(1)
        uow.commit()
    assert backend.deadlines.deadline_of(ghost) is None


def test_a_failed_savepoint_takes_its_games_and_deadlines_with_it(backend: Backend):
    kept, failed = new_game(180, 2), new_game(180, 2)
    stored(backend, kept, failed)
    with backend.uow() as uow:
        with uow.savepoint():
            mine = uow.games.get(kept.id, lock=True)
            mine.move(mine.white, at(10))
            uow.games.save(mine)
        with pytest.raises(RuntimeError), uow.savepoint():
            with uow.savepoint():  # completes, inside the one that fails
                theirs = uow.games.get(failed.id, lock=True)
                theirs.report_result(Outcome.DRAW, "agreement", at(11))
                uow.games.save(theirs)
            raise RuntimeError("the handler failed")
        uow.commit()
    assert backend.deadlines.deadline_of(kept.id) == at(190)
    assert backend.deadlines.deadline_of(failed.id) == at(180)
    assert [kind for kind, _ in backend.published()] == ["game.started", "game.started"]
    with backend.uow() as uow:
        assert uow.games.get(failed.id).finished is False
        assert uow.games.get(kept.id).moves == 1


class DownStore(InMemoryDeadlineStore):
    def schedule(self, deadlines):
        raise DeadlineStoreUnavailable("down")


def test_a_store_outage_does_not_fail_the_commit(backend: Backend):
    backend.deadlines = DownStore()
    game = new_game()
    stored(backend, game)  # committed; the deadline is the sweep's to find
    with backend.uow() as uow:
        assert uow.games.get(game.id) is not None
        assert uow.games.overdue(at(181)) == [game.id]
