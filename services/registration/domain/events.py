"""What happens to a tournament, as its aggregate records it (past tense), and the values these events
carry. ``adapters/wire.py`` maps each to its versioned wire event; nothing here knows the wire.

A knockout draft's creation, its settings changes and its seeding drawn on request are not events:
nothing outside registration hears of a draft until its players are entered or it starts (the draw is
in the audit log, ``audit.py``)."""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass

from services.registration.domain.fide import FideFormat
from services.registration.domain.group_playoff import GroupFormat
from services.registration.domain.knockout import KnockoutFormat, bracket_format
from services.registration.domain.players import Profile
from shared.aggregate import DomainEvent
from shared.authority import Decided
from shared.time_control import RateOfPlay
from shared.vocabulary import BracketFormat, CancelReason, Ruleset


@dataclass(frozen=True)
class PlaySettings:
    """How the tournament is played: what pairing, clocks and standings are told of its settings."""

    ruleset: Ruleset
    variant: str
    threshold: int
    double_rounds: bool
    extra_round: bool
    rated: bool
    time_control: RateOfPlay
    knockout: KnockoutFormat | None = None
    byes_on_request: bool = False
    fide: FideFormat | None = None  # fide-rapid: fixed at the start (a round robin's rounds too)
    opening: str = "free"  # the opening option (platform: RULES.md §2)
    duration_minutes: int | None = None  # platform: the announced duration from the start
    arena_minutes: int | None = None  # arena: how long it runs from its start
    group_playoff: GroupFormat | None = None  # group-playoff: the groups' lot seed drawn at the start

    @property
    def bracket(self) -> BracketFormat | None:
        """The elimination format of a knockout ruleset; None for the others."""
        return bracket_format(self.ruleset)


@dataclass(frozen=True)
class Seeded:
    """A player of the roster fixed at the start, with their seed (1 = first)."""

    seed: int
    player_id: uuid.UUID
    name: str
    rating: int | None
    profile: Profile | None = None  # fide-rapid: the player's FIDE data
    creates_games: bool = True  # group-playoff: False when they cannot create games (4T1 §4(5))


@dataclass(frozen=True)
class TournamentScheduled(DomainEvent):
    """A `platform` tournament was created: players may join until its start."""

    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    name: str
    starts_at: dt.datetime
    seats: int
    minimum: int
    settings: PlaySettings


@dataclass(frozen=True)
class PlayerPaused(DomainEvent):
    """An arena's player paused: out of the waiting pool until they join again, keeping their score."""

    tournament_id: uuid.UUID
    player_id: uuid.UUID
    roster_revision: int = 0  # the roster revision it produced, stamped by ``Tournament.record``


@dataclass(frozen=True)
class PlayerJoined(DomainEvent):
    """A player entered the roster: by joining, added by a knockout's organiser, or a fide-rapid event's
    player entered by hand, imported, or confirmed. ``late``: after the start, playing from ``from_round``."""

    tournament_id: uuid.UUID
    player_id: uuid.UUID
    name: str
    rating: int | None
    profile: Profile | None = None
    late: bool = False
    from_round: int | None = None
    arena: bool = False  # an arena's: published as ``player.joined.arena`` (the arena queues bind it)
    roster_revision: int = 0  # the roster revision it produced, stamped by ``Tournament.record``


@dataclass(frozen=True)
class PlayerLeft(DomainEvent):
    """A player left the roster before the start (or its organiser removed them from a knockout draft)."""

    tournament_id: uuid.UUID
    player_id: uuid.UUID
    arena: bool = False  # an arena's: published as ``player.left.arena``
    roster_revision: int = 0  # the roster revision it produced, stamped by ``Tournament.record``


@dataclass(frozen=True)
class TournamentStarted(DomainEvent):
    """The roster and its seeds are fixed: pairing pairs round 1."""

    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    name: str
    started_at: dt.datetime
    settings: PlaySettings
    roster: tuple[Seeded, ...]
    roster_revision: int = 0  # the roster revision it produced, stamped by ``Tournament.record``


@dataclass(frozen=True)
class TournamentCancelled(DomainEvent):
    """Cancelled before its start: by its organiser, or by itself for too few players."""

    tournament_id: uuid.UUID
    reason: CancelReason
    detail: str
    present: int


@dataclass(frozen=True)
class ArbiterAppointed(DomainEvent):
    """The organiser appointed an arbiter for the whole tournament (``games`` None) or for named games;
    appointing them again replaces the scope."""

    tournament_id: uuid.UUID
    arbiter_id: uuid.UUID
    games: frozenset[uuid.UUID] | None
    decided: Decided


@dataclass(frozen=True)
class ArbiterRevoked(DomainEvent):
    tournament_id: uuid.UUID
    arbiter_id: uuid.UUID
    decided: Decided


@dataclass(frozen=True)
class PlayerWithdrawn(DomainEvent):
    """A player left a started tournament for good: withdrawn, or excluded by its organiser."""

    tournament_id: uuid.UUID
    player_id: uuid.UUID
    reason: str
    excluded: bool
    decided: Decided
    roster_revision: int = 0  # the roster revision it produced, stamped by ``Tournament.record``


ROSTER_CHANGES = (PlayerJoined, PlayerLeft, PlayerPaused, TournamentStarted, PlayerWithdrawn)
"""What changes a tournament's roster as the other services know it: each produces the next roster
revision (``Tournament.roster_revision``), which it carries. Appointments and revocations do not: they
are not the roster, and pairing does not take them with the start (docs/events.md, "Causal commands")."""


@dataclass(frozen=True)
class RatingUpdated(DomainEvent):
    """A rated game moved a player's Glicko-2 rating in one variant and speed class (``key``)."""

    account_id: uuid.UUID
    key: str  # "<variant>:<speed>"
    rating: float
    deviation: float
    volatility: float
    previous: float
    games: int
    game_id: uuid.UUID
    tournament_id: uuid.UUID
    at: dt.datetime
