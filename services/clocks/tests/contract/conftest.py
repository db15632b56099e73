"""The backends every clocks repository and unit-of-work contract test runs on: the SQL adapters on
SQLite and (integration) PostgreSQL, and the in-memory fakes."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import sessionmaker

from services.clocks.adapters import orm
from services.clocks.adapters.deadlines import InMemoryDeadlineStore
from services.clocks.adapters.memory import (
    MemoryClocksUnitOfWork,
    game_table,
    presence_table,
    tournament_table,
)
from services.clocks.adapters.unit_of_work import SqlClocksUnitOfWork
from services.clocks.bootstrap import MIGRATIONS
from services.clocks.domain.clock import ClockRate
from services.clocks.domain.game import Game
from services.clocks.service_layer.ports import DeadlineStore
from services.clocks.tests.conftest import NOW
from shared import events
from shared.database import make_engine
from tests.templates import upgrade


def at(seconds: float) -> dt.datetime:
    return NOW + dt.timedelta(seconds=seconds)


def new_game(
    base: int = 180,
    inc: int = 2,
    *,
    tournament_id: uuid.UUID | None = None,
    round: int = 3,
    board: int = 1,
    match_id: str | None = None,
    number: int | None = None,
    start: bool = True,
    white: uuid.UUID | None = None,
    black: uuid.UUID | None = None,
    released: bool = True,
    rated: bool = True,
) -> Game:
    game = Game.pair(
        game_id=uuid.uuid4(),
        tournament_id=tournament_id or uuid.uuid4(),
        organiser_id=uuid.uuid4(),
        round=round,
        board=board,
        leg=2,
        white=white or uuid.uuid4(),
        black=black or uuid.uuid4(),
        control=ClockRate(base, inc),
        at=NOW,
        match_id=match_id,
        number=number,
        label=None if number is None else f"Game {number}",
        released=released,
        rated=rated,
    )
    if start:
        game.start(NOW)
    return game


class Backend:
    """Builds units of work on one store of games, and reads what their commits published."""

    deadlines: DeadlineStore

    def uow(self) -> Any:
        raise NotImplementedError

    def published(self) -> list[tuple[str, dict[str, Any]]]:
        raise NotImplementedError


class SqlBackend(Backend):
    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        upgrade(MIGRATIONS, self.engine)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.deadlines = InMemoryDeadlineStore()

    def uow(self) -> SqlClocksUnitOfWork:
        return SqlClocksUnitOfWork(
            self.sessions, orm.outbox, orm.inbox, channel="clocks_test", deadlines=self.deadlines
        )

    def published(self) -> list[tuple[str, dict[str, Any]]]:
        with self.engine.connect() as conn:
            bodies = conn.execute(sa.select(orm.outbox.c.body).order_by(orm.outbox.c.id)).scalars()
            envelopes = [events.Envelope.model_validate_json(b) for b in bodies]
        return [(e.type, e.payload) for e in envelopes]


class MemoryBackend(Backend):
    def __init__(self) -> None:
        self.games = game_table()
        self.tournaments = tournament_table()
        self.presence = presence_table()
        self.deadlines = InMemoryDeadlineStore()
        self.envelopes: list[events.Envelope] = []

    def uow(self) -> MemoryClocksUnitOfWork:
        return MemoryClocksUnitOfWork(
            self.games,
            self.tournaments,
            self.deadlines,
            on_commit=self.envelopes.extend,
            presence=self.presence,
        )

    def published(self) -> list[tuple[str, dict[str, Any]]]:
        return [(e.type, e.payload) for e in self.envelopes]


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgresql", marks=pytest.mark.integration)])
def backend(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[Backend]:
    if request.param == "memory":
        yield MemoryBackend()
        return
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'clocks.sqlite'}"
    else:
        url = request.getfixturevalue("servers").create_database(
            f"clocks_contract_{uuid.uuid4().hex[:8]}", MIGRATIONS
        )
    sql = SqlBackend(url)
    yield sql
    sql.engine.dispose()


def stored(backend: Backend, *games: Game) -> None:
    """Add the games in a committed unit of work (their events, if any, published)."""
    with backend.uow() as uow:
        for game in games:
            uow.games.add(game)
        uow.commit()
