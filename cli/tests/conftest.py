from __future__ import annotations

from collections.abc import Iterator

import pytest

from cli.tests.served import Served, serving
from services.registration.bootstrap import bootstrap
from services.registration.config import RegistrationSettings
from services.registration.entrypoints.app import create_app
from services.registration.tests.helpers import NOW
from shared.messaging.inprocess import InProcessBroker
from shared.timesource import FakeClock


@pytest.fixture(autouse=True)
def own_config(tmp_path, monkeypatch) -> None:
    """Each test's login and held roster revisions in its own directory (cli/config.py, cli/revisions.py)."""
    monkeypatch.setenv("ARBITER_CONFIG", str(tmp_path / "arbiter" / "config.json"))


@pytest.fixture
def served(tmp_path) -> Iterator[Served]:
    """Registration on a free local port, its clock at the tests' NOW."""
    settings = RegistrationSettings(ARBITER_REGISTRATION_DATABASE_URL=f"sqlite:///{tmp_path / 'reg.sqlite'}")
    svc = bootstrap(
        settings, broker=InProcessBroker(), clock=FakeClock(NOW), migrate=True, relay_on_commit=True
    )
    try:
        with serving(create_app(svc)) as url:
            yield Served(svc, url)
    finally:
        svc.engine.dispose()
