"""The in-memory arena pool (embedded mode, unit tests) against the arena pool contract; and what the
Redis adapter does when there is no Redis."""

from __future__ import annotations

import uuid

import pytest

from services.pairing.adapters.arena_pool import InMemoryArenaPool, RedisArenaPool
from services.pairing.service_layer.arena_ports import ArenaPoolUnavailable
from services.pairing.tests.arena_pool_contract import ArenaPoolContract, at


class TestInMemoryArenaPool(ArenaPoolContract):
    @pytest.fixture
    def pool(self):
        return InMemoryArenaPool()


def test_an_unreachable_redis_is_reported_as_unavailable():
    pool = RedisArenaPool.from_url("redis://127.0.0.1:1/0", "nowhere:")
    with pytest.raises(ArenaPoolUnavailable):
        pool.waiting(uuid.uuid4(), at(0))
    with pytest.raises(ArenaPoolUnavailable):
        pool.take_lease(uuid.uuid4(), "w1", 1000)
    pool.client.close()
