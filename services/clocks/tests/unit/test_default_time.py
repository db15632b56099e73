"""Over the board and the default time (RULES.md §6), on the Game aggregate and the tournament's timing:
a game whose time the boards keep runs no clock on the server; an arbiter records an absence as a
forfeit; with server clocks a missing first move loses by forfeit at the default time; a game created
before its tournament's timing arrived takes it."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.clocks.domain import errors
from services.clocks.domain.clock import ChangeKind, ClockRate, ClockState, Side
from services.clocks.domain.endings import FlagFall, GameStatus
from services.clocks.domain.events import GameFinished, GameStarted
from services.clocks.domain.game import Game, Outcome
from services.clocks.domain.penalties import PenaltyKind
from services.clocks.domain.tournament import ONLINE, Timekeeping, Timing, Tournament
from shared.authority import Decided, Role
from shared.vocabulary import Ruleset

T0 = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
WHITE, BLACK, ARBITER, STRANGER = (uuid.uuid4() for _ in range(4))
TEN = dt.timedelta(minutes=10)


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def by(seconds: float = 0) -> Decided:
    return Decided(ARBITER, Role.ARBITER, at(seconds))


def game(
    base: int = 900,
    inc: int = 10,
    *,
    server_clock: bool = True,
    default_time: dt.timedelta | None = None,
    start: bool = True,
) -> Game:
    g = Game.pair(
        game_id=uuid.uuid4(),
        tournament_id=uuid.uuid4(),
        organiser_id=uuid.uuid4(),
        round=1,
        board=3,
        white=WHITE,
        black=BLACK,
        control=ClockRate(base, inc),
        at=T0,
        server_clock=server_clock,
        default_time=default_time,
    )
    if start:
        g.start(T0)
        g.collect_events()
    return g


# -- the tournament's timing ---------------------------------------------------------------------------
def test_timing():
    assert Timing(Timekeeping.SERVER, None) == ONLINE and ONLINE.server_clock and ONLINE.default_time is None
    assert Timing(Timekeeping.SERVER, 10).default_time == TEN
    assert Timing(Timekeeping.SERVER, 0).default_time is None  # no default time
    board = Timing(Timekeeping.BOARD, 10)
    assert not board.server_clock and board.default_time is None  # the arbiter records absences


def test_a_tournament_keeps_its_timing():
    t = Tournament(uuid.uuid4())
    assert t.timing == ONLINE
    organiser = uuid.uuid4()
    assert t.start(organiser, Ruleset.FIDE_RAPID, Timing(Timekeeping.BOARD, 10))
    assert not t.start(organiser, Ruleset.FIDE_RAPID, Timing(Timekeeping.BOARD, 10))
    assert t.start(organiser, Ruleset.FIDE_RAPID, Timing(Timekeeping.SERVER, 10))


# -- over the board ------------------------------------------------------------------------------------
def test_over_the_board_the_server_runs_no_clock():
    g = game(server_clock=False, default_time=TEN, start=False)
    assert g.default_time is None  # the arbiter records absences over the board
    assert g.start(T0) is None
    assert g.status is GameStatus.RUNNING and g.started_at == T0
    assert g.clock.state is ClockState.PENDING and g.deadline is None
    assert g.collect_events() == [GameStarted(g.tournament_id, g.id, 1, WHITE, BLACK, T0, g.control)]
    with pytest.raises(errors.BoardClock):
        g.move(WHITE, at(1))
    assert not g.check_flag(at(100_000))  # no flag falls, whatever the time


def test_over_the_board_a_result_is_entered_with_no_clock_to_stop():
    g = game(server_clock=False)
    assert g.report_result(Outcome.WHITE_WIN, "reported", at(3_000), decision=by(3_000)) is None
    [finished] = g.collect_events()
    assert isinstance(finished, GameFinished)
    assert (finished.outcome, finished.both_moved, finished.moves) == (Outcome.WHITE_WIN, None, 0)
    assert g.clock.collect_changes() == []


def test_over_the_board_players_still_report_as_players():
    g = game(server_clock=False)
    g.claim(WHITE, Outcome.DRAW, "agreement", at(50))
    g.claim(BLACK, Outcome.DRAW, "agreement", at(60))
    assert g.outcome is Outcome.DRAW


def test_a_colour_swap_over_the_board():
    g = game(server_clock=False)
    g.swap_colours(at(30), by(30))
    assert (g.white, g.black) == (BLACK, WHITE) and g.clock.state is ClockState.PENDING


def test_a_board_game_is_cancelled_and_closed_with_no_clock():
    g = game(server_clock=False)
    assert g.cancel(at(10))
    h = game(server_clock=False)
    assert h.close(at(10)) and h.outcome is Outcome.DRAW


# -- absences recorded by an arbiter -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("absent", "opponent_absent", "outcome"),
    [
        (WHITE, False, Outcome.BLACK_FORFEIT_WIN),
        (BLACK, False, Outcome.WHITE_FORFEIT_WIN),
        (WHITE, True, Outcome.DOUBLE_FORFEIT),
        (BLACK, True, Outcome.DOUBLE_FORFEIT),
    ],
)
def test_an_absence_is_a_forfeit(absent, opponent_absent, outcome):
    g = game(server_clock=False)
    assert g.absence(absent, at(600), by(600), opponent_absent=opponent_absent) is None
    [finished] = g.collect_events()
    assert isinstance(finished, GameFinished)
    assert (finished.outcome, finished.reason, finished.finished_at, finished.decision) == (
        outcome,
        "default_time",
        at(600),
        by(600),
    )


def test_an_absence_within_the_round_only():
    g = game(server_clock=False)
    g.absence(WHITE, at(600), by(600))
    with pytest.raises(errors.GameOver):  # the opponent's absence after the result: too late
        g.absence(BLACK, at(601), by(601))
    h = game(server_clock=False)
    h.report_result(Outcome.DRAW, "reported", at(60), decision=by(60))
    with pytest.raises(errors.GameOver):
        h.absence(WHITE, at(600), by(600))
    c = game(server_clock=False)
    c.cancel(at(1))
    with pytest.raises(errors.GameAlreadyCancelled):
        c.absence(WHITE, at(600), by(600))


def test_an_absence_names_a_player_of_the_game():
    g = game(server_clock=False)
    with pytest.raises(errors.PlayerNotInGame):
        g.absence(STRANGER, at(600), by(600))
    assert g.status is GameStatus.RUNNING


def test_no_absence_in_a_disputed_game():
    g = game(server_clock=False)
    g.claim(WHITE, Outcome.WHITE_WIN, "checkmate", at(1), players_run_games=lambda: True)
    g.claim(BLACK, Outcome.BLACK_WIN, "checkmate", at(2), players_run_games=lambda: True)
    with pytest.raises(errors.ResultDisputed):
        g.absence(WHITE, at(600), by(600))


def test_an_absence_for_a_game_not_started_yet():
    g = game(server_clock=False, start=False)
    g.absence(BLACK, at(600), by(600))
    assert (g.status, g.outcome) == (GameStatus.FINISHED, Outcome.WHITE_FORFEIT_WIN)


def test_on_the_servers_clock_a_player_who_moved_was_there():
    g = game()
    g.move(WHITE, at(5))
    with pytest.raises(errors.PlayerMoved):
        g.absence(WHITE, at(100), by(100))
    with pytest.raises(errors.PlayerMoved):
        g.absence(BLACK, at(100), by(100), opponent_absent=True)
    g.absence(BLACK, at(100), by(100))
    assert (g.outcome, g.reason, g.clock.state) == (
        Outcome.WHITE_FORFEIT_WIN,
        "default_time",
        ClockState.STOPPED,
    )


# -- the default time on the server's clock ------------------------------------------------------------
def test_white_with_no_first_move_loses_by_forfeit_at_the_default_time():
    g = game(default_time=TEN)
    assert g.deadline == at(600)  # before White's flag (900 s)
    assert not g.check_flag(at(599.999))
    assert g.check_flag(at(612))  # the ticker noticed late: recorded at the default time
    assert (g.outcome, g.reason, g.finished_at, g.decision) == (
        Outcome.BLACK_FORFEIT_WIN,
        "default_time",
        at(600),
        None,
    )
    [finished] = g.collect_events()
    assert isinstance(finished, GameFinished) and finished.both_moved is False
    stop = g.clock.collect_changes()[-1]
    assert (stop.kind, stop.at, stop.reason) == (ChangeKind.STOPPED, at(600), "default_time")
    assert g.deadline is None


def test_black_counts_from_the_start_too():
    g = game(default_time=TEN)
    g.move(WHITE, at(5))
    assert g.deadline == at(600)  # not Black's flag at 5 + 900 s
    assert g.check_flag(at(600))
    assert (g.outcome, g.reason) == (Outcome.WHITE_FORFEIT_WIN, "default_time")


def test_once_both_moved_only_the_flag_remains():
    g = game(default_time=TEN)
    g.move(WHITE, at(5))
    g.move(BLACK, at(590))
    assert g.deadline == at(590) + dt.timedelta(milliseconds=900_000 - 5_000 + 10_000)  # White's flag
    assert not g.check_flag(at(601))


def test_the_flag_first_when_the_base_time_is_shorter():
    g = game(base=300, inc=5, default_time=TEN)
    assert g.deadline == at(300)
    assert g.check_flag(at(650))
    assert (g.outcome, g.reason, g.finished_at) == (Outcome.BLACK_WIN, "time", at(300))


def test_a_move_after_the_default_time_is_refused_and_the_game_ends_by_forfeit():
    g = game(default_time=TEN)
    assert g.move(WHITE, at(600)) == FlagFall(Side.WHITE, at(600), Outcome.BLACK_FORFEIT_WIN, "default_time")
    assert g.moves == 0 and g.status is GameStatus.FINISHED


def test_the_refusal_says_it_was_the_default_time():
    fall = FlagFall(Side.BLACK, at(600), Outcome.WHITE_FORFEIT_WIN, "default_time")
    assert "had not moved by the default time" in fall.detail and "by forfeit" in fall.detail
    assert "ran out" in FlagFall(Side.BLACK, at(600), Outcome.WHITE_WIN).detail


def test_a_result_or_a_penalty_after_the_default_time_finds_the_game_forfeited():
    g = game(default_time=TEN)
    fall = g.report_result(Outcome.DRAW, "agreement", at(700), decision=by(700))
    assert fall is not None and fall.reason == "default_time" and g.outcome is Outcome.BLACK_FORFEIT_WIN
    h = game(default_time=TEN)
    h.move(WHITE, at(1))
    fall = h.penalise(WHITE, PenaltyKind.ILLEGAL_MOVE, at(601), by(601))
    assert fall is not None and h.outcome is Outcome.WHITE_FORFEIT_WIN and h.incidents == []


def test_an_arbiters_absence_after_the_default_time_finds_the_servers_forfeit():
    g = game(default_time=TEN)
    fall = g.absence(WHITE, at(700), by(700))
    assert fall == FlagFall(Side.WHITE, at(600), Outcome.BLACK_FORFEIT_WIN, "default_time")
    assert g.decision is None  # the server's forfeit, not the arbiter's


def test_a_player_claim_after_the_default_time():
    g = game(default_time=TEN)
    assert g.claim(WHITE, Outcome.BLACK_WIN, "resignation", at(601)) is not None
    assert g.reason == "default_time"


def test_a_colour_swap_after_the_default_time():
    g = game(default_time=TEN)
    assert g.swap_colours(at(601), by(601)) is not None and g.reason == "default_time"


def test_closing_the_tournament_after_the_default_time():
    g = game(default_time=TEN)
    assert g.close(at(700)) and g.reason == "default_time"


def test_without_a_default_time_nothing_changes():
    g = game()
    assert g.deadline == at(900) and not g.check_flag(at(899))


# -- the tournament's timing arriving after the game -------------------------------------------------
def test_a_game_created_before_its_timing_keeps_it():
    g = game()  # created on the server's clock: its tournament was not known yet
    assert g.keep_time(False, TEN, at(3))
    assert not g.server_clock and g.default_time is None and g.deadline is None
    stop = g.clock.collect_changes()[-1]
    assert (stop.kind, stop.reason, stop.at) == (ChangeKind.STOPPED, "board_clock", at(3))
    assert not g.keep_time(False, TEN, at(4))
    with pytest.raises(errors.BoardClock):
        g.move(WHITE, at(5))
    g.report_result(Outcome.WHITE_WIN, "reported", at(3_000), decision=by(3_000))
    assert g.outcome is Outcome.WHITE_WIN


def test_a_server_game_takes_its_default_time_late():
    g = game()
    assert g.keep_time(True, TEN, at(3))
    assert g.default_time == TEN and g.deadline == at(600) and g.clock.running
    pending = game(start=False)
    assert pending.keep_time(False, None, at(3))
    pending.start(at(4))
    assert pending.clock.state is ClockState.PENDING


def test_a_default_time_already_past_is_not_applied_after_the_fact():
    g = game()
    g.move(WHITE, at(650))
    assert not g.keep_time(True, TEN, at(700))
    assert g.default_time is None and g.status is GameStatus.RUNNING


def test_a_finished_game_keeps_what_it_was():
    g = game()
    g.report_result(Outcome.DRAW, "agreement", at(5))
    assert not g.keep_time(False, None, at(6)) and g.server_clock
