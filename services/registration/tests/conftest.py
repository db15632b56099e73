from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterator

import pytest

from services.registration.bootstrap import Registration, bootstrap
from services.registration.config import RegistrationSettings
from services.registration.entrypoints.app import create_app
from shared.http.auth import issue_token
from shared.messaging.inprocess import InProcessBroker
from shared.settings import DEV_JWT_SECRET
from shared.timesource import FakeClock

NOW = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)


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


def token(subject: uuid.UUID, *roles: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(DEV_JWT_SECRET, subject, set(roles) or {'player'})}"}


STAFF = uuid.uuid4()
