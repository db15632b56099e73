"""Accounts, tournaments and entries: the rules of registering for a `platform` tournament
(RULES.md §2, "Creating", "Seats", "Joining and leaving"), of a knockout draft whose roster the
organiser keeps until they start it (RULES.md §4, ``knockout.py``), of a `fide-rapid` event whose
officials enter its players (people, not accounts), confirm the accounts that join, start it and take
late entries (RULES.md §6, ``fide.py``, ``players.py``), and of who decides in a tournament: its
organiser and the arbiters they appoint, who withdraw and exclude players (RULES.md §4, §5).
Every such decision is recorded for the tournament's audit log (``audit.py``)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from services.registration.domain import errors, fide, knockout, passwords
from services.registration.domain import group_playoff as groups
from services.registration.domain.audit import AuditEntry, AuditKind, Decided, Subject, SubjectKind
from services.registration.domain.events import (
    ArbiterAppointed,
    ArbiterRevoked,
    PlayerJoined,
    PlayerLeft,
    PlayerPaused,
    PlayerWithdrawn,
    PlaySettings,
    Seeded,
    TournamentCancelled,
    TournamentScheduled,
    TournamentStarted,
)
from services.registration.domain.fide import FideFormat
from services.registration.domain.knockout import FormatChange, KnockoutFormat
from services.registration.domain.players import Person, PlayerChange, Profile, in_starting_rank
from services.registration.domain.rated import RatedDecision, RatingSettings, rated_after_openings
from services.registration.domain.speed import rating_key, speed_of
from shared.aggregate import Aggregate
from shared.authority import Appointment, Authority, Role
from shared.games import boards
from shared.openings import OpeningOption, OpeningTable, check_option
from shared.seed_draw import draw_order
from shared.time_control import TimeControl as TimeControl  # re-exported: part of the settings
from shared.vocabulary import CancelReason, Ruleset, Seeding


@dataclass(frozen=True)
class RatingTerms:
    """What a finished game of a tournament needs to be rated: the tournament's ruleset, whether it is
    rated, and the rating key of its variant and speed class (``chess:blitz``)."""

    ruleset: Ruleset
    rated: bool
    key: str


def terms_key(variant: str, tc: TimeControl) -> str:
    """The rating key of a variant at a time control."""
    return rating_key(variant, speed_of(tc.base_seconds, tc.increment_seconds, tc.days_per_move))


SEATS = (4, 200)
ARENA_MINUTES = (10, 480)  # an arena runs 10 minutes to 8 hours (RULES.md §3)
ARENA_SEATS = 10_000  # an arena has no field to fill: as many as the pool holds
MIN_PLAYERS = 4
THRESHOLD = (7, 20)
MAX_LEAD = dt.timedelta(days=14)
DEFAULT_MIN_LEAD = dt.timedelta(minutes=5)
RATING_FLOOR = (1000, 2000, 100)  # from, to, step
DURATION = (10, 20_160)  # minutes: the announced duration of a `platform` tournament
MAX_REASON = 500  # characters of a decision's reason
# whether players may ask for a zero-point bye, by ruleset (RULES.md §1, §6: fide-rapid; §4: knockouts never)
BYES_ON_REQUEST: Mapping[Ruleset, bool] = {Ruleset.FIDE_RAPID: True}
# who decides when nobody did: the rules themselves (an unexcused absence withdraws, FIDE C.04.2), with
# the role ``service``
RULES = uuid.UUID(int=0)
ABSENCE_REASON = "unannounced absence (FIDE C.04.2)"


class AccountKind(StrEnum):
    REGISTERED = "registered"
    GUEST = "guest"
    COMPUTER = "computer"


class Status(StrEnum):
    DRAFT = "draft"  # a knockout being prepared by its organiser
    SCHEDULED = "scheduled"
    STARTED = "started"
    CANCELLED = "cancelled"
    COMPLETED = "completed"


@dataclass
class Account(Aggregate):
    """An account mirrored from the identity provider, with its ratings per variant and speed."""

    id: uuid.UUID
    name: str
    kind: AccountKind = AccountKind.REGISTERED
    ratings: dict[str, int] = field(default_factory=dict)  # "chess:blitz" -> 1500
    created_at: dt.datetime | None = None  # when registration first heard of it

    @classmethod
    def register(
        cls,
        account_id: uuid.UUID,
        name: str,
        kind: AccountKind,
        ratings: Mapping[str, int],
        *,
        now: dt.datetime,
    ) -> Account:
        return cls(account_id, name, kind, dict(ratings), created_at=now)

    def require_registered(self, action: str) -> None:
        if self.kind is not AccountKind.REGISTERED:
            raise errors.AccountKindRefused(f"{self.kind.value} accounts may not {action}")


@dataclass(frozen=True)
class Settings:
    """The organiser's choices, validated by :meth:`Tournament.create`. A knockout has no
    ``starts_at`` (the organiser starts it) and its format in ``knockout``."""

    name: str
    starts_at: dt.datetime | None
    time_control: TimeControl
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
    byes_on_request: bool | None = None  # None: as the ruleset says (BYES_ON_REQUEST)
    fide: FideFormat | None = None  # the fide-rapid ruleset's settings
    arena_minutes: int | None = None  # the arena ruleset's duration
    group_playoff: groups.GroupFormat | None = None  # the group-playoff ruleset's settings


@dataclass(frozen=True)
class Changes:
    """What the organiser changes in a knockout draft or a fide-rapid event before its start; None
    leaves a setting as it is (``fide``: the whole block is replaced)."""

    name: str | None = None
    time_control: TimeControl | None = None
    variant: str | None = None
    rated: bool | None = None
    format: FormatChange = field(default_factory=FormatChange)
    fide: FideFormat | None = None


class Standing(StrEnum):
    """Where an entered player stands: playing, or gone for good after the start."""

    UNCONFIRMED = "unconfirmed"  # fide-rapid: an account that joined, not yet confirmed by an official
    ACTIVE = "active"
    WITHDRAWN = "withdrawn"
    EXCLUDED = "excluded"


@dataclass(frozen=True)
class Withdrawal:
    """A player withdrawn (or excluded by the organiser) after the start: irreversible."""

    excluded: bool
    reason: str
    at: dt.datetime


@dataclass
class Entry:
    """A player entered in a tournament. In a `fide-rapid` event: an account that joined (``confirmed``
    once an official confirms it) or a person its officials entered (``by_hand``: no account), with
    their FIDE data (``profile``); ``rating`` is then the FIDE standard rating. ``from_round``: a late
    entry's first round."""

    player_id: uuid.UUID
    name: str
    rating: int | None
    joined_at: dt.datetime
    withdrawal: Withdrawal | None = None
    profile: Profile | None = None
    by_hand: bool = False
    confirmed: bool = True
    from_round: int | None = None
    paused: bool = False  # arena: out of the pool until they join again, keeping their score
    creates_games: bool = True  # group-playoff: False ranks the entry after all others

    @property
    def standing(self) -> Standing:
        if not self.confirmed:
            return Standing.UNCONFIRMED
        if self.withdrawal is None:
            return Standing.ACTIVE
        return Standing.EXCLUDED if self.withdrawal.excluded else Standing.WITHDRAWN

    @property
    def fide_id(self) -> int | None:
        return None if self.profile is None else self.profile.fide_id

    def seeded(self, seed: int) -> Seeded:
        return Seeded(seed, self.player_id, self.name, self.rating, self.profile, self.creates_games)


@dataclass(frozen=True)
class Arbiter:
    """An arbiter the organiser appointed, for the whole tournament (``games`` None) or named games."""

    account_id: uuid.UUID
    name: str
    games: frozenset[uuid.UUID] | None
    appointed_at: dt.datetime

    def appointment(self) -> Appointment:
        return Appointment(self.account_id, self.games)


