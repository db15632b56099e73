"""A tournament and its roster, whatever its ruleset: who is entered and how they join, leave and are
withdrawn (RULES.md §2 "Joining and leaving", §4, §5), who decides in it — its organiser and the arbiters
they appoint (RULES.md §5 "Authority") — and how it starts, is cancelled and completes. Every decision is
recorded for the tournament's audit log (``audit.py``).

What differs from one ruleset to another is the ruleset's own answer: each tournament holds one
:class:`RulesetSettings`, whose module in ``rulesets/`` (``platform``, ``arena``, ``knockout``,
``fide_rapid``, ``group_playoff``) holds that ruleset's settings, their validator, the constructor of
its tournaments and the commands only it has. The core asks it, never which ruleset it is."""

from __future__ import annotations

import dataclasses
import datetime as dt
import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from services.registration.domain import errors
from services.registration.domain.account import Account
from services.registration.domain.audit import AuditEntry, AuditKind, Subject, SubjectKind
from services.registration.domain.entries import Arbiter, Entry, RosterChanges, Withdrawal, seed
from services.registration.domain.events import (
    ROSTER_CHANGES,
    ArbiterAppointed,
    ArbiterRevoked,
    PlayerJoined,
    PlayerLeft,
    PlayerWithdrawn,
    PlaySettings,
    Seeded,
    TournamentCancelled,
    TournamentStarted,
)
from services.registration.domain.fide import FideFormat
from services.registration.domain.group_playoff import GroupFormat
from services.registration.domain.knockout import FormatChange, KnockoutFormat
from services.registration.domain.players import Profile
from services.registration.domain.speed import rating_key, speed_of
from shared.aggregate import Aggregate, DomainEvent
from shared.authority import Authority, Decided, Role
from shared.openings import OpeningTable
from shared.time_control import RateOfPlay as RateOfPlay  # re-exported: part of the settings
from shared.vocabulary import CancelReason, Ruleset

MIN_PLAYERS = 4  # the fewest players a `platform` tournament starts with (RULES.md §2)
MAX_REASON = 500  # characters of a decision's reason


@dataclass(frozen=True)
class RatingTerms:
    """What a finished game of a tournament needs to be rated: the tournament's ruleset, whether it is
    rated, and the rating key of its variant and speed class (``chess:blitz``)."""

    ruleset: Ruleset
    rated: bool
    key: str


def terms_key(variant: str, tc: RateOfPlay) -> str:
    """The rating key of a variant at a time control."""
    return rating_key(variant, speed_of(tc.base_seconds, tc.increment_seconds, tc.days_per_move))


class Status(StrEnum):
    DRAFT = "draft"  # a knockout being prepared by its organiser
    SCHEDULED = "scheduled"
    STARTED = "started"
    CANCELLED = "cancelled"
    COMPLETED = "completed"


@dataclass(frozen=True)
class Settings:
    """The organiser's choices as they ask for a tournament, one field for each setting any ruleset has:
    the ruleset's constructor (``rulesets/``) validates them, refuses those that are not its own and keeps
    its own in the tournament's :class:`RulesetSettings`. A knockout has no ``starts_at`` (the organiser
    starts it) and its format in ``knockout``."""

    name: str
    starts_at: dt.datetime | None
    time_control: RateOfPlay
    seats: int = 200
    minimum: int = MIN_PLAYERS
    threshold: int = 7
    ruleset: Ruleset = Ruleset.PLATFORM
    variant: str = "chess"
    double_rounds: bool = False
    extra_round: bool = False
    rated: bool = True
    min_rating: int | None = None
    password: str | None = None  # private tournament; stored hashed
    opening: str = "free"  # one of the nine options (shared.openings.ALLOWED)
    duration_minutes: int | None = None  # platform: the announced duration (RULES.md §2 "Duration")
    knockout: KnockoutFormat | None = None
    byes_on_request: bool | None = None  # None: as the ruleset says
    fide: FideFormat | None = None  # the fide-rapid ruleset's settings
    arena_minutes: int | None = None  # the arena ruleset's duration
    group_playoff: GroupFormat | None = None  # the group-playoff ruleset's settings


@dataclass(frozen=True)
class Changes:
    """What the organiser changes in a knockout draft or a fide-rapid event before its start; None
    leaves a setting as it is (``fide``: the whole block is replaced)."""

    name: str | None = None
    time_control: RateOfPlay | None = None
    variant: str | None = None
    rated: bool | None = None
    format: FormatChange = field(default_factory=FormatChange)
    fide: FideFormat | None = None


