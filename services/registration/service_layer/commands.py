"""Commands: what callers ask registration to do (imperative)."""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass, field

from services.registration.domain.account import AccountKind
from services.registration.domain.audit import AuditEntry
from services.registration.domain.player_lists import ListFormat
from services.registration.domain.players import Person, PlayerChange, Profile
from services.registration.domain.tournament import Changes, Settings
from shared.commands import Actor as Actor  # re-exported: every command names its actor
from shared.scoring import Outcome


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
    profile: Profile | None = None  # fide-rapid: the FIDE data the player gives
    creates_games: bool = True  # group-playoff: False ranks the entry after all others
    invite: str | None = None  # a private tournament's invite link (its token), instead of the password


@dataclass(frozen=True)
class CreateInvite:
    """The organiser of a private tournament creates an invite link (valid until revoked, or for a time)."""

    actor: Actor
    tournament_id: uuid.UUID
    valid_for: dt.timedelta | None = None


@dataclass(frozen=True)
class RevokeInvite:
    actor: Actor
    tournament_id: uuid.UUID
    token: str


@dataclass(frozen=True)
class LeaveTournament:
    actor: Actor
    tournament_id: uuid.UUID
    player_id: uuid.UUID


@dataclass(frozen=True)
class PauseEntry:
    """An arena's player pauses (the player, an official, the service principal)."""

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
    """The organiser starts a knockout draft, or the organiser or an arbiter of the whole event a
    fide-rapid event: roster and seeds are fixed, round 1 is paired."""

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


# -- a fide-rapid event's players ---------------------------------------------------------------------
@dataclass(frozen=True)
class AddPlayer:
    """An official enters a player by hand (a person, no account); after the start: a late entry."""

    actor: Actor
    tournament_id: uuid.UUID
    person: Person
    player_id: uuid.UUID | None = None  # None: the service gives the entry a new id


@dataclass(frozen=True)
class ImportPlayers:
    """An official imports a CSV or TRF player list before the start: all of it or nothing."""

    actor: Actor
    tournament_id: uuid.UUID
    text: str
    format: ListFormat


@dataclass(frozen=True)
class ChangePlayer:
    actor: Actor
    tournament_id: uuid.UUID
    player_id: uuid.UUID
    change: PlayerChange


@dataclass(frozen=True)
class RemovePlayer:
    actor: Actor
    tournament_id: uuid.UUID
    player_id: uuid.UUID


@dataclass(frozen=True)
class ConfirmEntry:
    """An official confirms an account's entry into a fide-rapid event."""

    actor: Actor
    tournament_id: uuid.UUID
    player_id: uuid.UUID


@dataclass(frozen=True)
class RefuseEntry:
    """The organiser refuses an entry into a group-playoff event before its start (RULES.md §5)."""

    actor: Actor
    tournament_id: uuid.UUID
    player_id: uuid.UUID
    reason: str


@dataclass(frozen=True)
class RecordRoundPaired:
    """Pairing paired a round (``round.paired``): late entries play from the next one."""

    tournament_id: uuid.UUID
    round: int


@dataclass(frozen=True)
class RateGame:
    """Clocks finished a game (``game.finished``): it may move both players' ratings."""

    game_id: uuid.UUID
    tournament_id: uuid.UUID
    white: uuid.UUID
    black: uuid.UUID
    outcome: Outcome
    finished_at: dt.datetime
    rated: bool = True
    both_moved: bool | None = None
    moves: int = 0


@dataclass(frozen=True)
class WithdrawAbsentPlayer:
    """Pairing found an absence not excused before the next pairing (``absence.unexcused``)."""

    tournament_id: uuid.UUID
    player_id: uuid.UUID
    round: int