@dataclass
class RosterChanges:
    """What changed in the roster and among the arbiters since the tournament was loaded or last saved:
    the repository writes exactly this."""

    added: dict[uuid.UUID, Entry] = field(default_factory=dict)
    removed: set[uuid.UUID] = field(default_factory=set)
    rerated: dict[uuid.UUID, Entry] = field(default_factory=dict)
    withdrawn: dict[uuid.UUID, Entry] = field(default_factory=dict)
    changed: dict[uuid.UUID, Entry] = field(default_factory=dict)  # name, profile, rating, standing
    appointed: dict[uuid.UUID, Arbiter] = field(default_factory=dict)
    revoked: set[uuid.UUID] = field(default_factory=set)

    def enter(self, entry: Entry) -> None:
        self.added[entry.player_id] = entry

    def remove(self, player_id: uuid.UUID) -> None:
        self.rerated.pop(player_id, None)
        self.changed.pop(player_id, None)
        if self.added.pop(player_id, None) is None:  # an entry never saved leaves nothing to delete
            self.removed.add(player_id)

    def rerate(self, entry: Entry) -> None:
        if entry.player_id not in self.added:  # a new entry is written with its rating anyway
            self.rerated[entry.player_id] = entry

    def withdraw(self, entry: Entry) -> None:
        if entry.player_id not in self.added:  # a new entry is written as it stands anyway
            self.withdrawn[entry.player_id] = entry

    def change(self, entry: Entry) -> None:
        if entry.player_id not in self.added:  # a new entry is written as it stands anyway
            self.changed[entry.player_id] = entry

    def appoint(self, arbiter: Arbiter) -> None:
        self.appointed[arbiter.account_id] = arbiter  # replaces the stored appointment, if any

    def revoke(self, arbiter_id: uuid.UUID) -> None:
        self.appointed.pop(arbiter_id, None)
        self.revoked.add(arbiter_id)


