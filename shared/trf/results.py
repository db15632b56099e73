"""What a round block's result code means, and which code a result is written with: the one table the
pairing and the standings both read and write TRF files by (record 001, TRF-16 = TRF-2026).

Reading, every code is a result (:data:`RESULTS`): ``W D L`` (won, drawn, lost after less than one move:
played, not rated) score as ``1 = 0``, and the four byes as their kind. Writing, a played result or a
forfeit is written with its code (:data:`CODES`; an unrated game's ``1 = 0`` as ``W D L``,
:data:`UNRATED`), a game's two sides by its outcome (:func:`codes_of`), and a bye by its kind
(:data:`BYES`). What a code means without an opponent (bbpPairings reads ``+`` as the pairing-allocated
bye and ``-`` as a zero-point bye there) is each reader's own rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from shared.scoring import Outcome, Result, side_results
from shared.trf.model import ResultCode
from shared.vocabulary import ByeKind

__all__ = ["BYES", "CODES", "RESULTS", "UNRATED", "codes_of"]

RESULTS: Final[Mapping[ResultCode, Result]] = {
    ResultCode.WIN: Result.WIN,
    ResultCode.WIN_UNRATED: Result.WIN,
    ResultCode.DRAW: Result.DRAW,
    ResultCode.DRAW_UNRATED: Result.DRAW,
    ResultCode.LOSS: Result.LOSS,
    ResultCode.LOSS_UNRATED: Result.LOSS,
    ResultCode.FORFEIT_WIN: Result.FORFEIT_WIN,
    ResultCode.FORFEIT_LOSS: Result.FORFEIT_LOSS,
    ResultCode.HALF_POINT_BYE: Result.HALF_POINT_BYE,
    ResultCode.FULL_POINT_BYE: Result.FULL_POINT_BYE,
    ResultCode.PAIRING_ALLOCATED_BYE: Result.PAIRING_BYE,
    ResultCode.ZERO_POINT_BYE: Result.ZERO_POINT_BYE,
}
"""The result of each code."""

CODES: Final[Mapping[Result, ResultCode]] = {
    Result.WIN: ResultCode.WIN,
    Result.DRAW: ResultCode.DRAW,
    Result.LOSS: ResultCode.LOSS,
    Result.FORFEIT_WIN: ResultCode.FORFEIT_WIN,
    Result.FORFEIT_LOSS: ResultCode.FORFEIT_LOSS,
}
"""The code of a game's result for one side; a game not played (annulled) has none."""

UNRATED: Final[Mapping[ResultCode, ResultCode]] = {
    ResultCode.WIN: ResultCode.WIN_UNRATED,
    ResultCode.DRAW: ResultCode.DRAW_UNRATED,
    ResultCode.LOSS: ResultCode.LOSS_UNRATED,
}
"""A played result's code in a game that is not rated."""

BYES: Final[Mapping[ByeKind, ResultCode]] = {
    ByeKind.PAIRING_ALLOCATED: ResultCode.PAIRING_ALLOCATED_BYE,
    ByeKind.FULL_POINT: ResultCode.FULL_POINT_BYE,
    ByeKind.HALF_POINT: ResultCode.HALF_POINT_BYE,
    ByeKind.ZERO_POINT: ResultCode.ZERO_POINT_BYE,
}
"""The code of each kind of bye."""


def codes_of(outcome: Outcome) -> tuple[ResultCode, ResultCode]:
    """A game's (White, Black) codes; KeyError for an outcome that has none (not played)."""
    white, black = side_results(outcome)
    return CODES[white], CODES[black]