@dataclass(frozen=True)
class Creation:
    """What creating a tournament is given besides the organiser's settings: when, its id, the service's
    configuration (``min_lead``: the shortest lead of a scheduled start; ``arena_min_minutes``: the
    shortest arena; ``italian``: the Italian federation's opening table, where one is configured) and
    whether the organiser runs a competition already."""

    now: dt.datetime
    tournament_id: uuid.UUID
    min_lead: dt.timedelta
    arena_min_minutes: int
    organiser_busy: bool = False
    italian: OpeningTable | None = None


class Entering(StrEnum):
    """Who puts an account on a tournament's roster."""

    PLAYERS = "players"  # players join themselves (the game server may enter them)
    OFFICIALS = "officials"  # the organiser or an arbiter of the whole tournament adds them (RULES.md §4)
    EITHER = "either"  # players join, unconfirmed; an official's entry is confirmed at once (RULES.md §6)


@dataclass(frozen=True)
class Joining:
    """What an account brings when it joins: a private tournament's password, or an invite link the
    caller checked (``invited``); in a fide-rapid event its FIDE data (``profile``) and whether an official
    entered it (``confirmed``); in a group-playoff event whether it may create games."""

    password: str | None = None
    profile: Profile | None = None
    confirmed: bool = False
    invited: bool = False
    creates_games: bool = True

    def require_no_profile(self) -> None:
        if self.profile is not None:
            raise errors.InvalidPlayer("FIDE player data is given in fide-rapid events only")


@dataclass(frozen=True)
class RulesetFields:
    """A ruleset's settings spread over one optional field per ruleset, as the events (``PlaySettings``),
    the API and the ``tournaments`` table name them; each ruleset fills its own, the others stay empty."""

    knockout: KnockoutFormat | None = None
    fide: FideFormat | None = None  # fide-rapid: fixed at the start (a round robin's rounds too)
    rounds_paired: int = 0  # fide-rapid: the last round pairing announced (``round.paired``)
    duration_minutes: int | None = None  # platform: the announced duration from the start
    arena_minutes: int | None = None  # arena: how long it runs from its start
    group_playoff: GroupFormat | None = None  # group-playoff: the groups' lot seed drawn at the start


AccountsOf = Callable[[Iterable[uuid.UUID]], Iterable[Account]]


