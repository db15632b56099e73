"""Koya system (KS, C.07 Art. 9.1), for events with pre-determined pairings: the points scored
against the participants who made at least half of the maximum possible score.

The maximum possible score is a win in every game a participant can play: in a round robin with an
odd number of players one round per cycle is a bye, and participants who were never paired are left
out of the count, as FIDE TEC's TieBreakServer does.
"""

from __future__ import annotations

from fractions import Fraction

from services.standings.domain.context import TieBreakContext
from shared.scoring import Result

__all__ = ["koya", "koya_limit"]


def koya_limit(ctx: TieBreakContext, percentage: int = 50) -> Fraction:
    history = ctx.history
    games = ctx.rounds
    if history.pre_determined:
        competitors = len(history.players)
        if competitors and ctx.rounds % competitors == 0:
            games -= ctx.rounds // competitors
        for start in history.players:
            b = ctx.basis(start)
            if not any(
                opp or res is Result.PAIRING_BYE for opp, res in zip(b.opponents, b.results, strict=True)
            ):
                games -= 1
    return Fraction(ctx.win * games * percentage, 100)  # in units


def koya(ctx: TieBreakContext, start: int, limit: Fraction) -> Fraction:
    """``limit`` in units, from :func:`koya_limit`."""
    me = ctx.basis(start)
    total = 0
    for opponent, units in zip(me.opponents, me.units, strict=True):
        if opponent and ctx.basis(opponent).score >= limit:
            total += units
    return ctx.points(total)
