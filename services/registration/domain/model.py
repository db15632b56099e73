"""Accounts, tournaments and entries: the rules of registering for a `platform` tournament
(RULES.md §2, "Creating", "Seats", "Joining and leaving")."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import uuid
from dataclasses import dataclass, field
from enum import StrEnum

from services.registration.domain import errors
from services.registration.domain.speed import rating_key, speed_of

SEATS = (4, 200)
MIN_PLAYERS = 4
THRESHOLD = (7, 20)
MAX_LEAD = dt.timedelta(days=14)
DEFAULT_MIN_LEAD = dt.timedelta(minutes=5)
RATING_FLOOR = (1000, 2000, 100)  # from, to, step


class AccountKind(StrEnum):
    REGISTERED = "registered"
    GUEST = "guest"
    COMPUTER = "computer"


class Status(StrEnum):
    SCHEDULED = "scheduled"
    STARTED = "started"
    CANCELLED = "cancelled"
    COMPLETED = "completed"

    @property
    def running(self) -> bool:
        """Scheduled or under way: blocks the organiser from opening another competition."""
        return self in (Status.SCHEDULED, Status.STARTED)


@dataclass
class Account:
    id: uuid.UUID
    name: str
    kind: AccountKind = AccountKind.REGISTERED
    ratings: dict[str, int] = field(default_factory=dict)  # "chess:blitz" -> 1500

    def require_registered(self, action: str) -> None:
        if self.kind is not AccountKind.REGISTERED:
            raise errors.AccountKindRefused(f"{self.kind.value} accounts may not {action}")


@dataclass(frozen=True)
class TimeControl:
    base_seconds: int
    increment_seconds: int = 0
    days_per_move: int | None = None


@dataclass(frozen=True)
class Settings:
    """The organiser's choices, validated by :meth:`Tournament.create`."""

    name: str
    starts_at: dt.datetime
    time_control: TimeControl
    seats: int = 200
    minimum: int = MIN_PLAYERS
    threshold: int = 7
    ruleset: str = "platform"
    variant: str = "chess"
    double_rounds: bool = False
    extra_round: bool = False
    rated: bool = True
    min_rating: int | None = None
    password: str | None = None  # private tournament; stored hashed


@dataclass
class Entry:
    player_id: uuid.UUID
    name: str
    rating: int | None
    joined_at: dt.datetime


@dataclass
class Seeded:
    seed: int
    player_id: uuid.UUID
    name: str
    rating: int | None


