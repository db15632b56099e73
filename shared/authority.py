"""Who may decide what in a tournament (RULES.md §5 "Authority", the results-authority issue).

The organiser is the tournament's creator. The organiser appoints arbiters, for the whole tournament or for
named games, and may revoke them. The ``service`` principal is the game server that hosts online games. An
account holding the ``arbiter`` role in its token is an arbiter only where it was appointed.

Pure: each service that checks authority keeps the organiser and the appointments of the tournaments it
knows (from ``tournament.scheduled``/``tournament.started`` and ``arbiter.appointed``/``arbiter.revoked``)
and asks :meth:`Authority.role_of`.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum


class Role(StrEnum):
    """In what capacity someone decided: the order is from the most authority to the least."""

    ORGANISER = "organiser"
    ARBITER = "arbiter"
    SERVICE = "service"
    PLAYER = "player"


@dataclass(frozen=True)
class Decided:
    """Who decided, in what capacity, when and why: a result entered by the organiser, an arbiter or the
    game server, a claim confirmed by the opponent, a withdrawal's forfeit, a colour swap, a correction,
    an appointment. The one domain type every service keeps it in; on the wire it is
    :class:`shared.events.DecisionBy`."""

    by: uuid.UUID
    role: Role
    at: dt.datetime
    reason: str | None = None


@dataclass(frozen=True)
class Appointment:
    """An arbiter of one tournament: for all of it (``games`` None) or for the named games only."""

    arbiter_id: uuid.UUID
    games: frozenset[uuid.UUID] | None = None

    def covers(self, game_id: uuid.UUID | None) -> bool:
        """Whether a decision about ``game_id`` (None: about the tournament as a whole) is in scope."""
        if self.games is None:
            return True
        return game_id is not None and game_id in self.games


@dataclass(frozen=True)
class Authority:
    """The people who decide in one tournament."""

    organiser_id: uuid.UUID
    appointments: Mapping[uuid.UUID, Appointment] = field(default_factory=dict)

    def is_organiser(self, actor_id: uuid.UUID) -> bool:
        return actor_id == self.organiser_id

    def is_arbiter(self, actor_id: uuid.UUID, game_id: uuid.UUID | None = None) -> bool:
        """An appointed arbiter whose scope covers ``game_id`` (None: the whole tournament)."""
        appointment = self.appointments.get(actor_id)
        return appointment is not None and appointment.covers(game_id)

    def decides(self, actor_id: uuid.UUID, game_id: uuid.UUID | None = None) -> Role | None:
        """The capacity in which ``actor_id`` may decide about ``game_id`` (or the tournament): the
        organiser, an arbiter in scope, or None."""
        if self.is_organiser(actor_id):
            return Role.ORGANISER
        if self.is_arbiter(actor_id, game_id):
            return Role.ARBITER
        return None

    def appoint(self, appointment: Appointment) -> Authority:
        return Authority(self.organiser_id, {**self.appointments, appointment.arbiter_id: appointment})

    def revoke(self, arbiter_id: uuid.UUID) -> Authority:
        return Authority(self.organiser_id, {k: v for k, v in self.appointments.items() if k != arbiter_id})

    @classmethod
    def of(cls, organiser_id: uuid.UUID, appointments: Iterable[Appointment] = ()) -> Authority:
        return cls(organiser_id, {a.arbiter_id: a for a in appointments})