@dataclass
class Tournament(Aggregate):
    """A tournament and its roster. It records what happens to it as domain events (``events.py``)
    and keeps the roster changes its repository has not written yet."""

    id: uuid.UUID
    organiser_id: uuid.UUID
    name: str
    starts_at: dt.datetime | None  # a knockout draft has none: its organiser starts it
    time_control: TimeControl
    seats: int
    minimum: int
    threshold: int
    ruleset: Ruleset
    variant: str
    double_rounds: bool
    extra_round: bool
    rated: bool
    min_rating: int | None
    password_hash: str | None
    status: Status = Status.SCHEDULED
    status_reason: str | None = None
    created_at: dt.datetime | None = None
    entries: list[Entry] = field(default_factory=list)
    knockout: KnockoutFormat | None = None
    byes_on_request: bool = False
    arbiters: dict[uuid.UUID, Arbiter] = field(default_factory=dict)
    fide: FideFormat | None = None  # a fide-rapid event's settings
    rounds_paired: int = 0  # fide-rapid: the last round pairing announced (``round.paired``)
    opening: str = "free"  # a `platform` tournament's opening option (RULES.md §2)
    rated_reason: str | None = None  # why it is friendly (or rated despite its opening), decided at creation
    duration_minutes: int | None = None  # platform: the announced duration from the start
    arena_minutes: int | None = None  # an arena's duration from its start
    group_playoff: groups.GroupFormat | None = None  # a group-playoff event's settings
    _roster: RosterChanges = field(default_factory=RosterChanges, init=False, repr=False, compare=False)
    _decisions: list[AuditEntry] = field(default_factory=list, init=False, repr=False, compare=False)

    # -- creating ---------------------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        organiser: Account,
        settings: Settings,
        *,
        now: dt.datetime,
        min_lead: dt.timedelta = DEFAULT_MIN_LEAD,
        arena_min_minutes: int = ARENA_MINUTES[0],
        organiser_busy: bool = False,
        tournament_id: uuid.UUID | None = None,
        italian: OpeningTable | None = None,
    ) -> Tournament:
        """``italian``: the Italian federation's opening table, where one is configured."""
        organiser.require_registered("create tournaments")
        if settings.ruleset is not Ruleset.PLATFORM and settings.duration_minutes is not None:
            raise errors.InvalidSettings("an announced duration is for platform tournaments only")
        if settings.ruleset is not Ruleset.PLATFORM and settings.opening != "free":
            raise errors.InvalidSettings(
                f"openings are drawn in platform tournaments only, not in a {settings.ruleset} one"
            )
        if knockout.is_knockout(settings.ruleset):
            return cls._draft(organiser, settings, now=now, tournament_id=tournament_id)
        if settings.ruleset is Ruleset.FIDE_RAPID:
            return cls._fide_event(organiser, settings, now=now, tournament_id=tournament_id)
        if settings.ruleset is Ruleset.GROUP_PLAYOFF:
            return cls._group_event(organiser, settings, now=now, tournament_id=tournament_id)
        if organiser_busy:
            raise errors.OrganiserBusy(
                "you already run a competition; a new one can be opened once it is finished or cancelled"
            )
        if settings.ruleset is Ruleset.ARENA:
            _validate_arena(settings, now=now, min_lead=min_lead, lo=arena_min_minutes)
            settings = dataclasses.replace(settings, seats=ARENA_SEATS, minimum=0)
        else:
            _validate(settings, now=now, min_lead=min_lead)
        assert settings.starts_at is not None  # both refuse a competition without one
        decided = _rated(settings, italian)
        t = cls(
            id=tournament_id or uuid.uuid4(),
            organiser_id=organiser.id,
            name=settings.name.strip(),
            starts_at=settings.starts_at,
            time_control=settings.time_control,
            seats=settings.seats,
            minimum=settings.minimum,
            threshold=settings.threshold,
            ruleset=settings.ruleset,
            variant=settings.variant,
            double_rounds=settings.double_rounds,
            extra_round=settings.extra_round,
            rated=decided.rated,
            min_rating=decided.min_rating(settings.min_rating),
            password_hash=passwords.hash_password(settings.password) if settings.password else None,
            created_at=now,
            byes_on_request=_byes_on_request(settings),
            opening=str(OpeningOption.parse(settings.opening)),
            rated_reason=decided.reason,
            duration_minutes=settings.duration_minutes,
            arena_minutes=settings.arena_minutes if settings.ruleset is Ruleset.ARENA else None,
        )
        t.record(
            TournamentScheduled(
                tournament_id=t.id,
                organiser_id=t.organiser_id,
                name=t.name,
                starts_at=settings.starts_at,
                seats=t.seats,
                minimum=t.minimum,
                settings=t.play_settings(),
            )
        )
        return t

    @classmethod
    def _draft(
        cls, organiser: Account, settings: Settings, *, now: dt.datetime, tournament_id: uuid.UUID | None
    ) -> Tournament:
        fmt = settings.knockout or KnockoutFormat()
        _validate_draft(settings, fmt)
        return cls(
            id=tournament_id or uuid.uuid4(),
            organiser_id=organiser.id,
            name=settings.name.strip(),
            starts_at=None,
            time_control=settings.time_control,
            seats=knockout.MAX_PLAYERS[settings.ruleset],
            minimum=knockout.MIN_PLAYERS,
            threshold=settings.threshold,
            ruleset=settings.ruleset,
            variant=settings.variant,
            double_rounds=False,
            extra_round=False,
            rated=settings.rated,
            min_rating=None,
            password_hash=None,
            status=Status.DRAFT,
            created_at=now,
            knockout=fmt,
        )

    @classmethod
    def _fide_event(
        cls, organiser: Account, settings: Settings, *, now: dt.datetime, tournament_id: uuid.UUID | None
    ) -> Tournament:
        """A `fide-rapid` event, open for entries until its organiser or an arbiter starts it: no start
        time (the scheduler never starts it), no threshold, zero-point byes on request. Nothing is
        published until its players are entered or it starts."""
        fmt = _validate_fide(settings)
        return cls(
            id=tournament_id or uuid.uuid4(),
            organiser_id=organiser.id,
            name=settings.name.strip(),
            starts_at=None,
            time_control=settings.time_control,
            seats=fide.MAX_PLAYERS,
            minimum=fide.MIN_PLAYERS,
            threshold=settings.threshold,
            ruleset=Ruleset.FIDE_RAPID,
            variant=settings.variant,
            double_rounds=False,
            extra_round=False,
            rated=settings.rated,
            min_rating=None,
            password_hash=None,
            created_at=now,
            byes_on_request=True,
            fide=fmt,
        )

    @classmethod
    def _group_event(
        cls, organiser: Account, settings: Settings, *, now: dt.datetime, tournament_id: uuid.UUID | None
    ) -> Tournament:
        """A `group-playoff` event (``group_playoff.py``), open for entries until its closing date; its
        organiser confirms or refuses each entry and starts it. No start time: the scheduler never
        starts it."""
        if not settings.name.strip():
            raise errors.InvalidSettings("a tournament needs a name")
        if settings.group_playoff is None:
            raise errors.InvalidSettings("a group-playoff event needs its group_playoff settings (closes_at)")
        if settings.starts_at is not None or settings.knockout is not None or settings.fide is not None:
            raise errors.InvalidSettings(
                "a group-playoff event has no starts_at, knockout or fide settings: its organiser starts it"
            )
        _check_time_control(settings.time_control)
        fmt = groups.validate(settings.group_playoff, settings.time_control, now)
        return cls(
            id=tournament_id or uuid.uuid4(),
            organiser_id=organiser.id,
            name=settings.name.strip(),
            starts_at=None,
            time_control=settings.time_control,
            seats=1000,
            minimum=groups.PLAYERS,
            threshold=settings.threshold,
            ruleset=Ruleset.GROUP_PLAYOFF,
            variant=settings.variant,
            double_rounds=False,
            extra_round=False,
            rated=True,
            min_rating=None,
            password_hash=None,
            created_at=now,
            group_playoff=fmt,
        )

    @property
    def is_group_playoff(self) -> bool:
        return self.group_playoff is not None

    def group_field(self) -> tuple[list[Entry], list[Entry]]:
        """A group-playoff event's confirmed entries: (the eight who play, the waiting list, in order)."""
        confirmed = [e for e in self.entries if e.confirmed and e.withdrawal is None]
        return groups.field(confirmed, arrived=lambda e: e.joined_at, creates_games=lambda e: e.creates_games)

    @property
    def private(self) -> bool:
        return self.password_hash is not None

    @property
    def is_fide(self) -> bool:
        return self.fide is not None

    @property
    def is_knockout(self) -> bool:
        return self.knockout is not None

    @property
    def is_arena(self) -> bool:
        return self.ruleset is Ruleset.ARENA

    @property
    def ends_at(self) -> dt.datetime | None:
        """An arena's end: its start plus its duration (None for the other formats)."""
        if self.arena_minutes is None or self.starts_at is None:
            return None
        return self.starts_at + dt.timedelta(minutes=self.arena_minutes)

    @property
    def rating_key(self) -> str:
        return terms_key(self.variant, self.time_control)

    def rating_terms(self) -> RatingTerms:
        return RatingTerms(self.ruleset, self.rated, self.rating_key)

    def play_settings(self) -> PlaySettings:
        return PlaySettings(
            ruleset=self.ruleset,
            variant=self.variant,
            threshold=self.threshold,
            double_rounds=self.double_rounds,
            extra_round=self.extra_round,
            rated=self.rated,
            time_control=self.time_control,
            knockout=self.knockout,
            byes_on_request=self.byes_on_request,
            fide=self.fide,
            opening=self.opening,
            duration_minutes=self.duration_minutes,
            arena_minutes=self.arena_minutes,
            group_playoff=self.group_playoff,
        )

    def collect_roster_changes(self) -> RosterChanges:
        """The roster and arbiter changes since the last call (or the load); afterwards none are pending."""
        changes, self._roster = self._roster, RosterChanges()
        return changes

    def collect_decisions(self) -> list[AuditEntry]:
        """The decisions taken since the last call (or the load), for the audit log; afterwards none."""
        decisions, self._decisions = self._decisions, []
        return decisions

    def _decided(self, kind: AuditKind, subject: Subject, detail: str, decided: Decided) -> None:
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

    def may_read_records(self, actor_id: uuid.UUID) -> bool:
        """The organiser and each of its arbiters, whatever their scope, read its arbiters and audit log."""
        return actor_id == self.organiser_id or actor_id in self.arbiters

    def appoint(
        self, actor_id: uuid.UUID, account: Account, games: frozenset[uuid.UUID] | None, *, now: dt.datetime
    ) -> Arbiter:
        """The organiser appoints ``account`` arbiter of the whole tournament (``games`` None) or of the
        named games; appointing them again replaces the scope."""
        self.require_organiser(actor_id, "appoint arbiters")
        self._require_undecided("appoint arbiters")
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
        self._decided(
            AuditKind.ARBITER_APPOINTED,
            Subject(SubjectKind.ARBITER, account.id),
            f"{account.name} appointed{' again' if again else ''} for {scope}",
            decided,
        )
        return arbiter

    def revoke(self, actor_id: uuid.UUID, arbiter_id: uuid.UUID, *, now: dt.datetime) -> None:
        self.require_organiser(actor_id, "revoke arbiters")
        self._require_undecided("revoke arbiters")
        arbiter = self.arbiters.pop(arbiter_id, None)
        if arbiter is None:
            raise errors.ArbiterNotAppointed(f"{arbiter_id} is not an arbiter of this tournament")
        self._roster.revoke(arbiter_id)
        decided = Decided(actor_id, Role.ORGANISER, now)
        self.record(ArbiterRevoked(self.id, arbiter_id, decided))
        self._decided(
            AuditKind.ARBITER_REVOKED,
            Subject(SubjectKind.ARBITER, arbiter_id),
            f"{arbiter.name}'s appointment revoked",
            decided,
        )

    def withdraw(
        self, actor_id: uuid.UUID, player_id: uuid.UUID, *, reason: str, exclude: bool, now: dt.datetime
    ) -> Entry:
        """Withdraw a player from the started tournament, or (its organiser alone) exclude them: for good,
        with a reason (RULES.md §4, §5). A `platform` player cannot leave after the start (RULES.md §2):
        only an exclusion removes them."""
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
        self._require_undecided("withdraw players")
        entry = next((e for e in self.entries if e.player_id == player_id), None)
        if entry is None:
            raise errors.PlayerNotEntered(f"{player_id} does not play in this tournament")
        if entry.withdrawal is not None:
            raise errors.AlreadyWithdrawn(f"{entry.name} is {entry.standing.value} already")
        if self.ruleset is Ruleset.PLATFORM and not exclude:
            raise errors.NoLeavingAfterStart(
                "after the start nobody leaves a platform tournament (RULES.md §2): a player stays in the"
                " draw for every remaining round; only the organiser can exclude them"
            )
        decided = Decided(actor_id, role, now, reason)
        self._withdrawn(entry, exclude=exclude, decided=decided, detail=None)
        return entry

    def _withdrawn(self, entry: Entry, *, exclude: bool, decided: Decided, detail: str | None) -> None:
        """Every withdrawal's one path: the entry marked for good, ``player.withdrawn``, the audit log."""
        reason = decided.reason or ""
        entry.withdrawal = Withdrawal(exclude, reason, decided.at)
        self._roster.withdraw(entry)
        self.record(PlayerWithdrawn(self.id, entry.player_id, reason, exclude, decided))
        self._decided(
            AuditKind.PLAYER_EXCLUDED if exclude else AuditKind.PLAYER_WITHDRAWN,
            Subject(SubjectKind.PLAYER, entry.player_id),
            detail or f"{entry.name} {entry.standing.value}",
            decided,
        )

    def _require_undecided(self, action: str) -> None:
        if self.status in (Status.CANCELLED, Status.COMPLETED):
            raise errors.TournamentClosed(f"the tournament is {self.status.value}: nobody can {action} now")

    # -- joining and leaving ----------------------------------------------------------------------
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
        if self.is_knockout:
            raise errors.RosterKeptByOrganiser("the organiser keeps a knockout's roster: ask them to add you")
        account.require_registered("play in tournaments")
        self._require_open(now, "join")
        if self.is_arena:
            paused = next((e for e in self.entries if e.player_id == account.id and e.paused), None)
            if paused is not None:  # back from a pause: into the pool again, the score kept
                paused.paused = False
                self._roster.change(paused)
                self._joined(paused)
                return paused
        if any(e.player_id == account.id for e in self.entries):
            raise errors.AlreadyJoined(f"{account.name} has already joined")
        if self.is_fide:
            self._require_room(1)
            self._require_new_fide_ids([(profile, account.name)])
            return self._enter(
                Entry(
                    account.id,
                    account.name,
                    None if profile is None else profile.rating_standard,
                    now,
                    profile=profile,
                    confirmed=confirmed,
                )
            )
        if profile is not None:
            raise errors.InvalidPlayer("FIDE player data is given in fide-rapid events only")
        if self.group_playoff is not None:  # in order of arrival, waiting for the organiser
            rating = account.ratings.get(self.rating_key)
            groups.check_entry(self.group_playoff, rating, self.rating_key, now, account.name)
            return self._enter(
                Entry(account.id, account.name, rating, now, confirmed=False, creates_games=creates_games)
            )
        if (
            not invited
            and self.password_hash is not None
            and not passwords.verify_password(password or "", self.password_hash)
        ):
            raise errors.WrongPassword("this tournament is private: the organiser's password is needed")
        rating = account.ratings.get(self.rating_key)
        if self.min_rating is not None and (rating is None or rating < self.min_rating):
            raise errors.RatingTooLow(
                f"this tournament needs a {self.rating_key} rating of at least {self.min_rating}"
                f" (yours: {rating if rating is not None else 'none'})"
            )
        if len(self.entries) >= self.seats:
            raise errors.TournamentFull(f"all {self.seats} seats are taken")
        return self._enter(Entry(account.id, account.name, rating, now))

    def leave(self, player_id: uuid.UUID, *, now: dt.datetime) -> None:
        if self.is_knockout:
            self._require_draft("remove players")
        else:
            self._require_open(now, "leave")
        entry = next((e for e in self.entries if e.player_id == player_id), None)
        if entry is None:
            raise errors.NotJoined("this player has not joined this tournament")
        if self.knockout is not None:
            self.knockout = _without(self.knockout, player_id)
        if self.is_arena and self.status is Status.STARTED:
            # after the start the entry stays (its games and score stand); the player may join again
            if not entry.paused:
                entry.paused = True
                self._roster.change(entry)
            self.record(PlayerLeft(tournament_id=self.id, player_id=player_id, arena=self.is_arena))
            return
        self.entries = [e for e in self.entries if e.player_id != player_id]
        self._roster.remove(player_id)
        if entry.confirmed:  # an entry never confirmed was never announced
            self.record(PlayerLeft(tournament_id=self.id, player_id=player_id, arena=self.is_arena))

    def pause(self, player_id: uuid.UUID, *, now: dt.datetime) -> Entry:
        """An arena's player pauses (RULES.md §3): out of the waiting pool until they join again, with
        their score kept. A running game goes on."""
        if not self.is_arena:
            raise errors.Conflict(f"only an arena's players pause; this is a {self.ruleset} tournament")
        self._require_open(now, "pause")
        entry = next((e for e in self.entries if e.player_id == player_id), None)
        if entry is None:
            raise errors.NotJoined("this player has not joined this arena")
        if not entry.paused:
            entry.paused = True
            self._roster.change(entry)
            self.record(PlayerPaused(tournament_id=self.id, player_id=player_id))
        return entry

    def _enter(self, entry: Entry) -> Entry:
        self.entries.append(entry)
        self._roster.enter(entry)
        if entry.confirmed:
            self._joined(entry)
        return entry

    def _joined(self, entry: Entry) -> None:
        self.record(
            PlayerJoined(
                tournament_id=self.id,
                player_id=entry.player_id,
                name=entry.name,
                rating=entry.rating,
                profile=entry.profile,
                late=entry.from_round is not None,
                from_round=entry.from_round,
                arena=self.is_arena,
            )
        )

    def _require_open(self, now: dt.datetime, action: str) -> None:
        if self.is_arena:  # before and during the arena, until its end
            ends_at = self.ends_at
            if self.status not in (Status.SCHEDULED, Status.STARTED) or ends_at is None or now >= ends_at:
                state = "over" if self.status is Status.STARTED else self.status.value
                raise errors.RegistrationClosed(
                    f"players can {action} until the arena's end ({_iso(ends_at)}); the arena is {state}"
                )
            return
        if self.is_fide or self.is_group_playoff:
            if self.status is not Status.SCHEDULED:
                raise errors.RegistrationClosed(
                    f"players can {action} only before the start; the event is {self.status.value}"
                )
            return
        if self.status is not Status.SCHEDULED or self.starts_at is None or now >= self.starts_at:
            raise errors.RegistrationClosed(
                f"players can {action} only before the start ({_iso(self.starts_at)}); "
                f"the tournament is {self.status.value}"
            )

    # -- a fide-rapid event's players (RULES.md §6) -------------------------------------------------
    def add_person(
        self, actor_id: uuid.UUID, person: Person, player_id: uuid.UUID, *, now: dt.datetime
    ) -> Entry:
        """An official enters a player by hand (a person, no account): before the start, or after it as
        a **late entry** before the next round is paired, playing from that round (the rounds missed
        are byes as the settings say, scored by pairing and standings)."""
        role = self.require_official(actor_id, "enter players")
        self._require_fide("enter players by hand")
        late = self._require_entries_taken()
        self._require_room(1)
        self._require_new_fide_ids([(person.profile, person.name)])
        if any(e.player_id == player_id for e in self.entries):
            raise errors.AlreadyJoined(f"player {player_id} is entered already")
        entry = self._enter(
            Entry(
                player_id,
                person.name,
                None if person.profile is None else person.profile.rating_standard,
                now,
                profile=person.profile,
                by_hand=True,
                from_round=late,
            )
        )
        detail = f"{person.name} entered" + ("" if late is None else f" late: plays from round {late}")
        self._decided(
            AuditKind.PLAYER_ADDED,
            Subject(SubjectKind.PLAYER, player_id, late),
            detail,
            Decided(actor_id, role, now),
        )
        return entry

    def import_people(
        self,
        actor_id: uuid.UUID,
        people: list[Person],
        player_ids: list[uuid.UUID],
        *,
        source: str,
        now: dt.datetime,
    ) -> list[Entry]:
        """An official imports a player list before the start: all of it, or (any problem) none of it.
        The list's order is the entry order (each entered a microsecond after the one before)."""
        role = self.check_import(actor_id)
        self._require_room(len(people))
        self._require_new_fide_ids([(p.profile, _where(p)) for p in people])
        entered = [
            self._enter(
                Entry(
                    pid,
                    p.name,
                    None if p.profile is None else p.profile.rating_standard,
                    now + dt.timedelta(microseconds=i),
                    profile=p.profile,
                    by_hand=True,
                )
            )
            for i, (p, pid) in enumerate(zip(people, player_ids, strict=True))
        ]
        self._decided(
            AuditKind.PLAYERS_IMPORTED,
            Subject(SubjectKind.TOURNAMENT, self.id),
            f"{len(entered)} player{'s' if len(entered) != 1 else ''} imported from {source}",
            Decided(actor_id, role, now),
        )
        return entered

    def check_import(self, actor_id: uuid.UUID) -> Role:
        """Whether ``actor_id`` may import a list now (before it is read): their role."""
        role = self.require_official(actor_id, "import players")
        self._require_fide("import players")
        if self.status is not Status.SCHEDULED:
            raise errors.RegistrationClosed(
                f"a list is imported before the start (the event is {self.status.value});"
                " a late entry is entered one by one"
            )
        return role

    def change_player(
        self, actor_id: uuid.UUID, player_id: uuid.UUID, change: PlayerChange, *, now: dt.datetime
    ) -> Entry:
        """An official corrects an entered player's name or FIDE data before the start (the roster is
        fixed once it is announced)."""
        role = self.require_official(actor_id, "change players")
        self._require_fide("change players")
        self._require_open(now, "be changed")
        entry = self._entry(player_id)
        name, profile = change.apply(entry.name, entry.profile)
        self._require_new_fide_ids([(profile, name)], besides=player_id)
        entry.name, entry.profile = name, profile
        entry.rating = None if profile is None else profile.rating_standard
        self._roster.change(entry)
        decided = Decided(actor_id, role, now)
        self._decided(
            AuditKind.PLAYER_CHANGED, Subject(SubjectKind.PLAYER, player_id), f"{name} changed", decided
        )
        return entry

    def remove_player(self, actor_id: uuid.UUID, player_id: uuid.UUID, *, now: dt.datetime) -> Entry:
        """An official removes an entry before the start (after it, a player is withdrawn)."""
        role = self.require_official(actor_id, "remove players")
        self._require_fide("remove players")
        entry = self._entry(player_id)
        self.leave(player_id, now=now)
        self._decided(
            AuditKind.PLAYER_REMOVED,
            Subject(SubjectKind.PLAYER, player_id),
            f"{entry.name} removed before the start",
            Decided(actor_id, role, now),
        )
        return entry

    def confirm(self, actor_id: uuid.UUID, player_id: uuid.UUID, *, now: dt.datetime) -> Entry:
        """An official confirms an account's entry: the player is on the roster (``player.joined``)."""
        role = self.require_official(actor_id, "confirm entries")
        if self.is_group_playoff:
            self.require_organiser(actor_id, "confirm entries")
        else:
            self._require_fide("confirm entries")
        self._require_open(now, "be confirmed")
        entry = self._entry(player_id)
        if entry.confirmed:
            raise errors.AlreadyConfirmed(f"{entry.name} is confirmed already")
        entry.confirmed = True
        self._roster.change(entry)
        self._joined(entry)
        self._decided(
            AuditKind.ENTRY_CONFIRMED,
            Subject(SubjectKind.PLAYER, player_id),
            f"{entry.name}'s entry confirmed",
            Decided(actor_id, role, now),
        )
        return entry

    def refuse(self, actor_id: uuid.UUID, player_id: uuid.UUID, *, reason: str, now: dt.datetime) -> Entry:
        """The organiser refuses a group-playoff entry before the start: it is removed (RULES.md §5)."""
        self.require_organiser(actor_id, "refuse entries")
        if not self.is_group_playoff:
            raise errors.NotAllowed(
                f"entries are refused in group-playoff events; this is a {self.ruleset} tournament"
            )
        entry = self._entry(player_id)
        self.leave(player_id, now=now)
        self._decided(
            AuditKind.PLAYER_REMOVED,
            Subject(SubjectKind.PLAYER, player_id),
            f"{entry.name}'s entry refused: {reason}",
            Decided(actor_id, Role.ORGANISER, now),
        )
        return entry

    def start_group_playoff(self, actor_id: uuid.UUID, now: dt.datetime, lot_seed: int) -> list[Seeded]:
        """The organiser starts a group-playoff event with the first eight confirmed entries (seeded by
        rating, then order of entry); the groups' lot seed is drawn now and recorded; the waiting list
        and the unconfirmed entries are left out."""
        self.require_organiser(actor_id, "start it")
        fmt = self.group_playoff
        if fmt is None:
            raise errors.NotAllowed(f"a {self.ruleset} tournament is not started this way")
        if self.status is not Status.SCHEDULED:
            raise errors.AlreadyStarted(f"the event is {self.status.value}")
        playing, waiting = self.group_field()
        if len(playing) < groups.PLAYERS:
            raise errors.Conflict(
                f"a group-playoff event starts with {groups.PLAYERS} confirmed players; it has {len(playing)}"
            )
        left_out = [e for e in self.entries if e not in playing]
        for entry in left_out:
            self.entries.remove(entry)
            self._roster.remove(entry.player_id)
        order = {e.player_id: i for i, e in enumerate(playing)}
        seeded = sorted(playing, key=lambda e: (-(e.rating or 0), order[e.player_id]))
        self.group_playoff = dataclasses.replace(fmt, lot_seed=lot_seed)
        self.status = Status.STARTED
        self.starts_at = now
        roster = [e.seeded(i) for i, e in enumerate(seeded, start=1)]
        self._started(now, roster)
        self._decided(
            AuditKind.TOURNAMENT_STARTED,
            Subject(SubjectKind.TOURNAMENT, self.id),
            f"started with {len(roster)} players; the groups' lot seed {lot_seed}"
            + (f"; waiting list left out: {', '.join(e.name for e in waiting)}" if waiting else ""),
            Decided(actor_id, Role.ORGANISER, now),
        )
        return roster

    def starting_rank(self) -> list[Entry]:
        """The confirmed players in starting-rank order (``players.py``)."""
        confirmed = [e for e in self.entries if e.confirmed]
        return in_starting_rank(
            confirmed, lambda e: (e.rating, None if e.profile is None else e.profile.title, e.name)
        )

    def start_fide(self, actor_id: uuid.UUID, now: dt.datetime) -> list[Seeded]:
        """The organiser or an arbiter of the whole event starts it: the confirmed players, in starting-rank
        order, are the roster (entries never confirmed are left out, and removed); a round robin's
        rounds and the dates are fixed."""
        role = self.require_official(actor_id, "start it")
        self._require_fide("be started by its arbiters")
        if self.status is Status.STARTED:
            raise errors.AlreadyStarted("the event has started already")
        self._require_undecided("start it")
        fmt = self._fide_format()
        ranked = self.starting_rank()
        rounds = fide.check_field(fmt, len(ranked))
        unconfirmed = [e for e in self.entries if not e.confirmed]
        for entry in unconfirmed:
            self.entries.remove(entry)
            self._roster.remove(entry.player_id)
        self.fide = fide.at_start(fmt, rounds, now.date())
        self.status = Status.STARTED
        self.starts_at = now
        roster = [e.seeded(i) for i, e in enumerate(ranked, start=1)]
        self._started(now, roster)
        left_out = (
            "; left out, never confirmed: " + ", ".join(e.name for e in unconfirmed) if unconfirmed else ""
        )
        self._decided(
            AuditKind.TOURNAMENT_STARTED,
            Subject(SubjectKind.TOURNAMENT, self.id),
            f"started with {len(roster)} players, {rounds} rounds{left_out}",
            Decided(actor_id, role, now),
        )
        return roster

    def round_paired(self, round_no: int) -> bool:
        """Pairing announced ``round_no`` (``round.paired``): late entries play from the round after the
        last one paired. False when that changes nothing (an earlier round, a repeat)."""
        if not self.is_fide or round_no <= self.rounds_paired:
            return False
        self.rounds_paired = round_no
        return True

    def withdraw_absent(self, player_id: uuid.UUID, round_no: int, *, now: dt.datetime) -> Entry | None:
        """Pairing found an absence from ``round_no`` not excused before the next pairing: the player is
        withdrawn (FIDE C.04.2) by the rules themselves (``RULES``, role ``service``), through the same
        path as any withdrawal. None when there is nothing to do: not a fide-rapid event, closed, a
        player not entered or gone already (a repeat)."""
        if not self.is_fide or self.status is not Status.STARTED:
            return None
        entry = next((e for e in self.entries if e.player_id == player_id), None)
        if entry is None or entry.withdrawal is not None:
            return None
        decided = Decided(RULES, Role.SERVICE, now, ABSENCE_REASON)
        self._withdrawn(
            entry,
            exclude=False,
            decided=decided,
            detail=f"{entry.name} withdrawn: absent from round {round_no} without an excuse before the next"
            " pairing",
        )
        return entry

    def require_official(self, actor_id: uuid.UUID, action: str) -> Role:
        role = self.official(actor_id)
        if role is None:
            raise errors.NotAnArbiterHere(
                f"only the organiser or an arbiter appointed for the whole tournament may {action}"
            )
        return role

    def _require_fide(self, action: str) -> None:
        if not self.is_fide:
            raise errors.AccountsOnly(
                f"only a fide-rapid event's players can {action}; a {self.ruleset}'s players are accounts"
            )

    def _require_entries_taken(self) -> int | None:
        """None before the start; after it, the round a late entry plays from (or NoLateEntries /
        NoRoundLeft); RegistrationClosed once the event is over."""
        if self.status is Status.SCHEDULED:
            return None
        if self.status is not Status.STARTED:
            raise errors.RegistrationClosed(f"the event is {self.status.value}: nobody enters it now")
        fmt = self._fide_format()
        if not fmt.swiss:
            raise errors.NoLateEntries(
                "a round robin's table is fixed at the start: it takes no late entries"
            )
        rounds = fmt.rounds or 0
        if self.rounds_paired >= rounds:
            raise errors.NoRoundLeft(f"all {rounds} rounds are paired: a late entry would play none")
        return self.rounds_paired + 1

    def _require_room(self, more: int) -> None:
        if len(self.entries) + more > self.seats:
            raise errors.TournamentFull(
                f"an event takes at most {self.seats} players; {len(self.entries)} are entered"
            )

    def _require_new_fide_ids(
        self, people: list[tuple[Profile | None, str]], *, besides: uuid.UUID | None = None
    ) -> None:
        """DuplicateFideId when one of ``people`` (a profile and who it is, for the message) has the FIDE
        id of an entered player (but ``besides``) or of another of them."""
        taken = {
            e.fide_id: f"{e.name} (entered already)"
            for e in self.entries
            if e.fide_id is not None and e.player_id != besides
        }
        for profile, who in people:
            if profile is None or profile.fide_id is None:
                continue
            if profile.fide_id in taken:
                raise errors.DuplicateFideId(
                    f"{who}: FIDE id {profile.fide_id} is also that of {taken[profile.fide_id]}"
                )
            taken[profile.fide_id] = who

    def _entry(self, player_id: uuid.UUID) -> Entry:
        entry = next((e for e in self.entries if e.player_id == player_id), None)
        if entry is None:
            raise errors.PlayerNotEntered(f"{player_id} is not entered in this tournament")
        return entry

    def _fide_format(self) -> FideFormat:
        if self.fide is None:
            raise errors.AccountsOnly(f"a {self.ruleset} tournament has no fide-rapid settings")
        return self.fide

    # -- a knockout draft -------------------------------------------------------------------------
    def add_player(self, account: Account, *, now: dt.datetime) -> Entry:
        """The organiser adds a registered account to a knockout draft's roster."""
        self._require_draft("add players")
        account.require_registered("play in tournaments")
        if any(e.player_id == account.id for e in self.entries):
            raise errors.AlreadyJoined(f"{account.name} is on the roster already")
        if len(self.entries) >= self.seats:
            raise errors.TournamentFull(f"a {self.ruleset} takes at most {self.seats} players")
        return self._enter(Entry(account.id, account.name, account.ratings.get(self.rating_key), now))

    def change(self, changes: Changes) -> None:
        """Change a knockout draft's settings (only while it is a draft), or a fide-rapid event's before
        its start."""
        if self.is_fide:
            self._change_fide(changes)
            return
        if changes.fide is not None:
            raise errors.InvalidSettings("fide settings are for the fide-rapid ruleset")
        self._require_draft("change its settings")
        name = self.name if changes.name is None else changes.name.strip()
        if not name:
            raise errors.InvalidSettings("a tournament needs a name")
        tc = changes.time_control or self.time_control
        _check_time_control(tc)
        fmt = changes.format.apply(self._format())
        if changes.format.seeding not in (None, Seeding.CUSTOM) and changes.format.custom_order is None:
            fmt = dataclasses.replace(
                fmt, custom_order=()
            )  # the old custom order goes with the custom seeding
        if fmt.seeding is not Seeding.RANDOM:
            fmt = dataclasses.replace(fmt, draw_seed=None)  # a draw goes with the random seeding
        knockout.validate(self.ruleset, fmt, [e.player_id for e in self.entries])
        self.name, self.time_control, self.knockout = name, tc, fmt
        self.variant = changes.variant or self.variant
        self.rated = self.rated if changes.rated is None else changes.rated

    def _change_fide(self, changes: Changes) -> None:
        if self.status is not Status.SCHEDULED:
            raise errors.AlreadyStarted(
                f"a fide-rapid event's settings change before its start; it is {self.status.value}"
            )
        if changes.format != FormatChange():
            raise errors.InvalidSettings(
                "knockout settings are for the knockout and double-knockout rulesets"
            )
        settings = Settings(
            name=self.name if changes.name is None else changes.name,
            starts_at=None,
            time_control=changes.time_control or self.time_control,
            ruleset=self.ruleset,
            variant=changes.variant or self.variant,
            rated=self.rated if changes.rated is None else changes.rated,
            fide=changes.fide or self.fide,
        )
        self.fide = _validate_fide(settings)
        self.name, self.time_control = settings.name.strip(), settings.time_control
        self.variant, self.rated = settings.variant, settings.rated

    def draw_seeding(self, actor_id: uuid.UUID, draw_seed: int, *, now: dt.datetime) -> list[uuid.UUID]:
        """The organiser draws a knockout draft's random seeding now, from ``draw_seed``, which is recorded
        and kept at the start (RULES.md §4: "drawn on request ..., then kept"). A lot is drawn once:
        players added later take their places from the same draw. The drawn order."""
        self.require_organiser(actor_id, "draw its seeding")
        self._require_draft("draw its seeding")
        fmt = self._format()
        if fmt.seeding is not Seeding.RANDOM:
            raise errors.SeedingNotRandom(
                f"the seeding is by {fmt.seeding.value}: only a random seeding is drawn"
            )
        if fmt.draw_seed is not None:
            raise errors.SeedingAlreadyDrawn(f"the seeding was drawn already (draw seed {fmt.draw_seed})")
        self.knockout = dataclasses.replace(fmt, draw_seed=draw_seed)
        self._seeding_drawn(Decided(actor_id, Role.ORGANISER, now), draw_seed, "on request")
        return self.drawn_order() or []

    def drawn_order(self) -> list[uuid.UUID] | None:
        """A random seeding's order as drawn (seed 1 first), for the players playing; None until drawn."""
        fmt = self.knockout
        if fmt is None or fmt.seeding is not Seeding.RANDOM or fmt.draw_seed is None:
            return None
        ids = (str(e.player_id) for e in self.entries if e.withdrawal is None)
        return [uuid.UUID(p) for p in draw_order(ids, fmt.draw_seed)]

    def _seeding_drawn(self, decided: Decided, draw_seed: int, when: str) -> None:
        self._decided(
            AuditKind.SEEDING_DRAWN,
            Subject(SubjectKind.TOURNAMENT, self.id),
            f"random seeding drawn {when}: draw seed {draw_seed}",
            decided,
        )

    def start_knockout(
        self, now: dt.datetime, players: Mapping[uuid.UUID, Account], draw_seed: int
    ) -> list[Seeded]:
        """The organiser starts a knockout draft (round 1 is then paired): the roster and its seeds are
        fixed. ``players``: the entered players' accounts as they are now (their ratings in the
        tournament's time control seed them); ``draw_seed``: recorded for a random seeding not drawn
        yet. A player withdrawn before a reset to the draft stays withdrawn: they are not seeded."""
        self._require_draft("be started")
        fmt = self._format()
        playing = [e for e in self.entries if e.withdrawal is None]
        if len(playing) < knockout.MIN_PLAYERS:
            raise errors.TooFewPlayers(
                f"a {self.ruleset} needs at least {knockout.MIN_PLAYERS} players; the roster has {len(playing)}"
            )
        for entry in playing:
            account = players.get(entry.player_id)
            rating = account.ratings.get(self.rating_key) if account is not None else None
            if rating != entry.rating:
                entry.rating = rating
                self._roster.rerate(entry)
        ids = [e.player_id for e in playing]
        if fmt.seeding is Seeding.CUSTOM:
            gone = {e.player_id for e in self.entries if e.withdrawal is not None}
            order = [p for p in fmt.custom_order if p not in gone]
            knockout.check_custom_order(order, ids)
        elif fmt.seeding is Seeding.RANDOM:
            drawn = fmt.draw_seed
            if drawn is None:  # not drawn on request: drawn now, when round 1 is paired
                drawn = draw_seed
                fmt = dataclasses.replace(fmt, draw_seed=drawn)
                self._seeding_drawn(Decided(self.organiser_id, Role.ORGANISER, now), drawn, "at the start")
            order = [uuid.UUID(p) for p in draw_order((str(p) for p in ids), drawn)]
        else:
            order = [s.player_id for s in seed(playing)]
        by_id = {e.player_id: e for e in playing}
        self.knockout = fmt
        self.status = Status.STARTED
        self.starts_at = now
        roster = [Seeded(i, pid, by_id[pid].name, by_id[pid].rating) for i, pid in enumerate(order, start=1)]
        self._started(now, roster)
        return roster

    def _started(self, now: dt.datetime, roster: list[Seeded]) -> None:
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

    def _require_draft(self, action: str) -> None:
        if not self.is_knockout or self.status is not Status.DRAFT:
            what = "a knockout draft" if self.is_knockout else f"a {self.ruleset} tournament"
            raise errors.NotADraft(
                f"only a knockout draft can {action}; this is {what} and it is {self.status.value}"
            )

    def _format(self) -> KnockoutFormat:
        if self.knockout is None:
            raise errors.NotADraft(f"a {self.ruleset} tournament has no knockout format")
        return self.knockout

    # -- starting, cancelling, finishing ----------------------------------------------------------
    def due(self, now: dt.datetime) -> bool:
        return self.status is Status.SCHEDULED and self.starts_at is not None and now >= self.starts_at

    def start(self, now: dt.datetime) -> list[Seeded] | None:
        """At the start time: the seeded roster, or None when the tournament cancelled itself."""
        if not self.due(now):
            raise errors.Conflict("the tournament is not due to start")
        present = len(self.entries)
        if present < self.minimum and not self.is_arena:  # an arena starts with whoever is there
            self._cancelled(
                CancelReason.TOO_FEW_PLAYERS,
                f"too few players: {present} present, at least {self.minimum} needed",
            )
            return None
        self.status = Status.STARTED
        roster = seed([e for e in self.entries if not e.paused])  # an arena's paused wait outside the pool
        self._started(now, roster)
        return roster

    def cancel(self, *, now: dt.datetime) -> None:
        """The organiser cancels it: a knockout while it is a draft, any other before its start."""
        open_until_started = self.is_fide and self.status is Status.SCHEDULED
        if (
            self.status is not Status.DRAFT
            and not open_until_started
            and (self.status is not Status.SCHEDULED or self.starts_at is None or now >= self.starts_at)
        ):
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

    def reset_to_draft(self) -> bool:
        """Pairing undid round 1 of a started knockout (``tournament.reset``): it is a draft again, its
        settings editable and its roster kept (with its recorded draw). False when there is nothing to
        reset (not a started knockout: a repeated or stray reset)."""
        if not self.is_knockout or self.status is not Status.STARTED:
            return False
        self.status = Status.DRAFT
        self.starts_at = None
        return True