@dataclass
class Tournament:
    id: uuid.UUID
    organiser_id: uuid.UUID
    name: str
    starts_at: dt.datetime
    time_control: TimeControl
    seats: int
    minimum: int
    threshold: int
    ruleset: str
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

    # -- creating ---------------------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        organiser: Account,
        settings: Settings,
        *,
        now: dt.datetime,
        min_lead: dt.timedelta = DEFAULT_MIN_LEAD,
        organiser_busy: bool = False,
        tournament_id: uuid.UUID | None = None,
    ) -> Tournament:
        organiser.require_registered("create tournaments")
        if organiser_busy:
            raise errors.OrganiserBusy(
                "you already run a competition; a new one can be opened once it is finished or cancelled"
            )
        _validate(settings, now=now, min_lead=min_lead)
        return cls(
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
            rated=settings.rated,
            min_rating=settings.min_rating if settings.rated else None,
            password_hash=hash_password(settings.password) if settings.password else None,
            created_at=now,
        )

    @property
    def private(self) -> bool:
        return self.password_hash is not None

    @property
    def rating_key(self) -> str:
        tc = self.time_control
        return rating_key(self.variant, speed_of(tc.base_seconds, tc.increment_seconds, tc.days_per_move))

    # -- joining and leaving ----------------------------------------------------------------------
    def join(self, account: Account, *, now: dt.datetime, password: str | None = None) -> Entry:
        account.require_registered("play in tournaments")
        self._require_open(now, "join")
        if any(e.player_id == account.id for e in self.entries):
            raise errors.AlreadyJoined(f"{account.name} has already joined")
        if self.password_hash is not None and not check_password(password or "", self.password_hash):
            raise errors.WrongPassword("this tournament is private: the organiser's password is needed")
        rating = account.ratings.get(self.rating_key)
        if self.min_rating is not None and (rating is None or rating < self.min_rating):
            raise errors.RatingTooLow(
                f"this tournament needs a {self.rating_key} rating of at least {self.min_rating}"
                f" (yours: {rating if rating is not None else 'none'})"
            )
        if len(self.entries) >= self.seats:
            raise errors.TournamentFull(f"all {self.seats} seats are taken")
        entry = Entry(account.id, account.name, rating, now)
        self.entries.append(entry)
        return entry

    def leave(self, player_id: uuid.UUID, *, now: dt.datetime) -> None:
        self._require_open(now, "leave")
        before = len(self.entries)
        self.entries = [e for e in self.entries if e.player_id != player_id]
        if len(self.entries) == before:
            raise errors.NotJoined("this player has not joined this tournament")

    def _require_open(self, now: dt.datetime, action: str) -> None:
        if self.status is not Status.SCHEDULED or now >= self.starts_at:
            raise errors.RegistrationClosed(
                f"players can {action} only before the start ({self.starts_at.isoformat()}); "
                f"the tournament is {self.status.value}"
            )

    # -- starting, cancelling, finishing ----------------------------------------------------------
    def due(self, now: dt.datetime) -> bool:
        return self.status is Status.SCHEDULED and now >= self.starts_at

    def start(self, now: dt.datetime) -> list[Seeded] | None:
        """At the start time: the seeded roster, or None when the tournament cancelled itself."""
        if not self.due(now):
            raise errors.Conflict("the tournament is not due to start")
        present = len(self.entries)
        if present < self.minimum:
            self.status = Status.CANCELLED
            self.status_reason = f"too few players: {present} present, at least {self.minimum} needed"
            return None
        self.status = Status.STARTED
        return seed(self.entries)

    def cancel(self, *, now: dt.datetime) -> None:
        if self.status is not Status.SCHEDULED or now >= self.starts_at:
            raise errors.CannotCancel("a tournament can be cancelled only before its start")
        self.status = Status.CANCELLED
        self.status_reason = "cancelled by the organiser"

    def complete(self) -> bool:
        if self.status is Status.COMPLETED:
            return False
        self.status = Status.COMPLETED
        return True


def seed(entries: list[Entry]) -> list[Seeded]:
    """Seed 1 = highest rating; unrated last; ties by name, then by who joined first."""
    ordered = sorted(
        entries, key=lambda e: (e.rating is None, -(e.rating or 0), e.name.casefold(), e.joined_at)
    )
    return [Seeded(i, e.player_id, e.name, e.rating) for i, e in enumerate(ordered, start=1)]


def _validate(s: Settings, *, now: dt.datetime, min_lead: dt.timedelta) -> None:
    if s.ruleset != "platform":
        raise errors.InvalidSettings(f"ruleset {s.ruleset!r} is not offered for self-registration yet")
    if not s.name.strip():
        raise errors.InvalidSettings("a tournament needs a name")
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
    if s.starts_at.tzinfo is None:
        raise errors.InvalidSettings("the start time needs a time zone")
    lead = s.starts_at - now
    if lead < min_lead or lead > MAX_LEAD:
        raise errors.StartOutOfRange(
            f"the start must be {_human(min_lead)} to 14 days ahead; it is {_human(lead)} ahead"
        )
    tc = s.time_control
    if tc.days_per_move is None and tc.base_seconds == 0 and tc.increment_seconds == 0:
        raise errors.InvalidSettings("a time control needs base time or an increment")
    if s.min_rating is not None:
        lo, hi, step = RATING_FLOOR
        if not s.rated:
            raise errors.InvalidSettings("only rated tournaments may set a minimum rating")
        if not lo <= s.min_rating <= hi or s.min_rating % step:
            raise errors.InvalidSettings(f"the minimum rating must be {lo}–{hi} in steps of {step}")


def _human(delta: dt.timedelta) -> str:
    seconds = int(delta.total_seconds())
    if abs(seconds) < 120:
        return f"{seconds} s"
    if abs(seconds) < 7200:
        return f"{seconds // 60} min"
    return f"{seconds / 3600:.1f} h"


def hash_password(password: str) -> str:
    salt = uuid.uuid4().hex
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), 100_000).hex()
    return f"pbkdf2${salt}${digest}"


def check_password(password: str, stored: str) -> bool:
    _, salt, digest = stored.split("$", 2)
    candidate = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), 100_000).hex()
    return hmac.compare_digest(candidate, digest)
