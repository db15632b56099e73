"""A lost arena pool rebuilt on the real stores: pairing's database on PostgreSQL and the pool in Redis
under a private prefix, emptied at once as a Redis restarted without its data would show it. Random arena
stories come back exactly; and a result being written while the pool is rebuilt waits for the rebuild
(the record's rows are share-locked) and then reaches the rebuilt pool, instead of being lost between the
two."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator

import pytest
import redis

from services.pairing.adapters.arena_pool import RedisArenaPool
from services.pairing.bootstrap import MIGRATIONS, bootstrap
from services.pairing.config import PairingSettings
from services.pairing.service_layer import commands
from services.pairing.tests.arena_helpers import arena_started
from services.pairing.tests.helpers import NOW, InMemory, deliver
from services.pairing.tests.integration.test_arena_pool_redis import empty
from services.pairing.tests.unit.test_arena_rebuild import paired, rebuilt, story, tick
from shared.messaging.inprocess import InProcessBroker
from shared.scoring import Outcome
from shared.testing.polling import wait_for
from shared.timesource import FakeClock

pytestmark = pytest.mark.integration


@pytest.fixture
def svc(servers) -> Iterator[InMemory]:
    """Pairing's handlers on PostgreSQL with the Redis pool: the surface the arena stories are told to."""
    client = redis.Redis.from_url(servers.redis_url)
    pool = RedisArenaPool(client, servers.redis_prefix(f"rebuild-{uuid.uuid4().hex[:8]}"))
    broker = InProcessBroker()
    url = servers.create_database(f"pairing_rebuild_{uuid.uuid4().hex[:6]}", MIGRATIONS)
    service = bootstrap(
        PairingSettings(ARBITER_PAIRING_DATABASE_URL=url),
        broker=broker,
        clock=FakeClock(NOW),
        migrate=True,
        relay_on_commit=True,
        arena_pool=pool,
    )
    broker.subscribe(service.subscriptions + service.worker_subscriptions)
    yield InMemory(broker, None, service.bus, service.handlers, pool, service.clock)  # type: ignore[arg-type]
    empty(pool)
    service.engine.dispose()
    client.close()


@pytest.mark.parametrize("seed", range(4))
def test_a_lost_pool_comes_back_exactly_as_it_was(svc, seed):
    svc, tid = story(seed, svc)
    before = svc.pool.snapshot(tid)
    assert before.running or before.met, "a story with some play"
    empty(svc.pool)
    assert svc.pool.snapshot(tid).waiting == {}
    assert rebuilt(svc, tid) == before


def test_a_result_written_during_the_rebuild_reaches_the_rebuilt_pool(svc):
    started = arena_started(4)
    tid = started.tournament_id
    deliver(svc, started, tid)
    assert tick(svc) == 2
    game, _ = paired(svc)
    svc.clock.advance(30)
    empty(svc.pool)  # Redis restarted without its data

    # a consumer records the result: the game's row is written, the (lost) pool hears nothing yet
    consumer = svc.uow()
    consumer.__enter__()
    svc.handlers.arena.on_game_finished(
        commands.RecordArenaResult(tid, game.game_id, Outcome.WHITE_WIN, svc.clock.now()), consumer
    )
    # meanwhile a worker rebuilds the pool: it waits for the result's transaction
    made: list[int] = []
    worker = threading.Thread(target=lambda: made.append(tick(svc)), daemon=True)
    worker.start()
    worker.join(timeout=1.0)
    assert worker.is_alive() and not svc.pool.intact(tid), "the rebuild did not wait for the result"
    consumer.commit()
    consumer.__exit__(None, None, None)
    worker.join(timeout=30)
    assert made == [0]  # its two players are in cooldown together; the other game runs on
    state = svc.pool.snapshot(tid)
    assert set(state.waiting) == {game.white, game.black}
    assert state.points[game.white] == 2 and frozenset((game.white, game.black)) in state.met
    assert game.game_id not in state.running
    wait_for(lambda: svc.pool.playing(game.white) is None, timeout=5, what="the marker gone")
