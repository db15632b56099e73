"""The Game aggregate: two players, their colours, the clock, the moves count and the result
(RULES.md §2 "Absence", §7).

``pending → running → finished``. A game ends by a reported result, by a flag fall that nobody has to
report (the side whose time ran out loses), or when its tournament closes while it is still open (a draw).
Whether each side ever moved is kept: a game in which one side never moved changes no rating.

Knockouts (RULES.md §4): a game of a round its organiser has not published yet is not ``released``: it
waits, and takes no result. A match's games are played one after the other (``match_id``, ``number``),
and a game its match no longer needs is ``cancelled`` (``pending|running → cancelled``).

The game records what other services hear of (:mod:`services.clocks.domain.events`) as it changes, and
its clock keeps the changes not yet saved. A move or result reported after the flag fell is not an
error raised after the fact: the call returns a :class:`FlagFall` (the report was not applied, the game
ended on time instead), and the caller saves the game like any other.
"""

from __future__ import annotations

import datetime as dt
import re
import uuid
from dataclasses import dataclass
from enum import StrEnum

from services.clocks.domain import errors
from services.clocks.domain.clock import ChangeKind, Clock, ClockChange, Side, TimeControl
from services.clocks.domain.events import GameCancelled, GameFinished, GameStarted
from shared.aggregate import Aggregate
from shared.scoring import Outcome as Outcome  # the outcomes every service shares; points come from scoring

REASON = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
TOURNAMENT_CLOSED = "tournament_closed"
MATCH_DECIDED = "match_decided"


