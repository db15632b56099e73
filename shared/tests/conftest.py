from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from shared.messaging.inprocess import InProcessBroker
from shared.messaging.port import Broker
from shared.messaging.rabbitmq import RabbitMQBroker


@pytest.fixture(params=["inprocess", pytest.param("rabbitmq", marks=pytest.mark.integration)])
def broker(request: pytest.FixtureRequest) -> Iterator[Broker]:
    """The contract suite runs against the fake and the real adapter."""
    if request.param == "inprocess":
        yield InProcessBroker(attempts=3, max_later=5, outage_max=0.05)
        return
    servers = request.getfixturevalue("servers")
    url = servers.create_vhost("contract")  # one vhost for the run; every test names its own queues
    real = RabbitMQBroker(url, attempts=3, max_later=5, outage_max=0.2)
    yield real
    real.close()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.integration)])
def database_url(request: pytest.FixtureRequest, tmp_path) -> str:
    """Persistence contracts run on SQLite (embedded mode) and PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.sqlite'}"
    servers = request.getfixturevalue("servers")
    return servers.create_database(f"shared_{uuid.uuid4().hex[:6]}")
