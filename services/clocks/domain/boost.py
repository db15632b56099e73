"""The arena boost as a clock change (RULES.md §3 and §7).

A player may take the boost before their own first move; it doubles the points of a win (the standings'
rule) and is paid with the clock:

- the increment is dropped entirely for the rest of the game;
- the base time is halved, unless the base is under 40 × the increment (**Decision**, as lichess does for
  berserk: a base too small to carry the cut is left whole, and the dropped increment is the price);
- there is no boost with no base time (0+x), nor by correspondence.

**Decision:** the half is taken from the time the player has left. If that is not more than the half,
the boost is refused (``boost-unaffordable``) rather than the flag falling at once.

:func:`boost` checks all of that and returns the :class:`Boost`; :meth:`Boost.apply` records it on the
clock as an ``adjusted`` change with the reason :data:`BOOST` and ``delta_ms`` = − the cut (0 when the
base is kept whole), so the boost is in the clock's history like every other change. Dropping the
increment from then on is the clock's part: a replay finds who boosted with :func:`boosted_sides`, and
the clock adds no increment to that side's moves (``Clock.boosted``, kept by the replay).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from services.clocks.domain import errors
from services.clocks.domain.clock import BOOST, ChangeKind, Clock, ClockChange, Side
from shared.time_control import RateOfPlay

__all__ = ["BOOST", "Boost", "boost", "boosted_sides", "offered"]
MOVES_TO_CARRY: Final = 40  # the base is halved only when it is at least 40 × the increment


class BoostRefused(errors.Conflict):
    slug = "boost-refused"


class BoostNotOffered(BoostRefused):
    """No base time (0+x) or correspondence: nothing to pay the boost with."""

    slug = "boost-not-offered"


class BoostTooLate(BoostRefused):
    """The player has already made a move."""

    slug = "boost-too-late"


class AlreadyBoosted(BoostRefused):
    slug = "already-boosted"


class BoostUnaffordable(BoostRefused):
    """The player has no more than the half left that the boost would take."""

    slug = "boost-unaffordable"


def offered(control: RateOfPlay) -> bool:
    """Is the boost offered at all with this time control?"""
    return control.days_per_move is None and control.base_seconds > 0


def base_cut_ms(control: RateOfPlay) -> int:
    """What the boost takes from the clock: half the base, or nothing when the base is under
    40 × the increment."""
    if control.base_seconds < MOVES_TO_CARRY * control.increment_seconds:
        return 0
    return control.base_seconds * 1000 // 2


@dataclass(frozen=True, slots=True)
class Boost:
    side: Side
    base_cut_ms: int  # taken from the side's time now
    increment_ms: int  # no longer added to each of the side's moves
    reason: str = BOOST

    def apply(self, clock: Clock, at: dt.datetime) -> ClockChange:
        """Record the boost on the clock: the change, or the flag fall if the side's time had run out."""
        return clock.adjust(self.side, -self.base_cut_ms, self.reason, at)


def boost(clock: Clock, side: Side, at: dt.datetime, *, moved: bool, boosted: bool = False) -> Boost:
    """``side`` asks for the boost at ``at``; ``moved``: it has made a move in this game; ``boosted``: it
    has taken the boost already. Raises a :class:`BoostRefused` (a conflict: HTTP 409) when it may not."""
    control = clock.control
    if not offered(control):
        raise BoostNotOffered(f"no boost with {control.label()}: there is no base time to pay with")
    if moved:
        raise BoostTooLate("the boost is taken before one's own first move")
    if boosted:
        raise AlreadyBoosted(f"{side} has already taken the boost")
    cut = base_cut_ms(control)
    if cut and clock.remaining_ms(side, at) <= cut:
        raise BoostUnaffordable(
            f"{side} has {clock.remaining_ms(side, at)} ms left, not more than the {cut} ms the boost takes"
        )
    return Boost(side, cut, control.increment_seconds * 1000)


def boosted_sides(changes: Iterable[ClockChange]) -> frozenset[Side]:
    """The sides that took the boost, from a clock's history."""
    return frozenset(
        change.side
        for change in changes
        if change.kind is ChangeKind.ADJUSTED and change.reason == BOOST and change.side is not None
    )
