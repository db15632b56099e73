"""What an aggregate changed since it was loaded: its repository writes these, and only these, on save.

An aggregate keeps two lists as it changes. The domain events (``events.py``) say what happened, for the
other services; the changes say which rows to write, so that recording a result is one update with a
statement built once, not a rewrite of the tournament. The changes below are those of both formats;
each format adds its own (``elimination/elimination.py``)."""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass

from shared.scoring import Outcome


class Change:
    """Base of every change an aggregate hands its repository."""

    __slots__ = ()


class Changing:
    """Mixin of every aggregate: the changes made since it was loaded or last saved."""

    _changes: list[Change]

    def change(self, change: Change) -> None:
        try:
            self._changes.append(change)
        except AttributeError:
            self._changes = [change]

    def take_changes(self) -> list[Change]:
        """The changes so far, in order; afterwards the aggregate has none pending (it was saved)."""
        changes = getattr(self, "_changes", [])
        self._changes = []
        return changes


@dataclass(frozen=True)
class RoundAdded(Change):
    """Round ``number`` was paired (with its games, byes or matches, as the aggregate holds them)."""

    number: int
    paired_at: dt.datetime


@dataclass(frozen=True)
class OutcomeSet(Change):
    game_id: uuid.UUID
    outcome: Outcome
    finished_at: dt.datetime
    reason: str | None = None
    """Why the game ended (``game.finished``); ``default_time``: a loss by absence."""


@dataclass(frozen=True)
class RoundClosed(Change):
    """Every game (every match) of round ``number`` has its result."""

    number: int
    at: dt.datetime


@dataclass(frozen=True)
class Finished(Change):
    """The tournament is over: its status is completed."""


@dataclass(frozen=True)
class OutcomeCorrected(Change):
    """A finished game's result was corrected: the new outcome replaces the old one."""

    game_id: uuid.UUID
    outcome: Outcome


@dataclass(frozen=True)
class WithdrawalRecorded(Change):
    """Player ``seed`` left the tournament for good (the aggregate holds the withdrawal)."""

    seed: int


@dataclass(frozen=True)
class ColoursSet(Change):
    """A game not yet played has new colours (seeds of White and Black)."""

    game_id: uuid.UUID
    white: int
    black: int