def seed(entries: list[Entry]) -> list[Seeded]:
    """Seed 1 = highest rating; unrated last; ties by name, then by who joined first."""
    ordered = sorted(
        entries, key=lambda e: (e.rating is None, -(e.rating or 0), e.name.casefold(), e.joined_at)
    )
    return [Seeded(i, e.player_id, e.name, e.rating) for i, e in enumerate(ordered, start=1)]


def _validate_draft(s: Settings, fmt: KnockoutFormat) -> None:
    if not s.name.strip():
        raise errors.InvalidSettings("a tournament needs a name")
    if s.starts_at is not None:
        raise errors.InvalidSettings("a knockout has no scheduled start: its organiser starts it")
    if s.byes_on_request:
        raise errors.InvalidSettings(
            "a knockout takes no requested byes (RULES.md §4): byes_on_request is off"
        )
    platform_only = [
        name
        for name, given in (
            ("password", s.password is not None),
            ("min_rating", s.min_rating is not None),
            ("double_rounds", s.double_rounds),
            ("extra_round", s.extra_round),
        )
        if given
    ]
    if platform_only:
        raise errors.InvalidSettings(f"not a knockout setting: {', '.join(platform_only)}")
    if s.fide is not None:
        raise errors.InvalidSettings("fide settings are for the fide-rapid ruleset")
    _check_time_control(s.time_control)
    if fmt.custom_order:
        raise errors.InvalidSettings("a custom order is set once the players are on the roster")
    knockout.validate(s.ruleset, fmt)


