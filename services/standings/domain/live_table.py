"""A tournament's table kept current one change at a time.

The :class:`~services.standings.domain.tournament.Tournament` feeds its table keeper each pairing,
result, correction and withdrawal of its published rounds, and reads the ranked rows back
(:class:`Ranked`). Two keepers:

- :class:`LiveTable`, the FIDE C.07 tables (``platform`` round robin and Swiss): the domain's
  incremental :class:`Standings` recomputes only what a change can reach (docs/standings.md,
  "Computing a table"). Building it from scratch happens only when a tournament is loaded and first
  changed, and when its first round names the system. The consumer keeps the tournaments it changed
  in memory, tables and all (``adapters/table_cache.py``), so a result costs one incremental update.
  A correction is a result recorded again; a withdrawal changes nothing here (the games stand, the
  rounds without a pairing are zero-point absences).
- :class:`LiveGroupTable`, the ``group-playoff`` group table (4T1, :mod:`~services.standings.domain.
  group_playoff`): match points, board points, the same among the tied. Eight players: it is
  recomputed whole after each change, and a withdrawn player's matches of the phase score 0:2.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final, Protocol

from services.standings.domain.group_playoff import TableMatch, group_table
from services.standings.domain.history import Edition
from services.standings.domain.ranking import Row, Standings
from services.standings.domain.rounds import Game, PairedRound, history_round, record_byes, record_round
from shared.scoring import Outcome

__all__ = ["GROUP_COLUMNS", "LiveGroupTable", "LiveTable", "Ranked", "TableKeeper"]


@dataclass(frozen=True, slots=True)
class Ranked:
    """A ranked table as the snapshot takes it: rows in place order and the column codes."""

    rows: tuple[Row, ...]
    tiebreaks: tuple[str, ...]  # the ranking columns after points, in order
    shown: tuple[str, ...]  # shown for information only
    edition: Edition | None  # the C.07 edition (None: not a C.07 table)


class TableKeeper(Protocol):
    def add_round(self, rnd: PairedRound) -> None:
        """A published round, its games open or finished."""

    def add_games(self, number: int, games: Iterable[Game]) -> None:
        """Games added to a published round, still open."""

    def record(self, game: Game) -> None:
        """A published round's game as it now is: a result, a corrected result or new colours."""

    def add_byes(self, rnd: PairedRound) -> None:
        """A published round's byes, now that its last game has its result."""

    def withdraw(self, seed: int) -> None:
        """A player withdrew or was excluded."""

    def ranked(self) -> Ranked: ...


class LiveTable:
    """A C.07 table (points, then the preset's tie-breaks), kept current incrementally."""

    def __init__(self, standings: Standings, legs: int) -> None:
        self._standings = standings
        self._legs = legs

    def add_round(self, rnd: PairedRound) -> None:
        """A whole round into the history, then one recomputation: a round's first open game
        already touches everyone's tie-breaks, so updating game by game only repeats that."""
        record_round(rnd, self._standings.history, self._legs)
        self._standings.refresh()

    def add_games(self, number: int, games: Iterable[Game]) -> None:
        for game in games:
            self._standings.record_game(
                history_round(number, game.leg, self._legs), game.white, game.black, Outcome.NOT_PLAYED
            )

    def record(self, game: Game) -> None:
        """The game recorded again replaces what its round held for both players."""
        self._standings.record_game(
            history_round(game.round, game.leg, self._legs),
            game.white,
            game.black,
            game.outcome or Outcome.NOT_PLAYED,
        )

    def add_byes(self, rnd: PairedRound) -> None:
        record_byes(rnd, self._standings.history, self._legs)
        self._standings.refresh()

    def withdraw(self, seed: int) -> None:
        """Nothing to recompute: the games so far stand, later rounds are absences."""

    def ranked(self) -> Ranked:
        table = self._standings.table()
        return Ranked(
            table.rows,
            tuple(tb.code for tb in table.tiebreaks),
            tuple(tb.code for tb in table.shown),
            table.edition,
        )


GROUP_COLUMNS: Final = ("BP", "MP-T", "BP-T")
"""The group table's columns after the match points: board points, and match and board points in the
matches among the players tied on both (4T1 §5(3)(b)-(d)); None where a player is tied with nobody."""


class LiveGroupTable:
    """The ``group-playoff`` table of the paired matches. A match is the games of one pairing (by
    ``match_id``, else the two players' games in one round, both legs of a double round included);
    it counts once it has a result, and every match of a withdrawn or excluded player counts 0:2
    whatever its games say (RULES.md §5)."""

    def __init__(
        self,
        seeds: Iterable[int],
        rounds: Callable[[], Iterable[PairedRound]],
        withdrawn: Callable[[], Iterable[int]],
    ) -> None:
        self._seeds = tuple(seeds)
        self._rounds = rounds
        self._withdrawn = withdrawn
        self._ranked: Ranked | None = None

    def add_round(self, rnd: PairedRound) -> None:
        self._ranked = None

    def add_games(self, number: int, games: Iterable[Game]) -> None:
        self._ranked = None

    def record(self, game: Game) -> None:
        self._ranked = None

    def add_byes(self, rnd: PairedRound) -> None:
        self._ranked = None

    def withdraw(self, seed: int) -> None:
        self._ranked = None

    def ranked(self) -> Ranked:
        if self._ranked is None:
            self._ranked = self._compute()
        return self._ranked

    def _compute(self) -> Ranked:
        withdrawn = set(self._withdrawn())
        table = group_table(self._seeds, _matches(self._rounds(), withdrawn), withdrawn=withdrawn)
        rows = tuple(
            Row(
                start=r.start,
                rank=r.rank,
                place=r.place,
                points=r.match_points,
                tiebreaks=dict(
                    zip(
                        GROUP_COLUMNS, (r.board_points, r.tied_match_points, r.tied_board_points), strict=True
                    )
                ),
            )
            for r in table.rows
        )
        return Ranked(rows, GROUP_COLUMNS, (), None)


def _matches(rounds: Iterable[PairedRound], withdrawn: set[int]) -> list[TableMatch]:
    """The published rounds' games grouped into matches, (outcome, first player had White) per game."""
    grouped: dict[tuple[int, str], tuple[int, int, list[tuple[Outcome, bool]]]] = {}
    for rnd in rounds:
        for game in rnd.games:
            if game.cancelled:
                continue
            pair = (min(game.white, game.black), max(game.white, game.black))
            key = (rnd.number, game.match_id or f"{pair[0]}-{pair[1]}")
            a, _, games = grouped.setdefault(key, (pair[0], pair[1], []))
            if game.outcome is not None and game.outcome is not Outcome.NOT_PLAYED:
                games.append((game.outcome, game.white == a))
    return [
        TableMatch(a, b, tuple(games))
        for a, b, games in grouped.values()
        if games or a in withdrawn or b in withdrawn
    ]
