"""Scoring of game outcomes: results are stored as outcomes, points are always derived.

Pure code shared by the services. A :class:`PointSystem` is part of a ruleset: it says how many
points a win, a draw and a loss are worth, and each kind of unplayed round (pairing-allocated bye,
full-, half- and zero-point byes, forfeit win and loss, double forfeit). Arithmetic is exact
(:class:`fractions.Fraction`).

- ``platform`` (RULES.md §1): win 2, draw 1, loss 0; the pairing-allocated bye scores like a win.
- FIDE (C.07, and chess in general): 1, ½, 0.

Match scoring for multi-game matches (RULES.md §1, ``group-playoff``: 4T1 §4(4)): board points 1/½/0 per
game; the match gives 2:0 to the player with more board points, 1:1 when level.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any

__all__ = [
    "FIDE",
    "PLATFORM",
    "MatchScoring",
    "Outcome",
    "PointSystem",
    "Result",
    "side_results",
]


class Outcome(StrEnum):
    """What happened on a board, from the point of view of the game (both players)."""

    WHITE_WIN = "1-0"
    DRAW = "1/2-1/2"
    BLACK_WIN = "0-1"
    WHITE_FORFEIT_WIN = "+/-"  # black did not play: white wins by forfeit
    BLACK_FORFEIT_WIN = "-/+"  # white did not play
    DOUBLE_FORFEIT = "-/-"  # neither played: nobody scores
    NOT_PLAYED = "*"  # paired, but no game and no result (annulled or still open)


class Result(StrEnum):
    """One player's result in one round. Every round of every player is exactly one of these."""

    WIN = "win"  # played over the board
    DRAW = "draw"
    LOSS = "loss"
    FORFEIT_WIN = "forfeit-win"  # the scheduled opponent did not play
    FORFEIT_LOSS = "forfeit-loss"  # the player did not play (also each side of a double forfeit)
    PAIRING_BYE = "pairing-allocated-bye"  # PAB: the odd player out
    FULL_POINT_BYE = "full-point-bye"  # FPB, granted on request where the regulations allow
    HALF_POINT_BYE = "half-point-bye"  # HPB, requested
    ZERO_POINT_BYE = "zero-point-bye"  # ZPB: requested absence, withdrawal, or not paired at all
    NOT_PLAYED = "not-played"  # paired, but the game has no result (annulled or open): no points

    @property
    def played(self) -> bool:
        """Played over the board against the opponent."""
        return self in (Result.WIN, Result.DRAW, Result.LOSS)

    @property
    def is_bye(self) -> bool:
        return self in (
            Result.PAIRING_BYE,
            Result.FULL_POINT_BYE,
            Result.HALF_POINT_BYE,
            Result.ZERO_POINT_BYE,
        )

    @property
    def voluntary_unplayed(self) -> bool:
        """C.07 16.2.5: a round the participant chose not to play (HPB, ZPB, forfeit loss)."""
        return self in (Result.HALF_POINT_BYE, Result.ZERO_POINT_BYE, Result.FORFEIT_LOSS)


def side_results(outcome: Outcome) -> tuple[Result, Result]:
    """The (white, black) results of a game outcome."""
    return _SIDES[outcome]


_SIDES: dict[Outcome, tuple[Result, Result]] = {
    Outcome.WHITE_WIN: (Result.WIN, Result.LOSS),
    Outcome.DRAW: (Result.DRAW, Result.DRAW),
    Outcome.BLACK_WIN: (Result.LOSS, Result.WIN),
    Outcome.WHITE_FORFEIT_WIN: (Result.FORFEIT_WIN, Result.FORFEIT_LOSS),
    Outcome.BLACK_FORFEIT_WIN: (Result.FORFEIT_LOSS, Result.FORFEIT_WIN),
    Outcome.DOUBLE_FORFEIT: (Result.FORFEIT_LOSS, Result.FORFEIT_LOSS),
    Outcome.NOT_PLAYED: (Result.NOT_PLAYED, Result.NOT_PLAYED),
}


def _f(value: Fraction | int | str) -> Fraction:
    return value if isinstance(value, Fraction) else Fraction(value)


