"""What every service's commands share."""

from __future__ import annotations

import uuid
from dataclasses import dataclass


@dataclass(frozen=True)
class Actor:
    """Who asks: the token's subject, and whether they are staff (arbiter or service)."""

    id: uuid.UUID
    staff: bool = False
