from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator

import pytest
import redis

from services.clocks.adapters.deadlines import RedisDeadlineStore
from services.clocks.bootstrap import MIGRATIONS, Clocks, bootstrap
from services.clocks.config import ClocksSettings
from shared.messaging.inprocess import InProcessBroker


@pytest.fixture
def make_service(servers, clock) -> Iterator[Callable[[], Clocks]]:
    """Clocks services on one fresh PostgreSQL database and one Redis key prefix: call it twice for
    two processes' worth of adapters (engines, Redis clients) sharing the same state."""
    name = uuid.uuid4().hex[:8]
    url = servers.create_database(f"clocks_{name}", MIGRATIONS)
    prefix = servers.redis_prefix(f"clocks-{name}")
    built: list[tuple[Clocks, redis.Redis]] = []

    def make() -> Clocks:
        client = redis.Redis.from_url(servers.redis_url)
        svc = bootstrap(
            ClocksSettings(ARBITER_CLOCKS_DATABASE_URL=url),
            broker=InProcessBroker(),
            clock=clock,
            deadlines=RedisDeadlineStore(client, prefix),
            migrate=not built,
            relay_on_commit=True,
        )
        svc.broker.subscribe(svc.subscriptions)
        built.append((svc, client))
        return svc

    yield make
    for svc, client in built:
        svc.engine.dispose()
        client.close()


@pytest.fixture
def pg_svc(make_service) -> Clocks:
    return make_service()