def _byes_on_request(s: Settings) -> bool:
    """The organiser's choice, or the ruleset's default."""
    return BYES_ON_REQUEST.get(s.ruleset, False) if s.byes_on_request is None else s.byes_on_request


def _reason(reason: str) -> str:
    text = reason.strip()
    if not text:
        raise errors.ReasonRequired("a decision needs its reason")
    if len(text) > MAX_REASON:
        raise errors.ReasonTooLong(f"a reason has at most {MAX_REASON} characters")
    return text


def _where(person: Person) -> str:
    """An imported player, as an error names them: their line and name."""
    return person.name if person.line is None else f"line {person.line} ({person.name})"


def _games(games: frozenset[uuid.UUID]) -> str:
    listed = ", ".join(sorted(str(g) for g in games))
    return f"{len(games)} game{'s' if len(games) != 1 else ''}: {listed}"


def _check_time_control(tc: TimeControl) -> None:
    problem = tc.problem()
    if problem is not None:
        raise errors.InvalidSettings(problem)


def _without(fmt: KnockoutFormat, player_id: uuid.UUID) -> KnockoutFormat:
    """A player removed from the roster leaves the custom order too."""
    return dataclasses.replace(fmt, custom_order=tuple(p for p in fmt.custom_order if p != player_id))


