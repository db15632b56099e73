"""The rulesets a tournament is created with, one module each: ``platform`` (RULES.md §2), ``arena``
(§3), ``knockout`` (both knockouts, §4), ``group_playoff`` (the 4T1 rules, §5) and ``fide_rapid`` (§6).
Each holds its settings type (a :class:`~services.registration.domain.tournament.RulesetSettings`), their
validator, the constructor of its tournaments and the commands only it has; ``scheduled`` holds what the
two rulesets that start at a scheduled time share. Adding a ruleset is adding its module and naming it in
:data:`RULESETS`."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Mapping
from typing import Final

from services.registration.domain import errors
from services.registration.domain.account import Account
from services.registration.domain.rulesets.arena import ARENA_MINUTES, Arena
from services.registration.domain.rulesets.fide_rapid import FideRapid
from services.registration.domain.rulesets.group_playoff import GroupPlayoff
from services.registration.domain.rulesets.knockout import Knockout
from services.registration.domain.rulesets.platform import Platform
from services.registration.domain.rulesets.scheduled import DEFAULT_MIN_LEAD
from services.registration.domain.tournament import (
    Creation,
    RulesetFields,
    RulesetSettings,
    Settings,
    Tournament,
)
from shared.openings import OpeningTable
from shared.vocabulary import Ruleset

RULESETS: Final[Mapping[Ruleset, type[RulesetSettings]]] = {
    Ruleset.PLATFORM: Platform,
    Ruleset.ARENA: Arena,
    Ruleset.KNOCKOUT: Knockout,
    Ruleset.DOUBLE_KNOCKOUT: Knockout,
    Ruleset.GROUP_PLAYOFF: GroupPlayoff,
    Ruleset.FIDE_RAPID: FideRapid,
}


def create(
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
    """A new tournament of the ruleset the organiser chose, by its own constructor. ``italian``: the
    Italian federation's opening table, where one is configured."""
    organiser.require_registered("create tournaments")
    # an announced duration and a drawn opening are a platform tournament's (RULES.md §2)
    if settings.ruleset is not Ruleset.PLATFORM and settings.duration_minutes is not None:
        raise errors.InvalidSettings("an announced duration is for platform tournaments only")
    if settings.ruleset is not Ruleset.PLATFORM and settings.opening != "free":
        raise errors.InvalidSettings(
            f"openings are drawn in platform tournaments only, not in a {settings.ruleset} one"
        )
    offered = RULESETS.get(settings.ruleset)
    if offered is None:
        raise not_offered(settings.ruleset)
    creation = Creation(
        now, tournament_id or uuid.uuid4(), min_lead, arena_min_minutes, organiser_busy, italian
    )
    return offered.create(organiser, settings, creation)


def one_per_organiser(ruleset: Ruleset) -> bool:
    """Whether an organiser runs one competition of this ruleset at a time (RULES.md §2 "Creating")."""
    offered = RULESETS.get(ruleset)
    return offered is not None and offered.one_per_organiser


def settings_of(ruleset: Ruleset, fields: RulesetFields) -> RulesetSettings:
    """A stored tournament's ruleset settings, from its ruleset and its fields as stored."""
    return RULESETS[ruleset].from_fields(ruleset, fields)


def not_offered(ruleset: str) -> errors.InvalidSettings:
    """A ruleset Arbiter knows (or not) that a tournament cannot be created with yet."""
    return errors.InvalidSettings(f"ruleset {str(ruleset)!r} is not offered for self-registration yet")
