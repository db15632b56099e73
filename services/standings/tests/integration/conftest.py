from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator

import pytest

from services.standings.bootstrap import MIGRATIONS, StandingsService
from services.standings.tests.helpers import embedded


@pytest.fixture
def make_service(servers) -> Iterator[Callable[[], StandingsService]]:
    """Standings services on one fresh PostgreSQL database: call it twice for two consumer
    processes' worth of adapters (engines, brokers, live tables) sharing the same rows."""
    url = servers.create_database(f"standings_{uuid.uuid4().hex[:8]}", MIGRATIONS)
    built: list[StandingsService] = []

    def make() -> StandingsService:
        svc = embedded(url, migrate=not built)
        built.append(svc)
        return svc

    yield make
    for svc in built:
        svc.engine.dispose()


@pytest.fixture
def pg_svc(make_service) -> StandingsService:
    return make_service()
