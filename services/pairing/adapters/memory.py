"""In-memory stand-ins for pairing's database, held to the same contract suite as the SQL repositories
(``tests/contract``): handler tests run on them in milliseconds with no database.

One :class:`MemoryPairingStore` is the database (its tables, its outbox and inbox); a unit of work over it
stages its writes and makes them visible at commit, or drops them at a rollback, as a transaction does
(an arena's entries and games and who is playing too). A round's results are not a table of their own: as
on SQL, they are a part of the tournament's rows, read and written through it. The arena pool's in-memory
twin of Redis, which the embedded mode runs, is beside the Redis one (``arena_pool.py``).
"""

from __future__ import annotations

import datetime as dt
import functools
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from services.pairing.adapters.wire import wire
from services.pairing.domain.arbiters import Arbiters
from services.pairing.domain.arena.arena import Arena
from services.pairing.domain.arena.record import ACTIVE, Entry, PlayedGame
from services.pairing.domain.changes import Changing, Finished, OutcomeSet, RoundAdded, RoundClosed
from services.pairing.domain.elimination.changes import Erased
from services.pairing.domain.elimination.elimination import Elimination
from services.pairing.domain.errors import RoundTaken
from services.pairing.domain.group_playoff.tournament import GroupPlayoffTournament
from services.pairing.domain.heading import Status
from services.pairing.domain.roster import RosterHeard
from services.pairing.domain.rounds.results import RoundResults
from services.pairing.domain.rounds.tournament import PairingTournament, RoundDropped
from services.pairing.service_layer.arena_ports import ArenaRecord, NewGame
from shared.aggregate import Aggregate
from shared.arena_scoring import FinishedArenaGame
from shared.events import Envelope
from shared.repository import Repository
from shared.resets import Resets
from shared.scoring import Outcome
from shared.testing.memory import MemoryRepository, MemoryTable, MemoryUnitOfWork
from shared.vocabulary import System

A = TypeVar("A", bound=Aggregate)


@dataclass(frozen=True)
class ResetsOf:
    """A row of the fake ``resets`` table: one tournament's resets."""

    tournament_id: uuid.UUID
    resets: Resets

    def collect_events(self) -> list[object]:
        return []  # a row, not an aggregate: it records no events


@dataclass
class ArenaGameRow(Aggregate):
    """A row of the fake ``arena_games`` table: a game paired in an arena, and its result once over."""

    arena_id: uuid.UUID
    game: NewGame
    paired_at: dt.datetime
    result: FinishedArenaGame | None = None


@dataclass
class EntryRow(Aggregate):
    """A row of the fake ``arena_entries`` table: a player in an arena, since when, and how."""

    arena_id: uuid.UUID
    entry: Entry


@dataclass
class PlayingRow(Aggregate):
    """A row of the fake ``playing`` table: a player in a game, of any tournament."""

    player_id: uuid.UUID
    game_id: uuid.UUID


class MemoryPairingStore:
    """The fake database: committed rows, the outbox (``published``) and the inbox. Every table is
    written through a unit of work, and rolled back with it."""

    def __init__(self) -> None:
        self.tournaments: MemoryTable[uuid.UUID, PairingTournament] = MemoryTable(lambda t: t.id)
        self.eliminations: MemoryTable[uuid.UUID, Elimination] = MemoryTable(lambda e: e.id)
        self.arbiters: MemoryTable[uuid.UUID, Arbiters] = MemoryTable(lambda a: a.tournament_id)
        self.resets: MemoryTable[uuid.UUID, ResetsOf] = MemoryTable(lambda r: r.tournament_id)
        self.group_playoffs: MemoryTable[uuid.UUID, GroupPlayoffTournament] = MemoryTable(lambda t: t.id)
        self.arenas: MemoryTable[uuid.UUID, Arena] = MemoryTable(lambda a: a.id)
        self.arena_games: MemoryTable[uuid.UUID, ArenaGameRow] = MemoryTable(lambda g: g.game.id)
        self.arena_entries: MemoryTable[tuple[uuid.UUID, uuid.UUID], EntryRow] = MemoryTable(
            lambda e: (e.arena_id, e.entry.player)
        )
        self.playing: MemoryTable[tuple[uuid.UUID, uuid.UUID], PlayingRow] = MemoryTable(
            lambda p: (p.player_id, p.game_id)
        )
        self.rosters: MemoryTable[uuid.UUID, RosterHeard] = MemoryTable(lambda r: r.tournament_id)
        self.published: list[Envelope] = []
        self.inbox: set[tuple[uuid.UUID, str]] = set()

    def tables(self) -> list[MemoryTable[Any, Any]]:
        return [
            self.tournaments,
            self.eliminations,
            self.arbiters,
            self.resets,
            self.group_playoffs,
            self.arenas,
            self.arena_games,
            self.arena_entries,
            self.playing,
            self.rosters,
        ]


