"""The events standings publishes: the table after a round, and the final one."""

from __future__ import annotations

import uuid
from typing import ClassVar

from pydantic import BaseModel, ConfigDict

from shared.events.envelope import Event, register


class StandingRow(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    rank: int
    player_id: uuid.UUID
    seed: int
    name: str
    points: float
    tiebreaks: dict[str, float | None] = {}


@register
class StandingsUpdated(Event):
    TYPE: ClassVar[str] = "standings.updated"
    tournament_id: uuid.UUID
    after_round: int
    games_counted: int
    rows: list[StandingRow]


@register
class StandingsFinal(Event):
    TYPE: ClassVar[str] = "standings.final"
    tournament_id: uuid.UUID
    rows: list[StandingRow]
