"""Rating-based tie-breaks, C.07 Art. 10.

Only games played over the board count (forfeits and byes do not, 15.2). Ratings of unrated
opponents come from the ruleset (:class:`~services.standings.domain.context.Rules`); without one,
and with any participant unrated, these values are undefined.

- **ARO** (10.1): the average rating of the opponents, rounded half up to an integer. ARO-Cn and
  ARO-Mn cut the lowest (and highest) ratings; nothing left is undefined.
- **TPR** (10.2): ARO + dp(p), p = the points made in those games (1, ½, 0 each, whatever the
  event's point system) over their number, as a percentage rounded half up; dp from FIDE B.02
  table 8.1(a).
- **PTP** (10.3): the lowest integer rating R whose expected score (FIDE B.02 table 8.1(b)) against
  those opponents reaches the points made; with no points, the lowest opponent rating − 800.
- **APRO** (10.4): the average of the opponents' TPR, rounded half up to an integer.
"""

from __future__ import annotations

from fractions import Fraction

from services.standings.domain.buchholz import round_half_up
from services.standings.domain.context import TieBreakContext, Value
from services.standings.domain.rating_tables import dp_for_percentage, expected_hundredths
from shared.scoring import Result

__all__ = [
    "average_performance_of_opponents",
    "average_rating_of_opponents",
    "perfect_performance",
    "performance_rating",
]

_RATING_POINTS = {Result.WIN: Fraction(1), Result.DRAW: Fraction(1, 2), Result.LOSS: Fraction(0)}


def _games(ctx: TieBreakContext, start: int, low: int, high: int) -> list[tuple[int, Fraction]] | None:
    """(opponent rating, rating points) of the games played over the board, after the cuts; None
    when ratings are undefined."""
    if not ctx.ratings_defined():
        return None
    me = ctx.basis(start)
    games: list[tuple[int, Fraction, int]] = []
    for i, opponent in enumerate(me.opponents):
        if opponent and me.played[i]:
            rating = ctx.rating(opponent)
            assert rating is not None
            games.append((rating, _RATING_POINTS[me.results[i]], i + 1))
    games.sort(key=lambda g: (g[0], g[2]))
    for _ in range(min(low, len(games))):
        games.pop(0)
    for _ in range(min(high, len(games))):
        games.pop()
    return [(rating, points) for rating, points, _ in games]


def _average(ratings: list[int]) -> int:
    return int(round_half_up(Fraction(sum(ratings), len(ratings))))


def average_rating_of_opponents(ctx: TieBreakContext, start: int, low: int = 0, high: int = 0) -> Value:
    games = _games(ctx, start, low, high)
    if not games:
        return None
    return _average([rating for rating, _ in games])


def performance_rating(ctx: TieBreakContext, start: int, low: int = 0, high: int = 0) -> Value:
    games = _games(ctx, start, low, high)
    if not games:
        return None
    points = sum((p for _, p in games), Fraction(0))
    percentage = int(round_half_up(points * 100 / len(games)))
    return _average([rating for rating, _ in games]) + dp_for_percentage(percentage)


def perfect_performance(ctx: TieBreakContext, start: int, low: int = 0, high: int = 0) -> Value:
    games = _games(ctx, start, low, high)
    if not games:
        return None
    ratings = [rating for rating, _ in games]
    target = int(sum((p for _, p in games), Fraction(0)) * 100)  # hundredths of a point
    if target == 0:
        return min(ratings) - 800
    low_r, high_r = min(ratings) - 800, max(ratings) + 800  # sum(low_r) < target <= sum(high_r)
    while high_r - low_r > 1:
        middle = (low_r + high_r) // 2
        if sum(expected_hundredths(middle, r) for r in ratings) >= target:
            high_r = middle
        else:
            low_r = middle
    return high_r


def plain_performance(ctx: TieBreakContext, start: int) -> Value:
    return ctx.memoised("TPR", start, lambda: performance_rating(ctx, start))


def average_performance_of_opponents(ctx: TieBreakContext, start: int) -> Value:
    found = (plain_performance(ctx, opponent) for opponent in ctx.basis(start).opponents_met)
    values = [int(tpr) for tpr in found if tpr is not None]
    if not values:
        return None
    return _average(values)
