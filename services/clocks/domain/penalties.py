"""The penalties of the FIDE rapid regulations (RULES.md §6; fide-rapid-regulations §3 and §4), as an
arbiter imposes them on a player of a game.

**Illegal moves** count per player *in the game*: the first gives the opponent one extra minute, the
second loses the game.

**Displaced pieces** (not restored in one's own time) count per player *across the tournament* ("the
same penalties apply in subsequent rounds"): the first occurrence is a warning, the second is treated
as an illegal move (its sanction follows the illegal moves the player already has in this game), the
third as a second illegal move (the game is lost); every later one loses too. If either side has under
one minute at the time, "the incident is treated as a second or third occurrence respectively,
bypassing the warning": the incident counts one occurrence further (a first as a second, a second as a
third) — only for its sanction; the count itself goes on from the occurrences that happened.

A displaced-pieces incident treated as an illegal move counts as one of the game's illegal moves: after
it, the player's next illegal move in the game is their second.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from shared.authority import Decided

EXTRA_MINUTE_MS = 60_000
ONE_MINUTE_MS = 60_000
ILLEGAL_MOVE_PENALTY = "illegal_move_penalty"  # the reason of the clock change giving the minute
ILLEGAL_MOVE = "illegal_move"  # the reason a game lost by penalty ends with


class PenaltyKind(StrEnum):
    ILLEGAL_MOVE = "illegal_move"
    DISPLACED_PIECES = "displaced_pieces"


class Consequence(StrEnum):
    WARNING = "warning"
    EXTRA_MINUTE = "extra_minute"  # for the opponent
    LOSS = "loss"


@dataclass(frozen=True)
class Incident:
    """A penalty as the game keeps it: when, what, whose, the how-many-th of its kind (illegal moves: in
    the game, displaced pieces treated as one included; displaced pieces: in the tournament), what
    followed, who decided, and both sides' remaining times then (the server's clock's, or as the
    arbiter read them from the board's clock; None when not stated)."""

    at: dt.datetime
    kind: PenaltyKind
    player_id: uuid.UUID
    occurrence: int
    consequence: Consequence
    decision: Decided
    white_ms: int | None = None
    black_ms: int | None = None

    @property
    def as_illegal_move(self) -> bool:
        """Whether it counts among the player's illegal moves in its game."""
        return self.kind is PenaltyKind.ILLEGAL_MOVE or self.consequence is not Consequence.WARNING


@dataclass(frozen=True)
class Sanction:
    occurrence: int
    consequence: Consequence


def under_a_minute(white_ms: int | None, black_ms: int | None) -> bool:
    """Either side had under one minute (unknown times are not under)."""
    return any(ms is not None and ms < ONE_MINUTE_MS for ms in (white_ms, black_ms))


def illegal_moves(incidents: Iterable[Incident], player_id: uuid.UUID) -> int:
    """The player's illegal moves among a game's incidents (displaced pieces treated as one included)."""
    return sum(1 for i in incidents if i.player_id == player_id and i.as_illegal_move)


def displaced(incidents: Iterable[Incident], player_id: uuid.UUID) -> int:
    """The player's displaced-pieces occurrences among the incidents."""
    return sum(1 for i in incidents if i.player_id == player_id and i.kind is PenaltyKind.DISPLACED_PIECES)


def sanction(
    kind: PenaltyKind, *, illegal_moves_before: int, displaced_before: int, under_a_minute: bool
) -> Sanction:
    """What a new incident of ``kind`` comes to, for a player with ``illegal_moves_before`` illegal moves
    in this game and ``displaced_before`` displaced-pieces occurrences in the tournament so far."""
    if kind is PenaltyKind.ILLEGAL_MOVE:
        occurrence = illegal_moves_before + 1
        return Sanction(occurrence, Consequence.EXTRA_MINUTE if occurrence == 1 else Consequence.LOSS)
    occurrence = displaced_before + 1
    treated_as = occurrence + 1 if under_a_minute else occurrence
    if treated_as == 1:
        return Sanction(occurrence, Consequence.WARNING)
    if treated_as == 2:  # an illegal move: the first in this game gives the minute, a second loses
        return Sanction(
            occurrence, Consequence.EXTRA_MINUTE if illegal_moves_before == 0 else Consequence.LOSS
        )
    return Sanction(occurrence, Consequence.LOSS)  # a second illegal move
