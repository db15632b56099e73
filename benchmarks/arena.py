"""The arena's pairing pass over a waiting pool of 1,000, 10,000 and 50,000 players with realistic histories:
arena points spread like a running arena's, and each player has met several players near them in the
ranking lately (1–3 games together, the last ended 0–15 minutes ago), so many rematch cooldowns are
active. Prints one line per size, ``arena pass: N players, T s, P pairs, W waiting`` (T: the pass alone,
wall time), then the checker's verdict on each pass (cooldowns, maximality, maximum, closeness).

With Redis reachable (``ARBITER_REDIS_URL``, default localhost) it also times the pass with the pool in
Redis — the read, the pass, the fenced commit — and the sustained games per second of two worker
processes pairing arenas whose games end at once (the pool alone: no services). Target: 10,000 players
in under a second, every player with an allowed partner paired. Asserts nothing.
"""

from __future__ import annotations

import datetime as dt
import gc
import multiprocessing
import os
import random
import time
import uuid
from typing import Any

from services.pairing.domain.arena.checker import check
from services.pairing.domain.arena.cooldown import Meeting, ends_ms
from services.pairing.domain.arena.pairing import Side, Waiting, pair

SIZES = (1_000, 10_000, 50_000)
NOW = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
RECENT = 8  # opponents met lately, near in the ranking
NEAR = 15  # ranking places either side those opponents come from
WORKER_SECONDS = float(os.environ.get("ARBITER_BENCH_ARENA_SECONDS", "5"))
STACK_SECONDS = float(os.environ.get("ARBITER_BENCH_ARENA_STACK_SECONDS", "20"))
STACK_PLAYERS = int(os.environ.get("ARBITER_BENCH_ARENA_STACK_PLAYERS", "200"))


