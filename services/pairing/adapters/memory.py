"""In-memory stand-ins for pairing's database, held to the same contract suite as the SQL repositories
(``tests/contract``): handler tests run on them in milliseconds with no database.

One :class:`MemoryPairingStore` is the database (its tables, its outbox and inbox); a unit of work over it
stages its writes and makes them visible at commit, as a transaction does. A round's results are not a
table of their own: as on SQL, they are a part of the tournament's rows, read and written through it.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from services.pairing.adapters.arena_repository import MemoryArenas, MemoryArenaStore
from services.pairing.adapters.group_playoffs import MemoryGroupPlayoffs
from services.pairing.adapters.rosters import MemoryRosters
from services.pairing.adapters.wire import wire
from services.pairing.domain.arbiters import Arbiters
from services.pairing.domain.changes import Changing, Finished, OutcomeSet, RoundAdded, RoundClosed
from services.pairing.domain.elimination.changes import Erased
from services.pairing.domain.elimination.elimination import Elimination
from services.pairing.domain.errors import RoundTaken
from services.pairing.domain.group_playoff.tournament import GroupPlayoffTournament
from services.pairing.domain.heading import Status
from services.pairing.domain.roster import RosterHeard
from services.pairing.domain.rounds.results import RoundResults
from services.pairing.domain.rounds.tournament import PairingTournament, RoundDropped
from shared.aggregate import Aggregate, Seen, Tracking
from shared.events import Envelope
from shared.resets import Resets
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


class MemoryPairingStore:
    """The fake database: committed rows, the outbox (``published``) and the inbox."""

    def __init__(self) -> None:
        self.tournaments: MemoryTable[uuid.UUID, PairingTournament] = MemoryTable(lambda t: t.id)
        self.eliminations: MemoryTable[uuid.UUID, Elimination] = MemoryTable(lambda e: e.id)
        self.arbiters: MemoryTable[uuid.UUID, Arbiters] = MemoryTable(lambda a: a.tournament_id)
        self.resets: MemoryTable[uuid.UUID, ResetsOf] = MemoryTable(lambda r: r.tournament_id)
        self.arenas = MemoryArenaStore({}, {})  # not rolled back with a unit of work: tests commit
        self.group_playoffs: MemoryTable[uuid.UUID, GroupPlayoffTournament] = MemoryTable(lambda t: t.id)
        self.rosters: MemoryTable[uuid.UUID, RosterHeard] = MemoryTable(lambda r: r.tournament_id)
        self.published: list[Envelope] = []
        self.inbox: set[tuple[uuid.UUID, str]] = set()


class _Writes(MemoryRepository[uuid.UUID, A]):
    """A memory repository of an aggregate that lists its changes: a write takes them (the SQL side
    writes exactly those), so a stored row carries none."""

    def add(self, aggregate: A) -> None:
        assert isinstance(aggregate, Changing)
        aggregate.take_changes()
        super().add(aggregate)

    def save(self, aggregate: A) -> None:
        assert isinstance(aggregate, Changing)
        aggregate.take_changes()
        super().save(aggregate)


class MemoryTournaments(_Writes[PairingTournament]):
    def save(self, t: PairingTournament) -> None:
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
        super().save(t)


class MemoryEliminations(_Writes[Elimination]):
    def __init__(
        self, table: MemoryTable[uuid.UUID, Elimination], resets: MemoryTable[uuid.UUID, ResetsOf]
    ) -> None:
        super().__init__(table)
        self.resets = resets

    def save(self, e: Elimination) -> None:
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
            self.seen.add(e)
            return
        super().save(e)


class MemoryResets:
    def __init__(self, table: MemoryTable[uuid.UUID, ResetsOf]) -> None:
        self.table = table

    def of(self, tournament_id: uuid.UUID) -> Resets:
        found = self.table.read(tournament_id)
        return Resets() if found is None else found.resets


class MemoryArbiters(_Writes[Arbiters]):
    pass


class MemoryRoundResults:
    """One round of a stored tournament of rounds; saving writes its changes into the tournament."""

    def __init__(self, table: MemoryTable[uuid.UUID, PairingTournament]) -> None:
        self.table = table
        self.seen: Seen[RoundResults] = Seen()

    def get(self, key: tuple[uuid.UUID, int], *, lock: bool = False) -> RoundResults | None:
        tid, number = key
        t = self.table.read(tid)
        rnd = None if t is None else t.round(number)
        if t is None or rnd is None:
            return None
        outcomes = {g.game_id: g.outcome for g in rnd.games}
        return self.seen.add(
            RoundResults(
                tid,
                t.organiser_id,
                number,
                t.total_rounds,
                outcomes,
                rnd.completed,
                t.ends_at,
                on_command=t.fide is not None,
            )
        )

    def save(self, results: RoundResults) -> None:
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
        self.seen.add(results)


class MemoryPairingUnitOfWork(MemoryUnitOfWork):
    """A unit of work over a :class:`MemoryPairingStore`; ``after_commit`` gets what each commit
    published (a test harness hands it to an in-process broker, as the embedded relay does)."""

    tournaments: MemoryTournaments
    results: MemoryRoundResults
    eliminations: MemoryEliminations
    arbiters: MemoryArbiters
    resets: MemoryResets
    arenas: MemoryArenas
    group_playoffs: MemoryGroupPlayoffs
    rosters: MemoryRosters

    def __init__(
        self, store: MemoryPairingStore, after_commit: Callable[[list[Envelope]], object] | None = None
    ) -> None:
        super().__init__(
            wire,
            [
                store.tournaments,
                store.eliminations,
                store.arbiters,
                store.resets,
                store.group_playoffs,
                store.rosters,
            ],
        )
        self.store = store
        self.published = store.published
        self.inbox = store.inbox
        self._after_commit = after_commit

    def start(self) -> None:
        self.tournaments = MemoryTournaments(self.store.tournaments)
        self.results = MemoryRoundResults(self.store.tournaments)
        self.eliminations = MemoryEliminations(self.store.eliminations, self.store.resets)
        self.arbiters = MemoryArbiters(self.store.arbiters)
        self.resets = MemoryResets(self.store.resets)
        self.arenas = MemoryArenas(self.store.arenas)
        self.group_playoffs = MemoryGroupPlayoffs(self.store.group_playoffs)
        self.rosters = MemoryRosters(self.store.rosters)

    def repositories(self) -> Iterable[Tracking]:
        return (
            self.tournaments,
            self.results,
            self.eliminations,
            self.arbiters,
            self.arenas,
            self.group_playoffs,
            self.rosters,
        )  # type: ignore[return-value]

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