class RulesetSettings(ABC):
    """A tournament's ruleset with its own settings: what the core asks where the rulesets differ. The
    defaults are those of most rulesets; a ruleset overrides what it does its own way. Each is a frozen
    value: a command that changes it replaces the tournament's ``settings``."""

    entering: ClassVar[Entering] = Entering.PLAYERS
    pooled: ClassVar[bool] = False  # players wait in a pool, paired as they come (an arena): events say so
    starts_with_anyone: ClassVar[bool] = False  # no minimum at the start (an arena)
    one_per_organiser: ClassVar[bool] = False  # its organiser runs one at a time (RULES.md §2 "Creating")

    @property
    @abstractmethod
    def ruleset(self) -> Ruleset: ...

    @abstractmethod
    def fields(self) -> RulesetFields:
        """Its settings, field by field, as the events, the API and the tables name them."""

    @classmethod
    @abstractmethod
    def create(cls, organiser: Account, settings: Settings, creation: Creation) -> Tournament:
        """A new tournament of this ruleset from the organiser's settings, validated."""

    @classmethod
    @abstractmethod
    def from_fields(cls, ruleset: Ruleset, fields: RulesetFields) -> RulesetSettings:
        """Its settings as they were stored, field by field (the inverse of :meth:`fields`)."""

    # -- joining and leaving ------------------------------------------------------------------------
    def check_joining(self) -> None:
        """Whether players may join by themselves at all (before anything else is checked)."""
        return None  # most rulesets: they may

    def require_open(self, t: Tournament, now: dt.datetime, action: str) -> None:
        """Whether players can join, leave or change entries now: before the scheduled start."""
        if t.status is not Status.SCHEDULED or t.starts_at is None or now >= t.starts_at:
            raise errors.RegistrationClosed(
                f"players can {action} only before the start ({iso(t.starts_at)}); "
                f"the tournament is {t.status.value}"
            )

    def rejoin(self, t: Tournament, player_id: uuid.UUID) -> Entry | None:
        """An entry a player who joins again takes up again; None: they enter anew."""
        return None

    @abstractmethod
    def entry_for(self, t: Tournament, account: Account, joining: Joining, now: dt.datetime) -> Entry:
        """The entry of an account that joins (not entered yet), or why it may not join."""

    def require_leaving(self, t: Tournament, now: dt.datetime) -> None:
        """Whether a player can leave (or be removed) now."""
        t.require_open(now, "leave")

    def without(self, player_id: uuid.UUID) -> RulesetSettings:
        """The settings once ``player_id`` left the roster (a knockout's custom order names them)."""
        return self

    def stays_after_leaving(self, t: Tournament) -> bool:
        """Whether a player who leaves keeps their entry (paused) instead of leaving the roster."""
        return False

    def check_confirming(self, t: Tournament, actor_id: uuid.UUID) -> None:
        """Whether ``actor_id``, an official, confirms entries here: most rulesets have none to confirm."""
        raise accounts_only(t, "confirm entries")

    def check_withdrawing(self, *, exclude: bool) -> None:
        """Whether a player may be withdrawn (not excluded) after the start."""
        return None  # most rulesets: they may

    # -- settings, start, cancellation ----------------------------------------------------------
    def change(self, t: Tournament, changes: Changes) -> None:
        """The organiser changes the settings: most rulesets' are fixed at creation."""
        if changes.fide is not None:
            raise errors.InvalidSettings("fide settings are for the fide-rapid ruleset")
        raise not_a_draft(t, "change its settings", f"a {t.ruleset} tournament")

    def start_on_request(
        self,
        t: Tournament,
        actor_id: uuid.UUID,
        now: dt.datetime,
        accounts: AccountsOf,
        draw_seed: Callable[[], int],
    ) -> list[Seeded]:
        """An official starts it: a tournament that starts at its scheduled time is not started so."""
        t.require_organiser(actor_id, "start it")
        raise not_a_draft(t, "be started", f"a {t.ruleset} tournament")

    def cancellable(self, t: Tournament, now: dt.datetime) -> bool:
        """Whether the organiser may cancel it now: a draft, or before its scheduled start."""
        return t.status is Status.DRAFT or (
            t.status is Status.SCHEDULED and t.starts_at is not None and now < t.starts_at
        )

    def drawn_order(self, entries: list[Entry]) -> list[uuid.UUID] | None:
        """A seeding's order as drawn (seed 1 first), for the players playing; None: none drawn."""
        return None

    def ends_at(self, starts_at: dt.datetime | None) -> dt.datetime | None:
        """When it ends, where its ruleset fixes it from the start; None for the others."""
        return None


