"""What every tournament has, whatever its format: its heading (who organises it, its name, ruleset and
time control, when it started), its players by seed, and whether it is still running."""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass
from enum import StrEnum

from shared.time_control import RateOfPlay
from shared.vocabulary import Ruleset


@dataclass(frozen=True)
class Heading:
    """A tournament as registration started it (``tournament.started``)."""

    id: uuid.UUID
    organiser_id: uuid.UUID
    name: str
    ruleset: Ruleset
    time_control: RateOfPlay
    started_at: dt.datetime


@dataclass(frozen=True)
class Player:
    seed: int
    player_id: uuid.UUID
    name: str
    rating: int | None = None
    from_round: int | None = None
    """A late entry (fide-rapid): the first round they may be paired in; the rounds before are byes."""


class Status(StrEnum):
    RUNNING = "running"
    COMPLETED = "completed"


@dataclass(frozen=True)
class Withdrawal:
    """A player who left a started tournament for good (``player.withdrawn``): withdrawn, or excluded
    by the organiser. Their games so far stand."""

    at: dt.datetime
    excluded: bool = False
    reason: str = ""
