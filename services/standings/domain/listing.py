"""The tournament index (the public page ``/t`` and ``GET /tournaments``): every tournament this
service knows, in three lists — running, upcoming, finished — with what a reader picks one by. Pure
code: the views fill it from the stored tournaments, arenas and announcements."""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass
from enum import StrEnum

from shared.time_control import RateOfPlay


class Progress(StrEnum):
    """Where a tournament is in its life, as the index lists it (a 4T1 phase is something else)."""

    RUNNING = "running"
    UPCOMING = "upcoming"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class Listed:
    id: uuid.UUID
    name: str
    phase: Progress
    ruleset: str
    variant: str
    time_control: RateOfPlay | None  # None: an arena (its games' clock is not kept here)
    starts_at: dt.datetime  # when it started, or (upcoming) is to start
    completed_at: dt.datetime | None
    players: int  # entered so far (upcoming), else on the roster
    rounds_paired: int = 0
    rounds_total: int | None = None
    arena: bool = False


@dataclass(frozen=True, slots=True)
class Index:
    running: tuple[Listed, ...]
    upcoming: tuple[Listed, ...]
    finished: tuple[Listed, ...]
    limit: int  # each list holds at most this many: the latest (upcoming: the next ones)

    @classmethod
    def of(cls, listed: list[Listed], limit: int) -> Index:
        """Running newest start first, upcoming soonest first, finished latest end first."""

        def phase(p: Progress) -> list[Listed]:
            return [t for t in listed if t.phase is p]

        running = sorted(phase(Progress.RUNNING), key=lambda t: (t.starts_at, t.name), reverse=True)
        upcoming = sorted(phase(Progress.UPCOMING), key=lambda t: (t.starts_at, t.name))
        finished = sorted(
            phase(Progress.FINISHED), key=lambda t: (t.completed_at or t.starts_at, t.name), reverse=True
        )
        return cls(tuple(running[:limit]), tuple(upcoming[:limit]), tuple(finished[:limit]), limit)
