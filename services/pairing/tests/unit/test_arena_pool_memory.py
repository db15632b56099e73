"""The in-memory arena pool (embedded mode, unit tests) against the arena pool contract; and what the
Redis adapter does when there is no Redis."""

from __future__ import annotations

import uuid

import pytest

from services.pairing.adapters.arena_pool import InMemoryArenaPool, RedisArenaPool
from services.pairing.service_layer.arena_pass import run_pass
from services.pairing.service_layer.arena_ports import ArenaPoolUnavailable, LeaseLost
from services.pairing.tests.arena_pool_contract import ArenaPoolContract, at, players


class TestInMemoryArenaPool(ArenaPoolContract):
    @pytest.fixture
    def pool(self):
        return InMemoryArenaPool()

    @pytest.fixture
    def lose(self, pool):
        return pool.lose


def test_an_unreachable_redis_is_reported_as_unavailable():
    pool = RedisArenaPool.from_url("redis://127.0.0.1:1/0", "nowhere:")
    with pytest.raises(ArenaPoolUnavailable):
        pool.waiting(uuid.uuid4(), at(0))
    with pytest.raises(ArenaPoolUnavailable):
        pool.take_lease(uuid.uuid4(), "w1", 1000)
    pool.client.close()


def test_a_pass_reads_pairs_and_commits_under_the_lease():
    pool, arena = InMemoryArenaPool(), uuid.uuid4()
    for i, p in enumerate(players(5)):
        pool.join(arena, p, rating=1500 + i, at=at(0))
    with pytest.raises(LeaseLost):
        run_pass(pool, arena, "w1", at(1))
    assert pool.take_lease(arena, "w1", 30_000)
    outcome = run_pass(pool, arena, "w1", at(1))
    assert len(outcome.committed.games) == 2 and outcome.committed.dropped == ()
    assert [(p.white, p.black) for p in outcome.result.pairs] == [
        (g.white, g.black) for g in outcome.committed.games
    ]
    (left,) = pool.waiting(arena, at(1))
    assert (left.player, left.skipped) == (outcome.result.waiting[0], 1)
