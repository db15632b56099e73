"""The Redis deadline store against the deadline store contract, on a real Redis."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
import redis

from services.clocks.adapters.deadlines import RedisDeadlineStore
from services.clocks.tests.deadline_contract import DeadlineStoreContract, at

pytestmark = pytest.mark.integration


class TestRedisDeadlineStore(DeadlineStoreContract):
    @pytest.fixture
    def store(self, servers):
        client = redis.Redis.from_url(servers.redis_url)
        yield RedisDeadlineStore(client, servers.redis_prefix(f"clocks-{uuid.uuid4().hex[:8]}"))
        client.close()


def test_a_sorted_set_under_the_prefix(servers):
    client = redis.Redis.from_url(servers.redis_url, decode_responses=True)
    prefix = servers.redis_prefix(f"clocks-{uuid.uuid4().hex[:8]}")
    store, neighbour = RedisDeadlineStore(client, prefix), RedisDeadlineStore(client, prefix + "other:")
    game = uuid.uuid4()
    store.schedule({game: at(180)})
    assert client.zrange(f"{prefix}clocks:deadlines", 0, -1, withscores=True) == [
        (str(game), (at(180) - dt.datetime(1970, 1, 1, tzinfo=dt.UTC)) // dt.timedelta(milliseconds=1))
    ]
    assert neighbour.due(at(1000)) == []  # another prefix, another run
    client.close()
