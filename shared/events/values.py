"""The value types that the events of several producers carry: how a game ended, a time control, and
who decided (with what authority, when and why)."""

from __future__ import annotations

import datetime as dt
import uuid

from pydantic import BaseModel, ConfigDict, Field

from shared import time_control
from shared.authority import Role
from shared.scoring import Outcome

GameOutcome = Outcome  # how a game ended, on the wire; points are derived by the scoring


class TimeControl(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    base_seconds: int = Field(ge=0, le=time_control.MAX_BASE_SECONDS)
    increment_seconds: int = Field(0, ge=0, le=time_control.MAX_INCREMENT_SECONDS)
    days_per_move: int | None = Field(
        None, ge=1, le=time_control.MAX_DAYS_PER_MOVE, description="correspondence"
    )

    def label(self) -> str:
        return time_control.label(self.base_seconds, self.increment_seconds, self.days_per_move)


class DecisionBy(BaseModel):
    """Who decided, in what capacity, when and why: carried by every event that records a decision
    (a result entered or corrected, a withdrawal, a bye, an appointment, ...), so each service can keep
    its audit trail and the organiser can read one log per tournament."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    by: uuid.UUID
    role: Role
    at: dt.datetime
    reason: str | None = Field(None, max_length=500)
