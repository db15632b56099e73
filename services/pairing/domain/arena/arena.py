"""An arena as the pairing service keeps it (RULES.md §3, docs/arena.md): who organises it, when it
ends, its time control, and whether it is over. The waiting pool lives in Redis
(:mod:`services.pairing.adapters.arena_pool`); the games paired live beside this row, one per game id,
so a game handed on twice (a worker taking over) is announced once per hand-over and made once.

**Decisions** (docs/arena.md, "Wiring"):

- Pairing closes at ``end − (base + 40 × increment)`` (:mod:`.closing`); games running then are played
  out, and a game that finishes after the end still counts.
- The arena is **complete** once its end has passed and no game of it is running: then its final
  ranking is frozen (``tournament.completed``).
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from services.pairing.domain.arena.closing import pairing_closes_at
from services.pairing.domain.events import ArenaCompleted, ArenaGamePaired, ArenaGamesPaired
from shared.aggregate import Aggregate
from shared.time_control import RateOfPlay
from shared.variants import Variant


@dataclass
class Arena(Aggregate):
    id: uuid.UUID
    organiser_id: uuid.UUID
    name: str
    started_at: dt.datetime
    ends_at: dt.datetime
    time_control: RateOfPlay
    completed_at: dt.datetime | None = None
    variant: Variant = Variant.CHESS  # the board its games use; they start from the initial position

    @property
    def closes_at(self) -> dt.datetime:
        """The first instant no new game is paired (:func:`.closing.pairing_closes_at`)."""
        return pairing_closes_at(self.ends_at, self.time_control)

    def pairing_open(self, now: dt.datetime) -> bool:
        return self.completed_at is None and now < self.closes_at

    def announce(self, games: Iterable[tuple[uuid.UUID, uuid.UUID, uuid.UUID]], at: dt.datetime) -> int:
        """Hand these games (id, white, black) on to clocks; the number announced."""
        paired = tuple(ArenaGamePaired(g, w, b) for g, w, b in games)
        if paired:
            self.record(
                ArenaGamesPaired(self.id, self.organiser_id, paired, self.time_control, at, self.variant)
            )
        return len(paired)

    def complete(self, now: dt.datetime, *, running: int) -> bool:
        """Over once its end has passed and no game is running; True the first time."""
        if self.completed_at is not None or now < self.ends_at or running:
            return False
        self.completed_at = now
        self.record(ArenaCompleted(self.id, self.organiser_id, now))
        return True
