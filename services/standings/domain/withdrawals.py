"""Players who left a started tournament for good (``player.withdrawn``, RULES.md §4, §5): withdrawn,
or excluded by the organiser. Irreversible: the first withdrawal stands. Pure values.

What it changes is the ruleset's: in a Swiss the player is not paired in later rounds (their games
so far stand, the rounds without a pairing are zero-point absences); on the platform an excluded
player stays in the draw and loses the remaining games by forfeit; in a knockout clocks forfeits
the current match; in ``group-playoff`` every match of the phase is scored 0:2. The standings mark the
player in the table, the crosstable, the rounds, the bracket and the TRF export.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass
from enum import StrEnum

from shared.authority import Role
from shared.vocabulary import Ruleset

__all__ = ["PlayerStatus", "Withdrawal", "stays_in_draw"]


class PlayerStatus(StrEnum):
    WITHDRAWN = "withdrawn"
    EXCLUDED = "excluded"  # by the organiser


@dataclass(frozen=True, slots=True)
class Withdrawal:
    seed: int
    status: PlayerStatus
    reason: str | None
    at: dt.datetime
    role: Role | None = None  # who decided, in what capacity
    by: uuid.UUID | None = None


def stays_in_draw(ruleset: Ruleset, status: PlayerStatus) -> bool:
    """Whether the player is still paired in later rounds: on the ``platform`` nobody leaves after the
    start, and an excluded player stays in the draw and loses the remaining games by forfeit
    (RULES.md §2); anywhere else a withdrawn or excluded player is not paired again."""
    return ruleset is Ruleset.PLATFORM and status is PlayerStatus.EXCLUDED
