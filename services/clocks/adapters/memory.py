"""In-memory fakes of the game, tournament and presence repositories and the clocks unit of work, held to
the same contract suite as the SQL ones (``tests/contract/``), so handler tests run with no database. The
deadline store's in-memory twin of Redis, which the embedded mode runs, is beside the Redis one
(``deadlines.py``)."""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from services.clocks.adapters.unit_of_work import DeadlineTracking
from services.clocks.adapters.wire import wire
from services.clocks.domain import errors
from services.clocks.domain.endings import GameStatus
from services.clocks.domain.game import Game
from services.clocks.domain.penalties import Incident
from services.clocks.domain.presence import Presence
from services.clocks.domain.tournament import Tournament
from services.clocks.service_layer.ports import DeadlineStore
from shared.aggregate import Aggregate
from shared.events import Envelope
from shared.testing.memory import MemoryRepository, MemoryTable, MemoryUnitOfWork
from shared.vocabulary import Ruleset

GameTable = MemoryTable[uuid.UUID, Game]
TournamentTable = MemoryTable[uuid.UUID, Tournament]
_OPEN = (GameStatus.PENDING, GameStatus.RUNNING, GameStatus.DISPUTED)


def game_table() -> GameTable:
    return MemoryTable(lambda game: game.id)


def tournament_table() -> TournamentTable:
    return MemoryTable(lambda t: t.id)


def _order(game: Game) -> tuple[int, int, int, int]:
    return (game.round, game.board, game.leg, game.number or 0)


class MemoryGameRepository(MemoryRepository[uuid.UUID, Game]):
    """Games in a :class:`MemoryTable`. A game's clock changes are taken on ``add``/``save`` as the
    SQL repository takes them into its history (here they are dropped: no history is kept)."""

    def __init__(self, table: GameTable) -> None:
        super().__init__(table)
        self.removed: set[uuid.UUID] = set()

    def _insert(self, game: Game) -> None:
        if self.table.read(game.id) is not None:
            raise errors.GameExists(f"game {game.id} exists already")
        game.clock.collect_changes()
        super()._insert(game)

    def _update(self, game: Game) -> None:
        game.clock.collect_changes()
        super()._update(game)

    def existing(self, game_ids: Iterable[uuid.UUID]) -> set[uuid.UUID]:
        return {gid for gid in game_ids if self.table.read(gid) is not None}

    def of_round(self, tournament_id: uuid.UUID, round: int) -> list[Game]:
        return self._games(lambda g: g.tournament_id == tournament_id and g.round == round, _order)

    def in_match(self, tournament_id: uuid.UUID, match_id: str) -> list[Game]:
        return self._games(
            lambda g: g.tournament_id == tournament_id and g.match_id == match_id, lambda g: g.number or 0
        )

    def unfinished_in(self, tournament_id: uuid.UUID) -> list[Game]:
        return self._games(
            lambda g: g.tournament_id == tournament_id and g.status is not GameStatus.FINISHED,
            lambda g: g.id,
        )

    def playing_elsewhere(self, tournament_id: uuid.UUID, player_ids: Iterable[uuid.UUID]) -> set[uuid.UUID]:
        ids = set(player_ids)
        running = self._games(
            lambda g: g.tournament_id != tournament_id and g.status is GameStatus.RUNNING, lambda g: g.id
        )
        return {p for g in running for p in (g.white, g.black)} & ids

    def running_of(self, player_id: uuid.UUID) -> list[Game]:
        return self._games(
            lambda g: player_id in (g.white, g.black) and g.status is GameStatus.RUNNING, lambda g: g.id
        )

    def open_games_of(self, tournament_id: uuid.UUID, player_id: uuid.UUID) -> list[Game]:
        return self._games(
            lambda g: (
                g.tournament_id == tournament_id
                and player_id in (g.white, g.black)
                and g.status in _OPEN
                and g.released
            ),
            _order,
        )

    def of_tournament(self, tournament_id: uuid.UUID) -> list[Game]:
        return self._games(lambda g: g.tournament_id == tournament_id, _order)

    def remove(self, game: Game) -> None:
        self.table.delete(game.id)
        self.removed.add(game.id)

    def overdue(self, now: dt.datetime, *, limit: int = 100) -> list[uuid.UUID]:
        due = [
            (g.deadline, g.id)
            for g in self.table.rows()
            if g.status is GameStatus.RUNNING and g.deadline is not None and g.deadline <= now
        ]
        return [gid for _, gid in sorted(due)[:limit]]

    def incidents_of(
        self, tournament_id: uuid.UUID, player_id: uuid.UUID, *, other_than: uuid.UUID | None = None
    ) -> list[Incident]:
        found = [
            incident
            for g in self.table.rows()
            if g.tournament_id == tournament_id and g.id != other_than
            for incident in g.incidents
            if incident.player_id == player_id
        ]
        return sorted(found, key=lambda i: i.at)

    def _games(self, where: Callable[[Game], bool], key: Callable[[Game], Any]) -> list[Game]:
        return self._handed_out(sorted((g for g in self.table.rows() if where(g)), key=key))