class _Writes(MemoryRepository[uuid.UUID, A]):
    """A memory repository of an aggregate that lists its changes: a write takes them (the SQL side
    writes exactly those), so a stored row carries none."""

    def _insert(self, aggregate: A) -> None:
        assert isinstance(aggregate, Changing)
        aggregate.take_changes()
        super()._insert(aggregate)

    def _update(self, aggregate: A) -> None:
        assert isinstance(aggregate, Changing)
        aggregate.take_changes()
        super()._update(aggregate)


class MemoryTournaments(_Writes[PairingTournament]):
    def _update(self, t: PairingTournament) -> None:
        stored = self.table.read(t.id)
        dropped: set[int] = set()
        for change in t.take_changes():
            if isinstance(change, RoundDropped):
                dropped.add(change.number)
            elif (
                isinstance(change, RoundAdded)
                and change.number not in dropped
                and stored is not None
                and stored.round(change.number)
            ):
                raise RoundTaken(f"round {change.number} of tournament {t.id} is paired already")
        super()._update(t)


class MemoryEliminations(_Writes[Elimination]):
    def __init__(
        self, table: MemoryTable[uuid.UUID, Elimination], resets: MemoryTable[uuid.UUID, ResetsOf]
    ) -> None:
        super().__init__(table)
        self.resets = resets

    def _update(self, e: Elimination) -> None:
        stored = self.table.read(e.id)
        erased: Erased | None = None
        for change in e.take_changes():
            if (
                isinstance(change, RoundAdded)
                and stored is not None
                and stored.paired_rounds >= change.number
            ):
                raise RoundTaken(f"round {change.number} of tournament {e.id} is paired already")
            if isinstance(change, Erased):
                erased = change
        if erased is not None:  # back to its draft: nothing of it is kept but what the reset removed
            self.table.delete(e.id)
            known = MemoryResets(self.resets).of(e.id)
            self.resets.write(ResetsOf(e.id, known.add(erased.at, erased.games, erased.restarts)))
            return
        super()._update(e)


class MemoryResets:
    def __init__(self, table: MemoryTable[uuid.UUID, ResetsOf]) -> None:
        self.table = table

    def of(self, tournament_id: uuid.UUID) -> Resets:
        found = self.table.read(tournament_id)
        return Resets() if found is None else found.resets


class MemoryArbiters(_Writes[Arbiters]):
    pass


