"""Aggregates record domain events; the unit of work maps and collects them. The SQL unit of work and
the in-memory one the service tests use must publish exactly the same: one suite runs on both."""

from __future__ import annotations

import functools
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import sessionmaker

from shared import events
from shared.aggregate import Aggregate, DomainEvent
from shared.database import make_engine
from shared.messaging.tables import messaging_tables
from shared.repository import Repository
from shared.testing.memory import MemoryRepository, MemoryTable, MemoryUnitOfWork
from shared.unit_of_work import SqlUnitOfWork
from shared.wire import WireMap

T = uuid.uuid4()


@dataclass(frozen=True)
class RoundClosed(DomainEvent):
    tournament_id: uuid.UUID
    number: int


@dataclass(eq=False)
class Counter(Aggregate):
    id: int
    rounds: int = 0

    def close_round(self) -> None:
        self.rounds += 1
        self.record(RoundClosed(T, self.rounds))


wire = WireMap()


@wire.maps(RoundClosed)
def _closed(e: RoundClosed) -> events.Event:
    return events.RoundCompleted(tournament_id=e.tournament_id, round=e.number)


class SqlCounters(Repository[int, Counter]):
    """A minimal SQL repository of counters, the way the services write theirs."""

    def __init__(self, session: Any, table: sa.Table) -> None:
        super().__init__()
        self.session = session
        self.table = table

    def _find(self, key: int, *, lock: bool) -> Counter | None:
        row = self.session.execute(sa.select(self.table).where(self.table.c.id == key)).first()
        return None if row is None else Counter(row.id, row.n)

    def _insert(self, c: Counter) -> None:
        self.session.execute(sa.insert(self.table).values(id=c.id, n=c.rounds))

    def _update(self, c: Counter) -> None:
        self.session.execute(sa.update(self.table).where(self.table.c.id == c.id).values(n=c.rounds))


class SqlUow(SqlUnitOfWork):
    tracked = ("counters", "unused")

    def __init__(self, factory: Any, outbox: sa.Table, inbox: sa.Table, table: sa.Table) -> None:
        super().__init__(factory, outbox, inbox, channel="test", wire=wire)
        self.table = table
        self.outbox_table = outbox

    @functools.cached_property
    def counters(self) -> SqlCounters:
        return SqlCounters(self.session, self.table)

    @functools.cached_property
    def unused(self) -> SqlCounters:
        return SqlCounters(self.session, self.table)


class MemUow(MemoryUnitOfWork):
    tracked = ("counters", "unused")

    @functools.cached_property
    def counters(self) -> MemoryRepository[int, Counter]:
        return MemoryRepository(self.tables[0])

    @functools.cached_property
    def unused(self) -> MemoryRepository[int, Counter]:
        return MemoryRepository(self.tables[0])


class Backend:
    def __init__(self, kind: str, tmp_path: Any) -> None:
        self.kind = kind
        if kind == "sql":
            self.engine = make_engine(f"sqlite:///{tmp_path / 'uow.sqlite'}")
            metadata = sa.MetaData()
            self.outbox, self.inbox = messaging_tables(metadata)
            self.table = sa.Table(
                "counters",
                metadata,
                sa.Column("id", sa.Integer, primary_key=True),
                sa.Column("n", sa.Integer),
            )
            metadata.create_all(self.engine)
            self.factory = sessionmaker(self.engine)
        else:
            self.memory: MemoryTable[int, Counter] = MemoryTable(lambda c: c.id)
            self.last: MemUow | None = None
            self.published_all: list[events.Envelope] = []

    def uow(self) -> Any:
        if self.kind == "sql":
            return SqlUow(self.factory, self.outbox, self.inbox, self.table)
        uow = MemUow(wire, [self.memory])
        uow.published = self.published_all
        return uow

    def published(self) -> list[tuple[str, dict[str, Any]]]:
        if self.kind == "sql":
            with self.engine.connect() as conn:
                bodies = conn.execute(sa.select(self.outbox.c.body).order_by(self.outbox.c.id)).scalars()
                envelopes = [events.Envelope.model_validate_json(b) for b in bodies]
        else:
            envelopes = self.published_all
        return [(e.type, e.payload) for e in envelopes]