@dataclass
class Reported(Aggregate):
    player_id: uuid.UUID
    status: Presence
    at: dt.datetime


PresenceTable = MemoryTable[uuid.UUID, Reported]


def presence_table() -> PresenceTable:
    return MemoryTable(lambda r: r.player_id)


class MemoryPresenceRepository:
    def __init__(self, table: PresenceTable) -> None:
        self.table = table

    def of(self, player_ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, Presence]:
        found = (self.table.read(p) for p in set(player_ids))
        return {r.player_id: r.status for r in found if r is not None}

    def report(self, player_id: uuid.UUID, status: Presence, at: dt.datetime) -> None:
        self.table.write(Reported(player_id, status, at))


class MemoryTournamentRepository(MemoryRepository[uuid.UUID, Tournament]):
    def of_ruleset(self, ruleset: Ruleset) -> list[uuid.UUID]:
        return [t.id for t in self.table.rows() if t.ruleset is ruleset]

    def lock(self, tournament_id: uuid.UUID) -> Tournament:
        if self.table.read(tournament_id) is None:
            self.table.write(Tournament(tournament_id))
        found = self.get(tournament_id, lock=True)
        assert found is not None
        return found

    def _update(self, t: Tournament) -> None:
        t.collect_changes()  # the whole aggregate is stored
        super()._update(t)


class MemoryClocksUnitOfWork(DeadlineTracking, MemoryUnitOfWork):
    """The clocks unit of work over in-memory tables of games and tournaments. ``on_commit`` receives
    what each commit published (e.g. an in-process broker's ``publish``), as the outbox relay would."""

    def __init__(
        self,
        table: GameTable,
        tournaments: TournamentTable,
        deadlines: DeadlineStore,
        *,
        on_commit: Callable[[list[Envelope]], object] | None = None,
        presence: PresenceTable | None = None,
    ) -> None:
        self.presence_table = presence_table() if presence is None else presence
        super().__init__(wire, [table, tournaments, self.presence_table])
        self.table = table
        self.tournament_table = tournaments
        self.deadlines = deadlines
        self.on_commit = on_commit
        self._deadlines = {}

    @functools.cached_property
    def games(self) -> MemoryGameRepository:
        return MemoryGameRepository(self.table)

    @functools.cached_property
    def tournaments(self) -> MemoryTournamentRepository:
        return MemoryTournamentRepository(self.tournament_table)

    @functools.cached_property
    def presence(self) -> MemoryPresenceRepository:
        return MemoryPresenceRepository(self.presence_table)

    def start(self) -> None:
        self._deadlines = {}

    @contextlib.contextmanager
    def savepoint(self) -> Iterator[None]:
        state = self.checkpoint()
        try:
            with super().savepoint():
                yield
        except BaseException:
            self.restore(state)
            raise

    def commit(self) -> None:
        done = len(self.published)
        super().commit()
        if self.on_commit is not None and len(self.published) > done:
            self.on_commit(self.published[done:])
        self._update_store(self._take_deadlines())

    def rollback(self) -> None:
        super().rollback()
        self._deadlines = {}
