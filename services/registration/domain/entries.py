"""A tournament's entries and arbiters: who is entered and where they stand, who was appointed, and what
changed among them since the tournament was loaded (what its repository writes). ``tournament.py`` keeps
them; ``seed`` orders a roster by rating."""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass, field
from enum import StrEnum

from services.registration.domain.events import Seeded
from services.registration.domain.players import Profile
from shared.authority import Appointment


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


def seed(entries: list[Entry]) -> list[Seeded]:
    """Seed 1 = highest rating; unrated last; ties by name, then by who joined first."""
    ordered = sorted(
        entries, key=lambda e: (e.rating is None, -(e.rating or 0), e.name.casefold(), e.joined_at)
    )
    return [Seeded(i, e.player_id, e.name, e.rating) for i, e in enumerate(ordered, start=1)]