class GameStatus(StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"  # its knockout match was decided without it


def loss_for(side: Side) -> Outcome:
    return Outcome.BLACK_WIN if side is Side.WHITE else Outcome.WHITE_WIN


@dataclass(frozen=True)
class FlagFall:
    """What a move or result reported too late comes to: ``side``'s time had run out at ``at`` (the
    deadline), so the report was not applied and the game ended on time with ``outcome``."""

    side: Side
    at: dt.datetime
    outcome: Outcome

    @property
    def detail(self) -> str:
        return (
            f"{self.side}'s time ran out at {self.at.isoformat()}: the game is over, {self.outcome} on time"
        )


@dataclass
class Game(Aggregate):
    id: uuid.UUID
    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    round: int
    board: int
    leg: int
    white: uuid.UUID
    black: uuid.UUID
    clock: Clock
    created_at: dt.datetime  # when it was paired
    status: GameStatus = GameStatus.PENDING
    moves: int = 0
    white_moved: bool = False
    black_moved: bool = False
    outcome: Outcome | None = None
    reason: str | None = None
    started_at: dt.datetime | None = None
    finished_at: dt.datetime | None = None  # or cancelled
    match_id: str | None = None  # knockouts: the match, and the game's number and name in it
    number: int | None = None
    label: str | None = None
    released: bool = True  # False while its knockout round is unpublished

    @classmethod
    def pair(
        cls,
        *,
        game_id: uuid.UUID,
        tournament_id: uuid.UUID,
        organiser_id: uuid.UUID,
        round: int,
        board: int,
        white: uuid.UUID,
        black: uuid.UUID,
        control: TimeControl,
        at: dt.datetime,
        leg: int = 1,
        match_id: str | None = None,
        number: int | None = None,
        label: str | None = None,
        released: bool = True,
    ) -> Game:
        if white == black:
            raise errors.InvalidPairing(f"game {game_id}: a player cannot play themselves")
        return cls(
            game_id,
            tournament_id,
            organiser_id,
            round,
            board,
            leg,
            white,
            black,
            Clock.new(control),
            at,
            match_id=match_id,
            number=number,
            label=label,
            released=released,
        )

    # -- reading --------------------------------------------------------------------------------
    @property
    def control(self) -> TimeControl:
        return self.clock.control

    @property
    def finished(self) -> bool:
        return self.status is GameStatus.FINISHED

    @property
    def over(self) -> bool:
        """Finished or cancelled: nothing more happens to this game."""
        return self.status in (GameStatus.FINISHED, GameStatus.CANCELLED)

    @property
    def deadline(self) -> dt.datetime | None:
        """When the game ends on time unless the side to move moves first; None unless running."""
        return self.clock.deadline if self.status is GameStatus.RUNNING else None

    @property
    def both_moved(self) -> bool:
        """False: one side never moved, so the game changes no rating (RULES.md §2)."""
        return self.white_moved and self.black_moved

    def side_of(self, player_id: uuid.UUID) -> Side | None:
        if player_id == self.white:
            return Side.WHITE
        if player_id == self.black:
            return Side.BLACK
        return None

    # -- playing --------------------------------------------------------------------------------
    def start(self, at: dt.datetime) -> ClockChange:
        if self.status is not GameStatus.PENDING:
            raise errors.AlreadyStarted(f"the game is already {self.status}")
        change = self.clock.start(at)
        self.status = GameStatus.RUNNING
        self.started_at = at
        self.record(
            GameStarted(self.tournament_id, self.id, self.round, self.white, self.black, at, self.control)
        )
        return change

    def release(self) -> bool:
        """Its knockout round was published: the game takes results, and its match may start it.
        True when this call released it."""
        if self.released:
            return False
        self.released = True
        return True

    def move(self, player_id: uuid.UUID, at: dt.datetime) -> FlagFall | None:
        """``player_id`` reports a completed move at ``at``: None when it was applied. Too late, the
        move is not applied: the game is finished on time, and the :class:`FlagFall` says so."""
        side = self.side_of(player_id)
        if side is None:
            raise errors.NotAPlayer("only White and Black of this game can move")
        self._require_running()
        change = self.clock.press(side, at)
        if change.kind is ChangeKind.FLAGGED:
            return self._lose_on_time(change)
        self.moves += 1
        if side is Side.WHITE:
            self.white_moved = True
        else:
            self.black_moved = True
        return None

    def report_result(self, outcome: Outcome, reason: str, at: dt.datetime) -> FlagFall | None:
        """End the game with a reported result: None when it was recorded. The clock is authoritative:
        if the flag had already fallen, the game is finished on time instead, and the
        :class:`FlagFall` says so."""
        if self.finished:
            raise errors.GameOver(f"the game is already finished: {self.outcome} ({self.reason})")
        self._require_not_cancelled()
        if not self.released:
            raise errors.RoundNotPublished("this game's round is not published yet: it takes no result")
        if outcome is Outcome.NOT_PLAYED:
            raise errors.InvalidResult(f"{outcome.value!r} (not played) is not how a game ends")
        if not REASON.match(reason):
            raise errors.InvalidResult(
                f"the reason must be a short lowercase code like 'resignation' or 'agreement', got {reason!r}"
            )
        if self.status is GameStatus.RUNNING:
            change = self.clock.stop(at, reason)
            if change.kind is ChangeKind.FLAGGED:
                return self._lose_on_time(change)
        self._finish(outcome, reason, at)
        return None

    def check_flag(self, at: dt.datetime) -> bool:
        """The ticker's question: has the flag fallen by ``at``? If so the side to move loses on time,
        nobody having to report it. True when this call finished the game."""
        if self.status is not GameStatus.RUNNING:
            return False
        change = self.clock.check_flag(at)
        if change is None:
            return False
        self._lose_on_time(change)
        return True

    def cancel(self, at: dt.datetime, reason: str = MATCH_DECIDED) -> bool:
        """Its match no longer needs this game: the clock stops and nobody plays it, unless its flag
        had already fallen (then it ends on time instead). True when this call ended it one way or the
        other; a game already over stays as it is."""
        if self.over:
            return False
        if self.check_flag(at):
            return True
        if self.status is GameStatus.RUNNING:
            self.clock.stop(at, reason)
        self.status = GameStatus.CANCELLED
        self.reason = reason
        self.finished_at = at
        self.record(GameCancelled(self.tournament_id, self.id, self.round, reason, at))
        return True

    def close(self, at: dt.datetime) -> bool:
        """The tournament closed while this game was open: a draw, unless the flag had already fallen.
        True when this call finished the game."""
        if self.over:
            return False
        if self.check_flag(at):
            return True
        self.report_result(Outcome.DRAW, TOURNAMENT_CLOSED, at)
        return True

    def _require_not_cancelled(self) -> None:
        if self.status is GameStatus.CANCELLED:
            raise errors.GameCancelled("this game was cancelled: its match was decided without it")

    def _require_running(self) -> None:
        self._require_not_cancelled()
        if self.status is GameStatus.PENDING:
            raise errors.GameNotStarted("the game has not started yet")
        if self.finished:
            raise errors.GameOver(f"the game is already finished: {self.outcome} ({self.reason})")

    def _lose_on_time(self, change: ClockChange) -> FlagFall:
        side = self._flagged(change)
        outcome = loss_for(side)
        self._finish(outcome, change.reason, change.at)
        return FlagFall(side, change.at, outcome)

    def _flagged(self, change: ClockChange) -> Side:
        if change.side is None:
            raise errors.ClockNotRunning("a flag fall without a side")
        return change.side

    def _finish(self, outcome: Outcome, reason: str, at: dt.datetime) -> None:
        self.outcome = outcome
        self.reason = reason
        self.finished_at = at
        self.status = GameStatus.FINISHED
        self.record(
            GameFinished(
                self.tournament_id,
                self.id,
                self.round,
                self.white,
                self.black,
                outcome,
                reason,
                self.moves,
                at,
                self.both_moved,
            )
        )
