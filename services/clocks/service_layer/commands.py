"""Commands: what callers ask the clocks service to do (imperative)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from services.clocks.domain.game import Outcome
from shared.commands import Actor as Actor  # re-exported: every command names its actor


@dataclass(frozen=True)
class MakeMove:
    """``player_id`` completed a move: press their clock."""

    game_id: uuid.UUID
    player_id: uuid.UUID


@dataclass(frozen=True)
class ReportResult:
    game_id: uuid.UUID
    outcome: Outcome
    reason: str
    actor: Actor


@dataclass(frozen=True)
class CheckFlags:
    """The ticker: finish every game whose flag has fallen. ``sweep`` also asks the database for
    overdue games, in case the deadline store lost an entry."""

    limit: int = 100
    sweep: bool = True
