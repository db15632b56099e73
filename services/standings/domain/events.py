"""What happens to a tournament's standings, recorded by the :class:`~services.standings.domain.
tournament.Tournament` as it changes.

Two kinds:

- **Published** (``Tournament.record``; the unit of work maps them to ``shared.events`` through
  ``adapters/wire.py`` and writes them to the outbox): :class:`StandingsUpdated` after every change
  of a tournament with a table, :class:`StandingsFinal` when it is completed.
- **Changes** (``Tournament.take_changes``; the repository's ``save`` writes each one with its
  prebuilt statement, and they are never published): a round paired, games added to it, a round
  published, a result, a match decided, a game cancelled, the completion.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass

from services.standings.domain.bracket import BracketMatch, Placing
from services.standings.domain.rounds import Game, PairedRound
from services.standings.domain.snapshot import SnapshotRow
from shared.aggregate import DomainEvent

__all__ = [
    "Change",
    "GameCancelled",
    "GamesAdded",
    "MatchDecided",
    "ResultRecorded",
    "RoundAdded",
    "RoundPublished",
    "StandingsFinal",
    "StandingsUpdated",
    "TournamentCompleted",
]

# -- published ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingsUpdated(DomainEvent):
    """The table after a change: a pairing, a result, a round published, a match decided."""

    tournament_id: uuid.UUID
    after_round: int
    games_counted: int
    rows: tuple[SnapshotRow, ...]


@dataclass(frozen=True)
class StandingsFinal(DomainEvent):
    """The table once the tournament is completed."""

    tournament_id: uuid.UUID
    rows: tuple[SnapshotRow, ...]


# -- changes, for the repository ----------------------------------------------------------------------


@dataclass(frozen=True)
class Change(DomainEvent):
    """A change of the tournament's recorded facts, for ``save``; not published."""


@dataclass(frozen=True)
class RoundAdded(Change):
    """A round paired, with its games, byes and matches (the first one also names the system)."""

    round: PairedRound


@dataclass(frozen=True)
class GamesAdded(Change):
    """A knockout round announced again with a level match's tie-break games."""

    round: int
    games: tuple[Game, ...]
    matches: tuple[BracketMatch, ...]


@dataclass(frozen=True)
class RoundPublished(Change):
    round: int


@dataclass(frozen=True)
class ResultRecorded(Change):
    game: Game


@dataclass(frozen=True)
class MatchDecided(Change):
    match: BracketMatch


@dataclass(frozen=True)
class GameCancelled(Change):
    game: Game


@dataclass(frozen=True)
class TournamentCompleted(Change):
    completed_at: dt.datetime
    placing: tuple[Placing, ...] | None
