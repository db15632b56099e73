"""A tournament with its table kept current one change at a time.

The consumer keeps one :class:`LiveTable` per running tournament in memory. A pairing or a result is
applied to the tournament and to the domain's incremental :class:`Standings`, which recomputes only
what that change can reach (docs/standings.md, "Computing a table"); building a table from scratch
happens only when a tournament is loaded, and when its first round names the system.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from services.standings.domain.bracket import BracketMatch
from services.standings.domain.ranking import Standings, Table
from services.standings.domain.tournament import Game, PairedRound, Tournament, record_round, snapshot_of
from shared.scoring import Outcome

__all__ = ["LiveTable"]


class LiveTable:
    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self._standings: Standings | None = tournament.standings()

    def pair_round(self, rnd: PairedRound, *, system: str, total_rounds: int) -> None:
        t = self.tournament
        first = t.info.system is None
        t.add_round(rnd, system=system, total_rounds=total_rounds)
        if first:
            self._standings = t.standings()  # the first pairing says which table this is
            return
        if self._standings is not None and rnd.published:
            self._record_round(rnd)

    def extend_round(
        self, number: int, games: list[Game], matches: list[BracketMatch]
    ) -> tuple[list[Game], list[BracketMatch]]:
        """A round announced again with more games (a knockout's tie-break games)."""
        t = self.tournament
        new_games, new_matches = t.extend_round(number, games, matches)
        if self._standings is not None and t.round(number).published:
            for game in new_games:
                self._standings.record_game(
                    t.info.history_round(number, game.leg), game.white, game.black, Outcome.NOT_PLAYED
                )
        return new_games, new_matches

    def publish(self, number: int) -> bool:
        """Make a round public (it counts from now on); False if it was already."""
        t = self.tournament
        if not t.publish(number):
            return False
        if self._standings is not None:
            self._record_round(t.round(number))
        return True

    def _record_round(self, rnd: PairedRound) -> None:
        """A whole round into the history, then one recomputation: a round's first open game
        already touches everyone's tie-breaks, so updating game by game only repeats that."""
        assert self._standings is not None
        record_round(self.tournament.info, rnd, self._standings.history)
        self._standings.refresh()

    def record_result(
        self, game_id: uuid.UUID, outcome: Outcome, reason: str, finished_at: dt.datetime
    ) -> Game | None:
        """Apply a game's result; None when the game had one already (nothing changes)."""
        t = self.tournament
        game = t.record_result(game_id, outcome, reason, finished_at)
        if game is not None and self._standings is not None and t.round(game.round).published:
            self._standings.record_game(
                t.info.history_round(game.round, game.leg), game.white, game.black, outcome
            )
        return game

    def table(self) -> Table | None:
        return None if self._standings is None else self._standings.table()

    def snapshot(self) -> dict[str, Any]:
        return snapshot_of(self.tournament, self.table())
