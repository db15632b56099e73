"""Glicko-2 ratings (RULES.md §2 "Rating"), kept per account, variant and speed class
(``<variant>:<speed>``, :func:`~services.registration.domain.speed.rating_key`): tournament games move
the same rating as any other game of that variant and time control.

The step is Glickman's, "Example of the Glicko-2 system" (Boston University, 2013), steps 1–8, with the
Illinois iteration for the volatility (step 5); ``tests/unit/test_rating.py`` checks it against the
worked example there. No Python library was taken for it: the one on PyPI (``glicko2`` 2.1.0) writes
``μ²`` where step 5's ``f`` has ``φ²``, so its volatilities are off (0.0599934 for the example's
0.0599960), which the example's five printed decimals (0.05999) do not show.

**Decisions** (docs/ratings.md):

* **Rating period: one game.** Each finished rated game is a rating period of one game for each of its
  two players, both updated from their ratings before the game, as online platforms do; games are
  applied in the order their results arrive. There is no decay between games: a deviation grows only
  through the volatility (step 6) of each period, and is never above the newcomer's 350.
* **Defaults**: rating 1500, deviation 350, volatility 0.06, τ = 0.5, ε = 0.000001 (the example's).
* **Which games move ratings** (:func:`moves_ratings`): only games played over the board in a rated
  tournament, in which both sides moved, and that are not a knockout tie-break or sudden-death game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from shared.scoring import Outcome

SCALE: Final = 173.7178
"""Glicko-2's scale: μ = (r − 1500) / 173.7178, φ = RD / 173.7178."""
DEFAULT_RATING: Final = 1500.0
DEFAULT_DEVIATION: Final = 350.0
DEFAULT_VOLATILITY: Final = 0.06
TAU: Final = 0.5
"""The system constant: how much the volatility may change in a period (Glickman: 0.3 to 1.2)."""
EPSILON: Final = 0.000001
MAX_DEVIATION: Final = DEFAULT_DEVIATION


@dataclass(frozen=True)
class Glicko2Rating:
    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    @property
    def shown(self) -> int:
        """The rating as it is shown, and as the minimum rating and seeding compare it."""
        return round(self.rating)


NEWCOMER: Final = Glicko2Rating()


@dataclass(frozen=True)
class PeriodGame:
    """One game of a rating period: the opponent's rating before it and the player's score (1, ½, 0)."""

    opponent: Glicko2Rating
    score: float


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def rating_period(
    player: Glicko2Rating, games: Sequence[PeriodGame], *, tau: float = TAU, epsilon: float = EPSILON
) -> Glicko2Rating:
    """The player's rating after a rating period with ``games`` (Glickman's steps 1–8)."""
    # step 2: to the Glicko-2 scale
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not games:  # a period without games: only the deviation grows (step 6)
        return Glicko2Rating(player.rating, _capped(math.sqrt(phi * phi + sigma * sigma)), sigma)
    opponents = [
        ((g.opponent.rating - DEFAULT_RATING) / SCALE, g.opponent.deviation / SCALE, g.score) for g in games
    ]
    # step 3: the estimated variance of the rating from the game outcomes alone
    v = 1 / sum(
        _g(phi_j) ** 2 * _expected(mu, mu_j, phi_j) * (1 - _expected(mu, mu_j, phi_j))
        for mu_j, phi_j, _ in opponents
    )
    # step 4: the estimated improvement
    improvement = sum(_g(phi_j) * (s - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, s in opponents)
    delta = v * improvement
    # step 5: the new volatility (Illinois algorithm)
    sigma_new = _volatility(delta, phi, v, sigma, tau, epsilon)
    # step 6: the pre-period deviation
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    # step 7: the new deviation and rating
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * improvement
    # step 8: back to the Glicko scale
    return Glicko2Rating(SCALE * mu_new + DEFAULT_RATING, _capped(phi_new), sigma_new)


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float, epsilon: float) -> float:
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (
            tau * tau
        )

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > epsilon:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def _capped(phi: float) -> float:
    return min(phi * SCALE, MAX_DEVIATION)


# -- one game ----------------------------------------------------------------------------------------
_SCORES: Final = {Outcome.WHITE_WIN: (1.0, 0.0), Outcome.DRAW: (0.5, 0.5), Outcome.BLACK_WIN: (0.0, 1.0)}


def rate_game(
    white: Glicko2Rating, black: Glicko2Rating, outcome: Outcome, *, tau: float = TAU
) -> tuple[Glicko2Rating, Glicko2Rating]:
    """Both players' ratings after one game played over the board: a rating period of one game each,
    both from the ratings before it."""
    if outcome not in _SCORES:
        raise ValueError(f"a {outcome.value} game was not played over the board: it moves no rating")
    white_score, black_score = _SCORES[outcome]
    return (
        rating_period(white, [PeriodGame(black, white_score)], tau=tau),
        rating_period(black, [PeriodGame(white, black_score)], tau=tau),
    )


@dataclass(frozen=True)
class FinishedGame:
    """What decides whether a finished game moves ratings (from ``game.finished`` and the tournament)."""

    outcome: Outcome
    tournament_rated: bool
    game_rated: bool = True  # False: a knockout tie-break or sudden-death game
    both_moved: bool | None = None  # None: the game server did not say
    moves: int = 0  # plies played, when both_moved is not given


class RatingDecision(NamedTuple):
    moves: bool
    reason: str


def moves_ratings(game: FinishedGame) -> RatingDecision:
    """Whether the game moves both players' ratings, and why (RULES.md §2, §4)."""
    if not game.tournament_rated:
        return RatingDecision(False, "a friendly tournament")
    if not game.game_rated:
        return RatingDecision(False, "a tie-break or sudden-death game")
    if game.outcome not in _SCORES:
        return RatingDecision(False, "not played over the board (a forfeit, or no game)")
    both_moved = game.both_moved if game.both_moved is not None else game.moves >= 2
    if not both_moved:
        return RatingDecision(False, "one side never moved")
    return RatingDecision(True, "a rated game")
