"""The changes only an elimination makes (besides ``domain/changes.py``'s ``RoundAdded``, ``OutcomeSet``,
``RoundClosed`` and ``Finished``): the rows its repository writes after a match got games, was decided,
reopened or paired again, a round was published, or the knockout went back to its draft. Pure values.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass

from services.pairing.domain.changes import Change
from services.pairing.domain.elimination.bracket import MatchId
from shared.vocabulary import DecidedIn

__all__ = [
    "Erased",
    "GamesAdded",
    "GamesReplaced",
    "MatchHowChanged",
    "MatchReopened",
    "MatchRepaired",
    "MatchSettled",
    "RoundMadePublic",
]


@dataclass(frozen=True)
class GamesAdded(Change):
    """A level match got the games of its next tie-break stage (or its sudden-death game)."""

    match_id: MatchId
    game_ids: tuple[uuid.UUID, ...]


@dataclass(frozen=True)
class MatchSettled(Change):
    """A match has its winner (the bracket's state and its round count changed with it) and no longer
    needs the games in ``cancelled``; ``decisions``: its decisions so far."""

    match_id: MatchId
    how: DecidedIn
    at: dt.datetime
    cancelled: tuple[uuid.UUID, ...]
    decisions: int


@dataclass(frozen=True)
class RoundMadePublic(Change):
    number: int
    at: dt.datetime


@dataclass(frozen=True)
class MatchReopened(Change):
    """A correction left a decided match undecided: its winner is gone from the bracket."""

    match_id: MatchId


@dataclass(frozen=True)
class MatchHowChanged(Change):
    """A correction kept the match's winner but changed where it was decided (a decision again:
    ``decisions`` counts it)."""

    match_id: MatchId
    how: DecidedIn
    at: dt.datetime
    decisions: int


@dataclass(frozen=True)
class GamesReplaced(Change):
    """Cancelled games a reopened match needs again: each (old, new) pair; the new games are added
    (:class:`GamesAdded`) with the same change list."""

    match_id: MatchId
    replaced: tuple[tuple[uuid.UUID, uuid.UUID], ...]


@dataclass(frozen=True)
class MatchRepaired(Change):
    """A correction changed who plays a paired match without a result: its new players (seeds in its
    slots), and its old games, cancelled (each replaced by a new one, :class:`GamesReplaced` and
    :class:`GamesAdded` in the same change list)."""

    match_id: MatchId
    players: tuple[int, int]
    cancelled: tuple[uuid.UUID, ...]
    at: dt.datetime


@dataclass(frozen=True)
class Erased(Change):
    """The knockout went back to its draft at ``at``: everything pairing held of it goes, but which games
    it removed from start number ``restarts`` (news of them may still come: it is settled, not waited
    for)."""

    at: dt.datetime
    games: tuple[uuid.UUID, ...]
    restarts: int
