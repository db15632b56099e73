"""What happens to a game that other services hear of: it started, it finished, it was cancelled, its
colours were swapped, a player of it was penalised.

The :class:`~services.clocks.domain.game.Game` records them as it changes; the unit of work writes them
to the outbox at commit, mapped to the versioned wire events by ``adapters/wire.py``. A clock press is
not among them: it changes only this service's state (the clock and its history).
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass

from services.clocks.domain.clock import ClockRate
from services.clocks.domain.penalties import Consequence, PenaltyKind
from shared.aggregate import DomainEvent
from shared.authority import Decided
from shared.scoring import Outcome
from shared.vocabulary import Ruleset


@dataclass(frozen=True, slots=True)
class GameStarted(DomainEvent):
    """The game's clock started: White's time runs from ``started_at``."""

    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    white: uuid.UUID
    black: uuid.UUID
    started_at: dt.datetime
    control: ClockRate


@dataclass(frozen=True, slots=True)
class GameFinished(DomainEvent):
    """The game ended: by a reported result, a flag fall (``reason`` ``time``), a withdrawal's forfeit or
    the tournament's close. ``both_moved`` is False when one side never moved: such a game changes no
    rating (None over the board: the server does not see the moves); ``rated`` is False for a knockout's tie-break and sudden-death games. ``decision``: who
    entered the result (the organiser, an arbiter, the game server, the player who confirmed the
    opponent's claim, a withdrawal's decision); None when the game ended by itself on the board or the
    clock (a player's own loss, a flag fall, the tournament's close)."""

    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    white: uuid.UUID
    black: uuid.UUID
    outcome: Outcome
    reason: str
    moves: int
    finished_at: dt.datetime
    both_moved: bool | None
    rated: bool = True
    decision: Decided | None = None
    boost: tuple[bool, bool] | None = None  # an arena game: (White, Black) took the boost
    ruleset: Ruleset | None = None  # its tournament's, as known when the game was created; None: not known


@dataclass(frozen=True, slots=True)
class GameCancelled(DomainEvent):
    """Nobody will play the game: its knockout match was decided without it. ``white`` and ``black``
    let whoever marked them as in this game clear the mark."""

    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    reason: str
    cancelled_at: dt.datetime
    white: uuid.UUID
    black: uuid.UUID


@dataclass(frozen=True, slots=True)
class GameColoursSwapped(DomainEvent):
    """Before its first move the organiser or an arbiter swapped the game's colours: ``white`` and
    ``black`` are the players' new colours."""

    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    white: uuid.UUID
    black: uuid.UUID
    decision: Decided


@dataclass(frozen=True, slots=True)
class GamePenalised(DomainEvent):
    """An arbiter (or the organiser) penalised a player of the game: an illegal move or displaced
    pieces, the how-many-th of its kind, and what followed (a warning, one extra minute for the opponent,
    the loss of the game)."""

    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    player_id: uuid.UUID
    kind: PenaltyKind
    occurrence: int
    consequence: Consequence
    decision: Decided
