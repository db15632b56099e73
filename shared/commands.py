"""What every service's commands share."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Actor:
    """Who asks: the token's subject and its roles (``player``, ``arbiter``, ``service``).

    The roles grant little by themselves: an ``arbiter`` decides only where the organiser appointed them
    (:mod:`shared.authority`); only ``service`` (the game server) is the same in every tournament.
    """

    id: uuid.UUID
    roles: frozenset[str] = field(default_factory=frozenset)

    @property
    def is_service(self) -> bool:
        """The game server that hosts online games (RULES.md §2): it reports results and presence."""
        return "service" in self.roles