@pytest.fixture(params=["sql", "memory"])
def backend(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[Backend]:
    b = Backend(request.param, tmp_path)
    with b.uow() as uow:
        uow.counters.add(Counter(1))
        uow.commit()
    yield b
    if b.kind == "sql":
        b.engine.dispose()


def test_commit_writes_what_the_aggregates_recorded_in_order(backend: Backend) -> None:
    with backend.uow() as uow:
        c = uow.counters.get(1, lock=True)
        c.close_round()
        c.close_round()
        uow.counters.save(c)
        uow.commit()
    assert backend.published() == [
        ("round.completed", {"tournament_id": str(T), "round": 1}),
        ("round.completed", {"tournament_id": str(T), "round": 2}),
    ]
    with backend.uow() as uow:
        assert uow.counters.get(1).rounds == 2


def test_nothing_is_published_without_commit(backend: Backend) -> None:
    with backend.uow() as uow:
        c = uow.counters.get(1)
        c.close_round()
        uow.counters.save(c)
    assert backend.published() == []
    with backend.uow() as uow:
        assert uow.counters.get(1).rounds == 0


def test_a_failed_savepoint_takes_its_events_and_writes_with_it(backend: Backend) -> None:
    with backend.uow() as uow:
        with uow.savepoint():
            c = uow.counters.get(1, lock=True)
            c.close_round()
            uow.counters.save(c)
        with pytest.raises(RuntimeError), uow.savepoint():
            c = uow.counters.get(1, lock=True)
            c.close_round()
            uow.counters.save(c)
            raise RuntimeError("the handler failed")
        uow.commit()
    assert backend.published() == [("round.completed", {"tournament_id": str(T), "round": 1})]
    with backend.uow() as uow:
        assert uow.counters.get(1).rounds == 1


def test_loose_events_keep_their_order(backend: Backend) -> None:
    with backend.uow() as uow:
        c = uow.counters.get(1)
        c.close_round()
        uow.counters.save(c)
        uow.record(RoundClosed(T, 7))
        c.close_round()
        uow.counters.save(c)
        uow.commit()
    assert [p["round"] for _, p in backend.published()] == [1, 7, 2]


def test_an_event_with_no_wire_mapping_is_a_programming_error(backend: Backend) -> None:
    @dataclass(frozen=True)
    class Unmapped(DomainEvent):
        pass

    with backend.uow() as uow, pytest.raises(TypeError, match="no wire mapping"):
        uow.record(Unmapped())


def test_a_repository_is_built_on_first_use_and_afresh_in_each_unit_of_work(backend: Backend) -> None:
    uow = backend.uow()
    with uow:
        assert list(uow.repositories()) == []  # nothing used, nothing built
        first = uow.counters
        assert uow.counters is first and list(uow.repositories()) == [first]
        assert uow.built("unused") is None
    with uow:  # entered again: its own repositories
        assert uow.built("counters") is None
        assert uow.counters is not first and uow.counters.get(1) is not None


def test_a_handed_out_aggregate_is_a_copy_in_memory() -> None:
    table: MemoryTable[int, Counter] = MemoryTable(lambda c: c.id)
    with MemUow(wire, [table]) as uow:
        uow.counters.add(Counter(1))
        uow.commit()
    with MemUow(wire, [table]) as uow:
        c = uow.counters.get(1)
        c.rounds = 5  # not saved
        uow.commit()
    with MemUow(wire, [table]) as uow:
        assert uow.counters.get(1).rounds == 0


def test_bindings_expand_a_key_over_the_qualifiers_it_leaves_free():
    """A queue's routing keys as RabbitMQ binds them (shared.events.QUALIFIERS): a bare type stands for
    every qualified key of it, a qualified one for those with its qualifiers, ``=`` for the key alone."""
    from shared.events import RULESETS, bindings

    every = bindings(("game.finished",))
    assert len(every) == (1 + len(RULESETS)) * 2 and len(set(every)) == len(every)
    assert {"game.finished", "game.finished.decided", "game.finished.arena.decided"} <= set(every)
    assert bindings(("game.finished.decided",)) == (
        "game.finished.decided",
        *(f"game.finished.{r}.decided" for r in RULESETS),
    )
    assert bindings(("game.finished.knockout",)) == (
        "game.finished.knockout",
        "game.finished.knockout.decided",
    )
    assert bindings(("=game.finished", "player.joined", "round.paired")) == (
        "game.finished",
        "player.joined",
        "player.joined.arena",
        "round.paired",
    )
    assert bindings(("game.*",)) == ("game.*",)  # a pattern of other types' keys, bound as it is
    with pytest.raises(ValueError, match="no routing qualifier 'decided'"):
        bindings(("player.left.decided",))
    with pytest.raises(ValueError, match="at that place"):  # the ruleset's place is before the decision's
        bindings(("game.finished.decided.platform",))
