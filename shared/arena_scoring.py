"""The arena's points and ranking (RULES.md §3, issue 12), pure and shared: pairing ranks the waiting pool
by these points, standings shows the table.

**Points** of one game, for one player:

- win 2, draw 1, loss 0;
- from the third consecutive win on, each win is worth 3; a draw or a loss ends the run (a streak);
- **boost**, taken before one's own first move, doubles the points of a win: 4, or 6 for a streak win.
  A boosted draw or loss scores as without boost — a bet, not a gift.

A player's games count in the order they ended (a player is in at most one game at a time, so the
order is their own), whatever order they are recorded in: recording a game again replaces it (a
correction), and every player's sheet is derived from their games again.

**Decisions** (docs/arena.md):

- A forfeit win counts as a win (points, streak, games won); a forfeit loss, and each side of a double
  forfeit, as a loss. A game not played (annulled) is not a game: it neither scores nor ends a streak.
- Ranking: points, then games won (RULES.md §3), then **fewer games** (the same score from fewer games),
  then **earlier to reach the score** (the end of the game that brought the player to their points;
  a player without points comes after). Players equal on all four share the rank; within it they are
  listed by rating (higher first), then player id.
- Marks for the page: ``streak`` (wins in a row now), ``on_fire`` (two or more: the next win is worth
  3), and on each game of the sheet whether it was a streak win and whether it was boosted.
"""

from __future__ import annotations

import bisect
import datetime as dt
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final

from shared.scoring import Outcome

WIN: Final = 2
DRAW: Final = 1
LOSS: Final = 0
STREAK_WIN: Final = 3
STREAK_FROM: Final = 3  # the third consecutive win is the first worth STREAK_WIN
BOOST_FACTOR: Final = 2


class Score(StrEnum):
    """One player's result of an arena game."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


_SCORES: Final[Mapping[Outcome, tuple[Score, Score] | None]] = {
    Outcome.WHITE_WIN: (Score.WIN, Score.LOSS),
    Outcome.WHITE_FORFEIT_WIN: (Score.WIN, Score.LOSS),
    Outcome.DRAW: (Score.DRAW, Score.DRAW),
    Outcome.BLACK_WIN: (Score.LOSS, Score.WIN),
    Outcome.BLACK_FORFEIT_WIN: (Score.LOSS, Score.WIN),
    Outcome.DOUBLE_FORFEIT: (Score.LOSS, Score.LOSS),
    Outcome.NOT_PLAYED: None,
}


def scores(outcome: Outcome) -> tuple[Score, Score] | None:
    """(white, black) of an outcome; None for a game not played."""
    return _SCORES[outcome]


def points(score: Score, *, wins_before: int, boosted: bool) -> int:
    """The points of one game, ``wins_before`` the player's wins in a row just before it."""
    if score is not Score.WIN:
        return DRAW if score is Score.DRAW else LOSS
    base = STREAK_WIN if wins_before + 1 >= STREAK_FROM else WIN
    return base * BOOST_FACTOR if boosted else base


@dataclass(frozen=True, slots=True)
class FinishedArenaGame:
    """A finished arena game, as the table records it."""

    id: uuid.UUID
    white: uuid.UUID
    black: uuid.UUID
    outcome: Outcome
    ended_at: dt.datetime
    white_boost: bool = False
    black_boost: bool = False

    def __post_init__(self) -> None:
        if self.white == self.black:
            raise ValueError(f"game {self.id}: a player cannot play themselves")


@dataclass(frozen=True, slots=True)
class SheetEntry:
    """One game on a player's sheet, in the order the games ended."""

    game: uuid.UUID
    opponent: uuid.UUID
    score: Score
    points: int
    streak: bool  # a win worth 3 (6 boosted) because of the run before it
    boosted: bool  # the player took the boost in this game
    ended_at: dt.datetime


@dataclass(frozen=True, slots=True)
class ArenaRow:
    player: uuid.UUID
    rank: int  # shared by players equal on points, wins, games and when they reached their points
    points: int
    wins: int
    games: int
    streak: int  # wins in a row now
    boosts: int  # games in which the player took the boost
    reached_at: dt.datetime | None  # when the player reached their points (None: no points)
    rating: int
    sheet: tuple[SheetEntry, ...]

    @property
    def on_fire(self) -> bool:
        """The next win is worth 3 (the page's fire mark)."""
        return self.streak >= STREAK_FROM - 1


