"""Glicko-2 (services/registration/domain/rating.py) against Glickman's worked example, and which games
move ratings."""

from __future__ import annotations

import math

import pytest

from services.registration.domain.rating import (
    NEWCOMER,
    SCALE,
    FinishedGame,
    Glicko2Rating,
    PeriodGame,
    moves_ratings,
    rate_game,
    rating_period,
)
from shared.scoring import Outcome


def test_glickmans_worked_example():
    """Glickman, "Example of the Glicko-2 system" (2013): a player rated 1500, RD 200, σ 0.06, τ 0.5
    plays 1400/30 (wins), 1550/100 (loses) and 1700/300 (loses) in one period → 1464.06, 151.52,
    0.05999."""
    player = Glicko2Rating(1500, 200, 0.06)
    games = [
        PeriodGame(Glicko2Rating(1400, 30), 1),
        PeriodGame(Glicko2Rating(1550, 100), 0),
        PeriodGame(Glicko2Rating(1700, 300), 0),
    ]
    after = rating_period(player, games, tau=0.5)
    # the paper works with rounded intermediate figures: μ' = −0.2069 gives 1464.06 where the unrounded
    # step gives 1464.0507, and σ' = 0.05999 where it gives 0.0599960
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert round(after.deviation, 2) == 151.52
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)
    # the example's Glicko-2 scale figures: μ' = −0.2069, φ' = 0.8722
    assert round((after.rating - 1500) / SCALE, 4) == -0.2069
    assert round(after.deviation / SCALE, 4) == 0.8722


def paper_f(x: float, delta: float, phi: float, v: float, a: float, tau: float) -> float:
    """Step 5's f, written out from the paper (with φ², the deviation)."""
    ex = math.exp(x)
    return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2


@pytest.mark.parametrize(
    ("player", "opponent", "score"),
    [
        (Glicko2Rating(1900, 80, 0.06), Glicko2Rating(1400, 60), 0),  # an upset: the volatility rises
        (Glicko2Rating(1200, 300, 0.09), Glicko2Rating(2100, 50), 1),
        (Glicko2Rating(2300, 45, 0.05), Glicko2Rating(2280, 70), 0.5),
    ],
)
def test_the_new_volatility_is_the_root_of_step_5_for_any_rating(player, opponent, score):
    """Away from 1500 (μ ≠ 0) too: the volatility solves f(ln σ'²) = 0 with the deviation in f."""
    mu, phi = (player.rating - 1500) / SCALE, player.deviation / SCALE
    mu_j, phi_j = (opponent.rating - 1500) / SCALE, opponent.deviation / SCALE
    g = 1 / math.sqrt(1 + 3 * phi_j**2 / math.pi**2)
    e = 1 / (1 + math.exp(-g * (mu - mu_j)))
    v = 1 / (g**2 * e * (1 - e))
    delta = v * g * (score - e)
    after = rating_period(player, [PeriodGame(opponent, score)])
    x = math.log(after.volatility**2)
    assert abs(paper_f(x, delta, phi, v, math.log(player.volatility**2), 0.5)) < 1e-6
    # and steps 6-8 follow from it
    phi_new = 1 / math.sqrt(1 / (phi**2 + after.volatility**2) + 1 / v)
    assert after.deviation == pytest.approx(phi_new * SCALE)
    assert after.rating == pytest.approx(1500 + SCALE * (mu + phi_new**2 * g * (score - e)))


def test_a_period_without_games_only_widens_the_deviation():
    after = rating_period(Glicko2Rating(1600, 200, 0.06), [])
    assert (after.rating, after.volatility) == (1600, 0.06)
    assert after.deviation == pytest.approx(math.hypot(200, 0.06 * SCALE))
    assert rating_period(NEWCOMER, []).deviation == 350  # never less certain than a newcomer


def test_one_game_moves_both_ratings_from_their_ratings_before_it():
    white, black = Glicko2Rating(1700, 90, 0.06), Glicko2Rating(1500, 150, 0.06)
    new_white, new_black = rate_game(white, black, Outcome.BLACK_WIN)
    assert new_white.rating < white.rating and new_black.rating > black.rating
    assert new_white.deviation < white.deviation and new_black.deviation < black.deviation
    assert new_white == rating_period(white, [PeriodGame(black, 0)])
    assert new_black == rating_period(black, [PeriodGame(white, 1)])
    # colours do not matter to the rating
    assert rate_game(black, white, Outcome.WHITE_WIN) == (new_black, new_white)


def test_a_draw_between_equals_leaves_their_ratings():
    a, b = rate_game(NEWCOMER, NEWCOMER, Outcome.DRAW)
    assert a == b and a.rating == pytest.approx(1500) and a.deviation < 350
    assert a.shown == 1500


def test_a_game_not_played_over_the_board_cannot_be_rated():
    with pytest.raises(ValueError, match="not played over the board"):
        rate_game(NEWCOMER, NEWCOMER, Outcome.WHITE_FORFEIT_WIN)


@pytest.mark.parametrize(
    ("game", "moves", "reason"),
    [
        (FinishedGame(Outcome.WHITE_WIN, tournament_rated=True, both_moved=True), True, "a rated game"),
        (FinishedGame(Outcome.DRAW, tournament_rated=True, moves=2), True, "a rated game"),
        (
            FinishedGame(Outcome.WHITE_WIN, tournament_rated=False, both_moved=True),
            False,
            "a friendly tournament",
        ),
        (
            FinishedGame(Outcome.BLACK_WIN, tournament_rated=True, game_rated=False, both_moved=True),
            False,
            "a tie-break or sudden-death game",
        ),
        (
            FinishedGame(Outcome.WHITE_WIN, tournament_rated=True, both_moved=False, moves=1),
            False,
            "one side never moved",
        ),
        (FinishedGame(Outcome.BLACK_WIN, tournament_rated=True, moves=1), False, "one side never moved"),
        (
            FinishedGame(Outcome.WHITE_FORFEIT_WIN, tournament_rated=True),
            False,
            "not played over the board (a forfeit, or no game)",
        ),
        (
            FinishedGame(Outcome.DOUBLE_FORFEIT, tournament_rated=True),
            False,
            "not played over the board (a forfeit, or no game)",
        ),
    ],
)
def test_which_games_move_ratings(game, moves, reason):
    assert tuple(moves_ratings(game)) == (moves, reason)
