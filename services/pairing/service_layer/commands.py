"""Commands: what callers ask the pairing service to do (imperative)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass


@dataclass(frozen=True)
class Actor:
    """Who asks: the token's subject, and whether they are staff (arbiter or service)."""

    id: uuid.UUID
    staff: bool = False


@dataclass(frozen=True)
class PublishRound:
    """Make a paired knockout round public (RULES.md §4): its pairings are shown and its games may start."""

    actor: Actor
    tournament_id: uuid.UUID
    number: int
