"""The Redis arena pool against the arena pool contract, its keys under the prefix, and workers racing
on one arena in threads against the real Redis: no player is ever in two games."""

from __future__ import annotations

import datetime as dt
import random
import threading
import time
import uuid

import pytest
import redis

from services.pairing.adapters.arena_pool import RedisArenaPool
from services.pairing.domain.arena.pairing import pair
from services.pairing.service_layer.arena_ports import FinishedGame, LeaseLost, NewGame
from services.pairing.tests.arena_pool_contract import ArenaPoolContract, at, players

pytestmark = pytest.mark.integration


@pytest.fixture
def redis_pool(servers):
    client = redis.Redis.from_url(servers.redis_url, decode_responses=True)
    yield RedisArenaPool(client, servers.redis_prefix(f"arena-{uuid.uuid4().hex[:8]}"))
    client.close()


def empty(pool: RedisArenaPool) -> None:
    """Every key under the pool's prefix, gone in one step: what a Redis restarted without its data
    shows this prefix (the shared Redis itself is never flushed)."""
    pool.client.eval(
        "local k = redis.call('KEYS', ARGV[1]) for i = 1, #k, 1000 do "
        "redis.call('DEL', unpack(k, i, math.min(i + 999, #k))) end return #k",
        0,
        f"{pool.prefix}*",
    )


class TestRedisArenaPool(ArenaPoolContract):
    @pytest.fixture
    def pool(self, redis_pool):
        return redis_pool

    @pytest.fixture
    def lose(self, pool):
        return lambda: empty(pool)


def test_the_keys_live_under_the_prefix_and_the_arena_hash_tag(redis_pool):
    arena, (a, b) = uuid.uuid4(), players(2)
    redis_pool.join(arena, a, rating=1500, at=at(0))
    redis_pool.join(arena, b, rating=1500, at=at(0))
    assert redis_pool.take_lease(arena, "w1", 30_000)
    redis_pool.commit(arena, "w1", [NewGame(uuid.uuid4(), a, b)], [], at(1))
    keys = set(redis_pool.client.scan_iter(match=f"{redis_pool.prefix}*"))
    tag = f"{redis_pool.prefix}pairing:arena:{{{arena}}}:"
    assert {k for k in keys if not k.startswith(tag)} == {
        f"{redis_pool.prefix}pairing:playing:{a}",
        f"{redis_pool.prefix}pairing:playing:{b}",
    }
    assert redis_pool.client.zrange(tag + "waiting", 0, -1) == []


class Registry:
    """Who is in a game right now, as the test sees it: a player added twice is a double pairing.
    Games are ended only once announced here, as the clocks end only the games they were given."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.busy: set[uuid.UUID] = set()
        self.live: dict[uuid.UUID, NewGame] = {}
        self.games: list[NewGame] = []
        self.problems: list[str] = []

    def started(self, games) -> None:
        with self.lock:
            for g in games:
                for p in (g.white, g.black):
                    if p in self.busy:
                        self.problems.append(f"{p} paired while in a game")
                    self.busy.add(p)
                self.live[g.id] = g
                self.games.append(g)

    def ending(self, rng: random.Random) -> NewGame | None:
        with self.lock:
            if not self.live:
                return None
            game = self.live.pop(rng.choice(list(self.live)))
            self.busy -= {game.white, game.black}
            return game


def test_workers_racing_on_one_arena_never_pair_a_player_twice(redis_pool):
    """Three workers take the lease in turn; each sometimes dies mid-pass (computes, never commits,
    never releases: the lease has to expire) or stalls past its lease between computing and
    committing (the commit is then refused if another worker took over), while games end and
    players come back."""
    arena, ids = uuid.uuid4(), players(40)
    now = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
    for p in ids:
        redis_pool.join(arena, p, rating=1500, at=now)
    registry, stop = Registry(), threading.Event()
    target = 150

    def worker(name: str, seed: int) -> None:
        rng = random.Random(seed)
        while not stop.is_set():
            if not redis_pool.take_lease(arena, name, 100):
                time.sleep(0.002)
                continue
            clock = now + dt.timedelta(hours=rng.randint(0, 5))  # cooldowns rarely matter here
            fate = rng.random()
            result = pair(redis_pool.waiting(arena, clock), clock)
            if fate < 0.1:  # dies: the lease is left to expire
                time.sleep(0.15)
                continue
            if fate < 0.2:  # stalls past its lease, then commits what it computed
                time.sleep(0.15)
            games = [NewGame(uuid.uuid4(), p.white, p.black) for p in result.pairs]
            try:
                committed = redis_pool.commit(arena, name, games, result.waiting, clock)
            except LeaseLost:  # another worker took over meanwhile: nothing was written
                continue
            registry.started(committed.games)
            redis_pool.announced(arena, [g.id for g in committed.games])

    def ender(seed: int) -> None:
        rng = random.Random(seed)
        while not stop.is_set():
            game = registry.ending(rng)
            if game is None:
                time.sleep(0.001)
                continue
            ended = now + dt.timedelta(seconds=rng.randint(0, 10_000))
            redis_pool.finish(arena, FinishedGame(game.id, game.white, game.black, ended))

    threads = [threading.Thread(target=worker, args=(f"w{i}", i)) for i in range(3)]
    threads += [threading.Thread(target=ender, args=(9,))]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 60
    try:
        while len(registry.games) < target:
            assert time.monotonic() < deadline, f"only {len(registry.games)} games in a minute"
            assert not registry.problems, registry.problems
            time.sleep(0.01)
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert not registry.problems, registry.problems
    assert len({g.id for g in registry.games}) == len(registry.games)


def test_even_with_the_lease_shared_concurrent_commits_never_pair_a_player_twice(redis_pool):
    """The commit's own checks, without the lease's help: eight threads commit passes computed from
    the same read under one token; every player ends up in at most one game."""
    arena, ids = uuid.uuid4(), players(200)
    for p in ids:
        redis_pool.join(arena, p, rating=1500, at=at(0))
    assert redis_pool.take_lease(arena, "shared", 60_000)
    snapshot = redis_pool.waiting(arena, at(1))
    barrier = threading.Barrier(8)
    made: list[NewGame] = []
    lock = threading.Lock()

    def commit(seed: int) -> None:
        pool = snapshot[:]
        random.Random(seed).shuffle(pool)
        # a different pairing of the same players in each thread
        for i, w in enumerate(pool):
            pool[i] = type(w)(w.player, random.Random(seed + i).randint(0, 50), w.rating, w.since)
        result = pair(pool, at(1))
        games = [NewGame(uuid.uuid4(), p.white, p.black) for p in result.pairs]
        barrier.wait()
        committed = redis_pool.commit(arena, "shared", games, result.waiting, at(1))
        with lock:
            made.extend(committed.games)

    threads = [threading.Thread(target=commit, args=(s,)) for s in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seen = [p for g in made for p in (g.white, g.black)]
    assert len(seen) == len(set(seen))
    assert set(redis_pool.running(arena)) == set(made)
    assert len(made) == 100  # and between them everyone was paired
