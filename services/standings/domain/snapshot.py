"""What the web shows of a tournament and ``standings.updated`` carries: how far it has come, each
round's status, and its table with the tie-break columns. Computed by the tournament when first asked
for after a change (:attr:`~services.standings.domain.tournament.Tournament.snapshot`: once per batch of
changes); the adapters store it as
JSON on the tournament's row and the web serves it as it is. Pure values.

Numbers are as shown: points and tie-break values are integers when they are whole, else floats
(:func:`number`); a value the regulations leave undefined is None.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from services.standings.domain.context import Value
from services.standings.domain.history import Edition
from services.standings.domain.rounds import RoundProgress
from services.standings.domain.withdrawals import PlayerStatus

__all__ = ["Number", "RoundProgress", "Snapshot", "SnapshotRow", "SnapshotTable", "number"]

Number = int | float


def number(value: Value) -> Number | None:
    """A tie-break value or points as shown: integers stay integers."""
    if value is None or isinstance(value, int):
        return value
    return value.numerator if value.denominator == 1 else float(value)


@dataclass(frozen=True, slots=True)
class SnapshotRow:
    rank: int  # shared by players equal on points and every tie-break
    place: int  # the row's position
    seed: int
    player_id: uuid.UUID
    name: str
    rating: int | None
    points: Number
    tiebreaks: dict[str, Number | None]  # the ranking tie-breaks by code (BH-C1), in order
    shown: dict[str, Number | None]  # shown for information only
    status: PlayerStatus | None = None  # withdrawn or excluded; None: playing
    status_reason: str | None = None
    title: str | None = None  # fide-rapid: from the player's profile (kept only where known)
    federation: str | None = None
    fide_id: int | None = None


@dataclass(frozen=True, slots=True)
class SnapshotTable:
    edition: Edition | None  # the C.07 edition the tie-breaks follow (None: a group-playoff table)
    tiebreaks: tuple[str, ...]  # codes, in ranking order
    shown: tuple[str, ...]
    rows: tuple[SnapshotRow, ...]  # in place order


@dataclass(frozen=True, slots=True)
class Snapshot:
    after_round: int  # the last round with every result in (0 before that)
    games_counted: int
    rounds: tuple[RoundProgress, ...]  # by number
    table: SnapshotTable | None  # None: a bracket, an unsupported ruleset, or nothing paired yet
