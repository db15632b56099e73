"""Sonneborn-Berger (SB, C.07 Art. 8.2): for each round, the opponent's score times the points the
participant made against them; unplayed rounds against a dummy opponent (16.4), the opponents'
scores adjusted (16.3). Cuts judge significance by the opponent's score (14.1.1).

The platform's definition (:attr:`~services.standings.domain.context.Rules.platform_definitions`,
RULES.md §2): "the points of the beaten opponents plus half the points of the drawn ones" — each
opponent's final score times the points made against them divided by a win's points (a win counts
the whole score, a draw half of it), every scheduled opponent counted as for BH. On 2-1-0 that is
half of C.07's product; on 1-½-0 the two agree."""

from __future__ import annotations

from fractions import Fraction

from services.standings.domain.buchholz import contributions
from services.standings.domain.context import TieBreakContext
from services.standings.domain.cuts import cut_sum

__all__ = ["sonneborn_berger"]


def sonneborn_berger(ctx: TieBreakContext, start: int, low: int = 0, high: int = 0) -> Fraction:
    total = cut_sum(contributions(ctx, start, sonneborn_berger=True, fore=False), low, high)
    value = ctx.points(total, squared=True)
    if ctx.rules.platform_definitions:
        return value / ctx.history.point_system.win
    return value
