"""What every correction checks first, whatever the format: a correction names a result, replaces the
result the game has, and is not that result again (RULES.md §4; the results-authority issue)."""

from __future__ import annotations

import uuid

from services.pairing.domain.errors import GameNotFinished, InvalidOutcome, NothingToCorrect
from shared.scoring import Outcome


def replaced_outcome(game_id: uuid.UUID, old: Outcome | None, new: Outcome) -> Outcome:
    """The outcome a correction to ``new`` replaces: the game must have one, and another than ``new``.
    Correcting a game to the result it has is refused (``nothing-to-correct``), not a silent no-op, so
    that the arbiter learns the correction changed nothing."""
    if new is Outcome.NOT_PLAYED:
        raise InvalidOutcome("a correction names a result: 1-0, 1/2-1/2, 0-1, +/-, -/+ or -/-")
    if old is None:
        raise GameNotFinished(f"game {game_id} has no result yet: there is nothing to correct")
    if old is new:
        raise NothingToCorrect(f"game {game_id} is {old.value} already")
    return old
