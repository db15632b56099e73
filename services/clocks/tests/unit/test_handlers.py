"""The clocks service through its bus and consumer, on the in-memory fakes and on the embedded adapters
(SQLite), with the in-process broker, in-memory deadlines and a fake clock: games from round.paired,
flag falls nobody reports, the deadline store kept in step, redelivery, the tournament's close."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.clocks.adapters.deadlines import DeadlineStoreUnavailable, InMemoryDeadlineStore
from services.clocks.domain import errors
from services.clocks.domain.clock import ChangeKind, Clock, Side
from services.clocks.domain.endings import FlagFall, GameStatus
from services.clocks.domain.game import Outcome
from services.clocks.entrypoints.ticker import Ticker
from services.clocks.service_layer.commands import Actor, CheckFlags, MakeMove, ReportResult
from services.clocks.tests.conftest import NOW, a_round, announce, published
from shared import events
from shared.events import wrap


@pytest.fixture(params=["memory", "sqlite"])
def svc(request):
    """Each test on the in-memory fakes and on SQLite: the fakes must behave as the real thing."""
    return request.getfixturevalue(f"{'memory' if request.param == 'memory' else 'sql'}_svc")


def at(seconds: float) -> dt.datetime:
    return NOW + dt.timedelta(seconds=seconds)


def game_of(svc, game_id):
    with svc.uow() as uow:
        return uow.games.get(game_id)


def test_round_paired_creates_and_starts_each_game(svc, deadlines):
    pairing = a_round(3, base=300, increment=3)
    announce(svc, pairing)
    started = published(svc, "game.started")
    assert [e.payload["game_id"] for e in started] == [str(g.game_id) for g in pairing.games]
    first = events.GameStarted.model_validate(started[0].payload)
    assert (first.white, first.black, first.round, first.started_at) == (
        pairing.game(1).white,
        pairing.game(1).black,
        1,
        NOW,
    )
    assert first.time_control.label() == "5+3"
    game = game_of(svc, pairing.game(2).game_id)
    assert game.status is GameStatus.RUNNING and game.clock.to_move.value == "white"
    assert game.deadline == at(300)
    assert deadlines.deadline_of(game.id) == at(300)


def test_a_redelivered_round_creates_nothing_twice(svc):
    pairing = a_round(2)
    envelope = announce(svc, pairing)
    announce(svc, envelope)  # the same message again: the inbox
    announce(svc, pairing)  # the same round in a new message: the game ids
    assert len(published(svc, "game.started")) == 2
    with svc.uow() as uow:
        assert len(uow.games.of_round(pairing.tournament_id, 1)) == 2
    assert svc.broker.dead_letters("clocks.round_paired") == []


def test_a_round_with_an_impossible_time_control_is_dead_lettered(svc):
    pairing = a_round(1, base=0, increment=0)
    announce(svc, pairing)
    dead = svc.broker.dead_letters("clocks.round_paired")
    assert len(dead) == 1 and "needs base time or an increment" in dead[0].reason
    assert published(svc, "game.started") == []


def test_the_flag_falls_with_nobody_reporting_it(svc, clock, deadlines):
    pairing = a_round(1, base=180, increment=2)
    announce(svc, pairing)
    g = pairing.game(1)
    clock.advance(10)
    svc.bus.handle(MakeMove(g.game_id, g.white))  # Black's deadline: 190 s
    assert deadlines.deadline_of(g.game_id) == at(190)
    clock.advance(179)
    assert svc.bus.handle(CheckFlags()) == 0
    clock.advance(1)
    assert svc.bus.handle(CheckFlags()) == 1
    assert svc.bus.handle(CheckFlags()) == 0  # finished once
    [finished] = published(svc, "game.finished")
    event = events.GameFinished.model_validate(finished.payload)
    assert (event.outcome, event.reason, event.moves, event.finished_at) == (
        events.GameOutcome.WHITE_WIN,
        "time",
        1,
        at(190),
    )
    assert event.both_moved is False  # Black never moved: no rating moves
    assert deadlines.deadline_of(g.game_id) is None


def test_a_move_after_the_flag_fell_finishes_the_game_on_time(svc, clock):
    pairing = a_round(1, base=60, increment=0)
    announce(svc, pairing)
    g = pairing.game(1)
    clock.advance(75)
    done = svc.bus.handle(MakeMove(g.game_id, g.white))
    assert done.flag_fall == FlagFall(Side.WHITE, at(60), Outcome.BLACK_WIN)  # the move: refused
    game = game_of(svc, g.game_id)
    assert (game.status, game.outcome, game.reason, game.moves) == (
        GameStatus.FINISHED,
        Outcome.BLACK_WIN,
        "time",
        0,
    )
    assert [e.payload["reason"] for e in published(svc, "game.finished")] == ["time"]
    assert svc.bus.handle(CheckFlags()) == 0


def test_a_stale_deadline_is_rescheduled_not_acted_on(svc, clock, deadlines):
    pairing = a_round(1, base=180, increment=0)
    announce(svc, pairing)
    g = pairing.game(1)
    deadlines.schedule({g.game_id: at(5)})  # the store is behind: White's flag falls at 180 s
    clock.advance(10)
    assert svc.bus.handle(CheckFlags()) == 0
    assert deadlines.deadline_of(g.game_id) == at(180)
    assert game_of(svc, g.game_id).status is GameStatus.RUNNING


def test_the_sweep_finds_a_game_the_store_lost(svc, clock, deadlines):
    pairing = a_round(2, base=60, increment=0)
    announce(svc, pairing)
    lost = pairing.game(1).game_id
    deadlines.cancel([lost])
    clock.advance(61)
    assert svc.bus.handle(CheckFlags(sweep=False)) == 1  # only the one the store knows
    assert svc.bus.handle(CheckFlags(sweep=True)) == 1
    assert {e.payload["game_id"] for e in published(svc, "game.finished")} == {
        str(g.game_id) for g in pairing.games
    }


def test_an_unknown_game_in_the_store_is_dropped(svc, clock, deadlines):
    ghost = uuid.uuid4()
    deadlines.schedule({ghost: at(1)})
    clock.advance(2)
    assert svc.bus.handle(CheckFlags()) == 0
    assert deadlines.deadline_of(ghost) is None


class BrokenStore(InMemoryDeadlineStore):
    """Redis gone: every call fails."""

    def schedule(self, deadlines):
        raise DeadlineStoreUnavailable("down")

    def cancel(self, game_ids):
        raise DeadlineStoreUnavailable("down")

    def due(self, now, limit=100):
        raise DeadlineStoreUnavailable("down")


@pytest.mark.parametrize("deadlines", [BrokenStore()], indirect=False)
def test_without_the_store_games_still_run_and_flags_still_fall(svc, clock, deadlines):
    pairing = a_round(1, base=60, increment=0)
    announce(svc, pairing)  # committed although the store is down
    g = pairing.game(1)
    clock.advance(5)
    svc.bus.handle(MakeMove(g.game_id, g.white))
    clock.advance(61)
    assert svc.bus.handle(CheckFlags(sweep=False)) == 1  # the store failing, the tick sweeps
    assert published(svc, "game.finished")[0].payload["outcome"] == "1-0"


def test_the_ticker_sweeps_the_database_every_sweep_interval(svc, clock, deadlines):
    ticker = Ticker(svc.bus, clock, sweep_seconds=5.0)
    assert ticker.tick() == 0  # the first tick sweeps (nothing yet)
    pairing = a_round(1, base=0, increment=1)  # White's flag falls after 1 s
    announce(svc, pairing)
    deadlines.cancel([pairing.game(1).game_id])  # the store lost it
    clock.advance(2)
    assert ticker.tick() == 0  # 2 s since the last sweep: the store alone, which knows nothing
    clock.advance(3)
    assert ticker.tick() == 1  # 5 s: this tick sweeps
    assert published(svc, "game.finished")[0].payload["reason"] == "time"


def test_a_result_is_published_once_and_a_second_refused(svc, clock, deadlines):
    pairing = a_round(1)
    announce(svc, pairing)
    g = pairing.game(1)
    clock.advance(3)
    svc.bus.handle(MakeMove(g.game_id, g.white))
    clock.advance(4)
    svc.bus.handle(MakeMove(g.game_id, g.black))
    svc.bus.handle(ReportResult(g.game_id, Outcome.DRAW, "agreement", Actor(g.black)))  # offered
    svc.bus.handle(ReportResult(g.game_id, Outcome.DRAW, "agreement", Actor(g.white)))  # accepted
    with pytest.raises(errors.GameOver):
        svc.bus.handle(ReportResult(g.game_id, Outcome.BLACK_WIN, "resignation", Actor(g.white)))
    [finished] = published(svc, "game.finished")
    assert finished.payload["outcome"] == "1/2-1/2" and finished.payload["both_moved"] is True
    assert finished.payload["moves"] == 2 and deadlines.deadline_of(g.game_id) is None


def test_the_tournament_closing_draws_the_open_games(svc, clock):
    pairing = a_round(3, base=60, increment=0)
    announce(svc, pairing)
    first, second, third = pairing.games
    clock.advance(5)
    svc.bus.handle(MakeMove(first.game_id, first.white))
    svc.bus.handle(ReportResult(third.game_id, Outcome.WHITE_WIN, "resignation", Actor(third.black)))
    clock.advance(56)  # board 2: White's flag has fallen, unnoticed so far
    completed = events.TournamentCompleted(
        tournament_id=pairing.tournament_id,
        organiser_id=pairing.organiser_id,
        rounds=1,
        completed_at=clock.now(),
    )
    envelope = wrap(completed, pairing.tournament_id)
    announce(svc, envelope)
    announce(svc, envelope)  # redelivered: nothing more
    outcomes = {
        e.payload["game_id"]: (e.payload["outcome"], e.payload["reason"])
        for e in published(svc, "game.finished")
    }
    assert outcomes == {
        str(first.game_id): ("1/2-1/2", "tournament_closed"),
        str(second.game_id): ("0-1", "time"),
        str(third.game_id): ("1-0", "resignation"),
    }
    assert svc.bus.handle(CheckFlags()) == 0


def test_the_stored_changes_replay_to_the_stored_clock(sql_svc, clock):
    svc = sql_svc
    pairing = a_round(1, base=180, increment=2)
    announce(svc, pairing)
    g = pairing.game(1)
    for seconds, player in [(3, g.white), (5, g.black), (7, g.white)]:
        clock.advance(seconds)
        svc.bus.handle(MakeMove(g.game_id, player))
    clock.advance(500)
    svc.bus.handle(CheckFlags())
    game = svc.views.game(g.game_id)
    history = svc.views.history(g.game_id)
    assert [c.kind for c in history] == [
        ChangeKind.STARTED,
        ChangeKind.PRESSED,
        ChangeKind.PRESSED,
        ChangeKind.PRESSED,
        ChangeKind.FLAGGED,
    ]
    assert Clock.replay(game.control, history) == game.clock
