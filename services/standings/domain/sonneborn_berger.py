"""Sonneborn-Berger (SB, C.07 Art. 8.2): for each round, the opponent's score times the points the
participant made against them; unplayed rounds against a dummy opponent (16.4), the opponents'
scores adjusted (16.3). Cuts judge significance by the opponent's score (14.1.1)."""

from __future__ import annotations

from fractions import Fraction

from services.standings.domain.buchholz import contributions
from services.standings.domain.context import Context
from services.standings.domain.cuts import cut_sum

__all__ = ["sonneborn_berger"]


def sonneborn_berger(ctx: Context, start: int, low: int = 0, high: int = 0) -> Fraction:
    total = cut_sum(contributions(ctx, start, sonneborn_berger=True, fore=False), low, high)
    return ctx.points(total, squared=True)
