"""The flag ticker's loop body (``python -m services.clocks ticker`` calls it every tick)."""

from __future__ import annotations

import datetime as dt

from services.clocks.service_layer.commands import CheckFlags
from services.clocks.service_layer.ports import ClocksUnitOfWork
from shared.messagebus import MessageBus
from shared.timesource import TimeSource


class Ticker:
    """Every tick: finish the games the deadline store says are due. Every ``sweep_seconds`` the tick
    also sweeps the database, so a deadline the store lost is late by at most that long."""

    def __init__(
        self, bus: MessageBus[ClocksUnitOfWork], clock: TimeSource, *, sweep_seconds: float, limit: int = 100
    ) -> None:
        self.bus = bus
        self.clock = clock
        self.sweep_every = dt.timedelta(seconds=sweep_seconds)
        self.limit = limit
        self._swept_at: dt.datetime | None = None

    def tick(self) -> int:
        """Return how many games this tick finished."""
        now = self.clock.now()
        last = self._swept_at
        sweep = last is None or not last <= now < last + self.sweep_every
        if sweep:
            self._swept_at = now
        finished: int = self.bus.handle(CheckFlags(limit=self.limit, sweep=sweep))
        return finished
