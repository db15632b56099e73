"""The FIDE rapid penalties (RULES.md §6; fide-rapid-regulations §3, §4) on the rule alone and on the Game
aggregate: illegal moves counted per game, displaced pieces counted across the tournament, the warning
skipped under one minute, the extra minute on the server's clock or in the record, a loss that ends the
game with nobody entering it, and the refusals."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.clocks.domain import errors
from services.clocks.domain.clock import ChangeKind, ClockRate, Side
from services.clocks.domain.endings import FlagFall, GameStatus
from services.clocks.domain.events import GameFinished, GamePenalised
from services.clocks.domain.game import Game, Outcome
from services.clocks.domain.penalties import (
    Consequence,
    Incident,
    PenaltyKind,
    Sanction,
    sanction,
    under_a_minute,
)
from shared.authority import Decided, Role

T0 = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
WHITE, BLACK, ARBITER, STRANGER = (uuid.uuid4() for _ in range(4))
ILLEGAL, DISPLACED = PenaltyKind.ILLEGAL_MOVE, PenaltyKind.DISPLACED_PIECES
WARNING, MINUTE, LOSS = Consequence.WARNING, Consequence.EXTRA_MINUTE, Consequence.LOSS


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def by(seconds: float = 0) -> Decided:
    return Decided(ARBITER, Role.ARBITER, at(seconds))


def game(base: int = 900, inc: int = 10, *, server_clock: bool = True) -> Game:
    g = Game.pair(
        game_id=uuid.uuid4(),
        tournament_id=uuid.uuid4(),
        organiser_id=uuid.uuid4(),
        round=2,
        board=1,
        white=WHITE,
        black=BLACK,
        control=ClockRate(base, inc),
        at=T0,
        server_clock=server_clock,
    )
    g.start(T0)
    g.collect_events()
    return g


def board_game() -> Game:
    return game(server_clock=False)


# -- the rule ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("illegal_before", "expected"),
    [(0, Sanction(1, MINUTE)), (1, Sanction(2, LOSS)), (2, Sanction(3, LOSS))],
)
def test_an_illegal_move_first_gives_the_minute_then_loses(illegal_before, expected):
    for under in (False, True):  # the time left plays no part in an illegal move
        assert (
            sanction(ILLEGAL, illegal_moves_before=illegal_before, displaced_before=5, under_a_minute=under)
            == expected
        )


@pytest.mark.parametrize(
    ("displaced_before", "illegal_before", "under", "expected"),
    [
        (0, 0, False, Sanction(1, WARNING)),  # first: a warning
        (1, 0, False, Sanction(2, MINUTE)),  # second: an illegal move, the first of this game
        (1, 1, False, Sanction(2, LOSS)),  # ... the second of this game
        (2, 0, False, Sanction(3, LOSS)),  # third: a second illegal move
        (3, 0, False, Sanction(4, LOSS)),  # and every later one
        (0, 0, True, Sanction(1, MINUTE)),  # under a minute: the first counts as a second
        (0, 1, True, Sanction(1, LOSS)),
        (1, 0, True, Sanction(2, LOSS)),  # ... and a second as a third ("respectively")
    ],
)
def test_displaced_pieces_warn_then_count_as_illegal_moves(displaced_before, illegal_before, under, expected):
    got = sanction(
        DISPLACED,
        illegal_moves_before=illegal_before,
        displaced_before=displaced_before,
        under_a_minute=under,
    )
    assert got == expected


@pytest.mark.parametrize(
    ("white", "black", "under"),
    [
        (60_000, 60_000, False),
        (59_999, 600_000, True),
        (600_000, 59_999, True),
        (0, 0, True),
        (None, None, False),
        (None, 1_000, True),
    ],
)
def test_under_a_minute_is_either_side(white, black, under):
    assert under_a_minute(white, black) is under


# -- illegal moves on the server's clock ---------------------------------------------------------------
def test_the_first_illegal_move_gives_the_opponent_a_minute_on_the_clock():
    g = game()
    g.move(WHITE, at(10))  # White 900 - 10 + 10 = 900 s; Black to move from 10 s
    assert g.penalise(BLACK, ILLEGAL, at(40), by(40)) is None
    # White (waiting) gets the minute; Black's clock runs on
    assert g.clock.remaining_ms(Side.WHITE, at(40)) == 960_000
    assert g.clock.remaining_ms(Side.BLACK, at(40)) == 870_000
    change = g.clock.collect_changes()[-1]
    assert (change.kind, change.side, change.delta_ms, change.reason) == (
        ChangeKind.ADJUSTED,
        Side.WHITE,
        60_000,
        "illegal_move_penalty",
    )
    assert g.incidents == [Incident(at(40), ILLEGAL, BLACK, 1, MINUTE, by(40), 900_000, 870_000)]
    assert g.collect_events() == [GamePenalised(g.tournament_id, g.id, 2, BLACK, ILLEGAL, 1, MINUTE, by(40))]
    assert g.status is GameStatus.RUNNING


def test_the_minute_for_the_side_to_move_moves_its_deadline():
    g = game()
    g.penalise(BLACK, ILLEGAL, at(5), by(5))  # White to move: White's flag falls a minute later
    assert g.deadline == at(960)


def test_the_second_illegal_move_loses_the_game_with_nobody_entering_it():
    g = game()
    g.penalise(WHITE, ILLEGAL, at(30), by(30))
    g.collect_events()
    assert g.penalise(WHITE, ILLEGAL, at(90), by(90)) is None
    assert (g.status, g.outcome, g.reason, g.finished_at, g.decision) == (
        GameStatus.FINISHED,
        Outcome.BLACK_WIN,
        "illegal_move",
        at(90),
        by(90),
    )
    penalised, finished = g.collect_events()
    assert penalised == GamePenalised(g.tournament_id, g.id, 2, WHITE, ILLEGAL, 2, LOSS, by(90))
    assert isinstance(finished, GameFinished) and finished.outcome is Outcome.BLACK_WIN
    assert finished.decision == by(90) and finished.reason == "illegal_move"
    assert g.deadline is None and not g.clock.running


def test_illegal_moves_count_per_player():
    g = game()
    g.penalise(WHITE, ILLEGAL, at(30), by(30))
    g.penalise(BLACK, ILLEGAL, at(40), by(40))
    assert [(i.player_id, i.occurrence, i.consequence) for i in g.incidents] == [
        (WHITE, 1, MINUTE),
        (BLACK, 1, MINUTE),
    ]
    assert g.clock.remaining_ms(Side.WHITE, at(40)) == 900_000 + 60_000 - 40_000
    assert g.clock.remaining_ms(Side.BLACK, at(40)) == 900_000 + 60_000


def test_illegal_moves_count_per_game():
    earlier = game()
    earlier.penalise(WHITE, ILLEGAL, at(30), by(30))
    later = game()  # another game of the same player: their first illegal move there
    later.penalise(WHITE, ILLEGAL, at(30), by(30), displaced_elsewhere=0)
    assert later.incidents[0].consequence is MINUTE and later.status is GameStatus.RUNNING


# -- displaced pieces ----------------------------------------------------------------------------------
def test_displaced_pieces_first_a_warning_then_an_illegal_move_then_the_loss():
    g = game()
    g.penalise(WHITE, DISPLACED, at(30), by(30))
    assert g.incidents[-1].consequence is WARNING
    assert g.clock.remaining_ms(Side.BLACK, at(30)) == 900_000  # a warning changes no clock
    g.penalise(WHITE, DISPLACED, at(60), by(60))
    assert (g.incidents[-1].occurrence, g.incidents[-1].consequence) == (2, MINUTE)
    assert g.clock.remaining_ms(Side.BLACK, at(60)) == 960_000
    g.penalise(WHITE, DISPLACED, at(90), by(90))
    assert (g.incidents[-1].occurrence, g.incidents[-1].consequence) == (3, LOSS)
    assert (g.outcome, g.reason) == (Outcome.BLACK_WIN, "illegal_move")


def test_displaced_pieces_count_across_the_tournament():
    g = game()
    g.penalise(BLACK, DISPLACED, at(30), by(30), displaced_elsewhere=1)  # warned in an earlier round
    assert (g.incidents[-1].occurrence, g.incidents[-1].consequence) == (2, MINUTE)
    h = game()
    h.penalise(BLACK, DISPLACED, at(30), by(30), displaced_elsewhere=2)  # its third: the game is lost
    assert (h.incidents[-1].occurrence, h.outcome) == (3, Outcome.WHITE_WIN)


def test_displaced_pieces_as_an_illegal_move_follow_the_illegal_moves_of_the_game():
    g = game()
    g.penalise(WHITE, ILLEGAL, at(20), by(20))
    g.penalise(WHITE, DISPLACED, at(30), by(30), displaced_elsewhere=1)  # treated as a second illegal move
    assert (g.incidents[-1].occurrence, g.incidents[-1].consequence) == (2, LOSS)
    assert g.outcome is Outcome.BLACK_WIN


def test_displaced_pieces_treated_as_an_illegal_move_count_as_one_in_the_game():
    g = game()
    g.penalise(WHITE, DISPLACED, at(20), by(20), displaced_elsewhere=1)  # the minute
    g.penalise(WHITE, ILLEGAL, at(30), by(30))  # the second illegal move of this game
    assert (g.incidents[-1].occurrence, g.incidents[-1].consequence) == (2, LOSS)
    assert g.outcome is Outcome.BLACK_WIN


def test_a_warning_is_not_an_illegal_move():
    g = game()
    g.penalise(WHITE, DISPLACED, at(20), by(20))  # a warning
    g.penalise(WHITE, ILLEGAL, at(30), by(30))
    assert (g.incidents[-1].occurrence, g.incidents[-1].consequence) == (1, MINUTE)


def test_under_a_minute_on_the_servers_clock_the_warning_is_skipped():
    g = game(base=180, inc=0)
    g.move(WHITE, at(130))  # White has 50 s left
    g.penalise(BLACK, DISPLACED, at(131), by(131))
    assert (g.incidents[-1].occurrence, g.incidents[-1].consequence) == (1, MINUTE)
    assert (g.incidents[-1].white_ms, g.incidents[-1].black_ms) == (50_000, 179_000)
    assert g.clock.remaining_ms(Side.WHITE, at(131)) == 110_000


def test_with_a_minute_each_the_warning_stands():
    g = game(base=60, inc=0)
    g.penalise(BLACK, DISPLACED, T0, by())
    assert g.incidents[-1].consequence is WARNING


# -- over the board ------------------------------------------------------------------------------------
def test_over_the_board_the_incident_is_the_record():
    g = board_game()
    g.penalise(WHITE, ILLEGAL, at(300), by(300))
    assert g.incidents == [Incident(at(300), ILLEGAL, WHITE, 1, MINUTE, by(300), None, None)]
    assert not g.clock.running and g.clock.collect_changes() == [] and g.deadline is None
    g.penalise(WHITE, ILLEGAL, at(400), by(400), white_ms=120_000, black_ms=300_000)
    assert (g.outcome, g.reason, g.incidents[-1].white_ms) == (Outcome.BLACK_WIN, "illegal_move", 120_000)


def test_over_the_board_displaced_pieces_need_the_stated_times():
    g = board_game()
    for times in ({}, {"white_ms": 100_000}, {"black_ms": 100_000}):
        with pytest.raises(errors.TimesRequired):
            g.penalise(WHITE, DISPLACED, at(300), by(300), **times)
    assert g.incidents == [] and g.collect_events() == []
    g.penalise(WHITE, DISPLACED, at(300), by(300), white_ms=200_000, black_ms=100_000)
    assert g.incidents[-1].consequence is WARNING
    g.penalise(BLACK, DISPLACED, at(310), by(310), white_ms=200_000, black_ms=59_000)
    assert g.incidents[-1].consequence is MINUTE  # the stated times: the warning is skipped


def test_the_servers_clock_says_the_times():
    g = game()
    with pytest.raises(errors.TimesFromTheClock):
        g.penalise(WHITE, DISPLACED, at(30), by(30), white_ms=10_000, black_ms=10_000)
    assert g.incidents == []


# -- refusals ------------------------------------------------------------------------------------------
def test_a_penalty_names_a_player_of_the_game():
    with pytest.raises(errors.PlayerNotInGame):
        game().penalise(STRANGER, ILLEGAL, at(1), by(1))


def test_no_penalty_on_a_finished_disputed_or_pending_game():
    done = game()
    done.report_result(Outcome.DRAW, "agreement", at(5))
    with pytest.raises(errors.GameOver):
        done.penalise(WHITE, ILLEGAL, at(6), by(6))
    disputed = game()
    disputed.claim(WHITE, Outcome.WHITE_WIN, "checkmate", at(1), players_run_games=lambda: True)
    disputed.claim(BLACK, Outcome.BLACK_WIN, "checkmate", at(2), players_run_games=lambda: True)
    with pytest.raises(errors.ResultDisputed):
        disputed.penalise(WHITE, ILLEGAL, at(3), by(3))
    pending = Game.pair(
        game_id=uuid.uuid4(),
        tournament_id=uuid.uuid4(),
        organiser_id=uuid.uuid4(),
        round=1,
        board=1,
        white=WHITE,
        black=BLACK,
        control=ClockRate(900, 10),
        at=T0,
    )
    with pytest.raises(errors.GameNotStarted):
        pending.penalise(WHITE, ILLEGAL, at(3), by(3))
    for g in (done, disputed, pending):
        assert g.incidents == []


def test_a_penalty_after_the_flag_fell_ends_the_game_on_time_instead():
    g = game(base=60, inc=0)
    assert g.penalise(BLACK, ILLEGAL, at(61), by(61)) == FlagFall(Side.WHITE, at(60), Outcome.BLACK_WIN)
    assert g.incidents == [] and (g.outcome, g.reason) == (Outcome.BLACK_WIN, "time")
