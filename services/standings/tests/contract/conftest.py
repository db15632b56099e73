"""The backends every standings repository and unit-of-work contract runs on: the SQL adapters on SQLite
and (integration) PostgreSQL, and the in-memory fakes."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import sessionmaker

from services.standings.adapters import orm
from services.standings.adapters.memory import MemoryStandingsStore, MemoryStandingsUnitOfWork
from services.standings.adapters.table_cache import TableCache
from services.standings.adapters.unit_of_work import SqlStandingsUnitOfWork
from services.standings.bootstrap import MIGRATIONS
from shared import events
from shared.database import make_engine
from tests.templates import upgrade

NOW = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
LATER = NOW + dt.timedelta(hours=1)


class Backend:
    """Units of work over one store, and what they published."""

    def __init__(self, kind: str, url: str | None = None) -> None:
        self.kind = kind
        if url is not None:
            self.engine = make_engine(url)
            upgrade(MIGRATIONS, self.engine)
            self.sessions = sessionmaker(self.engine, expire_on_commit=False)
            self.cache = TableCache(8)
        else:
            self.store = MemoryStandingsStore()
            self.envelopes: list[events.Envelope] = []

    def uow(self) -> Any:
        if self.kind == "memory":
            uow = MemoryStandingsUnitOfWork(self.store)
            uow.published = self.envelopes
            return uow
        return SqlStandingsUnitOfWork(
            self.sessions, orm.outbox, orm.inbox, channel="standings_contract", tables=self.cache
        )

    def published(self) -> list[tuple[str, dict[str, Any]]]:
        if self.kind == "memory":
            envelopes = self.envelopes
        else:
            with self.engine.connect() as conn:
                bodies = conn.execute(sa.select(orm.outbox.c.body).order_by(orm.outbox.c.id)).scalars()
                envelopes = [events.Envelope.model_validate_json(b) for b in bodies]
        return [(e.type, e.payload) for e in envelopes]

    def close(self) -> None:
        if self.kind != "memory":
            self.engine.dispose()


@pytest.fixture(
    params=["memory", "sqlite", pytest.param("postgresql", marks=pytest.mark.integration)],
)
def backend(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[Backend]:
    if request.param == "memory":
        b = Backend("memory")
    elif request.param == "sqlite":
        b = Backend("sqlite", f"sqlite:///{tmp_path / 'standings.sqlite'}")
    else:
        servers = request.getfixturevalue("servers")
        b = Backend(
            "postgresql", servers.create_database(f"standings_contract_{uuid.uuid4().hex[:8]}", MIGRATIONS)
        )
    yield b
    b.close()
