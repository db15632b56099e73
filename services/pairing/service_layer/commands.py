"""Commands: what callers ask the pairing service to do (imperative)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from shared.commands import Actor as Actor  # re-exported: every command names its actor


@dataclass(frozen=True)
class PublishRound:
    """Make a paired knockout round public (RULES.md §4): its pairings are shown and its games may start."""

    actor: Actor
    tournament_id: uuid.UUID
    number: int
