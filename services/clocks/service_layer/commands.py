"""Commands: what callers ask the clocks service to do (imperative), and what a report comes to.

The HTTP API and the ticker send the first three; the others are what ``adapters/wire.py`` makes of the
events the service consumes (``round.paired``, ``round.published``, ``match.decided``,
``tournament.completed``).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from services.clocks.domain.clock import TimeControl
from services.clocks.domain.game import FlagFall, Game, Outcome
from shared.commands import Actor as Actor  # re-exported: every command names its actor


@dataclass(frozen=True)
class MakeMove:
    """``player_id`` completed a move: press their clock."""

    game_id: uuid.UUID
    player_id: uuid.UUID


@dataclass(frozen=True)
class ReportResult:
    game_id: uuid.UUID
    outcome: Outcome
    reason: str
    actor: Actor


@dataclass(frozen=True)
class CheckFlags:
    """The ticker: finish every game whose flag has fallen. ``sweep`` also asks the database for
    overdue games, in case the deadline store lost an entry."""

    limit: int = 100
    sweep: bool = True


@dataclass(frozen=True)
class Reported:
    """What a move or a result came to: the game as saved, and the flag fall that refused the report
    (the game then ended on time), if its time had run out."""

    game: Game
    flag_fall: FlagFall | None = None


# -- from other services' events ----------------------------------------------------------------------
@dataclass(frozen=True)
class PairedGame:
    game_id: uuid.UUID
    board: int
    leg: int
    white: uuid.UUID
    black: uuid.UUID
    control: TimeControl
    match_id: str | None = None  # knockouts: the match, the game's number and name in it
    number: int | None = None
    label: str | None = None


@dataclass(frozen=True)
class CreateGames:
    """A round was paired: create its games, and start them unless they wait (an unpublished knockout
    round; a match's later games)."""

    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    round: int
    games: tuple[PairedGame, ...]
    released: bool


@dataclass(frozen=True)
class ReleaseRound:
    """A knockout round was published: release its games and start each match's first."""

    tournament_id: uuid.UUID
    round: int


@dataclass(frozen=True)
class CancelGames:
    """A knockout match was decided: cancel the games it no longer needs."""

    game_ids: tuple[uuid.UUID, ...]


@dataclass(frozen=True)
class CloseTournament:
    """The tournament completed: end the games still open."""

    tournament_id: uuid.UUID