class MemoryRoundResults(Repository[tuple[uuid.UUID, int], RoundResults]):
    """One round of a stored tournament of rounds; saving writes its changes into the tournament."""

    def __init__(self, table: MemoryTable[uuid.UUID, PairingTournament]) -> None:
        super().__init__()
        self.table = table

    def _find(self, key: tuple[uuid.UUID, int], *, lock: bool) -> RoundResults | None:
        tid, number = key
        t = self.table.read(tid)
        rnd = None if t is None else t.round(number)
        if t is None or rnd is None:
            return None
        outcomes = {g.game_id: g.outcome for g in rnd.games}
        return RoundResults(
            tid,
            t.organiser_id,
            number,
            t.total_rounds,
            outcomes,
            rnd.completed,
            t.ends_at,
            on_command=t.fide is not None,
        )

    def _update(self, results: RoundResults) -> None:
        t = self.table.read(results.tournament_id)
        assert t is not None
        rnd = t.round(results.number)
        assert rnd is not None
        for change in results.take_changes():
            if isinstance(change, OutcomeSet):
                game = next(g for g in rnd.games if g.game_id == change.game_id)
                if game.outcome is None:
                    game.outcome = change.outcome
                    game.reason = change.reason
            elif isinstance(change, RoundClosed):
                rnd.completed = True
            elif isinstance(change, Finished):
                t.status = Status.COMPLETED
            else:
                raise TypeError(f"a round's results do not make {type(change).__name__}")
        self.table.write(t)


class MemoryGroupPlayoffs(MemoryRepository[uuid.UUID, GroupPlayoffTournament]):
    pass


class MemoryArenas(MemoryRepository[uuid.UUID, Arena]):
    """Arenas, their entries and games, and who is playing anywhere, in the store's tables."""

    def __init__(self, store: MemoryPairingStore) -> None:
        super().__init__(store.arenas)
        self.games = store.arena_games
        self.entries = store.arena_entries
        self.playing = store.playing

    def _insert(self, arena: Arena) -> None:
        if self.table.read(arena.id) is not None:
            raise KeyError(f"arena {arena.id} exists")
        super()._insert(arena)

    def open_ids(self) -> list[uuid.UUID]:
        open_ = [a for a in self.table.rows() if a.completed_at is None]
        return [a.id for a in sorted(open_, key=lambda a: a.ends_at)]

    def add_games(self, arena_id: uuid.UUID, games: Sequence[NewGame], at: dt.datetime) -> list[NewGame]:
        new = [g for g in games if self.games.read(g.id) is None]
        for g in new:
            self.games.write(ArenaGameRow(arena_id, g, at))
        return new

    def finish_game(
        self, game_id: uuid.UUID, outcome: Outcome, boost: tuple[bool, bool], ended_at: dt.datetime
    ) -> tuple[uuid.UUID, NewGame] | None:
        found = self.games.read(game_id)
        if found is None:
            return None
        g = found.game
        found.result = FinishedArenaGame(g.id, g.white, g.black, outcome, ended_at, boost[0], boost[1])
        self.games.write(found)
        return found.arena_id, g

    def finished_games(self, arena_id: uuid.UUID, players: Iterable[uuid.UUID]) -> list[FinishedArenaGame]:
        who = set(players)
        return [
            f.result
            for f in self.games.rows()
            if f.arena_id == arena_id and f.result is not None and {f.game.white, f.game.black} & who
        ]

    def running(self, arena_id: uuid.UUID) -> int:
        return sum(1 for f in self.games.rows() if f.arena_id == arena_id and f.result is None)

    # -- the record a lost pool is rebuilt from ------------------------------------------------------
    def enter(self, arena_id: uuid.UUID, player: uuid.UUID, *, rating: int, at: dt.datetime) -> None:
        before = self.entries.read((arena_id, player))
        since = before.entry.since if before is not None and before.entry.status == ACTIVE else at
        self.entries.write(EntryRow(arena_id, Entry(player, ACTIVE, since, rating)))

    def away(self, arena_id: uuid.UUID, player: uuid.UUID, status: str, *, at: dt.datetime) -> None:
        before = self.entries.read((arena_id, player))
        kept = before.entry if before is not None else Entry(player, status, at)
        self.entries.write(EntryRow(arena_id, replace(kept, status=status)))

    def record(self, arena_id: uuid.UUID) -> ArenaRecord:
        entries = sorted(
            (r.entry for r in self.entries.rows() if r.arena_id == arena_id), key=lambda e: e.player
        )
        games = [_played(f) for f in self.games.rows() if f.arena_id == arena_id]
        entrants = {e.player for e in entries}
        elsewhere: list[tuple[uuid.UUID, uuid.UUID, uuid.UUID | None]] = sorted(
            (p.player_id, p.game_id, None) for p in self.playing.rows() if p.player_id in entrants
        )
        for f in sorted(self.games.rows(), key=lambda f: f.game.id):
            if f.arena_id != arena_id and f.result is None:
                elsewhere += [
                    (p, f.game.id, f.arena_id) for p in (f.game.white, f.game.black) if p in entrants
                ]
        return ArenaRecord(entries, sorted(games, key=lambda g: (g.paired_at, g.id)), elsewhere)

    def start_playing(self, player: uuid.UUID, game: uuid.UUID) -> None:
        self.playing.write(PlayingRow(player, game))

    def stop_playing(self, player: uuid.UUID, game: uuid.UUID) -> None:
        if self.playing.read((player, game)) is not None:
            self.playing.delete((player, game))


