"""Rated or friendly (RULES.md §2): a tournament is rated unless its organiser makes it friendly, and
the opening can make it friendly by itself.

The federation rule: one game a pairing is enough while the opening is at most 2N/2B; beyond that one
colour's advantage is too large for a single game to even out, and each pairing must play both colours.
What counts is the cap of the table a draw is made from (``table-3``: 3N/3B; ``table-all``: the
table's highest class), or the class of the thematic opening. Such a tournament is **created friendly
instead of being refused**, and switching double rounds on makes it rated again. Free and random
openings have no class and never switch rating off.

**Decisions.**

* An opening without a balance class (the English table has none) cannot be shown to be within
  2N/2B, so ``table-all`` and thematic openings from such a table count as beyond it: friendly, unless
  double rounds are on. English draughts plays its three-move ballots in pairs of games with colours
  reversed anyway.
* The decision is made when the tournament is created (its players must know whether it is rated, and
  the minimum rating depends on it). A field of exactly four, which plays double rounds whatever was
  chosen, does not turn a friendly tournament rated at the start.
* A minimum rating applies to rated tournaments only: a tournament that becomes friendly has none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NamedTuple

from shared.openings import OpeningKind, OpeningOption, OpeningTable, table_for
from shared.variants import Variant

SINGLE_GAME_UP_TO: Final = 2
"""The highest balance grade (2N/2B) at which one game a pairing is enough for a rated tournament."""


@dataclass(frozen=True)
class RatingSettings:
    """What decides it: the organiser's choice, the variant, the opening option, double rounds, and the
    Italian table where one is configured (the English one comes with pydraughts)."""

    rated: bool
    variant: Variant
    opening: OpeningOption
    double_rounds: bool
    italian: OpeningTable | None = None


class RatedDecision(NamedTuple):
    rated: bool
    reason: str | None  # why it is friendly, or why an unbalanced opening stays rated; None: plainly rated

    def min_rating(self, requested: int | None) -> int | None:
        """The minimum rating that applies: none for a friendly tournament."""
        return requested if self.rated else None


def opening_grade(settings: RatingSettings) -> tuple[int | None, str]:
    """The balance grade the opening can reach (None: unknown) and how to name it."""
    option = settings.opening
    table = table_for(settings.variant, italian=settings.italian)
    if option.kind is OpeningKind.TABLE:
        if option.cap is not None:
            return option.cap, f"a draw up to {option.cap}N/{option.cap}B"
        grade = table.max_grade
        return grade, f"a draw from the whole {table.name}"
    assert option.code is not None
    opening = table.opening(option.code)
    grade = None if opening.balance is None else opening.balance.grade
    return grade, f"the thematic opening {option.code}"


def rated_after_openings(settings: RatingSettings) -> RatedDecision:
    """Whether the tournament is rated, given its opening (the option is assumed valid:
    :func:`shared.openings.check_option` refuses the others first)."""
    if not settings.rated:
        return RatedDecision(False, "friendly: the organiser's choice")
    if not settings.opening.uses_table:
        return RatedDecision(True, None)
    grade, what = opening_grade(settings)
    if grade is not None and grade <= SINGLE_GAME_UP_TO:
        return RatedDecision(True, None)
    strength = "has no balance class" if grade is None else f"reaches {grade}N/{grade}B"
    if settings.double_rounds:
        return RatedDecision(
            True, f"rated: {what} {strength}, beyond 2N/2B, and double rounds play it with both colours"
        )
    return RatedDecision(
        False,
        f"friendly: {what} {strength}, beyond 2N/2B, which one game a pairing cannot even out; "
        "switch double rounds on to make it rated",
    )
