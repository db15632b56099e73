"""The standings service on the embedded adapters (SQLite, in-process broker, a fake clock) for each
test; what the tests share beyond these fixtures is in ``helpers.py``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from services.standings.bootstrap import StandingsService
from services.standings.entrypoints.app import create_app
from services.standings.tests.helpers import embedded


@pytest.fixture
def database_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'standings.sqlite'}"


@pytest.fixture
def svc(database_url) -> Iterator[StandingsService]:
    service = embedded(database_url)
    yield service
    service.engine.dispose()


@pytest.fixture
def client(svc):
    return create_app(svc).test_client()