def _played(f: ArenaGameRow) -> PlayedGame:
    g, r = f.game, f.result
    if r is None:
        return PlayedGame(g.id, g.white, g.black, f.paired_at)
    return PlayedGame(
        g.id, g.white, g.black, f.paired_at, r.outcome, r.ended_at, r.white_boost, r.black_boost
    )


class MemoryRosters(MemoryRepository[uuid.UUID, RosterHeard]):
    """What pairing has heard of each tournament's roster (``domain/roster.py``)."""


class MemoryPairingUnitOfWork(MemoryUnitOfWork):
    """A unit of work over a :class:`MemoryPairingStore`; ``after_commit`` gets what each commit
    published (a test harness hands it to an in-process broker, as the embedded relay does)."""

    tracked = ("tournaments", "results", "eliminations", "arbiters", "arenas", "group_playoffs", "rosters")

    def __init__(
        self, store: MemoryPairingStore, after_commit: Callable[[list[Envelope]], object] | None = None
    ) -> None:
        super().__init__(wire, store.tables())
        self.store = store
        self.published = store.published
        self.inbox = store.inbox
        self._after_commit = after_commit

    @functools.cached_property
    def tournaments(self) -> MemoryTournaments:
        return MemoryTournaments(self.store.tournaments)

    @functools.cached_property
    def results(self) -> MemoryRoundResults:
        return MemoryRoundResults(self.store.tournaments)

    @functools.cached_property
    def eliminations(self) -> MemoryEliminations:
        return MemoryEliminations(self.store.eliminations, self.store.resets)

    @functools.cached_property
    def arbiters(self) -> MemoryArbiters:
        return MemoryArbiters(self.store.arbiters)

    @functools.cached_property
    def resets(self) -> MemoryResets:
        return MemoryResets(self.store.resets)

    @functools.cached_property
    def arenas(self) -> MemoryArenas:
        return MemoryArenas(self.store)

    @functools.cached_property
    def group_playoffs(self) -> MemoryGroupPlayoffs:
        return MemoryGroupPlayoffs(self.store.group_playoffs)

    @functools.cached_property
    def rosters(self) -> MemoryRosters:
        return MemoryRosters(self.store.rosters)

    def lock(self, tournament_id: uuid.UUID) -> System | None:
        t = self.store.tournaments.read(tournament_id)
        if t is not None:
            return t.system
        e = self.store.eliminations.read(tournament_id)
        if e is None:
            return None if self.store.group_playoffs.read(tournament_id) is None else System.GROUP_PLAYOFF
        return e.system

    def tournament_of_game(self, game_id: uuid.UUID) -> uuid.UUID | None:
        for t in self.store.tournaments.rows():
            if any(g.game_id == game_id for rnd in t.rounds for g in rnd.games):
                return t.id
        for e in self.store.eliminations.rows():
            if e.game(game_id) is not None:
                return e.id
        return None

    def commit(self) -> None:
        before = len(self.published)
        super().commit()
        if self._after_commit is not None and len(self.published) > before:
            self._after_commit(self.published[before:])
