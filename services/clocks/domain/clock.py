"""The server-authoritative game clock (RULES.md §7): Fischer increment and correspondence.

The clock is a fold over its changes. Every change — the start, a press, an adjustment (the FIDE rapid
penalty of one extra minute for the opponent; later the arena boost), a flag fall, a stop — is a
:class:`ClockChange` with its instant and a reason, and :meth:`Clock.replay` rebuilds the same state from
them alone.

Arithmetic, in whole milliseconds on timezone-aware instants:

- ``remaining[side]`` is what a side had when its current turn began (for the side not to move, simply
  what it has). The side to move has ``remaining - elapsed`` at an instant; its **deadline** is
  ``turn began + remaining``, and its flag is down from the deadline on: a report *at* the deadline is
  already too late.
- A press charges the mover the time since its turn began, rounded *up* to the millisecond (never in the
  mover's favour), then Fischer adds the increment; correspondence gives the side now to move a fresh
  ``days_per_move`` (the deadline resets with every move).
- A press, adjustment or stop at an instant after the deadline is not applied: the flag fall is recorded
  instead, at the deadline (the moment the time ran out, however late anyone looked).
- Instants before the turn began (another host's clock a little behind) count as no time used.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from services.clocks.domain import errors
from shared import time_control as shared_time_control

MS = dt.timedelta(milliseconds=1)
DAY_MS = 86_400_000


class Side(StrEnum):
    WHITE = "white"
    BLACK = "black"

    @property
    def other(self) -> Side:
        return Side.BLACK if self is Side.WHITE else Side.WHITE


@dataclass(frozen=True)
class ClockRate(shared_time_control.RateOfPlay):
    """The shared time control within the limits the clocks run, with their millisecond arithmetic."""

    def __post_init__(self) -> None:
        problem = self.problem()
        if problem is not None:
            raise errors.InvalidTimeControl(problem)

    @property
    def correspondence(self) -> bool:
        return self.days_per_move is not None

    @property
    def per_move_ms(self) -> int:
        """Correspondence: the time for every move."""
        return (self.days_per_move or 0) * DAY_MS

    @property
    def increment_ms(self) -> int:
        return 0 if self.correspondence else self.increment_seconds * 1000

    @property
    def initial_ms(self) -> int:
        """What each side starts with. With no base time (0+x) the first move gets one increment."""
        if self.correspondence:
            return self.per_move_ms
        return self.base_seconds * 1000 if self.base_seconds else self.increment_ms


class ChangeKind(StrEnum):
    STARTED = "started"
    PRESSED = "pressed"
    ADJUSTED = "adjusted"
    FLAGGED = "flagged"
    STOPPED = "stopped"


class ClockState(StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    STOPPED = "stopped"


@dataclass(frozen=True)
class ClockChange:
    """One thing that happened to a clock.

    ``side``: who pressed, whose time was adjusted, whose flag fell (None for start and stop).
    ``delta_ms``: for an adjustment, the time given to ``side`` (negative: taken); 0 otherwise.
    """

    kind: ChangeKind
    at: dt.datetime
    reason: str
    side: Side | None = None
    delta_ms: int = 0


# Reasons the clock itself records; adjustments carry the caller's (e.g. "illegal_move_penalty").
ROUND_START = "round_start"
MOVE = "move"
TIME = "time"
BOOST = "arena_boost"  # an adjustment with this reason: the side's moves add no increment from then on


def _elapsed_ms(since: dt.datetime, at: dt.datetime) -> int:
    """Whole milliseconds from ``since`` to ``at``, rounded up; never negative."""
    micros = (at - since) // dt.timedelta(microseconds=1)
    return max(0, -(-micros // 1000))


@dataclass
class Clock:
    control: ClockRate
    remaining: dict[Side, int]
    state: ClockState = ClockState.PENDING
    to_move: Side | None = None
    turn_started_at: dt.datetime | None = None
    flagged: Side | None = None
    boosted: set[Side] = field(default_factory=set)  # arena boost taken: no increment for these sides
    # changes recorded and not yet saved: the repository collects them into the history
    changes: list[ClockChange] = field(default_factory=list, compare=False)

    @classmethod
    def new(cls, control: ClockRate) -> Clock:
        return cls(control, {Side.WHITE: control.initial_ms, Side.BLACK: control.initial_ms})

    @classmethod
    def replay(cls, control: ClockRate, changes: Iterable[ClockChange]) -> Clock:
        """The state reached by applying ``changes`` in order to a new clock."""
        clock = cls.new(control)
        for change in changes:
            clock._apply(change)
        return clock

    def collect_changes(self) -> list[ClockChange]:
        """Hand over the changes recorded since the last call (to be saved, in order)."""
        collected, self.changes = self.changes, []
        return collected

    # -- reading --------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self.state is ClockState.RUNNING

    @property
    def deadline(self) -> dt.datetime | None:
        """When the flag of the side to move falls, if nothing happens first."""
        if not self.running or self.to_move is None or self.turn_started_at is None:
            return None
        return self.turn_started_at + self.remaining[self.to_move] * MS

    def remaining_ms(self, side: Side, at: dt.datetime) -> int:
        """What ``side`` has left at ``at`` (what it would keep, before any increment, by moving then)."""
        left = self.remaining[side]
        if self.running and side is self.to_move and self.turn_started_at is not None:
            left -= _elapsed_ms(self.turn_started_at, at)
        return max(0, left)

    def flag_fallen(self, at: dt.datetime) -> Side | None:
        deadline = self.deadline
        if deadline is None or at < deadline:
            return None
        return self.to_move

    # -- changing -------------------------------------------------------------------------------
    def start(self, at: dt.datetime, reason: str = ROUND_START, first: Side = Side.WHITE) -> ClockChange:
        """The time of ``first`` (White, unless the position has Black to move: an opening's odd number
        of moves, English draughts) runs from ``at``."""
        if self.state is not ClockState.PENDING:
            raise errors.AlreadyStarted("the clock has already been started")
        side = None if first is Side.WHITE else first  # recorded only when it is not White, as before
        return self._record(ClockChange(ChangeKind.STARTED, at, reason, side))

    def check_flag(self, at: dt.datetime) -> ClockChange | None:
        """Record the flag fall if the side to move has no time left at ``at``."""
        side = self.flag_fallen(at)
        deadline = self.deadline
        if side is None or deadline is None:
            return None
        return self._record(ClockChange(ChangeKind.FLAGGED, deadline, TIME, side))

    def press(self, side: Side, at: dt.datetime) -> ClockChange:
        """``side`` completed a move at ``at``: the flag change instead if its time had run out."""
        self._require_running()
        flag = self.check_flag(at)
        if flag is not None:
            return flag
        if side is not self.to_move:
            raise errors.NotYourTurn(f"it is {self.to_move}'s turn, not {side}'s")
        return self._record(ClockChange(ChangeKind.PRESSED, at, MOVE, side))

    def adjust(self, side: Side, delta_ms: int, reason: str, at: dt.datetime) -> ClockChange:
        """Give ``side`` time (or take it, with a negative delta), e.g. +60 000 for an opponent's
        illegal move (FIDE rapid). A side's time never goes below zero."""
        self._require_running()
        flag = self.check_flag(at)
        if flag is not None:
            return flag
        return self._record(ClockChange(ChangeKind.ADJUSTED, at, reason, side, delta_ms))

    def restart_turn(self, at: dt.datetime, reason: str) -> ClockChange:
        """The side to move's turn starts again at ``at`` with the time it had when it began (e.g. the
        colours were swapped before the first move): an adjustment giving back the time used since."""
        self._require_running()
        flag = self.check_flag(at)
        if flag is not None:
            return flag
        side, since = self._turn()
        return self._record(ClockChange(ChangeKind.ADJUSTED, at, reason, side, _elapsed_ms(since, at)))

    def stop(self, at: dt.datetime, reason: str) -> ClockChange:
        """The game ended otherwise (a result was reported): the running side's time stops at ``at``."""
        self._require_running()
        flag = self.check_flag(at)
        if flag is not None:
            return flag
        return self._record(ClockChange(ChangeKind.STOPPED, at, reason))

    def _require_running(self) -> None:
        if not self.running:
            raise errors.ClockNotRunning(f"the clock is {self.state}")

    def _record(self, change: ClockChange) -> ClockChange:
        self._apply(change)
        self.changes.append(change)
        return change

    def _apply(self, change: ClockChange) -> None:
        match change.kind:
            case ChangeKind.STARTED:
                self.state = ClockState.RUNNING
                self.to_move = change.side or Side.WHITE
                self.turn_started_at = change.at
            case ChangeKind.PRESSED:
                mover, since = self._turn()
                if self.control.correspondence:
                    self.remaining = {
                        Side.WHITE: self.control.per_move_ms,
                        Side.BLACK: self.control.per_move_ms,
                    }
                else:
                    used = _elapsed_ms(since, change.at)
                    increment = 0 if mover in self.boosted else self.control.increment_ms
                    self.remaining[mover] += increment - used
                self.to_move = mover.other
                self.turn_started_at = change.at
            case ChangeKind.ADJUSTED:
                side = change.side or self._turn()[0]
                if change.reason == BOOST:
                    self.boosted.add(side)
                floor = 0
                if side is self.to_move and self.turn_started_at is not None:
                    floor = _elapsed_ms(self.turn_started_at, change.at)  # nothing left, from now on
                self.remaining[side] = max(floor, self.remaining[side] + change.delta_ms)
            case ChangeKind.FLAGGED:
                side = change.side or self._turn()[0]
                self.remaining[side] = 0
                self.flagged = side
                self.state = ClockState.STOPPED
            case ChangeKind.STOPPED:
                mover, since = self._turn()
                self.remaining[mover] = max(0, self.remaining[mover] - _elapsed_ms(since, change.at))
                self.turn_started_at = change.at
                self.state = ClockState.STOPPED

    def _turn(self) -> tuple[Side, dt.datetime]:
        if self.to_move is None or self.turn_started_at is None:
            raise errors.ClockNotRunning("the clock has not been started")
        return self.to_move, self.turn_started_at
