"""Buchholz (BH, C.07 Art. 8.1), Fore Buchholz (FB, 8.3) and Average of Opponents' Buchholz (AOB, 8.4).

- **BH** = the sum of the opponents' scores; each opponent counts with their adjusted score (16.3),
  each of the participant's own unplayed rounds with a dummy opponent (16.4).
- **FB** = BH computed as if every paired game of the last round had been drawn.
- **AOB** = the average of the BH of the opponents the participant played over the board, rounded
  half up to two decimals (undefined without such an opponent).

Events with pre-determined pairings (round robin): forfeits count as games against the scheduled
opponent, and rounds without an opponent contribute nothing.

The platform's definitions (:attr:`~services.standings.domain.context.Rules.platform_definitions`,
RULES.md §2): every scheduled opponent, a forfeit's too, counts with their final score as it stands;
no dummy opponent, no adjusted score, no VUR for the cuts.
"""

from __future__ import annotations

from fractions import Fraction

from services.standings.domain.context import TieBreakContext, Value
from services.standings.domain.cuts import Contribution, cut_sum
from services.standings.domain.unplayed import dummy_score

__all__ = [
    "average_of_buchholz",
    "buchholz",
    "contributions",
    "fore_buchholz",
    "plain_buchholz",
    "round_half_up",
]


def contributions(
    ctx: TieBreakContext, start: int, *, sonneborn_berger: bool, fore: bool
) -> list[Contribution]:
    """One contribution per round: the opponent's (or dummy's) score, and what it adds — the score
    itself for BH, the score times the points the participant made in that round for SB."""
    key = (start, sonneborn_berger, fore)
    found = ctx.contributions.get(key)
    if found is None:
        if sonneborn_berger:
            units = ctx.basis(start).units
            found = [
                (c[0], c[0] * units[c[3] - 1], c[2], c[3])
                for c in contributions(ctx, start, sonneborn_berger=False, fore=fore)
            ]
        else:
            found = _contributions(ctx, start, fore)
        ctx.contributions[key] = found
    return found


def _contributions(ctx: TieBreakContext, start: int, fore: bool) -> list[Contribution]:
    n = ctx.rounds
    pre_determined = ctx.history.pre_determined
    edition = ctx.rules.edition
    cap = ctx.draw * n
    me = ctx.basis(start)
    own = me.fore_score if fore else me.score
    byes_count = ctx.rules.byes_as_opponents
    final = ctx.rules.platform_definitions
    out: list[Contribution] = []
    for i in range(n):
        opponent = me.opponents[i]
        if opponent and final:  # "the final points of all opponents": forfeits too, real scores
            opp = ctx.basis(opponent)
            score = opp.fore_score if fore else opp.score
            vur = False
        elif opponent and (me.played[i] or pre_determined or (fore and i == n - 1)):
            opp = ctx.basis(opponent)
            score = opp.fore_adjusted if fore else opp.adjusted
            vur = False
        elif pre_determined or (not opponent and not byes_count):
            continue  # round robin, or "a bye is no opponent": no dummy
        else:
            scheduled = None
            if opponent:
                opp = ctx.basis(opponent)
                scheduled = opp.fore_adjusted if fore else opp.adjusted
            score = dummy_score(own, edition=edition, scheduled_opponent=scheduled, cap=cap)
            vur = me.vur[i]
        out.append((score, score, vur, i + 1))
    return out


def buchholz(ctx: TieBreakContext, start: int, low: int = 0, high: int = 0) -> Fraction:
    return ctx.points(cut_sum(contributions(ctx, start, sonneborn_berger=False, fore=False), low, high))


def fore_buchholz(ctx: TieBreakContext, start: int, low: int = 0, high: int = 0) -> Fraction:
    return ctx.points(cut_sum(contributions(ctx, start, sonneborn_berger=False, fore=True), low, high))


def round_half_up(value: Fraction, quantum: Fraction = Fraction(1)) -> Fraction:
    """Round to a multiple of ``quantum``, halves up (the values here are not negative)."""
    steps = value / quantum
    whole = (steps.numerator * 2 + steps.denominator) // (steps.denominator * 2)
    return whole * quantum


def plain_buchholz(ctx: TieBreakContext, start: int) -> Value:
    return ctx.memoised("BH", start, lambda: buchholz(ctx, start))


def average_of_buchholz(ctx: TieBreakContext, start: int) -> Value:
    found = (plain_buchholz(ctx, opponent) for opponent in ctx.basis(start).opponents_met)
    values = [Fraction(bh) for bh in found if bh is not None]
    if not values:
        return None
    return round_half_up(sum(values, Fraction(0)) / len(values), Fraction(1, 100))
