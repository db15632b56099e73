"""The `fide-rapid` ruleset (RULES.md §6): an event open for entries until its organiser or an arbiter
of the whole event starts it — no start time (the scheduler never starts it), no threshold, zero-point
byes on request. Its officials enter its players (people, not accounts: ``players.py``), import them
from a list, correct and remove them before the start, and confirm the accounts that join; after the
start they take late entries, one by one, until the last round is paired, and an absence not excused
withdraws a player (FIDE C.04.2). Its own settings are its format (``fide.py``) and the last round
pairing announced."""

from __future__ import annotations

import dataclasses
import datetime as dt
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from services.registration.domain import errors, fide
from services.registration.domain.account import Account
from services.registration.domain.audit import AuditKind, Subject, SubjectKind
from services.registration.domain.entries import Entry
from services.registration.domain.events import Seeded
from services.registration.domain.fide import FideFormat
from services.registration.domain.knockout import FormatChange
from services.registration.domain.players import Person, PlayerChange, Profile, in_starting_rank
from services.registration.domain.tournament import (
    AccountsOf,
    Changes,
    Creation,
    Entering,
    Joining,
    RulesetFields,
    RulesetSettings,
    Settings,
    Status,
    Tournament,
    accounts_only,
    check_name,
    check_time_control,
    open_until_started,
)
from shared.authority import Decided, Role
from shared.vocabulary import Ruleset

# who decides when nobody did: the rules themselves (an unexcused absence withdraws, FIDE C.04.2), with
# the role ``service``
RULES = uuid.UUID(int=0)
ABSENCE_REASON = "unannounced absence (FIDE C.04.2)"


@dataclass(frozen=True)
class FideRapid(RulesetSettings):
    """A fide-rapid event's own settings: its format (fixed at the start, a round robin's rounds too),
    and the last round pairing announced (``round.paired``), after which late entries play."""

    format: FideFormat
    rounds_paired: int = 0
    entering: ClassVar[Entering] = Entering.EITHER

    @property
    def ruleset(self) -> Ruleset:
        return Ruleset.FIDE_RAPID

    def fields(self) -> RulesetFields:
        return RulesetFields(fide=self.format, rounds_paired=self.rounds_paired)

    @classmethod
    def from_fields(cls, ruleset: Ruleset, fields: RulesetFields) -> FideRapid:
        return cls(fields.fide or FideFormat(), fields.rounds_paired)

    @classmethod
    def create(cls, organiser: Account, settings: Settings, creation: Creation) -> Tournament:
        """An event open for entries until its organiser or an arbiter starts it: no start time (the
        scheduler never starts it), no threshold, zero-point byes on request. Nothing is published until
        its players are entered or it starts."""
        fmt = validate(settings)
        return Tournament(
            id=creation.tournament_id,
            organiser_id=organiser.id,
            name=settings.name.strip(),
            starts_at=None,
            time_control=settings.time_control,
            seats=fide.MAX_PLAYERS,
            minimum=fide.MIN_PLAYERS,
            threshold=settings.threshold,
            variant=settings.variant,
            rated=settings.rated,
            created_at=creation.now,
            byes_on_request=True,
            settings=cls(fmt),
        )

    def require_open(self, t: Tournament, now: dt.datetime, action: str) -> None:
        open_until_started(t, action)

    def entry_for(self, t: Tournament, account: Account, joining: Joining, now: dt.datetime) -> Entry:
        """An account's entry, waiting for an official's confirmation unless an official made it, with
        the FIDE data it gives (``rating``: its FIDE standard rating)."""
        require_room(t, 1)
        require_new_fide_ids(t, [(joining.profile, account.name)])
        profile = joining.profile
        rating = None if profile is None else profile.rating_standard
        return Entry(account.id, account.name, rating, now, profile=profile, confirmed=joining.confirmed)

    def check_confirming(self, t: Tournament, actor_id: uuid.UUID) -> None:
        """Any official of the whole event confirms its entries."""

    def cancellable(self, t: Tournament, now: dt.datetime) -> bool:
        """Open for entries until it is started, it may be cancelled until then."""
        return super().cancellable(t, now) or t.status is Status.SCHEDULED

    def change(self, t: Tournament, changes: Changes) -> None:
        """The organiser changes name, time control, rated and the whole ``fide`` block before the start."""
        if t.status is not Status.SCHEDULED:
            raise errors.AlreadyStarted(
                f"a fide-rapid event's settings change before its start; it is {t.status.value}"
            )
        if changes.format != FormatChange():
            raise errors.InvalidSettings(
                "knockout settings are for the knockout and double-knockout rulesets"
            )
        settings = Settings(
            name=t.name if changes.name is None else changes.name,
            starts_at=None,
            time_control=changes.time_control or t.time_control,
            ruleset=t.ruleset,
            variant=changes.variant or t.variant,
            rated=t.rated if changes.rated is None else changes.rated,
            fide=changes.fide or self.format,
        )
        t.settings = dataclasses.replace(self, format=validate(settings))
        t.name, t.time_control = settings.name.strip(), settings.time_control
        t.variant, t.rated = settings.variant, settings.rated

    def start_on_request(
        self,
        t: Tournament,
        actor_id: uuid.UUID,
        now: dt.datetime,
        accounts: AccountsOf,
        draw_seed: Callable[[], int],
    ) -> list[Seeded]:
        return start(t, actor_id, now)


