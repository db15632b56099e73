"""Counting tie-breaks (C.07 Art. 7) and the start number.

- **WIN** (7.1): rounds in which the participant obtained as many points as a win, with or without
  playing (a pairing-allocated bye, full-point bye or forfeit win scored as a win counts).
- **WON** (7.2): games won over the board.
- **BPG** (7.3): games played over the board with Black.
- **BWG** (7.4): games won over the board with Black.
- **GE** (7.6, also REP): rounds the participant elected to play: games played over the board,
  the pairing-allocated bye, and rounds won without playing; half- and zero-point byes and forfeit
  losses do not count.
"""

from __future__ import annotations

from services.standings.domain.context import TieBreakContext
from shared.scoring import Result

__all__ = ["black_games", "black_wins", "elected_games", "games_won", "wins"]


def wins(ctx: TieBreakContext, start: int) -> int:
    b, win = ctx.basis(start), ctx.win
    if not ctx.rules.byes_as_opponents:  # a bye is not a won game
        return sum(1 for u, opp in zip(b.units, b.opponents, strict=True) if u == win and opp)
    return sum(1 for u in b.units if u == win)


def games_won(ctx: TieBreakContext, start: int) -> int:
    b, win = ctx.basis(start), ctx.win
    return sum(1 for played, u in zip(b.played, b.units, strict=True) if played and u == win)


def black_games(ctx: TieBreakContext, start: int) -> int:
    b = ctx.basis(start)
    return sum(1 for played, c in zip(b.played, b.colours, strict=True) if played and c == "b")


def black_wins(ctx: TieBreakContext, start: int) -> int:
    b, win = ctx.basis(start), ctx.win
    return sum(
        1
        for played, c, u in zip(b.played, b.colours, b.units, strict=True)
        if played and c == "b" and u == win
    )


def elected_games(ctx: TieBreakContext, start: int) -> int:
    b, win = ctx.basis(start), ctx.win
    return sum(
        1
        for played, result, u in zip(b.played, b.results, b.units, strict=True)
        if played or result is Result.PAIRING_BYE or u == win
    )
