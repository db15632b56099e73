"""The backends pairing's repository and unit-of-work contracts run on: the SQL adapters on SQLite and
(integration) PostgreSQL, and the in-memory fakes. One backend (one database) per test module."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from services.pairing.adapters.memory import MemoryPairingStore, MemoryPairingUnitOfWork
from services.pairing.adapters.orm import outbox
from services.pairing.bootstrap import MIGRATIONS, Pairing, bootstrap
from services.pairing.config import PairingSettings
from services.pairing.domain.heading import Heading, Player
from services.pairing.service_layer.ports import PairingUnitOfWork
from shared.events import Envelope
from shared.messaging.inprocess import InProcessBroker
from shared.time_control import RateOfPlay
from shared.timesource import FakeClock
from shared.vocabulary import Ruleset

NOW = dt.datetime(2026, 6, 1, 12, tzinfo=dt.UTC)
LATER = NOW + dt.timedelta(hours=2)


class Backend:
    def __init__(self, kind: str, url: str | None = None) -> None:
        self.kind = kind
        self.store = MemoryPairingStore()
        self.svc: Pairing | None = None
        if url is not None:
            settings = PairingSettings(ARBITER_PAIRING_DATABASE_URL=url)
            self.svc = bootstrap(settings, broker=InProcessBroker(), clock=FakeClock(NOW), migrate=True)

    def uow(self) -> PairingUnitOfWork:
        return MemoryPairingUnitOfWork(self.store) if self.svc is None else self.svc.uow()

    def published(self, tournament_id: uuid.UUID) -> list[tuple[str, dict[str, Any]]]:
        if self.svc is None:
            envelopes = self.store.published
        else:
            with self.svc.engine.connect() as conn:
                bodies = conn.execute(sa.select(outbox.c.body).order_by(outbox.c.id)).scalars()
                envelopes = [Envelope.model_validate_json(b) for b in bodies]
        return [(e.type, e.payload) for e in envelopes if e.tournament_id == tournament_id]

    def close(self) -> None:
        if self.svc is not None:
            self.svc.engine.dispose()


@pytest.fixture(
    scope="module", params=["memory", "sqlite", pytest.param("postgresql", marks=pytest.mark.integration)]
)
def backend(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Backend]:
    if request.param == "memory":
        b = Backend("memory")
    elif request.param == "sqlite":
        b = Backend("sqlite", f"sqlite:///{tmp_path_factory.mktemp('contract') / 'pairing.sqlite'}")
    else:
        servers = request.getfixturevalue("servers")
        b = Backend(
            "postgresql", servers.create_database(f"pairing_contract_{uuid.uuid4().hex[:6]}", MIGRATIONS)
        )
    yield b
    b.close()


def heading(ruleset: Ruleset = Ruleset.PLATFORM) -> Heading:
    return Heading(uuid.uuid4(), uuid.uuid4(), "Contract", ruleset, RateOfPlay(180, 2), NOW)


def roster(n: int) -> tuple[Player, ...]:
    return tuple(Player(s, uuid.uuid4(), f"P{s}", None if s == n else 2000 - s) for s in range(1, n + 1))
