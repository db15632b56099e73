"""The `platform` ruleset (RULES.md §2): a round robin or a Swiss that starts by itself at its scheduled
time, with whoever joined by then ("Creating", "Seats", "Joining and leaving"). Players join and leave
until the start; after it nobody leaves (only the organiser excludes a player). Its own setting is the
duration it may announce ("Duration"); what it shares with an arena is in ``scheduled.py``."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import ClassVar

from services.registration.domain import errors
from services.registration.domain.account import Account
from services.registration.domain.entries import Entry
from services.registration.domain.rulesets import scheduled
from services.registration.domain.tournament import (
    MIN_PLAYERS,
    Creation,
    Joining,
    RulesetFields,
    RulesetSettings,
    Settings,
    Tournament,
)
from shared.vocabulary import Ruleset

SEATS = (4, 200)
THRESHOLD = (7, 20)
DURATION = (10, 20_160)  # minutes: the announced duration of a `platform` tournament


@dataclass(frozen=True)
class Platform(RulesetSettings):
    """A `platform` tournament's own setting: the duration it announces, if any (RULES.md §2 "Duration")."""

    duration_minutes: int | None = None
    one_per_organiser: ClassVar[bool] = True

    @property
    def ruleset(self) -> Ruleset:
        return Ruleset.PLATFORM

    def fields(self) -> RulesetFields:
        return RulesetFields(duration_minutes=self.duration_minutes)

    @classmethod
    def from_fields(cls, ruleset: Ruleset, fields: RulesetFields) -> Platform:
        return cls(fields.duration_minutes)

    @classmethod
    def create(cls, organiser: Account, settings: Settings, creation: Creation) -> Tournament:
        scheduled.require_free(creation)
        validate(settings, now=creation.now, min_lead=creation.min_lead)
        return scheduled.schedule(organiser, settings, creation, cls(settings.duration_minutes))

    def entry_for(self, t: Tournament, account: Account, joining: Joining, now: dt.datetime) -> Entry:
        return scheduled.entry_for(t, account, joining, now)

    def check_withdrawing(self, *, exclude: bool) -> None:
        """After the start nobody leaves a platform tournament (RULES.md §2): only an exclusion removes a
        player."""
        if not exclude:
            raise errors.NoLeavingAfterStart(
                "after the start nobody leaves a platform tournament (RULES.md §2): a player stays in the"
                " draw for every remaining round; only the organiser can exclude them"
            )


def validate(s: Settings, *, now: dt.datetime, min_lead: dt.timedelta) -> None:
    """A platform tournament's settings."""
    if s.knockout is not None:
        raise errors.InvalidSettings("knockout settings are for the knockout and double-knockout rulesets")
    if s.fide is not None:
        raise errors.InvalidSettings("fide settings are for the fide-rapid ruleset")
    scheduled.validate_scheduled(s, "a platform tournament", now=now, min_lead=min_lead)
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