def require_fide(t: Tournament, action: str) -> FideRapid:
    """The event's own settings; AccountsOnly when it is not a fide-rapid event."""
    if not isinstance(t.settings, FideRapid):
        raise accounts_only(t, action)
    return t.settings


def add_person(
    t: Tournament, actor_id: uuid.UUID, person: Person, player_id: uuid.UUID, *, now: dt.datetime
) -> Entry:
    """An official enters a player by hand (a person, no account): before the start, or after it as
    a **late entry** before the next round is paired, playing from that round (the rounds missed
    are byes as the settings say, scored by pairing and standings)."""
    role = t.require_official(actor_id, "enter players")
    require_fide(t, "enter players by hand")
    late = _entries_taken(t)
    require_room(t, 1)
    require_new_fide_ids(t, [(person.profile, person.name)])
    if any(e.player_id == player_id for e in t.entries):
        raise errors.AlreadyJoined(f"player {player_id} is entered already")
    entry = t.enter(
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
    t.decided(
        AuditKind.PLAYER_ADDED,
        Subject(SubjectKind.PLAYER, player_id, late),
        detail,
        Decided(actor_id, role, now),
    )
    return entry


def import_people(
    t: Tournament,
    actor_id: uuid.UUID,
    people: list[Person],
    player_ids: list[uuid.UUID],
    *,
    source: str,
    now: dt.datetime,
) -> list[Entry]:
    """An official imports a player list before the start: all of it, or (any problem) none of it.
    The list's order is the entry order (each entered a microsecond after the one before)."""
    role = check_import(t, actor_id)
    require_room(t, len(people))
    require_new_fide_ids(t, [(p.profile, _where(p)) for p in people])
    entered = [
        t.enter(
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
    t.decided(
        AuditKind.PLAYERS_IMPORTED,
        Subject(SubjectKind.TOURNAMENT, t.id),
        f"{len(entered)} player{'s' if len(entered) != 1 else ''} imported from {source}",
        Decided(actor_id, role, now),
    )
    return entered


def check_import(t: Tournament, actor_id: uuid.UUID) -> Role:
    """Whether ``actor_id`` may import a list now (before it is read): their role."""
    role = t.require_official(actor_id, "import players")
    require_fide(t, "import players")
    if t.status is not Status.SCHEDULED:
        raise errors.RegistrationClosed(
            f"a list is imported before the start (the event is {t.status.value});"
            " a late entry is entered one by one"
        )
    return role


def change_player(
    t: Tournament, actor_id: uuid.UUID, player_id: uuid.UUID, change: PlayerChange, *, now: dt.datetime
) -> Entry:
    """An official corrects an entered player's name or FIDE data before the start (the roster is
    fixed once it is announced)."""
    role = t.require_official(actor_id, "change players")
    require_fide(t, "change players")
    t.require_open(now, "be changed")
    entry = t.entry(player_id)
    name, profile = change.apply(entry.name, entry.profile)
    require_new_fide_ids(t, [(profile, name)], besides=player_id)
    entry.name, entry.profile = name, profile
    entry.rating = None if profile is None else profile.rating_standard
    t.changed(entry)
    decided = Decided(actor_id, role, now)
    t.decided(AuditKind.PLAYER_CHANGED, Subject(SubjectKind.PLAYER, player_id), f"{name} changed", decided)
    return entry


def remove_player(t: Tournament, actor_id: uuid.UUID, player_id: uuid.UUID, *, now: dt.datetime) -> Entry:
    """An official removes an entry before the start (after it, a player is withdrawn)."""
    role = t.require_official(actor_id, "remove players")
    require_fide(t, "remove players")
    entry = t.entry(player_id)
    t.leave(player_id, now=now)
    t.decided(
        AuditKind.PLAYER_REMOVED,
        Subject(SubjectKind.PLAYER, player_id),
        f"{entry.name} removed before the start",
        Decided(actor_id, role, now),
    )
    return entry


def starting_rank(t: Tournament) -> list[Entry]:
    """The confirmed players in starting-rank order (``players.py``)."""
    confirmed = [e for e in t.entries if e.confirmed]
    return in_starting_rank(
        confirmed, lambda e: (e.rating, None if e.profile is None else e.profile.title, e.name)
    )


def start(t: Tournament, actor_id: uuid.UUID, now: dt.datetime) -> list[Seeded]:
    """The organiser or an arbiter of the whole event starts it: the confirmed players, in starting-rank
    order, are the roster (entries never confirmed are left out, and removed); a round robin's
    rounds and the dates are fixed."""
    role = t.require_official(actor_id, "start it")
    own = require_fide(t, "be started by its arbiters")
    if t.status is Status.STARTED:
        raise errors.AlreadyStarted("the event has started already")
    t.require_undecided("start it")
    ranked = starting_rank(t)
    rounds = fide.check_field(own.format, len(ranked))
    unconfirmed = [e for e in t.entries if not e.confirmed]
    for entry in unconfirmed:
        t.drop(entry)
    t.settings = dataclasses.replace(own, format=fide.at_start(own.format, rounds, now.date()))
    t.status = Status.STARTED
    t.starts_at = now
    roster = [e.seeded(i) for i, e in enumerate(ranked, start=1)]
    t.announce_started(now, roster)
    left_out = "; left out, never confirmed: " + ", ".join(e.name for e in unconfirmed) if unconfirmed else ""
    t.decided(
        AuditKind.TOURNAMENT_STARTED,
        Subject(SubjectKind.TOURNAMENT, t.id),
        f"started with {len(roster)} players, {rounds} rounds{left_out}",
        Decided(actor_id, role, now),
    )
    return roster


def round_paired(t: Tournament, round_no: int) -> bool:
    """Pairing announced ``round_no`` (``round.paired``): late entries play from the round after the
    last one paired. False when that changes nothing (an earlier round, a repeat, another ruleset)."""
    own = t.settings
    if not isinstance(own, FideRapid) or round_no <= own.rounds_paired:
        return False
    t.settings = dataclasses.replace(own, rounds_paired=round_no)
    return True


def withdraw_absent(t: Tournament, player_id: uuid.UUID, round_no: int, *, now: dt.datetime) -> Entry | None:
    """Pairing found an absence from ``round_no`` not excused before the next pairing: the player is
    withdrawn (FIDE C.04.2) by the rules themselves (``RULES``, role ``service``), through the same
    path as any withdrawal. None when there is nothing to do: not a fide-rapid event, closed, a
    player not entered or gone already (a repeat)."""
    if not isinstance(t.settings, FideRapid) or t.status is not Status.STARTED:
        return None
    entry = t.find(player_id)
    if entry is None or entry.withdrawal is not None:
        return None
    decided = Decided(RULES, Role.SERVICE, now, ABSENCE_REASON)
    t.withdrawn(
        entry,
        exclude=False,
        decided=decided,
        detail=f"{entry.name} withdrawn: absent from round {round_no} without an excuse before the next"
        " pairing",
    )
    return entry


def require_room(t: Tournament, more: int) -> None:
    if len(t.entries) + more > t.seats:
        raise errors.TournamentFull(f"an event takes at most {t.seats} players; {len(t.entries)} are entered")


def require_new_fide_ids(
    t: Tournament, people: list[tuple[Profile | None, str]], *, besides: uuid.UUID | None = None
) -> None:
    """DuplicateFideId when one of ``people`` (a profile and who it is, for the message) has the FIDE
    id of an entered player (but ``besides``) or of another of them."""
    taken = {
        e.fide_id: f"{e.name} (entered already)"
        for e in t.entries
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


def validate(s: Settings) -> FideFormat:
    """A fide-rapid event's settings (``fide.py``): its format checked, the rest refused."""
    check_name(s.name)
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
    check_time_control(s.time_control)
    fide.check_rapid(s.time_control)
    return fide.validate(s.fide)


def _entries_taken(t: Tournament) -> int | None:
    """None before the start; after it, the round a late entry plays from (or NoLateEntries /
    NoRoundLeft); RegistrationClosed once the event is over."""
    if t.status is Status.SCHEDULED:
        return None
    if t.status is not Status.STARTED:
        raise errors.RegistrationClosed(f"the event is {t.status.value}: nobody enters it now")
    own = require_fide(t, "enter players by hand")
    fmt = own.format
    if not fmt.swiss:
        raise errors.NoLateEntries("a round robin's table is fixed at the start: it takes no late entries")
    rounds = fmt.rounds or 0
    if own.rounds_paired >= rounds:
        raise errors.NoRoundLeft(f"all {rounds} rounds are paired: a late entry would play none")
    return own.rounds_paired + 1


def _where(person: Person) -> str:
    """An imported player, as an error names them: their line and name."""
    return person.name if person.line is None else f"line {person.line} ({person.name})"