@dataclass(frozen=True, slots=True)
class PointSystem:
    """Points for every :class:`Result`, as configuration of a ruleset.

    ``black_win``/``black_draw``/``black_loss`` are only set by files that score the colours
    differently (the JaVaFo ``XXS`` record); ``None`` means the same as White.
    """

    win: Fraction = Fraction(1)
    draw: Fraction = Fraction(1, 2)
    loss: Fraction = Fraction(0)
    pairing_bye: Fraction = Fraction(1)
    full_point_bye: Fraction = Fraction(1)
    half_point_bye: Fraction = Fraction(1, 2)
    zero_point_bye: Fraction = Fraction(0)
    forfeit_win: Fraction = Fraction(1)
    forfeit_loss: Fraction = Fraction(0)
    double_forfeit: Fraction = Fraction(0)
    black_win: Fraction | None = None
    black_draw: Fraction | None = None
    black_loss: Fraction | None = None

    @classmethod
    def of(
        cls,
        win: Fraction | int | str,
        draw: Fraction | int | str,
        loss: Fraction | int | str = 0,
        **unplayed: Fraction | int | str,
    ) -> PointSystem:
        """A point system from win/draw/loss; unplayed rounds default to the matching played value
        (PAB, FPB, forfeit win = win; HPB = draw; ZPB, forfeit loss, double forfeit = loss)."""
        w, d, lo = _f(win), _f(draw), _f(loss)
        values: dict[str, Fraction] = {
            "pairing_bye": w,
            "full_point_bye": w,
            "half_point_bye": d,
            "zero_point_bye": lo,
            "forfeit_win": w,
            "forfeit_loss": lo,
            "double_forfeit": lo,
        }
        for key, value in unplayed.items():
            if key not in values:
                raise ValueError(f"unknown unplayed round kind {key!r} (expected one of {', '.join(values)})")
            values[key] = _f(value)
        return cls(win=w, draw=d, loss=lo, **values)

    def with_values(self, **values: Fraction | int | str | None) -> PointSystem:
        changes: dict[str, Any] = {k: (None if v is None else _f(v)) for k, v in values.items()}
        return replace(self, **changes)

    def points(self, result: Result, *, black: bool = False, double_forfeit: bool = False) -> Fraction:
        """Points for one player's result (``black``: the player had Black, for colour-dependent
        scoring; ``double_forfeit``: the forfeit loss is one side of a double forfeit)."""
        if result is Result.WIN:
            return self.black_win if black and self.black_win is not None else self.win
        if result is Result.DRAW:
            return self.black_draw if black and self.black_draw is not None else self.draw
        if result is Result.LOSS:
            return self.black_loss if black and self.black_loss is not None else self.loss
        if result is Result.FORFEIT_LOSS:
            return self.double_forfeit if double_forfeit else self.forfeit_loss
        if result is Result.NOT_PLAYED:
            return Fraction(0)
        return {
            Result.FORFEIT_WIN: self.forfeit_win,
            Result.PAIRING_BYE: self.pairing_bye,
            Result.FULL_POINT_BYE: self.full_point_bye,
            Result.HALF_POINT_BYE: self.half_point_bye,
            Result.ZERO_POINT_BYE: self.zero_point_bye,
        }[result]

    def game_points(self, outcome: Outcome) -> tuple[Fraction, Fraction]:
        """(white, black) points of a game outcome."""
        white, black = side_results(outcome)
        double = outcome is Outcome.DOUBLE_FORFEIT
        return (
            self.points(white, double_forfeit=double),
            self.points(black, black=True, double_forfeit=double),
        )


FIDE = PointSystem.of(1, Fraction(1, 2), 0)
"""Chess in general and FIDE C.07: 1, ½, 0; byes and forfeits at their usual values."""

PLATFORM = PointSystem.of(2, 1, 0)
"""The ``platform`` ruleset (RULES.md §1): 2/1/0, the pairing-allocated bye scores like a win (2)."""


@dataclass(frozen=True, slots=True)
class MatchScoring:
    """Multi-game matches (RULES.md §1, 4T1 §4(4)): board points → match points.

    More board points than the opponent gives ``win`` match points (2:0 — so do 1.5:0.5 and 2:0);
    level gives ``draw`` each (1:1); fewer gives ``loss`` (0:2)."""

    win: Fraction = Fraction(2)
    draw: Fraction = Fraction(1)
    loss: Fraction = Fraction(0)
    board: PointSystem = FIDE

    def board_points(self, outcomes: list[tuple[Outcome, bool]]) -> tuple[Fraction, Fraction]:
        """Board points of player A and player B over the games of a match; each game is given as
        (outcome, a_had_white)."""
        a = b = Fraction(0)
        for outcome, a_white in outcomes:
            white, black = self.board.game_points(outcome)
            if a_white:
                a, b = a + white, b + black
            else:
                a, b = a + black, b + white
        return a, b

    def match_points(self, board_a: Fraction, board_b: Fraction) -> tuple[Fraction, Fraction]:
        """Match points from the board points: 2:0, 1:1 or 0:2 (with the default values)."""
        if board_a > board_b:
            return self.win, self.loss
        if board_a < board_b:
            return self.loss, self.win
        return self.draw, self.draw
