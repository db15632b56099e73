"""Commands: what callers ask registration to do (imperative)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from services.registration.domain.audit import AuditEntry
from services.registration.domain.model import AccountKind, Changes, Settings
from shared.commands import Actor as Actor  # re-exported: every command names its actor


@dataclass(frozen=True)
class RegisterAccount:
    account_id: uuid.UUID
    name: str
    kind: AccountKind = AccountKind.REGISTERED
    ratings: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class CreateTournament:
    actor: Actor
    settings: Settings
    tournament_id: uuid.UUID | None = None


@dataclass(frozen=True)
class JoinTournament:
    """Enter ``player_id``: the player themselves (or the ``service`` principal for them), or — a
    knockout's roster being kept by its organiser — the organiser or an arbiter of the whole tournament."""

    actor: Actor  # who asks: the player, or for a knockout draft its organiser
    tournament_id: uuid.UUID
    player_id: uuid.UUID
    password: str | None = None


@dataclass(frozen=True)
class LeaveTournament:
    actor: Actor
    tournament_id: uuid.UUID
    player_id: uuid.UUID


@dataclass(frozen=True)
class CancelTournament:
    actor: Actor
    tournament_id: uuid.UUID


@dataclass(frozen=True)
class StartDueTournaments:
    """Start (or cancel for too few players) every tournament whose start time has come."""

    limit: int = 50


@dataclass(frozen=True)
class ChangeTournament:
    """Change a knockout draft's settings."""

    actor: Actor
    tournament_id: uuid.UUID
    changes: Changes


@dataclass(frozen=True)
class StartTournament:
    """The organiser starts a knockout draft: roster and seeds are fixed, round 1 is paired."""

    actor: Actor
    tournament_id: uuid.UUID


@dataclass(frozen=True)
class CompleteTournament:
    """Pairing completed the tournament (``tournament.completed``): its organiser is free again."""

    tournament_id: uuid.UUID


@dataclass(frozen=True)
class AppointArbiter:
    """The organiser appoints ``account_id`` arbiter of the whole tournament (``games`` None) or of
    the named games; again: the scope is replaced."""

    actor: Actor
    tournament_id: uuid.UUID
    account_id: uuid.UUID
    games: frozenset[uuid.UUID] | None = None


@dataclass(frozen=True)
class RevokeArbiter:
    actor: Actor
    tournament_id: uuid.UUID
    arbiter_id: uuid.UUID


@dataclass(frozen=True)
class WithdrawPlayer:
    """Withdraw a player from a started tournament, or exclude them (``exclude``: the organiser's alone)."""

    actor: Actor
    tournament_id: uuid.UUID
    player_id: uuid.UUID
    reason: str
    exclude: bool = False


@dataclass(frozen=True)
class DrawSeeding:
    """The organiser draws a knockout draft's random seeding now; it is kept at the start."""

    actor: Actor
    tournament_id: uuid.UUID


@dataclass(frozen=True)
class ResetTournament:
    """Pairing reset a knockout to its draft (``tournament.reset``)."""

    tournament_id: uuid.UUID
    entry: AuditEntry


@dataclass(frozen=True)
class RecordDecision:
    """A decision another service took (a result entered, a correction, ...): into the audit log."""

    entry: AuditEntry
