"""The `arena` ruleset (RULES.md §3): a competition that runs for a fixed time (10 minutes to 8 hours)
from its scheduled start, pairing players as they come from a pool. Players join before and during it,
until its end; one who leaves after the start (or pauses) keeps their score and may join again. It
starts with whoever is there and has no seat limit. Its registration policy is a `platform`
tournament's (``scheduled.py``); its own setting is its duration."""

from __future__ import annotations

import dataclasses
import datetime as dt
import uuid
from dataclasses import dataclass
from typing import ClassVar

from services.registration.domain import errors
from services.registration.domain.account import Account
from services.registration.domain.entries import Entry
from services.registration.domain.events import PlayerPaused
from services.registration.domain.rulesets import scheduled
from services.registration.domain.tournament import (
    Creation,
    Joining,
    RulesetFields,
    RulesetSettings,
    Settings,
    Status,
    Tournament,
    iso,
)
from shared.vocabulary import Ruleset

ARENA_MINUTES = (10, 480)  # an arena runs 10 minutes to 8 hours (RULES.md §3)
ARENA_SEATS = 10_000  # an arena has no field to fill: as many as the pool holds


@dataclass(frozen=True)
class Arena(RulesetSettings):
    """An arena's own setting: how long it runs from its start, in minutes."""

    minutes: int
    pooled: ClassVar[bool] = True
    starts_with_anyone: ClassVar[bool] = True
    one_per_organiser: ClassVar[bool] = True

    @property
    def ruleset(self) -> Ruleset:
        return Ruleset.ARENA

    def fields(self) -> RulesetFields:
        return RulesetFields(arena_minutes=self.minutes)

    @classmethod
    def from_fields(cls, ruleset: Ruleset, fields: RulesetFields) -> Arena:
        if fields.arena_minutes is None:
            raise ValueError("an arena is stored with its duration")
        return cls(fields.arena_minutes)

    @classmethod
    def create(cls, organiser: Account, settings: Settings, creation: Creation) -> Tournament:
        scheduled.require_free(creation)
        validate(settings, now=creation.now, min_lead=creation.min_lead, lo=creation.arena_min_minutes)
        minutes = settings.arena_minutes
        assert minutes is not None  # validated
        settings = dataclasses.replace(settings, seats=ARENA_SEATS, minimum=0)
        return scheduled.schedule(organiser, settings, creation, cls(minutes))

    def ends_at(self, starts_at: dt.datetime | None) -> dt.datetime | None:
        return None if starts_at is None else starts_at + dt.timedelta(minutes=self.minutes)

    def require_open(self, t: Tournament, now: dt.datetime, action: str) -> None:
        """Players join, leave and pause before and during the arena, until its end."""
        ends_at = t.ends_at
        if t.status not in (Status.SCHEDULED, Status.STARTED) or ends_at is None or now >= ends_at:
            state = "over" if t.status is Status.STARTED else t.status.value
            raise errors.RegistrationClosed(
                f"players can {action} until the arena's end ({iso(ends_at)}); the arena is {state}"
            )

    def rejoin(self, t: Tournament, player_id: uuid.UUID) -> Entry | None:
        """Back from a pause: into the pool again, the score kept."""
        paused = next((e for e in t.entries if e.player_id == player_id and e.paused), None)
        if paused is not None:
            paused.paused = False
            t.changed(paused)
            t.announce_joined(paused)
        return paused

    def entry_for(self, t: Tournament, account: Account, joining: Joining, now: dt.datetime) -> Entry:
        return scheduled.entry_for(t, account, joining, now)

    def stays_after_leaving(self, t: Tournament) -> bool:
        """After the start a player who leaves keeps their entry (its games and score stand), paused."""
        return t.status is Status.STARTED


def pause(t: Tournament, player_id: uuid.UUID, *, now: dt.datetime) -> Entry:
    """An arena's player pauses (RULES.md §3): out of the waiting pool until they join again, with
    their score kept. A running game goes on."""
    if not isinstance(t.settings, Arena):
        raise errors.Conflict(f"only an arena's players pause; this is a {t.ruleset} tournament")
    t.require_open(now, "pause")
    entry = t.find(player_id)
    if entry is None:
        raise errors.NotJoined("this player has not joined this arena")
    if t.pause_entry(entry):
        t.record(PlayerPaused(tournament_id=t.id, player_id=player_id))
    return entry


def validate(s: Settings, *, now: dt.datetime, min_lead: dt.timedelta, lo: int = ARENA_MINUTES[0]) -> None:
    """An arena's settings: what every scheduled competition checks (``scheduled.validate_scheduled``),
    then its own. Seats, minimum and threshold are not an arena's: an arena has no seat limit and starts
    with whoever is there, so anything but their defaults is refused. ``lo``: the shortest arena (10
    minutes; a test stack's may be shorter). Its own settings are checked first: a wrong duration is
    named even when the start is wrong too."""
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
    scheduled.validate_scheduled(s, "an arena", now=now, min_lead=min_lead)
    if s.knockout is not None or s.fide is not None:
        raise errors.InvalidSettings("knockout and fide settings are not an arena's")
    if s.double_rounds or s.extra_round:
        raise errors.InvalidSettings("an arena has no rounds: double_rounds and extra_round are not its")
    if s.time_control.days_per_move is not None:
        raise errors.InvalidSettings("there is no arena by correspondence")
