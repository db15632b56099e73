"""The `group-playoff` ruleset (the 4T1 rules, RULES.md §5): an event open for entries until its closing
date, in order of arrival; its organiser confirms or refuses each entry and starts it with the first eight
confirmed (the groups' lot seed drawn and recorded then). No start time: the scheduler never starts it.
Its own settings, and the rules of its entries and field, are in ``group_playoff.py``."""

from __future__ import annotations

import dataclasses
import datetime as dt
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from services.registration.domain import errors
from services.registration.domain import group_playoff as groups
from services.registration.domain.account import Account
from services.registration.domain.audit import AuditKind, Subject, SubjectKind
from services.registration.domain.entries import Entry
from services.registration.domain.events import Seeded
from services.registration.domain.group_playoff import GroupFormat
from services.registration.domain.tournament import (
    AccountsOf,
    Creation,
    Joining,
    RulesetFields,
    RulesetSettings,
    Settings,
    Status,
    Tournament,
    check_name,
    check_time_control,
    open_until_started,
)
from shared.authority import Decided, Role
from shared.vocabulary import Ruleset

SEATS = 1000  # entries in order of arrival: the eight who play, then the waiting list


@dataclass(frozen=True)
class GroupPlayoff(RulesetSettings):
    """A group-playoff event's own settings (``group_playoff.py``): its window, and the lot seed drawn
    at the start."""

    format: GroupFormat

    @property
    def ruleset(self) -> Ruleset:
        return Ruleset.GROUP_PLAYOFF

    def fields(self) -> RulesetFields:
        return RulesetFields(group_playoff=self.format)

    @classmethod
    def from_fields(cls, ruleset: Ruleset, fields: RulesetFields) -> GroupPlayoff:
        if fields.group_playoff is None:
            raise ValueError("a group-playoff event is stored with its settings")
        return cls(fields.group_playoff)

    @classmethod
    def create(cls, organiser: Account, settings: Settings, creation: Creation) -> Tournament:
        """An event open for entries until its closing date; its organiser confirms or refuses each entry
        and starts it. No start time: the scheduler never starts it."""
        check_name(settings.name)
        if settings.group_playoff is None:
            raise errors.InvalidSettings("a group-playoff event needs its group_playoff settings (closes_at)")
        if settings.starts_at is not None or settings.knockout is not None or settings.fide is not None:
            raise errors.InvalidSettings(
                "a group-playoff event has no starts_at, knockout or fide settings: its organiser starts it"
            )
        check_time_control(settings.time_control)
        fmt = groups.validate(settings.group_playoff, settings.time_control, creation.now)
        return Tournament(
            id=creation.tournament_id,
            organiser_id=organiser.id,
            name=settings.name.strip(),
            starts_at=None,
            time_control=settings.time_control,
            seats=SEATS,
            minimum=groups.PLAYERS,
            threshold=settings.threshold,
            variant=settings.variant,
            rated=True,
            created_at=creation.now,
            settings=cls(fmt),
        )

    def require_open(self, t: Tournament, now: dt.datetime, action: str) -> None:
        open_until_started(t, action)

    def entry_for(self, t: Tournament, account: Account, joining: Joining, now: dt.datetime) -> Entry:
        """An entry in order of arrival, waiting for the organiser (4T1 §3)."""
        joining.require_no_profile()
        rating = account.ratings.get(t.rating_key)
        groups.check_entry(self.format, rating, t.rating_key, now, account.name)
        return Entry(
            account.id, account.name, rating, now, confirmed=False, creates_games=joining.creates_games
        )

    def check_confirming(self, t: Tournament, actor_id: uuid.UUID) -> None:
        """The organiser alone confirms or refuses an entry (RULES.md §5)."""
        t.require_organiser(actor_id, "confirm entries")

    def start_on_request(
        self,
        t: Tournament,
        actor_id: uuid.UUID,
        now: dt.datetime,
        accounts: AccountsOf,
        draw_seed: Callable[[], int],
    ) -> list[Seeded]:
        """Its organiser starts it; the groups' lot seed is drawn now and recorded."""
        return start(t, actor_id, now, draw_seed())


def field(t: Tournament) -> tuple[list[Entry], list[Entry]]:
    """The event's confirmed entries: (the eight who play, the waiting list, in order)."""
    confirmed = [e for e in t.entries if e.confirmed and e.withdrawal is None]
    return groups.field(confirmed, arrived=lambda e: e.joined_at, creates_games=lambda e: e.creates_games)


def refuse(
    t: Tournament, actor_id: uuid.UUID, player_id: uuid.UUID, *, reason: str, now: dt.datetime
) -> Entry:
    """The organiser refuses a group-playoff entry before the start: it is removed (RULES.md §5)."""
    t.require_organiser(actor_id, "refuse entries")
    if not isinstance(t.settings, GroupPlayoff):
        raise errors.NotAllowed(
            f"entries are refused in group-playoff events; this is a {t.ruleset} tournament"
        )
    entry = t.entry(player_id)
    t.leave(player_id, now=now)
    t.decided(
        AuditKind.PLAYER_REMOVED,
        Subject(SubjectKind.PLAYER, player_id),
        f"{entry.name}'s entry refused: {reason}",
        Decided(actor_id, Role.ORGANISER, now),
    )
    return entry


def start(t: Tournament, actor_id: uuid.UUID, now: dt.datetime, lot_seed: int) -> list[Seeded]:
    """The organiser starts a group-playoff event with the first eight confirmed entries (seeded by
    rating, then order of entry); the groups' lot seed is drawn now and recorded; the waiting list
    and the unconfirmed entries are left out."""
    t.require_organiser(actor_id, "start it")
    own = t.settings
    if not isinstance(own, GroupPlayoff):
        raise errors.NotAllowed(f"a {t.ruleset} tournament is not started this way")
    if t.status is not Status.SCHEDULED:
        raise errors.AlreadyStarted(f"the event is {t.status.value}")
    playing, waiting = field(t)
    if len(playing) < groups.PLAYERS:
        raise errors.Conflict(
            f"a group-playoff event starts with {groups.PLAYERS} confirmed players; it has {len(playing)}"
        )
    left_out = [e for e in t.entries if e not in playing]
    for entry in left_out:
        t.drop(entry)
    order = {e.player_id: i for i, e in enumerate(playing)}
    seeded = sorted(playing, key=lambda e: (-(e.rating or 0), order[e.player_id]))
    t.settings = dataclasses.replace(own, format=dataclasses.replace(own.format, lot_seed=lot_seed))
    t.status = Status.STARTED
    t.starts_at = now
    roster = [e.seeded(i) for i, e in enumerate(seeded, start=1)]
    t.announce_started(now, roster)
    t.decided(
        AuditKind.TOURNAMENT_STARTED,
        Subject(SubjectKind.TOURNAMENT, t.id),
        f"started with {len(roster)} players; the groups' lot seed {lot_seed}"
        + (f"; waiting list left out: {', '.join(e.name for e in waiting)}" if waiting else ""),
        Decided(actor_id, Role.ORGANISER, now),
    )
    return roster