def waiting_pool(n: int, seed: int = 2026) -> list[Waiting]:
    rng = random.Random(seed + n)
    ranked = sorted(
        (
            (int(rng.expovariate(1 / 14)), rng.randint(1100, 2700), uuid.UUID(int=rng.getrandbits(128)))
            for _ in range(n)
        ),
        key=lambda p: (-p[0], -p[1], p[2].int),
    )  # in the order the pass ranks them, so that the recent opponents are near in its ranking
    met: list[dict[uuid.UUID, Meeting]] = [{} for _ in range(n)]
    for i in range(n):
        for _ in range(RECENT // 2):  # each meeting is recorded on both sides
            j = min(n - 1, max(0, i + rng.randint(-NEAR, NEAR)))
            if j != i:
                meeting = Meeting(rng.randint(1, 3), NOW - dt.timedelta(seconds=rng.uniform(0, 900)))
                met[i][ranked[j][2]] = met[j][ranked[i][2]] = meeting
    return [
        Waiting(
            player,
            points,
            rating,
            NOW - dt.timedelta(seconds=rng.uniform(0, 30)),
            rng.choice((0, 0, 0, 0, 1)),
            rng.randint(-2, 2),
            rng.choice((Side.WHITE, Side.BLACK, None)),
            met[i],
        )
        for i, (points, rating, player) in enumerate(ranked)
    ]


def main() -> None:
    pools = {n: waiting_pool(n) for n in SIZES}
    results = {}
    for n, pool in pools.items():
        gc.collect()
        t0 = time.perf_counter()
        result = pair(pool, NOW)
        elapsed = time.perf_counter() - t0
        results[n] = result
        print(
            f"arena pass: {n} players, {elapsed:.3f} s, {len(result.pairs)} pairs, {len(result.waiting)} waiting",
            flush=True,
        )
    for n, pool in pools.items():
        _verdict(n, pool, results[n])
    _with_redis(pools)
    _through_the_stack()


def _verdict(n: int, pool: list[Waiting], result: Any) -> None:
    report = check(pool, NOW, result)
    active = sum(1 for p in pool for m in p.met.values() if m.active(NOW)) // 2
    if report.ok and report.maximum:
        verdict = "every player with an allowed partner paired (maximum matching, checked)"
    else:
        verdict = f"PROBLEMS: {report.problems[:3]}"
    print(
        f"  {n}: {active} active cooldowns; {verdict}; rank distance mean {report.mean_distance:.2f}, "
        f"max {report.max_distance}; {report.neighbour_pairs} neighbour pairs, {report.repaired_pairs} repaired",
        flush=True,
    )


# -- with the pool in Redis -------------------------------------------------------------------------
def _redis() -> Any | None:
    try:
        import redis

        client = redis.Redis.from_url(
            os.environ.get("ARBITER_REDIS_URL", "redis://127.0.0.1:6379/0"), decode_responses=True
        )
        client.ping()
        return client
    except Exception as exc:
        print(f"(Redis not reachable, skipping the figures with the pool in Redis: {exc})")
        return None


def _with_redis(pools: dict[int, list[Waiting]]) -> None:
    client = _redis()
    if client is None:
        return
    from services.pairing.adapters.arena_pool import RedisArenaPool
    from services.pairing.service_layer.arena_ports import NewGame

    prefix = f"arbiter-bench-{uuid.uuid4().hex[:8]}:"
    store = RedisArenaPool(client, prefix)
    try:
        for n, pool in pools.items():
            arena = uuid.uuid4()
            _load(store, arena, pool)
            gc.collect()
            t0 = time.perf_counter()
            read = store.waiting(arena, NOW)
            t1 = time.perf_counter()
            result = pair(read, NOW)
            t2 = time.perf_counter()
            assert store.take_lease(arena, "bench", 60_000)
            games = [NewGame(uuid.uuid4(), p.white, p.black) for p in result.pairs]
            committed = store.commit(arena, "bench", games, result.waiting, NOW)
            t3 = time.perf_counter()
            print(
                f"arena pass with the pool in Redis: {n} players, {t3 - t0:.3f} s "
                f"(read {t1 - t0:.3f} s, pass {t2 - t1:.3f} s, commit {t3 - t2:.3f} s), "
                f"{len(committed.games)} games made",
                flush=True,
            )
        _two_workers(client, prefix)
    finally:
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        for i in range(0, len(keys), 1000):
            client.delete(*keys[i : i + 1000])
        client.close()


def _load(store: Any, arena: uuid.UUID, pool: list[Waiting]) -> None:
    """Write a pool as joins and finished games would have left it (straight into the key layout)."""
    from services.pairing.adapters.arena_pool import pair_key, to_ms

    k = store.keys(arena)
    pipe = store.client.pipeline(transaction=False)
    for i in range(0, len(pool), 2000):
        chunk = pool[i : i + 2000]
        pipe.zadd(k.waiting, {str(p.player): to_ms(p.since) for p in chunk})
        pipe.hset(k.points, mapping={str(p.player): p.score for p in chunk})
        pipe.hset(k.rating, mapping={str(p.player): p.rating for p in chunk})
        skips = {str(p.player): p.skipped for p in chunk if p.skipped}
        if skips:
            pipe.hset(k.skips, mapping=skips)
        colours: dict[str, Any] = {}
        for p in chunk:
            colours[f"{p.player}:b"] = p.colour_balance
            if p.last_colour is not None:
                colours[f"{p.player}:l"] = "w" if p.last_colour is Side.WHITE else "b"
        pipe.hset(k.colours, mapping=colours)
        met, ends = {}, {}
        for p in chunk:
            for other, m in p.met.items():
                key = pair_key(p.player, other)
                met[key] = f"{m.games}|{to_ms(m.last_ended_at)}"
                ends[key] = ends_ms(m.games, to_ms(m.last_ended_at))
        if met:
            pipe.hset(k.met, mapping=met)
            pipe.zadd(k.cooldowns, ends)
        pipe.execute()


def _two_workers(client: Any, prefix: str) -> None:
    """Two processes pair 8 arenas of 500 players; every game ends as soon as it is made."""
    arenas = [uuid.uuid4() for _ in range(8)]
    from services.pairing.adapters.arena_pool import RedisArenaPool

    store = RedisArenaPool(client, prefix)
    for arena in arenas:
        pipe = client.pipeline(transaction=False)
        k = store.keys(arena)
        players = {str(uuid.uuid4()): to_ms_now() for _ in range(500)}
        pipe.zadd(k.waiting, players)
        pipe.hset(k.rating, mapping=dict.fromkeys(players, 1500))
        pipe.execute()
    context = multiprocessing.get_context("fork")
    counts = context.Queue()
    url = os.environ.get("ARBITER_REDIS_URL", "redis://127.0.0.1:6379/0")
    workers = [
        context.Process(target=_worker, args=(url, prefix, arenas, name, counts)) for name in ("a", "b")
    ]
    for w in workers:
        w.start()
    games = sum(counts.get() for _ in workers)
    for w in workers:
        w.join()
    print(
        f"arena pool, two worker processes: {games / WORKER_SECONDS:.0f} games/s sustained over "
        f"{WORKER_SECONDS:.0f} s (8 arenas × 500 players, games ending at once; Redis and the pass only, "
        f"no services)",
        flush=True,
    )


def to_ms_now() -> int:
    return int(time.time() * 1000)


def _worker(url: str, prefix: str, arenas: list[uuid.UUID], name: str, counts: Any) -> None:
    from services.pairing.adapters.arena_pool import RedisArenaPool
    from services.pairing.service_layer.arena_pass import run_pass
    from services.pairing.service_layer.arena_ports import FinishedGame, LeaseLost

    store = RedisArenaPool.from_url(url, prefix)
    made, stop = 0, time.monotonic() + WORKER_SECONDS
    rng = random.Random(name)
    while time.monotonic() < stop:
        arena = rng.choice(arenas)
        if not store.take_lease(arena, name, 2_000):
            continue
        now = dt.datetime.now(dt.UTC)
        try:
            outcome = run_pass(store, arena, name, now)
        except LeaseLost:
            continue
        games = outcome.committed.games
        store.announced(arena, [g.id for g in games])
        store.release_lease(arena, name)
        for g in games:  # each game ends at once; its cooldown runs for the rest of the run
            store.finish(arena, FinishedGame(g.id, g.white, g.black, now))
        made += len(games)
    counts.put(made)


if __name__ == "__main__":
    main()


# -- through the whole stack ----------------------------------------------------------------------------
def _through_the_stack() -> None:
    """The sustained games per second of an arena on the local stack (every service's processes, two
    pairing workers): its games are learnt from ``arena.paired`` and each is resigned at once over HTTP
    by the organiser; counted by ``game.finished`` over a window (``ARBITER_BENCH_ARENA_STACK_SECONDS``).
    Needs PostgreSQL, RabbitMQ and Redis (as `make test`)."""
    import json
    import tempfile
    from concurrent.futures import ThreadPoolExecutor
    from pathlib import Path

    from tests.e2e.stack import running_stack
    from tests.e2e.story import Spy, Story
    from tests.servers import ServersUnavailable, discover

    try:
        servers = discover()
    except ServersUnavailable as exc:
        print(f"(no local stack, skipping the arena through the stack: {exc})")
        return
    with (
        tempfile.TemporaryDirectory(prefix="arbiter_bench_arena_") as tmp,
        running_stack(servers, Path(tmp)) as stack,
    ):
        story = Story(stack)
        organiser = story.register("Bench organiser")
        players = [story.register(f"Bench {i}", 1200 + 5 * i) for i in range(STACK_PLAYERS)]
        spy = Spy(stack.env["ARBITER_AMQP_URL"], "arena.paired", "game.finished")
        tid = story.create_tournament(
            organiser,
            ruleset="arena",
            duration_minutes=10,
            base_seconds=60,
            start_in=5.0 + 0.1 * STACK_PLAYERS,  # everyone in before it starts
            name="bench arena",
        )
        for p in players:
            story.join(p, tid)
        story.wait_status(tid, "started", timeout=120)

        def resign(game_id: str) -> None:
            body = {"outcome": "1-0", "reason": "resignation"}
            story.call("clocks", "POST", f"/games/{game_id}/result", body, organiser.token, expect=(200, 409))

        finished, t0, elapsed = 0, 0.0, 0.0
        with ThreadPoolExecutor(8) as pool:
            deadline = time.perf_counter() + 60
            while not t0 or (elapsed := time.perf_counter() - t0) < STACK_SECONDS:
                if not t0 and time.perf_counter() > deadline:
                    print("(the arena paired no game within a minute: no figure through the stack)")
                    return
                for body in spy.drain():
                    envelope = json.loads(body)
                    if envelope["type"] == "arena.paired":
                        t0 = t0 or time.perf_counter()  # from the first pass on
                        for g in envelope["payload"]["games"]:
                            pool.submit(resign, g["game_id"])
                    elif t0:
                        finished += 1
                time.sleep(0.02)
        spy.close()
        print(
            f"arena through the stack: 2 pairing workers, {STACK_PLAYERS} players, {finished} games finished "
            f"in {elapsed:.1f} s: {finished / elapsed:.1f} games/s",
            flush=True,
        )
