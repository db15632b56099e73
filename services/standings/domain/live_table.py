"""A tournament's table kept current one change at a time.

The :class:`~services.standings.domain.tournament.Tournament` feeds its :class:`LiveTable` each
pairing and result of its published rounds; the domain's incremental :class:`Standings` recomputes
only what that change can reach (docs/standings.md, "Computing a table"). Building a table from
scratch happens only when a tournament is loaded and first changed, and when its first round names
the system. The consumer keeps the tournaments it changed in memory, tables and all
(``adapters/table_cache.py``), so a result costs one incremental update.
"""

from __future__ import annotations

from collections.abc import Iterable

from services.standings.domain.ranking import Standings, Table
from services.standings.domain.rounds import Game, PairedRound, history_round, record_round
from shared.scoring import Outcome

__all__ = ["LiveTable"]


class LiveTable:
    def __init__(self, standings: Standings, legs: int) -> None:
        self._standings = standings
        self._legs = legs

    def add_round(self, rnd: PairedRound) -> None:
        """A whole round into the history, then one recomputation: a round's first open game
        already touches everyone's tie-breaks, so updating game by game only repeats that."""
        record_round(rnd, self._standings.history, self._legs)
        self._standings.refresh()

    def add_games(self, number: int, games: Iterable[Game]) -> None:
        """Games added to a published round (a knockout's tie-break games), still open."""
        for game in games:
            self._standings.record_game(
                history_round(number, game.leg, self._legs), game.white, game.black, Outcome.NOT_PLAYED
            )

    def record(self, game: Game) -> None:
        """A result of a published round's game."""
        assert game.outcome is not None
        self._standings.record_game(
            history_round(game.round, game.leg, self._legs), game.white, game.black, game.outcome
        )

    def table(self) -> Table:
        return self._standings.table()
