"""Absences of `platform` players (RULES.md §2 "Absence"), from what the game server reports of each
player's presence (``POST /presence``: connected, disconnected, busy).

* (a) An **offline** player's game is created and their clock runs: arriving late means less time,
  never arriving loses on time. Nothing here: the clock decides.
* (b) A player **busy** in another game when the round is paired (an Arbiter game of another
  tournament or arena still running, or a game the game server reports) gets no game: they lose by
  forfeit (``busy``) and the opponent gets the win points.
* (c) **Both absent**: the pairing ends 0–0 (a double forfeit, ``absent``).

**Decision** ("both absent"): both players busy, or one busy while the other is reported
disconnected when the round is paired. Two players who are merely offline play rule (a): their game is
created and the clock decides (the side to move loses on time), as the server cannot tell a player
waiting for the opponent's first move from one who is not there. Nobody is removed for absence, and a
game lost by forfeit moves no rating (``game.finished`` says ``+/-``, ``-/+`` or ``-/-``).

* (d) A player **disconnected** after their first move in a running game has :data:`RECONNECT` to come
  back, or loses the game (reason ``disconnected``); before it, the clock decides. A correspondence
  game is played over days: its players are not expected to stay connected. :class:`Reconnection` is
  the part of the :class:`~services.clocks.domain.game.Game` aggregate that keeps this, declaring what
  of the game it uses.
"""

from __future__ import annotations

import datetime as dt
import uuid
from abc import abstractmethod
from enum import StrEnum
from typing import Final

from services.clocks.domain.clock import Clock, Side
from services.clocks.domain.endings import Forfeit, GameStatus
from shared.scoring import Outcome

BUSY: Final = "busy"
ABSENT: Final = "absent"
RECONNECT: Final = dt.timedelta(seconds=30)


class Presence(StrEnum):
    CONNECTED = "connected"
    DISCONNECTED = "disconnected"
    BUSY = "busy"


def absence_forfeit(white: Presence | None, black: Presence | None) -> Forfeit | None:
    """How a game paired between players of this presence ends before it starts, if it does: None
    when neither is busy (the game is created and played, rule (a))."""
    white_busy, black_busy = white is Presence.BUSY, black is Presence.BUSY
    if not (white_busy or black_busy):
        return None
    white_away = white_busy or white is Presence.DISCONNECTED
    black_away = black_busy or black is Presence.DISCONNECTED
    if white_away and black_away:
        return Forfeit(Outcome.DOUBLE_FORFEIT, ABSENT, None)
    return Forfeit(Outcome.BLACK_FORFEIT_WIN if white_busy else Outcome.WHITE_FORFEIT_WIN, BUSY, None)


class Reconnection:
    """A player's disconnection after their first move, and their time to come back (rule (d))."""

    # what the game holds (game.py)
    status: GameStatus
    clock: Clock
    white_moved: bool
    black_moved: bool
    away: Side | None
    back_by: dt.datetime | None

    @abstractmethod
    def side_of(self, player_id: uuid.UUID) -> Side | None: ...

    def disconnected(self, player_id: uuid.UUID, at: dt.datetime) -> bool:
        """The game server reports ``player_id`` disconnected (RULES.md §2 "Absence"): after their first
        move they have :data:`RECONNECT` to come back, or lose the game; before it, nothing changes (the
        clock decides). A correspondence game (a group-playoff event's) is played over days: a player
        is not expected to stay connected, and their days per move decide. True when this changed
        the game."""
        side = self.side_of(player_id)
        if side is None or self.status is not GameStatus.RUNNING or self.away is not None:
            return False
        if self.clock.control.correspondence:
            return False
        if not (self.white_moved if side is Side.WHITE else self.black_moved):
            return False
        self.away, self.back_by = side, at + RECONNECT
        return True

    def reconnected(self, player_id: uuid.UUID) -> bool:
        """The player is back in time: the game goes on. True when this changed the game."""
        if self.away is None or self.side_of(player_id) is not self.away:
            return False
        self.away = self.back_by = None
        return True

    def _gone(self, at: dt.datetime) -> bool:
        """Whether a disconnected player's time to come back ran out by ``at``, before any flag fell."""
        if self.back_by is None or at < self.back_by:
            return False
        flag = self.clock.deadline
        return flag is None or flag > self.back_by
