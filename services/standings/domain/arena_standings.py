"""An arena's standings (RULES.md §3, docs/arena.md): its players, the games in progress, the finished
games and the table they make (``shared.arena_scoring``: points with streaks and boosts, the ranking).
The table updates after every game; once the arena is complete (``tournament.completed``) the final
ranking is frozen and announced (``standings.final``), and later news changes nothing.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field

from services.standings.domain.events import StandingsFinal
from services.standings.domain.snapshot import SnapshotRow
from shared.aggregate import Aggregate
from shared.arena_scoring import ArenaRow, ArenaTable, FinishedArenaGame, SheetEntry


@dataclass(frozen=True)
class ArenaPlayer:
    id: uuid.UUID
    name: str
    rating: int | None


@dataclass(frozen=True)
class RunningGame:
    id: uuid.UUID
    white: uuid.UUID
    black: uuid.UUID
    started_at: dt.datetime


@dataclass
class ArenaChanges:
    """What the repository has to write since the arena was loaded."""

    players: dict[uuid.UUID, ArenaPlayer] = field(default_factory=dict)
    running: dict[uuid.UUID, RunningGame] = field(default_factory=dict)
    finished: dict[uuid.UUID, FinishedArenaGame] = field(default_factory=dict)
    completed: bool = False


@dataclass
class ArenaStandings(Aggregate):
    id: uuid.UUID
    name: str
    started_at: dt.datetime
    ends_at: dt.datetime
    completed_at: dt.datetime | None = None
    players: dict[uuid.UUID, ArenaPlayer] = field(default_factory=dict)
    running: dict[uuid.UUID, RunningGame] = field(default_factory=dict)
    finished: dict[uuid.UUID, FinishedArenaGame] = field(default_factory=dict)
    changes: ArenaChanges = field(default_factory=ArenaChanges, compare=False, repr=False)
    _table: ArenaTable | None = field(default=None, compare=False, repr=False)

    @property
    def frozen(self) -> bool:
        return self.completed_at is not None

    def enter(self, player: ArenaPlayer) -> None:
        """A player of the roster, or one who joined later (listed with 0 until they play)."""
        if self.frozen or self.players.get(player.id) == player:
            return
        self.players[player.id] = self.changes.players[player.id] = player
        self._table = None

    def paired(self, games: Iterable[RunningGame]) -> None:
        """Games in progress; one that already finished (its result came first) is not."""
        if self.frozen:
            return
        for g in games:
            if g.id not in self.finished and g.id not in self.running:
                self.running[g.id] = self.changes.running[g.id] = g

    def record_game(self, game: FinishedArenaGame) -> bool:
        """A finished game (again: replaced, as a correction); False once the ranking is frozen."""
        if self.frozen:
            return False
        self.running.pop(game.id, None)
        self.finished[game.id] = self.changes.finished[game.id] = game
        for player in (game.white, game.black):
            if player not in self.players:
                self.enter(ArenaPlayer(player, str(player)[:8], None))
        self._table = None
        return True

    def complete(self, at: dt.datetime) -> bool:
        """The arena is over: the final ranking is frozen and announced; True the first time."""
        if self.frozen:
            return False
        self.completed_at = at
        self.changes.completed = True
        self._announce_final()
        return True

    def _announce_final(self) -> None:
        rows = tuple(
            SnapshotRow(
                rank=r.rank,
                place=place,
                seed=place,
                player_id=r.player,
                name=self.players[r.player].name,
                rating=self.players[r.player].rating,
                points=r.points,
                tiebreaks={"wins": r.wins, "games": r.games},
                shown={},
            )
            for place, r in enumerate(self.ranking(), start=1)
        )
        self.record(StandingsFinal(self.id, rows))

    def take_changes(self) -> ArenaChanges:
        changes, self.changes = self.changes, ArenaChanges()
        return changes

    # -- reading ----------------------------------------------------------------------------------
    def table(self) -> ArenaTable:
        if self._table is None:
            table = ArenaTable()
            for p in self.players.values():
                table.enter(p.id, p.rating or 0)
            for g in self.finished.values():
                table.record(g)
            self._table = table
        return self._table

    def ranking(self) -> tuple[ArenaRow, ...]:
        return self.table().ranking()

    def points_of(self) -> dict[tuple[uuid.UUID, uuid.UUID], SheetEntry]:
        """Each finished game's sheet entry per (game, player): its points, streak and boost marks."""
        found: dict[tuple[uuid.UUID, uuid.UUID], SheetEntry] = {}
        for row in self.ranking():
            for entry in row.sheet:
                found[(entry.game, row.player)] = entry
        return found
