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
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from services.clocks.domain.game import Forfeit, Outcome

BUSY: Final = "busy"
ABSENT: Final = "absent"


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
