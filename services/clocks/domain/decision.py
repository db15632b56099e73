"""Who decided something about a game, in what capacity, when and why (the results-authority issue):
a result entered by the organiser, an arbiter or the game server, a claim confirmed by the opponent, a
withdrawal's forfeit, a colour swap, a correction."""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass

from shared.authority import Role as Role


@dataclass(frozen=True)
class Decision:
    by: uuid.UUID
    role: Role
    at: dt.datetime
    reason: str | None = None
