"""When an arena stops pairing (issue 12: "pairing closes near the end, when a new game could not
reasonably finish").

**Decision.** A game of ``base + increment`` is expected to last ``base + 40 × increment`` (both clocks
together, for a game of about forty moves in which each side uses about half of what it has — the same
estimate lichess uses to sort time controls into speeds). No new game is paired once less than that is
left before the arena's end: pairing closes at ``end − (base + 40 × increment)`` and stays closed. For
3+2 that is 4 min 20 s before the end, for 1+0 one minute, for 0+5 (no base) 3 min 20 s.

Games already running when pairing closes are played out; what a game still running at the very end
counts for is the service's rule (docs/arena.md).

Correspondence time controls have no arena: :func:`expected_duration` refuses them.
"""

from __future__ import annotations

import datetime as dt
from typing import Final

from shared.time_control import RateOfPlay

MOVES: Final = 40


class NoArenaTimeControl(ValueError):
    """An arena is played with a Fischer clock (base + increment), never by correspondence."""


def expected_duration(control: RateOfPlay) -> dt.timedelta:
    """How long a new game is expected to last: base + 40 × increment."""
    if control.days_per_move is not None:
        raise NoArenaTimeControl("an arena needs a base + increment time control, not correspondence")
    return dt.timedelta(seconds=control.base_seconds + MOVES * control.increment_seconds)


def pairing_closes_at(ends_at: dt.datetime, control: RateOfPlay) -> dt.datetime:
    """The first instant at which no new game is paired."""
    return ends_at - expected_duration(control)


def pairing_open(now: dt.datetime, ends_at: dt.datetime, control: RateOfPlay) -> bool:
    """May a new game be paired at ``now``?"""
    return now < pairing_closes_at(ends_at, control)
