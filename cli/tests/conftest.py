from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from werkzeug.serving import make_server

from cli.tests.served import Served
from services.registration.bootstrap import bootstrap
from services.registration.config import RegistrationSettings
from services.registration.entrypoints.app import create_app
from services.registration.tests.helpers import NOW
from shared.messaging.inprocess import InProcessBroker
from shared.timesource import FakeClock


@pytest.fixture
def served(tmp_path) -> Iterator[Served]:
    """Registration on a free local port, its clock at the tests' NOW."""
    settings = RegistrationSettings(ARBITER_REGISTRATION_DATABASE_URL=f"sqlite:///{tmp_path / 'reg.sqlite'}")
    svc = bootstrap(
        settings, broker=InProcessBroker(), clock=FakeClock(NOW), migrate=True, relay_on_commit=True
    )
    server = make_server("127.0.0.1", 0, create_app(svc), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Served(svc, f"http://127.0.0.1:{server.server_port}")
    finally:
        server.shutdown()
        thread.join(timeout=30)
        svc.engine.dispose()
