"""The default time (RULES.md §6, FIDE rapid): a player not at the board by then loses by forfeit, reason
``default_time``. With server clocks the server applies it: it forfeits a player who has not made a first
move by then (counted from the game's start for both players; Black cannot move before White, so while
White has not moved only White can be defaulted), unless the flag of the side to move fell first. Over the
board (or with server clocks too) an arbiter records the absence (:meth:`DefaultTime.absence`).

:class:`DefaultTime` is a part of the :class:`~services.clocks.domain.game.Game` aggregate: the methods
it adds read and change what the game holds, declared below. Pure code.
"""

from __future__ import annotations

import datetime as dt
import uuid
from abc import abstractmethod

from services.clocks.domain import errors
from services.clocks.domain.clock import Clock, Side
from services.clocks.domain.endings import DEFAULT_TIME, FlagFall, GameStatus, forfeit_by
from shared.authority import Decided
from shared.scoring import Outcome

__all__ = ["DefaultTime"]


class DefaultTime:
    """A first move missing at the default time, and the absences an arbiter records then."""

    # what the game holds (game.py)
    status: GameStatus
    clock: Clock
    server_clock: bool
    default_time: dt.timedelta | None
    started_at: dt.datetime | None
    white_moved: bool
    black_moved: bool

    @property
    @abstractmethod
    def disputed(self) -> bool: ...

    @abstractmethod
    def side_of(self, player_id: uuid.UUID) -> Side | None: ...

    @abstractmethod
    def _require_open_for_results(self) -> None: ...

    @abstractmethod
    def _time_out(self, at: dt.datetime) -> FlagFall | None: ...

    @abstractmethod
    def _moved(self, side: Side) -> bool: ...

    @abstractmethod
    def _end(
        self, outcome: Outcome, reason: str, at: dt.datetime, decision: Decided | None
    ) -> FlagFall | None: ...

    @abstractmethod
    def _finish(
        self, outcome: Outcome, reason: str, at: dt.datetime, decision: Decided | None = None
    ) -> None: ...

    def absence(
        self, player_id: uuid.UUID, at: dt.datetime, decision: Decided, *, opponent_absent: bool = False
    ) -> FlagFall | None:
        """An arbiter records that ``player_id`` was not at the board by the default time (RULES.md §6):
        they lose by forfeit (``opponent_absent``: both do, ``-/-``), reason ``default_time``. Within the
        round: not once the game has a result. On the server's clock a player who moved was there (409);
        if the server's clock had decided the game first (a flag, the default time), that stands."""
        side = self.side_of(player_id)
        if side is None:
            raise errors.PlayerNotInGame(f"{player_id} does not play this game")
        self._require_open_for_results()
        if self.disputed:
            raise errors.ResultDisputed("the game's result is disputed: it was played")
        if self.server_clock:
            late = self._time_out(at) if self.status is GameStatus.RUNNING else None
            if late is not None:
                return late
            for absent in (side, side.other) if opponent_absent else (side,):
                if self._moved(absent):
                    raise errors.PlayerMoved(f"{absent} has moved in this game: they were at the board")
        outcome = Outcome.DOUBLE_FORFEIT if opponent_absent else forfeit_by(side)
        return self._end(outcome, DEFAULT_TIME, at, decision)

    def _default_due(self) -> tuple[Side, dt.datetime] | None:
        """Who the default time forfeits, and when: White until White's first move, then Black until
        Black's; both count from the game's start. None once both moved, or with no default time."""
        if self.default_time is None or self.started_at is None or not self.clock.running:
            return None
        if not self.white_moved:
            return Side.WHITE, self.started_at + self.default_time
        if not self.black_moved:
            return Side.BLACK, self.started_at + self.default_time
        return None

    def _defaulted(self, at: dt.datetime) -> FlagFall | None:
        """If by ``at`` the default time has passed with a first move missing — before the flag of the
        side to move fell — that player lost by forfeit then: the game is finished at the default time."""
        due = self._default_due()
        if due is None or at < due[1]:
            return None
        side, when = due
        flag = self.clock.deadline
        if flag is not None and flag <= when:
            return None  # the flag fell first: that is for the flag check
        self.clock.stop(when, DEFAULT_TIME)
        outcome = forfeit_by(side)
        self._finish(outcome, DEFAULT_TIME, when)
        return FlagFall(side, when, outcome, DEFAULT_TIME)
