"""How a game stands and how it ends: its status (``pending → running → finished``; ``disputed`` while
the players' reports differ; ``cancelled`` when its knockout match no longer needs it), the reasons a game
ends for, and what the :class:`~services.clocks.domain.game.Game` keeps or answers on the way: a player's
claim that waits for the opponent (:class:`Claim`), a correction (:class:`Correction`), a forfeit a
withdrawal or an absence makes (:class:`Forfeit`), and a report that came after the flag fell
(:class:`FlagFall`). Pure values.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from enum import StrEnum

from services.clocks.domain.clock import TIME, Side
from shared.authority import Decided
from shared.scoring import Outcome

REASON = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
TOURNAMENT_CLOSED = "tournament_closed"
DISCONNECTED = "disconnected"  # not back within presence.RECONNECT of a disconnection after one's first move
MATCH_DECIDED = "match_decided"
MATCH_REPAIRED = "match_repaired"  # a correction changed who plays the match: paired again, new games
TOURNAMENT_RESET = "tournament_reset"  # its knockout went back to its draft: the game is removed
DISPUTED = "disputed"
COLOURS_SWAPPED = "colours_swapped"
DEFAULT_TIME = "default_time"  # not at the board (or no first move) by the default time: a forfeit
BOARD_CLOCK = "board_clock"  # the server's clock stopped: the boards keep the time
FORFEITS = frozenset({Outcome.WHITE_FORFEIT_WIN, Outcome.BLACK_FORFEIT_WIN, Outcome.DOUBLE_FORFEIT})


class GameStatus(StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    DISPUTED = "disputed"  # the players reported different results: clocks stopped, the arbiter decides
    FINISHED = "finished"
    CANCELLED = "cancelled"  # its knockout match was decided without it


def loss_for(side: Side) -> Outcome:
    return Outcome.BLACK_WIN if side is Side.WHITE else Outcome.WHITE_WIN


def forfeit_by(side: Side) -> Outcome:
    """``side`` did not play: the opponent wins by forfeit."""
    return Outcome.BLACK_FORFEIT_WIN if side is Side.WHITE else Outcome.WHITE_FORFEIT_WIN


@dataclass(frozen=True)
class Claim:
    """A player's report that waits: for the opponent to post the same outcome, or (disputed) for the
    arbiter. ``reason`` is the claimant's (``agreement``, ``checkmate``, ...)."""

    outcome: Outcome
    reason: str
    at: dt.datetime


@dataclass(frozen=True)
class Correction:
    """A finished game's result changed by an arbiter or the organiser (pairing's decision,
    ``game.result_corrected``)."""

    old_outcome: Outcome
    outcome: Outcome
    decision: Decided


@dataclass(frozen=True)
class Forfeit:
    """How a game with a withdrawn or excluded player ends: the opponent wins by forfeit (both out: a
    double forfeit), for the reason ``withdrawal`` or ``exclusion``, as the withdrawal decided."""

    outcome: Outcome
    reason: str
    decision: Decided | None


@dataclass(frozen=True)
class FlagFall:
    """What a move or result reported too late comes to: ``side``'s time had run out at ``at`` (the
    deadline), so the report was not applied and the game ended on time with ``outcome``. With
    ``reason`` ``default_time``: ``side`` had not made a first move by the default time, and lost by
    forfeit then."""

    side: Side
    at: dt.datetime
    outcome: Outcome
    reason: str = TIME

    @property
    def detail(self) -> str:
        if self.reason == DEFAULT_TIME:
            return (
                f"{self.side} had not moved by the default time, {self.at.isoformat()}: the game is over, "
                f"{self.outcome} by forfeit"
            )
        return (
            f"{self.side}'s time ran out at {self.at.isoformat()}: the game is over, {self.outcome} on time"
        )
