"""Progressive score (PS, C.07 Art. 7.5): the sum of the participant's running scores after each
round. PS-Cn leaves out the first n rounds (the smallest running scores)."""

from __future__ import annotations

from fractions import Fraction

from services.standings.domain.context import TieBreakContext

__all__ = ["progressive_score"]


def progressive_score(ctx: TieBreakContext, start: int, low: int = 0) -> Fraction:
    running = total = 0
    for r, units in enumerate(ctx.basis(start).units, start=1):
        running += units
        if r > low:
            total += running
    return ctx.points(total)
