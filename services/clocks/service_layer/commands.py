"""Commands: what callers ask the clocks service to do (imperative), and what a report comes to.

The HTTP API and the ticker send the first six; the others are what ``adapters/wire.py`` makes of the
events the service consumes (``round.paired``, ``round.published``, ``match.decided``,
``tournament.completed``, ``tournament.started``, ``arbiter.appointed``/``revoked``,
``player.withdrawn``, ``game.result_corrected``, ``tournament.reset``).
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass

from services.clocks.domain.clock import ClockRate
from services.clocks.domain.endings import FlagFall
from services.clocks.domain.game import Game, Outcome
from services.clocks.domain.penalties import PenaltyKind
from services.clocks.domain.presence import Presence
from services.clocks.domain.tournament import ONLINE, Timing
from shared.authority import Decided
from shared.commands import Actor as Actor  # re-exported: every command names its actor
from shared.openings import DrawnOpening
from shared.variants import Variant
from shared.vocabulary import Ruleset


@dataclass(frozen=True)
class MakeMove:
    """``player_id`` completed a move: press their clock."""

    game_id: uuid.UUID
    player_id: uuid.UUID
    move: str | None = None  # the move in the variant's notation, checked by its move generator


@dataclass(frozen=True)
class ReportPresence:
    """The game server reports a player's presence (RULES.md §2 "Absence")."""

    player_id: uuid.UUID
    status: Presence


@dataclass(frozen=True)
class TakeBoost:
    """An arena's player takes the boost before their first move (RULES.md §3)."""

    game_id: uuid.UUID
    player_id: uuid.UUID


@dataclass(frozen=True)
class ReportResult:
    """A player of the game reports (or claims) its result; its organiser, an arbiter in scope or the
    game server enters it."""

    game_id: uuid.UUID
    outcome: Outcome
    reason: str
    actor: Actor


@dataclass(frozen=True)
class SwapColours:
    """The organiser or an arbiter in scope swaps White and Black before the first move."""

    game_id: uuid.UUID
    actor: Actor


@dataclass(frozen=True)
class RecordAbsence:
    """The organiser or an arbiter in scope records that ``player_id`` is not at the board by the default
    time (``opponent_absent``: neither is the opponent): a forfeit."""

    game_id: uuid.UUID
    player_id: uuid.UUID
    actor: Actor
    opponent_absent: bool = False


@dataclass(frozen=True)
class Penalise:
    """The organiser or an arbiter in scope penalises ``player_id`` for an illegal move or displaced
    pieces; over the board with the remaining times read from the board's clock."""

    game_id: uuid.UUID
    player_id: uuid.UUID
    kind: PenaltyKind
    actor: Actor
    white_ms: int | None = None
    black_ms: int | None = None
    reason: str | None = None


@dataclass(frozen=True)
class CheckFlags:
    """The ticker: finish every game whose flag has fallen. ``sweep`` also asks the database for
    overdue games, in case the deadline store lost an entry."""

    limit: int = 100
    sweep: bool = True


@dataclass(frozen=True)
class Reported:
    """What a move, a result, a colour swap, an absence or a penalty came to: the game as saved, and the
    flag fall that refused the report (the game then ended on time, or by the default time), if the
    server's clock had decided the game first. A player's claim leaves
    the game open (awaiting the opponent, or disputed)."""

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
    control: ClockRate
    match_id: str | None = None  # knockouts: the match, the game's number and name in it
    number: int | None = None
    label: str | None = None
    rated: bool = True
    opening: DrawnOpening | None = None  # the drawn opening the game starts from; None: free


@dataclass(frozen=True)
class CreateGames:
    """A round was paired: create its games, and start them unless they wait (an unpublished knockout
    round; a match's later games)."""

    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    round: int
    games: tuple[PairedGame, ...]
    released: bool
    variant: Variant = Variant.CHESS
    arena: bool = False  # an arena's games (``arena.paired``): the boost is offered
    cancelled: tuple[uuid.UUID, ...] = ()
    """Games of the round not to be played any more: their knockout match was paired again with other
    players after a correction (its new games are among ``games``)."""


@dataclass(frozen=True)
class ReleaseRound:
    """A knockout round was published: release its games and start each match's first."""

    tournament_id: uuid.UUID
    round: int
    published_at: dt.datetime | None = None  # pairing's time (None: not said)
    restarts: int | None = None  # the number of the start it belongs to (None: not said)


@dataclass(frozen=True)
class CancelGames:
    """A knockout match was decided: cancel the games it no longer needs."""

    game_ids: tuple[uuid.UUID, ...]


@dataclass(frozen=True)
class CloseTournament:
    """The tournament completed: end the games still open."""

    tournament_id: uuid.UUID


@dataclass(frozen=True)
class RecordTournament:
    """The tournament started: its organiser, ruleset and timing (who keeps the time, the default time)."""

    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    ruleset: Ruleset
    timing: Timing = ONLINE


@dataclass(frozen=True)
class AppointArbiter:
    """The organiser appointed an arbiter: for the whole tournament (``games`` None) or named games."""

    tournament_id: uuid.UUID
    arbiter_id: uuid.UUID
    games: frozenset[uuid.UUID] | None
    at: dt.datetime


@dataclass(frozen=True)
class RevokeArbiter:
    tournament_id: uuid.UUID
    arbiter_id: uuid.UUID
    at: dt.datetime


@dataclass(frozen=True)
class ForfeitWithdrawn:
    """A player withdrew or was excluded: their open games end by forfeit, and so will their later ones."""

    tournament_id: uuid.UUID
    player_id: uuid.UUID
    excluded: bool
    reason: str
    decision: Decided | None


@dataclass(frozen=True)
class DecideByLot:
    """A group-playoff organiser decided an overdue game by a recorded lot (``group_playoff.announced``,
    ``game-lot``): the game ends with the lot's result, reason ``lot``."""

    tournament_id: uuid.UUID
    game_id: uuid.UUID
    outcome: Outcome
    seed: str
    decision: Decided


@dataclass(frozen=True)
class CorrectResult:
    """Pairing corrected a finished game's result."""

    game_id: uuid.UUID
    old_outcome: Outcome
    outcome: Outcome
    decision: Decided


@dataclass(frozen=True)
class ResetTournament:
    """A knockout went back to its draft: its games are removed (round 1 is undone)."""

    tournament_id: uuid.UUID
    at: dt.datetime | None = None  # pairing's time of the reset (None: not said)
    games: tuple[uuid.UUID, ...] = ()  # every game pairing had paired for the start it undid
    restarts: int | None = None  # the number of the start it undid (None: not said)
