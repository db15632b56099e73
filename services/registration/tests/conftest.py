from __future__ import annotations

from collections.abc import Iterator

import pytest

from services.registration.bootstrap import Registration, bootstrap
from services.registration.config import RegistrationSettings
from services.registration.entrypoints.app import create_app
from services.registration.tests.helpers import NOW
from shared.messaging.inprocess import InProcessBroker
from shared.timesource import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(NOW)


@pytest.fixture
def svc(tmp_path, clock) -> Iterator[Registration]:
    settings = RegistrationSettings(ARBITER_REGISTRATION_DATABASE_URL=f"sqlite:///{tmp_path / 'reg.sqlite'}")
    service = bootstrap(settings, broker=InProcessBroker(), clock=clock, migrate=True, relay_on_commit=True)
    yield service
    service.engine.dispose()


@pytest.fixture
def client(svc):
    return create_app(svc).test_client()
