"""A knockout reset to its draft (RULES.md §4: round 1 undone, by its organiser) and started again, as
the standings hear it (``tournament.reset``, then ``tournament.started`` again): its rounds, withdrawals
and placing are forgotten and nothing of it is shown until it starts again. What each reset removed is
kept (``shared.resets``), so that news of it heard later is told from the next start's.

:class:`KnockoutReset` is a part of the :class:`~services.standings.domain.tournament.Tournament`
aggregate: the methods it adds read and change what the tournament holds, declared below. Pure code.
"""

from __future__ import annotations

import datetime as dt
import uuid
from abc import abstractmethod
from collections.abc import Iterable, Mapping, Sequence

from services.standings.domain.bracket import BracketPlace
from services.standings.domain.errors import ChangeOutstanding
from services.standings.domain.events import Change, TournamentReset, TournamentRestarted
from services.standings.domain.rounds import Competitor, Game, PairedRound
from services.standings.domain.tournament_info import TournamentInfo
from services.standings.domain.withdrawals import Withdrawal
from shared.resets import Resets

__all__ = ["KnockoutReset"]


class KnockoutReset:
    """A knockout's resets to its draft, its starts again, and what news of an undone start is."""

    # what the tournament holds (tournament.py)
    info: TournamentInfo
    players: list[Competitor]
    resets: Resets
    _games: dict[uuid.UUID, Game]
    _seeds: dict[uuid.UUID, int]
    _live_built: bool
    _changes: list[Change]

    @property
    @abstractmethod
    def id(self) -> uuid.UUID: ...

    @abstractmethod
    def _start(
        self,
        info: TournamentInfo,
        players: Sequence[Competitor],
        rounds: Mapping[int, PairedRound] | None,
        placing: Sequence[BracketPlace] | None,
        withdrawals: Iterable[Withdrawal],
        bye_requests: Iterable[tuple[int, int]] = (),
        excused: Iterable[tuple[int, int]] = (),
    ) -> None: ...

    @abstractmethod
    def _record_due_update(self) -> None: ...

    @abstractmethod
    def _changed(self, *, updated: bool = True) -> None: ...

    def reset(self, at: dt.datetime, games: Iterable[uuid.UUID] = (), start: int | None = None) -> bool:
        """A knockout reset to its draft at ``at`` (RULES.md §4: round 1 undone), undoing its start
        number ``start`` (the resets before it): its rounds, withdrawals and placing are forgotten and
        nothing of it is shown until it is started again (:meth:`restart`). What it removed is kept
        (:attr:`resets`): ``games`` (pairing's list) and the games recorded here, so that news of them
        heard later is told from the next start's. False if that reset was heard already (or, unnumbered,
        while in the draft); the reset of a start not recorded here yet waits for that start."""
        self._record_due_update()
        if start is not None:
            current = len(self.resets)  # this start's number (in the draft: the next one's)
            if start < current:
                return False
            if start > current or self.info.draft:
                raise ChangeOutstanding(
                    f"tournament {self.id}: the reset of its start {start} came before that start"
                )
        elif self.info.draft:
            return False
        self.resets = self.resets.add(at, {*games, *self._games}, start)
        self.info.system = self.info.total_rounds = self.info.completed_at = None
        self.info.reset_at = at
        self._start(self.info, self.players, None, None, ())
        self._live_built = True  # nothing paired: no table
        self._changes.append(TournamentReset(at))
        self._changed(updated=False)
        return True

    def restart(self, info: TournamentInfo, players: Sequence[Competitor]) -> bool:
        """The tournament, reset to its draft, started again: what it is and its roster are the new
        start's. False unless it is in its draft (a start recorded already stands)."""
        self._record_due_update()
        if not self.info.draft:
            return False
        self._start(info, players, None, None, ())
        self._changes.append(TournamentRestarted())
        self._changed(updated=False)
        return True

    def removed(self, game_id: uuid.UUID) -> bool:
        """Whether a reset to the draft removed the game (news of it belongs to an undone start)."""
        return self.resets.removed(game_id)

    def undone(self, start: int) -> bool:
        """Whether start number ``start`` (what pairing's news of it says) was undone by a reset."""
        return self.resets.undone(start)

    def ahead(self, start: int) -> bool:
        """Whether start number ``start`` comes after a reset not recorded here yet."""
        return self.resets.ahead(start)

    def undone_withdrawal(self, player_id: uuid.UUID, at: dt.datetime | None) -> bool:
        """Whether a withdrawal decided at ``at`` belongs to a start a reset undid: while in the draft,
        decided before the reset (registration's time against pairing's, strictly); once started again,
        decided before this start (registration's time, both) and of a player not in it (registration
        seeds no player withdrawn before a reset). Unsaid (None): no."""
        if not self.resets or at is None:
            return False
        if self.info.draft:
            return self.resets.before(at)
        return at < self.info.started_at and player_id not in self._seeds
