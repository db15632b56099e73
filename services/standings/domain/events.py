"""What happens to a tournament's standings, recorded by the :class:`~services.standings.domain.
tournament.Tournament` as it changes.

Two kinds:

- **Published** (``Tournament.record``; the unit of work maps them to ``shared.events`` through
  ``adapters/wire.py`` and writes them to the outbox): :class:`StandingsUpdated` after every change
  of a tournament with a table, :class:`StandingsFinal` when it is completed.
- **Changes** (``Tournament.take_changes``; the repository's ``save`` writes each one with its
  prebuilt statement, and they are never published): a round paired, games added to it, a round
  published, a result, a result corrected, a game's colours swapped, a match decided (or decided
  again after a correction), a match's players changed, a game cancelled, a player withdrawn, the
  completion, a knockout reset to its draft and started again; a late entry (``fide-rapid``) with the
  byes of the rounds it missed, and a penalty given in a game; a zero-point bye asked for a round not
  paired yet, or taken back, and an absence excused (what the TRF written before the next pairing says).
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass

from services.standings.domain.bracket import BracketMatch, BracketPlace
from services.standings.domain.rounds import Competitor, Correction, Game, Incident, PairedRound, RoundBye
from services.standings.domain.snapshot import SnapshotRow
from services.standings.domain.withdrawals import Withdrawal
from shared.aggregate import DomainEvent

__all__ = [
    "AbsenceExcused",
    "ByeRequestTakenBack",
    "ByeRequested",
    "Change",
    "ColoursSwapped",
    "GameCancelled",
    "GamesAdded",
    "IncidentRecorded",
    "MatchDecided",
    "MatchPlayersChanged",
    "PlayerAdded",
    "PlayerWithdrawn",
    "ResultCorrected",
    "ResultRecorded",
    "RoundAdded",
    "RoundPublished",
    "StandingsFinal",
    "StandingsUpdated",
    "TournamentCompleted",
    "TournamentReset",
    "TournamentRestarted",
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
    """The table once the tournament is completed (again after a correction made after the end)."""

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
class ResultCorrected(Change):
    """A finished game's outcome corrected: the game's outcome is the new one."""

    game: Game
    correction: Correction


@dataclass(frozen=True)
class ColoursSwapped(Change):
    """An open game's colours swapped; ``match`` when its first game's White changed with it."""

    game: Game
    match: BracketMatch | None


@dataclass(frozen=True)
class MatchDecided(Change):
    """A match's winner (again, when a correction changed it)."""

    match: BracketMatch


@dataclass(frozen=True)
class MatchPlayersChanged(Change):
    """A paired match announced again with other players (a correction changed who advanced)."""

    match: BracketMatch


@dataclass(frozen=True)
class PlayerWithdrawn(Change):
    withdrawal: Withdrawal


@dataclass(frozen=True)
class GameCancelled(Change):
    game: Game


@dataclass(frozen=True)
class TournamentCompleted(Change):
    completed_at: dt.datetime
    placing: tuple[BracketPlace, ...] | None


@dataclass(frozen=True)
class TournamentReset(Change):
    """A knockout back to its draft: its rounds forgotten until it is started again."""

    at: dt.datetime


@dataclass(frozen=True)
class TournamentRestarted(Change):
    """A tournament reset to its draft started again: what it is and its roster are the new start's
    (the tournament's ``info`` and ``players``)."""


@dataclass(frozen=True)
class PlayerAdded(Change):
    """A late entry (``fide-rapid``): the next seed, with the byes of the rounds it missed."""

    player: Competitor
    byes: tuple[RoundBye, ...]


@dataclass(frozen=True)
class IncidentRecorded(Change):
    """A penalty given in a game (``game.penalised``)."""

    game: Game
    incident: Incident


@dataclass(frozen=True)
class ByeRequested(Change):
    """A zero-point bye asked for round ``round`` before it was paired (``bye.requested``)."""

    round: int
    seed: int


@dataclass(frozen=True)
class ByeRequestTakenBack(Change):
    """A requested bye taken back before its round was paired (``bye.taken_back``)."""

    round: int
    seed: int


@dataclass(frozen=True)
class AbsenceExcused(Change):
    """An arbiter excused a player's absence from round ``round`` (``absence.excused``): they are paired
    in the next round."""

    round: int
    seed: int
