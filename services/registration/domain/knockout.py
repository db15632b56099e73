"""The settings of `knockout` and `double-knockout` tournaments (RULES.md §4), and their seed list.

A knockout is created as a **draft**: the organiser keeps the roster (no self-registration) and may change
the settings until they start it, which pairs round 1 — there is no scheduled start, and the `platform`
rules (start window, threshold, one running competition) do not apply.

Seeding (fixed at the start):

* ``rating`` — rating in the tournament's time control, highest = seed 1; unrated players last; ties by
  name, then by who was added first;
* ``custom`` — the organiser's order, which must name every player once;
* ``random`` — drawn at the start from a recorded draw seed (``shared.seed_draw``), then kept.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

from services.registration.domain import errors
from shared.time_control import DEFAULT_PLAN, RateOfPlay, TieBreakSchedule
from shared.vocabulary import BracketFormat, Ruleset, Seeding

MIN_PLAYERS: Final = 4
MAX_PLAYERS: Final[Mapping[Ruleset, int]] = {Ruleset.KNOCKOUT: 128, Ruleset.DOUBLE_KNOCKOUT: 64}
BRACKET_OF_RULESET: Final[Mapping[Ruleset, BracketFormat]] = {
    Ruleset.KNOCKOUT: BracketFormat.KNOCKOUT,
    Ruleset.DOUBLE_KNOCKOUT: BracketFormat.DOUBLE_KNOCKOUT,
}
REGULAR_GAMES: Final = (1, 2, 4, 6)
MAX_STAGES: Final = 5


def bracket_format(ruleset: Ruleset) -> BracketFormat | None:
    """The elimination format a ruleset plays; None for the rulesets paired in rounds."""
    return BRACKET_OF_RULESET.get(ruleset)


def is_knockout(ruleset: Ruleset) -> bool:
    return ruleset in BRACKET_OF_RULESET


@dataclass(frozen=True)
class KnockoutFormat:
    """The format settings of a knockout draft. ``draw_seed`` is recorded when a random seeding is drawn."""

    games_per_match: int = 2
    seeding: Seeding = Seeding.RATING
    custom_order: tuple[uuid.UUID, ...] = ()
    third_place: bool = False
    second_final: bool = True
    tiebreak_plan: TieBreakSchedule = DEFAULT_PLAN
    draw_seed: int | None = None


@dataclass(frozen=True)
class FormatChange:
    """What the organiser changes in a draft's format; None leaves a setting as it is."""

    games_per_match: int | None = None
    seeding: Seeding | None = None
    custom_order: tuple[uuid.UUID, ...] | None = None
    third_place: bool | None = None
    second_final: bool | None = None
    tiebreak_plan: TieBreakSchedule | None = None

    def apply(self, fmt: KnockoutFormat) -> KnockoutFormat:
        changes = {
            name: getattr(self, name)
            for name in (
                "games_per_match",
                "seeding",
                "custom_order",
                "third_place",
                "second_final",
                "tiebreak_plan",
            )
            if getattr(self, name) is not None
        }
        return replace(fmt, **changes)


def validate(ruleset: Ruleset, fmt: KnockoutFormat, entered: Sequence[uuid.UUID] | None = None) -> None:
    """Refuse settings the format cannot run (InvalidSettings). ``entered``: check the custom order
    names only entered players."""
    if fmt.games_per_match not in REGULAR_GAMES:
        raise errors.InvalidSettings(f"a match has 1, 2, 4 or 6 regular games, not {fmt.games_per_match}")
    if ruleset is Ruleset.DOUBLE_KNOCKOUT and fmt.third_place:
        raise errors.InvalidSettings(
            "the third-place match is a knockout setting; a double knockout has none"
        )
    if ruleset is Ruleset.KNOCKOUT and not fmt.second_final:
        raise errors.InvalidSettings("the second final is a double-knockout setting")
    plan = fmt.tiebreak_plan
    if len(plan.stages) > MAX_STAGES:
        raise errors.InvalidSettings(f"a tie-break plan has at most {MAX_STAGES} stages")
    for number, stage in enumerate(plan.stages, start=1):
        if stage.games not in (1, 2):
            raise errors.InvalidSettings(
                f"tie-break stage {number} must have 1 or 2 games, not {stage.games}"
            )
        _check_clock(stage.time_control, f"tie-break stage {number}")
    _check_clock(plan.sudden_death, "the sudden-death game")
    if len(set(fmt.custom_order)) != len(fmt.custom_order):
        raise errors.InvalidSettings("a player appears twice in the custom order")
    if fmt.custom_order and fmt.seeding is not Seeding.CUSTOM:
        raise errors.InvalidSettings("a custom order is given only with the custom seeding")
    if entered is not None:
        strangers = [str(p) for p in fmt.custom_order if p not in set(entered)]
        if strangers:
            raise errors.InvalidSettings(
                f"the custom order names players not entered: {', '.join(strangers)}"
            )


def _check_clock(clock: RateOfPlay, what: str) -> None:
    problem = clock.problem()
    if problem is not None:
        raise errors.InvalidSettings(f"{what}: {problem}")


def check_custom_order(order: Sequence[uuid.UUID], entered: Sequence[uuid.UUID]) -> None:
    """At the start, a custom order must name every entered player exactly once."""
    missing = [str(p) for p in entered if p not in set(order)]
    extra = [str(p) for p in order if p not in set(entered)]
    if missing or extra:
        parts = ([f"missing {', '.join(missing)}"] if missing else []) + (
            [f"not entered: {', '.join(extra)}"] if extra else []
        )
        raise errors.SeedingIncomplete(f"the custom order must list every player once ({'; '.join(parts)})")
