"""The in-memory deadline store (embedded mode) against the deadline store contract; and what the
Redis adapter does when there is no Redis."""

from __future__ import annotations

import pytest

from services.clocks.adapters.deadlines import (
    DeadlineStoreUnavailable,
    InMemoryDeadlineStore,
    RedisDeadlineStore,
)
from services.clocks.tests.deadline_contract import DeadlineStoreContract, at


class TestInMemoryDeadlineStore(DeadlineStoreContract):
    @pytest.fixture
    def store(self):
        return InMemoryDeadlineStore()


def test_an_unreachable_redis_is_reported_as_unavailable():
    store = RedisDeadlineStore.from_url("redis://127.0.0.1:1/0", "nowhere:")
    with pytest.raises(DeadlineStoreUnavailable):
        store.ping()
    with pytest.raises(DeadlineStoreUnavailable):
        store.due(at(0))
    store.client.close()