def _iso(value: dt.datetime | None) -> str:
    return value.isoformat() if value else "none"


def not_offered(ruleset: str) -> errors.InvalidSettings:
    """A ruleset Arbiter knows (or not) that a tournament cannot be created with yet."""
    return errors.InvalidSettings(f"ruleset {str(ruleset)!r} is not offered for self-registration yet")


def _validate_arena(
    s: Settings, *, now: dt.datetime, min_lead: dt.timedelta, lo: int = ARENA_MINUTES[0]
) -> None:
    """An arena's settings: what every scheduled competition checks (:func:`_validate_scheduled`), then
    its own. Seats, minimum and threshold are not an arena's: an arena has no seat limit and starts with
    whoever is there, so anything but their defaults is refused. ``lo``: the shortest arena (10 minutes;
    a test stack's may be shorter). Its own settings are checked first: a wrong duration is named even
    when the start is wrong too."""
    defaults = Settings(s.name, s.starts_at, s.time_control)
    not_arena = [
        name for name in ("seats", "minimum", "threshold") if getattr(s, name) != getattr(defaults, name)
    ]
    if not_arena:
        raise errors.InvalidSettings(f"not an arena setting: {', '.join(not_arena)}")
    hi = ARENA_MINUTES[1]
    if s.arena_minutes is None:
        raise errors.InvalidSettings(f"an arena needs its duration (duration_minutes, {lo}–{hi})")
    if not lo <= s.arena_minutes <= hi:
        raise errors.InvalidSettings(
            f"an arena lasts {lo} minutes to 8 hours ({lo}–{hi} min), got {s.arena_minutes} min"
        )
    if s.time_control.days_per_move is None and s.arena_minutes * 60 <= s.time_control.base_seconds + 40 * (
        s.time_control.increment_seconds
    ):
        raise errors.InvalidSettings(
            "an arena must outlast one game of its time control (base + 40 × increment): no game could "
            "be paired in it"
        )
    _validate_scheduled(s, "an arena", now=now, min_lead=min_lead)
    if s.knockout is not None or s.fide is not None:
        raise errors.InvalidSettings("knockout and fide settings are not an arena's")
    if s.double_rounds or s.extra_round:
        raise errors.InvalidSettings("an arena has no rounds: double_rounds and extra_round are not its")
    if s.time_control.days_per_move is not None:
        raise errors.InvalidSettings("there is no arena by correspondence")