@dataclass
class Tournament(Aggregate):
    """A tournament and its roster. It records what happens to it as domain events (``events.py``)
    and keeps the roster changes its repository has not written yet. ``settings``: its ruleset and the
    settings only that ruleset has."""

    id: uuid.UUID
    organiser_id: uuid.UUID
    name: str
    starts_at: dt.datetime | None  # a knockout draft has none: its organiser starts it
    time_control: RateOfPlay
    seats: int
    minimum: int
    threshold: int
    variant: str
    rated: bool
    settings: RulesetSettings
    double_rounds: bool = False
    extra_round: bool = False
    min_rating: int | None = None
    password_hash: str | None = None
    status: Status = Status.SCHEDULED
    status_reason: str | None = None
    created_at: dt.datetime | None = None
    entries: list[Entry] = field(default_factory=list)
    byes_on_request: bool = False
    arbiters: dict[uuid.UUID, Arbiter] = field(default_factory=dict)
    opening: str = "free"  # a `platform` tournament's opening option (RULES.md §2)
    rated_reason: str | None = None  # why it is friendly (or rated despite its opening), decided at creation
    roster_revision: int = 0  # the roster changes published so far (:meth:`record`): 0 before the first
    _roster: RosterChanges = field(default_factory=RosterChanges, init=False, repr=False, compare=False)
    _decisions: list[AuditEntry] = field(default_factory=list, init=False, repr=False, compare=False)

    def record(self, event: DomainEvent) -> None:
        """Record what happened; a change of the roster as the other services know it (a player joined,
        left, paused or was withdrawn; the start) produces the next **roster revision** and carries it.
        Another service that must know the change before a later command names the revision: pairing
        refuses a pairing until it has heard it (docs/events.md, "Causal commands")."""
        if isinstance(event, ROSTER_CHANGES):
            self.roster_revision += 1
            event = dataclasses.replace(event, roster_revision=self.roster_revision)
        super().record(event)

    # -- what it is ---------------------------------------------------------------------------------
    @property
    def ruleset(self) -> Ruleset:
        return self.settings.ruleset

    @property
    def private(self) -> bool:
        return self.password_hash is not None

    @property
    def ends_at(self) -> dt.datetime | None:
        """An arena's end: its start plus its duration (None for the other formats)."""
        return self.settings.ends_at(self.starts_at)

    # its ruleset's settings, field by field, as the API and the events name them
    @property
    def knockout(self) -> KnockoutFormat | None:
        return self.settings.fields().knockout

    @property
    def fide(self) -> FideFormat | None:
        return self.settings.fields().fide

    @property
    def rounds_paired(self) -> int:
        return self.settings.fields().rounds_paired

    @property
    def duration_minutes(self) -> int | None:
        return self.settings.fields().duration_minutes

    @property
    def arena_minutes(self) -> int | None:
        return self.settings.fields().arena_minutes

    @property
    def group_playoff(self) -> GroupFormat | None:
        return self.settings.fields().group_playoff

    def drawn_order(self) -> list[uuid.UUID] | None:
        """A random seeding's order as drawn (seed 1 first), for the players playing; None until drawn."""
        return self.settings.drawn_order(self.entries)

    @property
    def rating_key(self) -> str:
        return terms_key(self.variant, self.time_control)

    def rating_terms(self) -> RatingTerms:
        return RatingTerms(self.ruleset, self.rated, self.rating_key)

    def play_settings(self) -> PlaySettings:
        own = self.settings.fields()
        return PlaySettings(
            ruleset=self.ruleset,
            variant=self.variant,
            threshold=self.threshold,
            double_rounds=self.double_rounds,
            extra_round=self.extra_round,
            rated=self.rated,
            time_control=self.time_control,
            knockout=own.knockout,
            byes_on_request=self.byes_on_request,
            fide=own.fide,
            opening=self.opening,
            duration_minutes=own.duration_minutes,
            arena_minutes=own.arena_minutes,
            group_playoff=own.group_playoff,
        )

    def collect_roster_changes(self) -> RosterChanges:
        """The roster and arbiter changes since the last call (or the load); afterwards none are pending."""
        changes, self._roster = self._roster, RosterChanges()
        return changes

    def collect_decisions(self) -> list[AuditEntry]:
        """The decisions taken since the last call (or the load), for the audit log; afterwards none."""
        decisions, self._decisions = self._decisions, []
        return decisions

    def decided(self, kind: AuditKind, subject: Subject, detail: str, decided: Decided) -> None:
        """A decision taken in the tournament, for its audit log."""
        self._decisions.append(AuditEntry.of(self.id, decided, kind, subject, detail))

    # -- who decides (RULES.md §5 "Authority") -----------------------------------------------------
    @property
    def authority(self) -> Authority:
        return Authority.of(self.organiser_id, (a.appointment() for a in self.arbiters.values()))

    def require_organiser(self, actor_id: uuid.UUID, action: str) -> None:
        if actor_id != self.organiser_id:
            raise errors.NotOrganiser(f"only the organiser of this tournament may {action}")

    def official(self, actor_id: uuid.UUID) -> Role | None:
        """Who decides about the tournament as a whole (its roster, its players' withdrawals): the
        organiser, or an arbiter appointed for the whole tournament; None for anyone else."""
        return self.authority.decides(actor_id)

    def require_official(self, actor_id: uuid.UUID, action: str) -> Role:
        role = self.official(actor_id)
        if role is None:
            raise errors.NotAnArbiterHere(
                f"only the organiser or an arbiter appointed for the whole tournament may {action}"
            )
        return role

    def may_read_records(self, actor_id: uuid.UUID) -> bool:
        """The organiser and each of its arbiters, whatever their scope, read its arbiters and audit log."""
        return actor_id == self.organiser_id or actor_id in self.arbiters

    def appoint(
        self, actor_id: uuid.UUID, account: Account, games: frozenset[uuid.UUID] | None, *, now: dt.datetime
    ) -> Arbiter:
        """The organiser appoints ``account`` arbiter of the whole tournament (``games`` None) or of the
        named games; appointing them again replaces the scope."""
        self.require_organiser(actor_id, "appoint arbiters")
        self.require_undecided("appoint arbiters")
        account.require_registered("arbitrate")
        if account.id == self.organiser_id:
            raise errors.InvalidAppointment("the organiser decides everything already: no appointment needed")
        if games is not None and not games:
            raise errors.InvalidAppointment("name at least one game, or none for the whole tournament")
        arbiter = Arbiter(account.id, account.name, games, now)
        again = account.id in self.arbiters
        self.arbiters[account.id] = arbiter
        self._roster.appoint(arbiter)
        decided = Decided(actor_id, Role.ORGANISER, now)
        self.record(ArbiterAppointed(self.id, account.id, games, decided))
        scope = "the whole tournament" if games is None else _games(games)
        self.decided(
            AuditKind.ARBITER_APPOINTED,
            Subject(SubjectKind.ARBITER, account.id),
            f"{account.name} appointed{' again' if again else ''} for {scope}",
            decided,
        )
        return arbiter

    def revoke(self, actor_id: uuid.UUID, arbiter_id: uuid.UUID, *, now: dt.datetime) -> None:
        self.require_organiser(actor_id, "revoke arbiters")
        self.require_undecided("revoke arbiters")
        arbiter = self.arbiters.pop(arbiter_id, None)
        if arbiter is None:
            raise errors.ArbiterNotAppointed(f"{arbiter_id} is not an arbiter of this tournament")
        self._roster.revoke(arbiter_id)
        decided = Decided(actor_id, Role.ORGANISER, now)
        self.record(ArbiterRevoked(self.id, arbiter_id, decided))
        self.decided(
            AuditKind.ARBITER_REVOKED,
            Subject(SubjectKind.ARBITER, arbiter_id),
            f"{arbiter.name}'s appointment revoked",
            decided,
        )

    def withdraw(
        self, actor_id: uuid.UUID, player_id: uuid.UUID, *, reason: str, exclude: bool, now: dt.datetime
    ) -> Entry:
        """Withdraw a player from the started tournament, or (its organiser alone) exclude them: for good,
        with a reason (RULES.md §4, §5). Whether a player may be withdrawn rather than excluded is the
        ruleset's answer (a `platform` player cannot leave after the start, RULES.md §2)."""
        role = self.official(actor_id)
        if exclude and role is not Role.ORGANISER:
            raise errors.NotOrganiser("excluding a player is the organiser's decision alone")
        if role is None:
            raise errors.NotAnArbiterHere(
                "only the organiser or an arbiter appointed for the whole tournament withdraws players"
            )
        reason = _reason(reason)
        if self.status in (Status.DRAFT, Status.SCHEDULED):
            raise errors.NotStarted(
                f"the tournament has not started ({self.status.value}): before the start a player leaves"
                " by removing their entry"
            )
        self.require_undecided("withdraw players")
        entry = self.find(player_id)
        if entry is None:
            raise errors.PlayerNotEntered(f"{player_id} does not play in this tournament")
        if entry.withdrawal is not None:
            raise errors.AlreadyWithdrawn(f"{entry.name} is {entry.standing.value} already")
        self.settings.check_withdrawing(exclude=exclude)
        decided = Decided(actor_id, role, now, reason)
        self.withdrawn(entry, exclude=exclude, decided=decided, detail=None)
        return entry

    def withdrawn(self, entry: Entry, *, exclude: bool, decided: Decided, detail: str | None) -> None:
        """Every withdrawal's one path: the entry marked for good, ``player.withdrawn``, the audit log."""
        reason = decided.reason or ""
        entry.withdrawal = Withdrawal(exclude, reason, decided.at)
        self._roster.withdraw(entry)
        self.record(PlayerWithdrawn(self.id, entry.player_id, reason, exclude, decided))
        self.decided(
            AuditKind.PLAYER_EXCLUDED if exclude else AuditKind.PLAYER_WITHDRAWN,
            Subject(SubjectKind.PLAYER, entry.player_id),
            detail or f"{entry.name} {entry.standing.value}",
            decided,
        )

    def require_undecided(self, action: str) -> None:
        if self.status in (Status.CANCELLED, Status.COMPLETED):
            raise errors.TournamentClosed(f"the tournament is {self.status.value}: nobody can {action} now")

    # -- joining and leaving (RULES.md §2 "Joining and leaving") ----------------------------------
    def join(
        self,
        account: Account,
        *,
        now: dt.datetime,
        password: str | None = None,
        profile: Profile | None = None,
        confirmed: bool = False,
        invited: bool = False,
        creates_games: bool = True,
    ) -> Entry:
        """An account enters. In a fide-rapid event its entry waits for an official's confirmation
        (``confirmed``: an official entered it, confirmed at once), with the FIDE data it gives. A
        private tournament takes its password, or an invite link the caller checked (``invited``)."""
        self.settings.check_joining()
        account.require_registered("play in tournaments")
        self.require_open(now, "join")
        again = self.settings.rejoin(self, account.id)
        if again is not None:
            return again
        if any(e.player_id == account.id for e in self.entries):
            raise errors.AlreadyJoined(f"{account.name} has already joined")
        joining = Joining(password, profile, confirmed, invited, creates_games)
        return self.enter(self.settings.entry_for(self, account, joining, now))

    def leave(self, player_id: uuid.UUID, *, now: dt.datetime) -> None:
        self.settings.require_leaving(self, now)
        entry = self.find(player_id)
        if entry is None:
            raise errors.NotJoined("this player has not joined this tournament")
        self.settings = self.settings.without(player_id)
        if self.settings.stays_after_leaving(self):
            # the entry stays (its games and score stand); the player may join again
            self.pause_entry(entry)
            self.record(PlayerLeft(tournament_id=self.id, player_id=player_id, arena=self.settings.pooled))
            return
        self.entries = [e for e in self.entries if e.player_id != player_id]
        self._roster.remove(player_id)
        if entry.confirmed:  # an entry never confirmed was never announced
            self.record(PlayerLeft(tournament_id=self.id, player_id=player_id, arena=self.settings.pooled))

    def confirm(self, actor_id: uuid.UUID, player_id: uuid.UUID, *, now: dt.datetime) -> Entry:
        """An official confirms an account's entry: the player is on the roster (``player.joined``)."""
        role = self.require_official(actor_id, "confirm entries")
        self.settings.check_confirming(self, actor_id)
        self.require_open(now, "be confirmed")
        entry = self.entry(player_id)
        if entry.confirmed:
            raise errors.AlreadyConfirmed(f"{entry.name} is confirmed already")
        entry.confirmed = True
        self._roster.change(entry)
        self.announce_joined(entry)
        self.decided(
            AuditKind.ENTRY_CONFIRMED,
            Subject(SubjectKind.PLAYER, player_id),
            f"{entry.name}'s entry confirmed",
            Decided(actor_id, role, now),
        )
        return entry

    def require_open(self, now: dt.datetime, action: str) -> None:
        self.settings.require_open(self, now, action)

    def find(self, player_id: uuid.UUID) -> Entry | None:
        return next((e for e in self.entries if e.player_id == player_id), None)

    def entry(self, player_id: uuid.UUID) -> Entry:
        entry = self.find(player_id)
        if entry is None:
            raise errors.PlayerNotEntered(f"{player_id} is not entered in this tournament")
        return entry

    def enter(self, entry: Entry) -> Entry:
        """A new entry on the roster, announced once it is confirmed."""
        self.entries.append(entry)
        self._roster.enter(entry)
        if entry.confirmed:
            self.announce_joined(entry)
        return entry

    def drop(self, entry: Entry) -> None:
        """An entry off the roster without a word (never confirmed, or left out at the start)."""
        self.entries.remove(entry)
        self._roster.remove(entry.player_id)

    def pause_entry(self, entry: Entry) -> bool:
        """The entry out of the pool, its score kept; False when it was paused already."""
        if entry.paused:
            return False
        entry.paused = True
        self._roster.change(entry)
        return True

    def changed(self, entry: Entry) -> None:
        """An entry changed in place (its name, profile, rating or standing): to be written."""
        self._roster.change(entry)

    def rerated(self, entry: Entry) -> None:
        """An entry's rating changed (taken afresh at the start): to be written."""
        self._roster.rerate(entry)

    def announce_joined(self, entry: Entry) -> None:
        self.record(
            PlayerJoined(
                tournament_id=self.id,
                player_id=entry.player_id,
                name=entry.name,
                rating=entry.rating,
                profile=entry.profile,
                late=entry.from_round is not None,
                from_round=entry.from_round,
                arena=self.settings.pooled,
            )
        )

    # -- changing, starting, cancelling, finishing --------------------------------------------------
    def change(self, changes: Changes) -> None:
        """Change a knockout draft's settings (only while it is a draft), or a fide-rapid event's before
        its start; the other rulesets' settings are fixed at creation."""
        self.settings.change(self, changes)

    def due(self, now: dt.datetime) -> bool:
        return self.status is Status.SCHEDULED and self.starts_at is not None and now >= self.starts_at

    def start(self, now: dt.datetime) -> list[Seeded] | None:
        """At the start time: the seeded roster, or None when the tournament cancelled itself."""
        if not self.due(now):
            raise errors.Conflict("the tournament is not due to start")
        present = len(self.entries)
        if present < self.minimum and not self.settings.starts_with_anyone:
            self._cancelled(
                CancelReason.TOO_FEW_PLAYERS,
                f"too few players: {present} present, at least {self.minimum} needed",
            )
            return None
        self.status = Status.STARTED
        roster = seed([e for e in self.entries if not e.paused])  # an arena's paused wait outside the pool
        self.announce_started(now, roster)
        return roster

    def start_on_request(
        self,
        actor_id: uuid.UUID,
        now: dt.datetime,
        *,
        accounts: AccountsOf,
        draw_seed: Callable[[], int],
    ) -> list[Seeded]:
        """An official starts a tournament that does not start by itself (a knockout draft, a fide-rapid
        or a group-playoff event): the roster and its seeds are fixed. ``accounts``: the players' accounts
        as they are now, for a ruleset that seeds by their ratings; ``draw_seed``: a new draw seed, for a
        ruleset that draws one."""
        return self.settings.start_on_request(self, actor_id, now, accounts, draw_seed)

    def announce_started(self, now: dt.datetime, roster: list[Seeded]) -> None:
        self.record(
            TournamentStarted(
                tournament_id=self.id,
                organiser_id=self.organiser_id,
                name=self.name,
                started_at=now,
                settings=self.play_settings(),
                roster=tuple(roster),
            )
        )

    def cancel(self, *, now: dt.datetime) -> None:
        """The organiser cancels it: a knockout while it is a draft, any other before its start."""
        if not self.settings.cancellable(self, now):
            raise errors.CannotCancel("a tournament can be cancelled only before its start")
        self._cancelled(CancelReason.ORGANISER, "cancelled by the organiser")

    def _cancelled(self, reason: CancelReason, detail: str) -> None:
        self.status = Status.CANCELLED
        self.status_reason = detail
        self.record(
            TournamentCancelled(
                tournament_id=self.id, reason=reason, detail=detail, present=len(self.entries)
            )
        )

    def complete(self) -> bool:
        if self.status is Status.COMPLETED:
            return False
        self.status = Status.COMPLETED
        return True