def sheet(player: uuid.UUID, games: Iterable[FinishedArenaGame]) -> tuple[SheetEntry, ...]:
    """A player's games scored in the order they ended (ties by game id)."""
    entries: list[SheetEntry] = []
    run = 0
    for game in sorted(games, key=_order):
        both = scores(game.outcome)
        if both is None:
            continue
        white = game.white == player
        if not white and game.black != player:
            raise ValueError(f"game {game.id} is not {player}'s")
        score = both[0] if white else both[1]
        boosted = game.white_boost if white else game.black_boost
        gained = points(score, wins_before=run, boosted=boosted)
        streak = score is Score.WIN and run + 1 >= STREAK_FROM
        run = run + 1 if score is Score.WIN else 0
        opponent = game.black if white else game.white
        entries.append(SheetEntry(game.id, opponent, score, gained, streak, boosted, game.ended_at))
    return tuple(entries)


def _order(game: FinishedArenaGame) -> tuple[dt.datetime, int]:
    return (game.ended_at, game.id.int)


@dataclass
class _Player:
    rating: int
    games: list[FinishedArenaGame]  # in the order they ended
    row: ArenaRow | None = None  # the summary, until a game changes it


class ArenaTable:
    """An arena's table, kept current game by game: recording a game rescores only its two players."""

    def __init__(self) -> None:
        self._players: dict[uuid.UUID, _Player] = {}
        self._games: dict[uuid.UUID, FinishedArenaGame] = {}
        self._ranking: tuple[ArenaRow, ...] | None = None

    def enter(self, player: uuid.UUID, rating: int = 0) -> None:
        """A player joined: listed from now on, with no points. Entering again updates the rating."""
        entry = self._players.get(player)
        if entry is None:
            self._players[player] = _Player(rating, [])
        else:
            entry.rating, entry.row = rating, None
        self._ranking = None

    def record(self, game: FinishedArenaGame) -> None:
        """A finished game, or a corrected one (same id): the table is as if it had always been so."""
        self.remove(game.id)
        self._games[game.id] = game
        for player in (game.white, game.black):
            if player not in self._players:
                self.enter(player)
            entry = self._players[player]
            bisect.insort(entry.games, game, key=_order)
            entry.row = None
        self._ranking = None

    def remove(self, game_id: uuid.UUID) -> None:
        """The game no longer counts (annulled). Unknown ids change nothing."""
        game = self._games.pop(game_id, None)
        if game is None:
            return
        for player in (game.white, game.black):
            entry = self._players[player]
            entry.games = [g for g in entry.games if g.id != game_id]
            entry.row = None
        self._ranking = None

    @property
    def games(self) -> Mapping[uuid.UUID, FinishedArenaGame]:
        return self._games

    def points(self, player: uuid.UUID) -> int:
        return self._summary(player).points

    def ranking(self) -> tuple[ArenaRow, ...]:
        if self._ranking is None:
            summaries = sorted((self._summary(p) for p in self._players), key=_listing)
            rows: list[ArenaRow] = []
            for place, row in enumerate(summaries, start=1):
                rank = rows[-1].rank if rows and _rank_key(rows[-1]) == _rank_key(row) else place
                rows.append(_with_rank(row, rank))
            self._ranking = tuple(rows)
        return self._ranking

    def row(self, player: uuid.UUID) -> ArenaRow:
        for row in self.ranking():
            if row.player == player:
                return row
        raise KeyError(player)

    def _summary(self, player: uuid.UUID) -> ArenaRow:
        entry = self._players[player]
        if entry.row is None:
            entries = sheet(player, entry.games)
            total, reached, run = 0, None, 0
            for e in entries:
                total += e.points
                if e.points:
                    reached = e.ended_at
                run = run + 1 if e.score is Score.WIN else 0
            entry.row = ArenaRow(
                player=player,
                rank=0,
                points=total,
                wins=sum(1 for e in entries if e.score is Score.WIN),
                games=len(entries),
                streak=run,
                boosts=sum(1 for e in entries if e.boosted),
                reached_at=reached,
                rating=entry.rating,
                sheet=entries,
            )
        return entry.row


_NEVER: Final = dt.datetime.max.replace(tzinfo=dt.UTC)


def _rank_key(row: ArenaRow) -> tuple[int, int, int, dt.datetime]:
    return (-row.points, -row.wins, row.games, row.reached_at or _NEVER)


def _listing(row: ArenaRow) -> tuple[int, int, int, dt.datetime, int, int]:
    return (*_rank_key(row), -row.rating, row.player.int)


def _with_rank(row: ArenaRow, rank: int) -> ArenaRow:
    return replace(row, rank=rank)