def _validate_fide(s: Settings) -> FideFormat:
    """A fide-rapid event's settings (``fide.py``): its format checked, the rest refused."""
    if not s.name.strip():
        raise errors.InvalidSettings("a tournament needs a name")
    if s.starts_at is not None:
        raise errors.InvalidSettings("a fide-rapid event has no scheduled start: its arbiters start it")
    if s.fide is None:
        raise errors.InvalidSettings("a fide-rapid event needs its fide settings (a Swiss: its rounds)")
    if s.knockout is not None:
        raise errors.InvalidSettings("knockout settings are for the knockout and double-knockout rulesets")
    if s.byes_on_request is False:
        raise errors.InvalidSettings(
            "a fide-rapid event takes zero-point byes on request (RULES.md §6): byes_on_request is on"
        )
    if s.variant != "chess":
        raise errors.InvalidSettings(f"FIDE rapid is chess, not {s.variant}")
    not_fide = [
        name
        for name, given in (
            ("password", s.password is not None),
            ("min_rating", s.min_rating is not None),
            ("double_rounds", s.double_rounds),
            ("extra_round", s.extra_round),
        )
        if given
    ]
    if not_fide:
        raise errors.InvalidSettings(f"not a fide-rapid setting: {', '.join(not_fide)}")
    _check_time_control(s.time_control)
    fide.check_rapid(s.time_control)
    return fide.validate(s.fide)


