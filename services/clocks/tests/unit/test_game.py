"""The game rules on the aggregate alone: turns, flag falls nobody reports, results, absence, and the
events the game records as it changes."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.clocks.domain import errors
from services.clocks.domain.clock import ClockRate, Side
from services.clocks.domain.endings import FlagFall, GameStatus
from services.clocks.domain.events import GameCancelled, GameFinished, GameStarted
from services.clocks.domain.game import Game, Outcome

T0 = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
WHITE, BLACK, STRANGER = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def game(base: int = 180, inc: int = 2, days: int | None = None, start: bool = True) -> Game:
    g = Game.pair(
        game_id=uuid.uuid4(),
        tournament_id=uuid.uuid4(),
        organiser_id=uuid.uuid4(),
        round=1,
        board=1,
        white=WHITE,
        black=BLACK,
        control=ClockRate(base, inc, days),
        at=T0,
    )
    if start:
        g.start(T0)
    return g


def test_a_paired_game_is_pending_until_started():
    g = game(start=False)
    assert g.status is GameStatus.PENDING and g.deadline is None
    with pytest.raises(errors.GameNotStarted):
        g.move(WHITE, T0)
    g.start(T0)
    assert g.status is GameStatus.RUNNING and g.started_at == T0 and g.deadline == at(180)
    with pytest.raises(errors.AlreadyStarted):
        g.start(T0)


def test_nobody_plays_themselves():
    with pytest.raises(errors.InvalidPairing):
        Game.pair(
            game_id=uuid.uuid4(),
            tournament_id=uuid.uuid4(),
            organiser_id=uuid.uuid4(),
            round=1,
            board=1,
            white=WHITE,
            black=WHITE,
            control=ClockRate(60),
            at=T0,
        )


def test_players_alternate_and_moves_are_counted():
    g = game()
    g.move(WHITE, at(5))
    assert (g.moves, g.white_moved, g.black_moved, g.both_moved) == (1, True, False, False)
    with pytest.raises(errors.NotYourTurn):
        g.move(WHITE, at(6))
    with pytest.raises(errors.NotAPlayer):
        g.move(STRANGER, at(6))
    g.move(BLACK, at(8))
    assert (g.moves, g.both_moved) == (2, True)
    assert g.clock.to_move is Side.WHITE and g.deadline == at(8 + 177)


def test_the_flag_falls_without_anyone_reporting_it():
    g = game()
    g.move(WHITE, at(10))  # Black's deadline: 190 s
    assert g.check_flag(at(189)) is False and g.status is GameStatus.RUNNING
    assert g.check_flag(at(250)) is True
    assert (g.status, g.outcome, g.reason, g.finished_at) == (
        GameStatus.FINISHED,
        Outcome.WHITE_WIN,
        "time",
        at(190),
    )
    assert g.both_moved is False  # Black never moved: not rated
    assert g.check_flag(at(300)) is False  # finished once


def test_a_move_after_the_flag_fell_ends_the_game_on_time():
    g = game()
    assert g.move(WHITE, at(5)) is None  # in time: applied (White keeps 177 s)
    assert g.move(BLACK, at(20)) is None  # White's deadline: 20 + 177 = 197 s
    flag_fall = g.move(WHITE, at(197.5))
    assert flag_fall == FlagFall(Side.WHITE, at(197), Outcome.BLACK_WIN)
    assert flag_fall.detail == (
        "white's time ran out at 2026-06-01T12:03:17+00:00: the game is over, 0-1 on time"
    )
    assert (g.status, g.outcome, g.reason, g.finished_at) == (
        GameStatus.FINISHED,
        Outcome.BLACK_WIN,
        "time",
        at(197),
    )
    assert g.moves == 2  # the late move is not counted
    with pytest.raises(errors.GameOver):
        g.move(BLACK, at(198))


def test_an_absent_player_loses_on_time_and_the_game_is_not_rated():
    g = game(days=2, base=0, inc=0)
    g.move(WHITE, at(3600))
    assert g.check_flag(at(3600 + 2 * 86_400))
    assert g.outcome is Outcome.WHITE_WIN and not g.both_moved


def test_a_reported_result_stops_the_clock():
    g = game()
    g.move(WHITE, at(10))
    g.report_result(Outcome.WHITE_WIN, "resignation", at(40))
    assert (g.status, g.outcome, g.reason, g.finished_at) == (
        GameStatus.FINISHED,
        Outcome.WHITE_WIN,
        "resignation",
        at(40),
    )
    assert g.clock.remaining_ms(Side.BLACK, at(10_000)) == 150_000 and g.deadline is None
    assert g.check_flag(at(10_000)) is False


def test_a_second_result_is_refused():
    g = game()
    g.report_result(Outcome.DRAW, "agreement", at(40))
    with pytest.raises(errors.GameOver, match="already finished: 1/2-1/2"):
        g.report_result(Outcome.WHITE_WIN, "resignation", at(41))


def test_a_late_first_move_is_not_counted():
    g = game()
    assert g.move(WHITE, at(181)) == FlagFall(Side.WHITE, at(180), Outcome.BLACK_WIN)
    assert (g.outcome, g.reason, g.finished_at) == (Outcome.BLACK_WIN, "time", at(180))
    assert g.moves == 0 and not g.white_moved
    with pytest.raises(errors.GameOver):
        g.move(BLACK, at(182))


def test_a_result_after_the_flag_fell_is_the_flag_fall():
    g = game()
    assert g.report_result(Outcome.DRAW, "agreement", at(200)) == FlagFall(
        Side.WHITE, at(180), Outcome.BLACK_WIN
    )
    assert (g.outcome, g.reason, g.finished_at) == (Outcome.BLACK_WIN, "time", at(180))
    with pytest.raises(errors.GameOver):
        g.report_result(Outcome.DRAW, "agreement", at(201))


def test_a_forfeit_can_be_entered_before_the_start():
    g = game(start=False)
    g.report_result(Outcome.BLACK_FORFEIT_WIN, "forfeit", T0)
    assert g.status is GameStatus.FINISHED and g.clock.deadline is None


def test_not_played_is_no_result():
    with pytest.raises(errors.InvalidResult, match="not played"):
        game().report_result(Outcome.NOT_PLAYED, "annulled", at(1))


@pytest.mark.parametrize("reason", ["", "Resigned", "two words", "x" * 41, "-dash"])
def test_the_reason_is_a_short_code(reason):
    with pytest.raises(errors.InvalidResult):
        game().report_result(Outcome.DRAW, reason, at(1))


def test_closing_the_tournament_draws_open_games():
    g = game()
    g.move(WHITE, at(10))
    assert g.close(at(20)) is True
    assert (g.outcome, g.reason) == (Outcome.DRAW, "tournament_closed")
    assert g.close(at(30)) is False


def test_closing_after_a_flag_fell_keeps_the_loss_on_time():
    g = game()
    assert g.close(at(500)) is True
    assert (g.outcome, g.reason, g.finished_at) == (Outcome.BLACK_WIN, "time", at(180))


# -- what the game records ----------------------------------------------------------------------------
def test_a_game_records_its_start_and_its_end():
    g = game(start=False)
    assert g.collect_events() == []  # paired: nothing anyone hears of yet
    g.start(at(1))
    g.move(WHITE, at(5))
    g.move(BLACK, at(9))
    g.report_result(Outcome.DRAW, "agreement", at(12))
    assert g.collect_events() == [
        GameStarted(g.tournament_id, g.id, 1, WHITE, BLACK, at(1), ClockRate(180, 2)),
        GameFinished(g.tournament_id, g.id, 1, WHITE, BLACK, Outcome.DRAW, "agreement", 2, at(12), True),
    ]
    assert g.collect_events() == []  # collected once


def test_a_flag_fall_records_the_end_on_time_once():
    g = game()
    g.collect_events()
    g.move(WHITE, at(10))
    assert g.move(BLACK, at(500)) is not None
    assert g.check_flag(at(600)) is False
    assert g.collect_events() == [
        GameFinished(g.tournament_id, g.id, 1, WHITE, BLACK, Outcome.WHITE_WIN, "time", 1, at(190), False)
    ]


def test_a_cancelled_game_records_its_cancellation_and_a_fallen_flag_its_end():
    running, flagged, done = game(), game(), game()
    for g in (running, flagged, done):
        g.collect_events()
    assert running.cancel(at(30)) is True
    assert running.status is GameStatus.CANCELLED and running.clock.deadline is None
    assert running.collect_events() == [
        GameCancelled(running.tournament_id, running.id, 1, "match_decided", at(30), WHITE, BLACK)
    ]
    assert flagged.cancel(at(200)) is True  # White's flag fell at 180 s: it ended on time instead
    assert flagged.status is GameStatus.FINISHED
    [finished] = flagged.collect_events()
    assert isinstance(finished, GameFinished) and finished.reason == "time"
    done.report_result(Outcome.WHITE_WIN, "resignation", at(20))
    done.collect_events()
    assert done.cancel(at(30)) is False and done.collect_events() == []
    assert running.cancel(at(40)) is False and running.collect_events() == []


def test_releasing_a_game_of_an_unpublished_round():
    g = Game.pair(
        game_id=uuid.uuid4(),
        tournament_id=uuid.uuid4(),
        organiser_id=uuid.uuid4(),
        round=1,
        board=1,
        white=WHITE,
        black=BLACK,
        control=ClockRate(60),
        at=T0,
        released=False,
    )
    with pytest.raises(errors.RoundNotPublished):
        g.report_result(Outcome.WHITE_WIN, "forfeit", at(1))
    assert g.release() is True and g.release() is False
    assert g.report_result(Outcome.WHITE_WIN, "forfeit", at(1)) is None
