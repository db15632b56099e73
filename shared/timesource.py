"""Time as a port: the system clock in production, a settable clock in tests and the demo."""

from __future__ import annotations

import datetime as dt
import threading
from typing import Protocol


class TimeSource(Protocol):
    """Where the time comes from (the port); a game's clock is clocks' ``Clock``."""

    def now(self) -> dt.datetime: ...


class SystemClock:
    def now(self) -> dt.datetime:
        return dt.datetime.now(dt.UTC)


class FakeClock:
    """A clock that only moves when told to."""

    def __init__(self, start: dt.datetime | None = None) -> None:
        self._now = start or dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
        self._lock = threading.Lock()

    def now(self) -> dt.datetime:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> dt.datetime:
        with self._lock:
            self._now += dt.timedelta(seconds=seconds)
            return self._now

    def set(self, when: dt.datetime) -> None:
        with self._lock:
            self._now = when