def open_until_started(t: Tournament, action: str) -> None:
    """An event its officials start: players can join, leave or change entries until then."""
    if t.status is not Status.SCHEDULED:
        raise errors.RegistrationClosed(
            f"players can {action} only before the start; the event is {t.status.value}"
        )


def not_a_draft(t: Tournament, action: str, what: str) -> errors.NotADraft:
    """What only a knockout draft does, asked of ``what`` (the tournament, as the message names it)."""
    return errors.NotADraft(f"only a knockout draft can {action}; this is {what} and it is {t.status.value}")


def accounts_only(t: Tournament, action: str) -> errors.AccountsOnly:
    """What only a fide-rapid event's officials do with its players, asked of another ruleset."""
    return errors.AccountsOnly(
        f"only a fide-rapid event's players can {action}; a {t.ruleset}'s players are accounts"
    )


def check_name(name: str, what: str = "a tournament") -> None:
    if not name.strip():
        raise errors.InvalidSettings(f"{what} needs a name")


def check_time_control(tc: RateOfPlay) -> None:
    problem = tc.problem()
    if problem is not None:
        raise errors.InvalidSettings(problem)


def iso(value: dt.datetime | None) -> str:
    return value.isoformat() if value else "none"


def _reason(reason: str) -> str:
    text = reason.strip()
    if not text:
        raise errors.ReasonRequired("a decision needs its reason")
    if len(text) > MAX_REASON:
        raise errors.ReasonTooLong(f"a reason has at most {MAX_REASON} characters")
    return text


def _games(games: frozenset[uuid.UUID]) -> str:
    listed = ", ".join(sorted(str(g) for g in games))
    return f"{len(games)} game{'s' if len(games) != 1 else ''}: {listed}"