def _validate_scheduled(s: Settings, what: str, *, now: dt.datetime, min_lead: dt.timedelta) -> None:
    """What a competition that starts by itself at a scheduled time checks, a platform tournament and an
    arena alike (``what`` names it): its name, its start (5 minutes to 14 days ahead), its time
    control and its rating floor."""
    if s.starts_at is None:
        raise errors.InvalidSettings(f"{what} needs its start time (starts_at)")
    if not s.name.strip():
        raise errors.InvalidSettings(f"{what} needs a name")
    if s.starts_at.tzinfo is None:
        raise errors.InvalidSettings("the start time needs a time zone")
    lead = s.starts_at - now
    if lead < min_lead or lead > MAX_LEAD:
        raise errors.StartOutOfRange(
            f"the start must be {_human(min_lead)} to 14 days ahead; it is {_human(lead)} ahead"
        )
    _check_time_control(s.time_control)
    if s.min_rating is not None:
        lo, hi, step = RATING_FLOOR
        if not s.rated:
            raise errors.InvalidSettings("only rated tournaments may set a minimum rating")
        if not lo <= s.min_rating <= hi or s.min_rating % step:
            raise errors.InvalidSettings(f"the minimum rating must be {lo}–{hi} in steps of {step}")


def _validate(s: Settings, *, now: dt.datetime, min_lead: dt.timedelta) -> None:
    """A platform tournament's settings."""
    if s.ruleset is not Ruleset.PLATFORM:
        raise not_offered(s.ruleset)
    if s.knockout is not None:
        raise errors.InvalidSettings("knockout settings are for the knockout and double-knockout rulesets")
    if s.fide is not None:
        raise errors.InvalidSettings("fide settings are for the fide-rapid ruleset")
    _validate_scheduled(s, "a platform tournament", now=now, min_lead=min_lead)
    if not SEATS[0] <= s.seats <= SEATS[1]:
        raise errors.InvalidSettings(f"seats must be {SEATS[0]}–{SEATS[1]}, got {s.seats}")
    if not MIN_PLAYERS <= s.minimum <= s.seats:
        raise errors.InvalidSettings(
            f"the minimum must be {MIN_PLAYERS}–{s.seats} (the seats), got {s.minimum}"
        )
    if not THRESHOLD[0] <= s.threshold <= THRESHOLD[1]:
        raise errors.InvalidSettings(
            f"the threshold must be {THRESHOLD[0]}–{THRESHOLD[1]}, got {s.threshold}"
        )
    if s.duration_minutes is not None and not DURATION[0] <= s.duration_minutes <= DURATION[1]:
        raise errors.InvalidSettings(
            f"the duration must be {DURATION[0]}–{DURATION[1]} minutes, got {s.duration_minutes}"
        )


def _rated(s: Settings, italian: OpeningTable | None) -> RatedDecision:
    """The variant and opening checked (422 with the opening rules' slug), and whether the tournament is
    rated given them (``rated.py``): an opening beyond 2N/2B makes it friendly instead of refusing it."""
    variant = boards.variant_of(s.variant)
    option = OpeningOption.parse(s.opening)
    check_option(option, variant, italian=italian)
    return rated_after_openings(RatingSettings(s.rated, variant, option, s.double_rounds, italian))


def _human(delta: dt.timedelta) -> str:
    seconds = int(delta.total_seconds())
    if abs(seconds) < 120:
        return f"{seconds} s"
    if abs(seconds) < 7200:
        return f"{seconds // 60} min"
    return f"{seconds / 3600:.1f} h"
