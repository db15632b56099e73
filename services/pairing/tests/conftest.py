from __future__ import annotations

from collections.abc import Iterator

import pytest

from services.pairing.bootstrap import Pairing
from services.pairing.tests.helpers import Api, InMemory, in_memory, on_sqlite


@pytest.fixture
def svc(tmp_path) -> Iterator[Pairing]:
    """The pairing service on SQLite, as the embedded mode runs it (with its HTTP API)."""
    service = on_sqlite(tmp_path)
    yield service
    service.engine.dispose()


@pytest.fixture(params=["sqlite", "memory"])
def service(request: pytest.FixtureRequest, tmp_path) -> Iterator[Pairing | InMemory]:
    """The pairing service's handlers on SQLite and on the in-memory fakes: the same story must give
    the same events on both."""
    if request.param == "memory":
        yield in_memory()
        return
    sqlite = on_sqlite(tmp_path)
    yield sqlite
    sqlite.engine.dispose()


@pytest.fixture
def api(svc: Pairing) -> Iterator[Api]:
    """Pairing's HTTP API over ``svc``."""
    yield Api(svc)
