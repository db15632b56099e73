"""Rematch cooldowns (RULES.md §3): two players wait 5 minutes for each game they have already played
together in this arena — after one game 5 minutes, after two 10, and so on with no cap — **counted from the
end of their last game together** (the Decision in RULES.md §3).

A cooldown is over at its end instant exactly: at ``ends`` the two may be paired again.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Final

PER_GAME: Final = dt.timedelta(minutes=5)
PER_GAME_MS: Final = 300_000


@dataclass(frozen=True, slots=True)
class Meeting:
    """What two players have played together in one arena: how many games, and when the last one ended."""

    games: int
    last_ended_at: dt.datetime

    def __post_init__(self) -> None:
        if self.games < 1:
            raise ValueError(f"a meeting is at least one game, not {self.games}")

    @property
    def cooldown(self) -> dt.timedelta:
        return cooldown(self.games)

    @property
    def ends(self) -> dt.datetime:
        """From this instant on the two may be paired again."""
        return self.last_ended_at + cooldown(self.games)

    def active(self, now: dt.datetime) -> bool:
        """True while the two may not be paired."""
        return now < self.ends

    def after(self, ended_at: dt.datetime) -> Meeting:
        """The meeting once one more game between the two ended at ``ended_at``."""
        return Meeting(self.games + 1, max(self.last_ended_at, ended_at))


def cooldown(games_together: int) -> dt.timedelta:
    """How long two players who have played ``games_together`` games in this arena wait after the last."""
    if games_together < 0:
        raise ValueError(f"games together cannot be negative: {games_together}")
    return PER_GAME * games_together


def ends_ms(games_together: int, last_ended_ms: int) -> int:
    """The same rule in epoch milliseconds, for stores that index cooldowns by their end."""
    return last_ended_ms + PER_GAME_MS * games_together
