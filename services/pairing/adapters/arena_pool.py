"""The arena's waiting pool (:class:`~services.pairing.service_layer.arena_ports.ArenaPool`) on Redis, and
its in-memory twin for the embedded mode and the unit tests; one contract suite holds both
(``tests/arena_pool_contract.py``). docs/arena.md, "The pool in Redis", draws the layout.

Keys, under the configured prefix ``P`` (``{A}``: the arena id as a hash tag):

=====================================  ======  =====================================================
``P pairing:arena:{A}:lease``          string  the token of the worker holding the arena's passes (PX)
``P pairing:arena:{A}:waiting``        zset    player → since when they wait (epoch ms)
``P pairing:arena:{A}:absent``         hash    player → ``paused`` | ``left``
``P pairing:arena:{A}:points``         hash    player → arena points (the ranking's first key)
``P pairing:arena:{A}:rating``         hash    player → rating
``P pairing:arena:{A}:skips``          hash    player → passes spent waiting since they last entered
``P pairing:arena:{A}:colours``        hash    ``<player>:b`` → whites − blacks, ``<player>:l`` → w | b
``P pairing:arena:{A}:met``            hash    ``<low>|<high>`` → ``<games together>|<last end ms>``
``P pairing:arena:{A}:cooldowns``      zset    ``<low>|<high>`` → when their cooldown ends (ms)
``P pairing:arena:{A}:games``          hash    game → ``<white>|<black>|<paired ms>``, while running
``P pairing:arena:{A}:unannounced``    hash    the same, committed and not yet handed on
``P pairing:arena:{A}:built``          string  when the pool was built (opened or rebuilt), epoch ms
``P pairing:playing:<player>``         string  the in-game marker, shared by every arena and tournament
=====================================  ======  =====================================================

A pool whose ``built`` key is missing was lost (Redis came back without its data): the worker holding
the lease rebuilds it from the database (:meth:`RedisArenaPool.rebuild`, one fenced transaction).

The commit is one Lua script: it checks the lease token first (fencing: a worker whose lease expired or
was taken over writes nothing), then for each pair that both players are still waiting and in no game,
and makes exactly those games. A pass reads with two pipelined round trips and never writes.
Redis's errors of reach (connection, timeout) become :class:`ArenaPoolUnavailable`.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from services.pairing.domain.arena.cooldown import PER_GAME_MS, Meeting, ends_ms
from services.pairing.domain.arena.pairing import Side, Waiting
from services.pairing.domain.arena.record import PoolState
from services.pairing.service_layer.arena_ports import (
    ArenaPoolUnavailable,
    Committed,
    FinishedGame,
    LeaseLost,
    NewGame,
    arena_game_ref,
)

EPOCH: Final = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
MS: Final = dt.timedelta(milliseconds=1)
PAUSED: Final = "paused"
LEFT: Final = "left"


def to_ms(at: dt.datetime) -> int:
    return (at - EPOCH) // MS


def from_ms(ms: float) -> dt.datetime:
    return EPOCH + int(ms) * MS


def pair_key(a: uuid.UUID | str, b: uuid.UUID | str) -> str:
    """The two players of a meeting, in one order whoever is named first."""
    x, y = str(a), str(b)
    return f"{x}|{y}" if x < y else f"{y}|{x}"


# -- Redis ------------------------------------------------------------------------------------------
_TAKE_LEASE = """
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if holder then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""

_COMPARE_AND_DELETE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS: lease, waiting, skips, colours, games, unannounced, cooldowns, then two markers per game
# ARGV: token, now ms, arena, games count, then (game, white, black) per game, then the players left
_COMMIT = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
local now, arena, count = ARGV[2], ARGV[3], tonumber(ARGV[4])
local made = {}
for i = 0, count - 1 do
  local game, white, black = ARGV[5 + 3 * i], ARGV[6 + 3 * i], ARGV[7 + 3 * i]
  local mark_white, mark_black = KEYS[8 + 2 * i], KEYS[9 + 2 * i]
  local players = white .. '|' .. black .. '|'
  local known = redis.call('HGET', KEYS[5], game)
  if known and string.sub(known, 1, #players) == players then
    made[#made + 1] = game
  elseif white ~= black
      and redis.call('ZSCORE', KEYS[2], white) and redis.call('ZSCORE', KEYS[2], black)
      and redis.call('EXISTS', mark_white) == 0 and redis.call('EXISTS', mark_black) == 0 then
    local ref = 'arena:' .. arena .. ':' .. game
    redis.call('SET', mark_white, ref)
    redis.call('SET', mark_black, ref)
    redis.call('ZREM', KEYS[2], white, black)
    redis.call('HDEL', KEYS[3], white, black)
    redis.call('HINCRBY', KEYS[4], white .. ':b', 1)
    redis.call('HINCRBY', KEYS[4], black .. ':b', -1)
    redis.call('HSET', KEYS[4], white .. ':l', 'w', black .. ':l', 'b')
    local record = players .. now
    redis.call('HSET', KEYS[5], game, record)
    redis.call('HSET', KEYS[6], game, record)
    made[#made + 1] = game
  end
end
for j = 5 + 3 * count, #ARGV do
  if redis.call('ZSCORE', KEYS[2], ARGV[j]) then redis.call('HINCRBY', KEYS[3], ARGV[j], 1) end
end
redis.call('ZREMRANGEBYSCORE', KEYS[7], '-inf', now)
return made
"""

# KEYS: games, unannounced, waiting, absent, points, met, cooldowns, white's marker, black's marker
# ARGV: game, ended ms, white, black, white's points, black's points, cooldown per game ms, marker
_FINISH = """
for _, key in ipairs({KEYS[8], KEYS[9]}) do
  if redis.call('GET', key) == ARGV[8] then redis.call('DEL', key) end
end
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HDEL', KEYS[2], ARGV[1])
local white, black, ended = ARGV[3], ARGV[4], tonumber(ARGV[2])
local pair = white < black and (white .. '|' .. black) or (black .. '|' .. white)
local games = 1
local before = redis.call('HGET', KEYS[6], pair)
if before then games = tonumber(string.match(before, '^(%d+)|')) + 1 end
redis.call('HSET', KEYS[6], pair, games .. '|' .. ARGV[2])
redis.call('ZADD', KEYS[7], string.format('%.0f', ended + tonumber(ARGV[7]) * games), pair)
if ARGV[5] ~= '' then redis.call('HSET', KEYS[5], white, ARGV[5]) end
if ARGV[6] ~= '' then redis.call('HSET', KEYS[5], black, ARGV[6]) end
for _, player in ipairs({white, black}) do
  if redis.call('HEXISTS', KEYS[4], player) == 0 then
    redis.call('ZADD', KEYS[3], 'NX', ended, player)
  end
end
return 1
"""


@dataclass(frozen=True)
class _Keys:
    lease: str
    waiting: str
    absent: str
    points: str
    rating: str
    skips: str
    colours: str
    met: str
    cooldowns: str
    games: str
    unannounced: str
    built: str

    @classmethod
    def of(cls, prefix: str, arena: uuid.UUID) -> _Keys:
        base = f"{prefix}pairing:arena:{{{arena}}}:"
        return cls(*(base + name for name in cls.__dataclass_fields__))

    def all(self) -> list[str]:
        return [getattr(self, name) for name in self.__dataclass_fields__]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class RedisArenaPool:
    """``client``: a ``redis.Redis``; ``prefix``: the configured key prefix (``ARBITER_REDIS_PREFIX``)."""

    def __init__(self, client: Any, prefix: str) -> None:
        self.client = client
        self.prefix = prefix
        self._take_lease = client.register_script(_TAKE_LEASE)
        self._compare_and_delete = client.register_script(_COMPARE_AND_DELETE)
        self._commit = client.register_script(_COMMIT)
        self._finish = client.register_script(_FINISH)

    @classmethod
    def from_url(cls, url: str, prefix: str) -> RedisArenaPool:
        import redis

        return cls(redis.Redis.from_url(url, socket_timeout=5.0, socket_connect_timeout=2.0), prefix)

    def keys(self, arena: uuid.UUID) -> _Keys:
        return _Keys.of(self.prefix, arena)

    def marker(self, player: uuid.UUID | str) -> str:
        return f"{self.prefix}pairing:playing:{player}"

    # -- players ----------------------------------------------------------------------------------
    def join(self, arena: uuid.UUID, player: uuid.UUID, *, rating: int, at: dt.datetime) -> None:
        k, p = self.keys(arena), str(player)

        def run(pipe: Any) -> None:
            pipe.hsetnx(k.points, p, 0)
            pipe.hset(k.rating, p, rating)
            pipe.hdel(k.absent, p)
            pipe.zadd(k.waiting, {p: to_ms(at)}, nx=True)

        self._transaction(run)

    def pause(self, arena: uuid.UUID, player: uuid.UUID) -> None:
        self._away(arena, player, PAUSED)

    def leave(self, arena: uuid.UUID, player: uuid.UUID) -> None:
        self._away(arena, player, LEFT)

    def _away(self, arena: uuid.UUID, player: uuid.UUID, why: str) -> None:
        k, p = self.keys(arena), str(player)

        def run(pipe: Any) -> None:
            pipe.zrem(k.waiting, p)
            pipe.hset(k.absent, p, why)
            pipe.hdel(k.skips, p)

        self._transaction(run)

    def rescore(self, arena: uuid.UUID, points: dict[uuid.UUID, int]) -> None:
        if points:
            mapping = {str(p): n for p, n in points.items()}
            self._call(lambda: self.client.hset(self.keys(arena).points, mapping=mapping))

    # -- the lease --------------------------------------------------------------------------------
    def take_lease(self, arena: uuid.UUID, token: str, ttl_ms: int) -> bool:
        lease = self.keys(arena).lease
        return bool(self._call(lambda: self._take_lease(keys=[lease], args=[token, ttl_ms])))

    def release_lease(self, arena: uuid.UUID, token: str) -> None:
        lease = self.keys(arena).lease
        self._call(lambda: self._compare_and_delete(keys=[lease], args=[token]))

    # -- a pass -----------------------------------------------------------------------------------
    def waiting(self, arena: uuid.UUID, now: dt.datetime) -> list[Waiting]:
        k, now_ms = self.keys(arena), to_ms(now)

        def first(pipe: Any) -> None:
            pipe.zrange(k.waiting, 0, -1, withscores=True)
            pipe.zrangebyscore(k.cooldowns, f"({now_ms}", "+inf")

        members, active = self._pipeline(first)
        if not members:
            return []
        ids = [_text(m) for m, _ in members]
        pairs = [_text(a) for a in active]

        def second(pipe: Any) -> None:
            pipe.hmget(k.points, ids)
            pipe.hmget(k.rating, ids)
            pipe.hmget(k.skips, ids)
            pipe.hmget(k.colours, [f"{p}:{f}" for p in ids for f in "bl"])
            pipe.mget([self.marker(p) for p in ids])
            if pairs:
                pipe.hmget(k.met, pairs)

        answers = self._pipeline(second)
        points, ratings, skips, colours, markers = answers[:5]
        present = {p: uuid.UUID(p) for i, p in enumerate(ids) if markers[i] is None}
        meetings = _meetings(pairs, answers[5] if pairs else [], present)
        pool = []
        for i, (_, since) in enumerate(members):
            player = present.get(ids[i])
            if player is None:
                continue  # in a game somewhere: not in the pool until it ends
            last = colours[2 * i + 1]
            pool.append(
                Waiting(
                    player,
                    int(points[i] or 0),
                    int(ratings[i] or 0),
                    from_ms(since),
                    int(skips[i] or 0),
                    int(colours[2 * i] or 0),
                    None if last is None else _COLOUR[_text(last)],
                    meetings.get(player, {}),
                )
            )
        return pool

    def commit(
        self,
        arena: uuid.UUID,
        token: str,
        games: Sequence[NewGame],
        left_waiting: Iterable[uuid.UUID],
        at: dt.datetime,
    ) -> Committed:
        k = self.keys(arena)
        keys = [k.lease, k.waiting, k.skips, k.colours, k.games, k.unannounced, k.cooldowns]
        args: list[Any] = [token, to_ms(at), str(arena), len(games)]
        for g in games:
            keys += [self.marker(g.white), self.marker(g.black)]
            args += [str(g.id), str(g.white), str(g.black)]
        args += [str(p) for p in left_waiting]
        answer = self._call(lambda: self._commit(keys=keys, args=args))
        if answer == -1:
            raise LeaseLost(f"arena {arena}: the lease is no longer this worker's; nothing was committed")
        made = {_text(g) for g in answer}
        return Committed(
            tuple(g for g in games if str(g.id) in made),
            tuple(g for g in games if str(g.id) not in made),
        )

    def unannounced(self, arena: uuid.UUID) -> tuple[NewGame, ...]:
        records = self._call(lambda: self.client.hgetall(self.keys(arena).unannounced))
        return _games(records)

    def announced(self, arena: uuid.UUID, games: Iterable[uuid.UUID]) -> None:
        ids = [str(g) for g in games]
        if ids:
            self._call(lambda: self.client.hdel(self.keys(arena).unannounced, *ids))

    def running(self, arena: uuid.UUID) -> tuple[NewGame, ...]:
        """The arena's games paired and not finished (for the tests and the page)."""
        return _games(self._call(lambda: self.client.hgetall(self.keys(arena).games)))

    # -- after a game ------------------------------------------------------------------------------
    def finish(self, arena: uuid.UUID, game: FinishedGame) -> bool:
        k = self.keys(arena)
        keys = [
            k.games,
            k.unannounced,
            k.waiting,
            k.absent,
            k.points,
            k.met,
            k.cooldowns,
            self.marker(game.white),
            self.marker(game.black),
        ]
        args = [
            str(game.id),
            to_ms(game.ended_at),
            str(game.white),
            str(game.black),
            "" if game.white_points is None else game.white_points,
            "" if game.black_points is None else game.black_points,
            PER_GAME_MS,
            arena_game_ref(arena, game.id),
        ]
        return bool(self._call(lambda: self._finish(keys=keys, args=args)))

    # -- in a game anywhere --------------------------------------------------------------------------
    def playing(self, player: uuid.UUID) -> str | None:
        value = self._call(lambda: self.client.get(self.marker(player)))
        return None if value is None else _text(value)

    def start_playing(self, player: uuid.UUID, ref: str) -> bool:
        return bool(self._call(lambda: self.client.set(self.marker(player), ref, nx=True)))

    def stop_playing(self, player: uuid.UUID, ref: str) -> None:
        marker = self.marker(player)
        self._call(lambda: self._compare_and_delete(keys=[marker], args=[ref]))

    def discard(self, arena: uuid.UUID) -> None:
        keys = self.keys(arena).all()
        self._call(lambda: self.client.delete(*keys))

    def ping(self) -> None:
        self._call(self.client.ping)

    # -- a lost pool ---------------------------------------------------------------------------------
    def open(self, arena: uuid.UUID) -> None:
        built = self.keys(arena).built
        self._call(lambda: self.client.set(built, _now_ms(), nx=True))

    def intact(self, arena: uuid.UUID) -> bool:
        built = self.keys(arena).built
        return bool(self._call(lambda: self.client.exists(built)))

    def rebuild(self, arena: uuid.UUID, token: str, state: PoolState) -> None:
        """One transaction (MULTI/EXEC) under a WATCH of the lease: written whole, or not at all when
        the lease is not ``token``'s or changes hands meanwhile."""
        import redis

        k, now = self.keys(arena), _now_ms()

        def run() -> None:
            with self.client.pipeline(transaction=True) as pipe:
                pipe.watch(k.lease)
                holder = pipe.get(k.lease)
                if holder is None or _text(holder) != token:
                    raise LeaseLost(
                        f"arena {arena}: the lease is not this worker's; the pool was not rebuilt"
                    )
                pipe.multi()
                _write_state(pipe, k, state, now, self.marker)
                pipe.set(k.built, now)
                pipe.execute()

        try:
            self._call(run)
        except redis.WatchError as exc:
            raise LeaseLost(f"arena {arena}: the lease changed hands; the pool was not rebuilt") from exc

    def snapshot(self, arena: uuid.UUID) -> PoolState:
        """The pool as a :class:`PoolState` (the tests compare a rebuilt pool with the one lost)."""
        k = self.keys(arena)

        def read(pipe: Any) -> None:
            pipe.zrange(k.waiting, 0, -1, withscores=True)
            for key in (k.absent, k.points, k.rating, k.colours, k.met, k.games):
                pipe.hgetall(key)

        waiting, absent, points, ratings, colours, met, games = self._pipeline(read)
        state = _state_of(waiting, absent, points, ratings, colours, met, games)
        players = sorted(state.players() | {p for pair in state.running.values() for p in pair}, key=str)
        markers = self._call(lambda: self.client.mget([self.marker(p) for p in players])) if players else []
        playing = {p: _text(m) for p, m in zip(players, markers, strict=True) if m is not None}
        return replace(state, playing=playing)

    # -- plumbing ---------------------------------------------------------------------------------
    def _transaction(self, commands: Callable[[Any], None]) -> list[Any]:
        def run() -> list[Any]:
            pipe = self.client.pipeline(transaction=True)
            commands(pipe)
            return list(pipe.execute())

        return list(self._call(run))

    def _pipeline(self, commands: Callable[[Any], None]) -> list[Any]:
        def run() -> list[Any]:
            pipe = self.client.pipeline(transaction=False)
            commands(pipe)
            return list(pipe.execute())

        return list(self._call(run))

    def _call(self, operation: Callable[[], Any]) -> Any:
        import redis

        try:
            return operation()
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            raise ArenaPoolUnavailable(f"the arena pool (Redis) is unavailable: {exc}") from exc


_COLOUR: Final = {"w": Side.WHITE, "b": Side.BLACK}
_LETTER: Final = {Side.WHITE: "w", Side.BLACK: "b"}


def _now_ms() -> int:
    return int(time.time() * 1000)


def _write_state(
    pipe: Any, k: _Keys, state: PoolState, now_ms: int, marker: Callable[[uuid.UUID], str]
) -> None:
    """The commands that write ``state`` over what the pool holds (nothing is deleted)."""
    if state.waiting:
        pipe.zadd(k.waiting, {str(p): to_ms(t) for p, t in state.waiting.items()})
    hashes = (
        (k.absent, {str(p): why for p, why in state.absent.items()}),
        (k.points, {str(p): n for p, n in state.points.items()}),
        (k.rating, {str(p): n for p, n in state.ratings.items()}),
        (
            k.colours,
            {f"{p}:b": n for p, n in state.balance.items()}
            | {f"{p}:l": _LETTER[c] for p, c in state.last.items()},
        ),
        (
            k.met,
            {pair_key(*pair): f"{m.games}|{to_ms(m.last_ended_at)}" for pair, m in state.met.items()},
        ),
        (k.games, {str(g): f"{w}|{b}|{now_ms}" for g, (w, b) in state.running.items()}),
    )
    for key, mapping in hashes:
        if mapping:
            pipe.hset(key, mapping=mapping)
    if state.met:
        pipe.zadd(
            k.cooldowns,
            {pair_key(*pair): ends_ms(m.games, to_ms(m.last_ended_at)) for pair, m in state.met.items()},
        )
    for player, ref in state.playing.items():
        pipe.set(marker(player), ref, nx=True)


def _state_of(
    waiting: list[Any],
    absent: dict[Any, Any],
    points: dict[Any, Any],
    ratings: dict[Any, Any],
    colours: dict[Any, Any],
    met: dict[Any, Any],
    games: dict[Any, Any],
) -> PoolState:
    balance: dict[uuid.UUID, int] = {}
    last: dict[uuid.UUID, Side] = {}
    for field_, value in colours.items():
        player, _, kind = _text(field_).rpartition(":")
        if kind == "b":
            balance[uuid.UUID(player)] = int(value)
        else:
            last[uuid.UUID(player)] = _COLOUR[_text(value)]
    meetings = {}
    for pair, value in met.items():
        a, b = _text(pair).split("|")
        n, ended = _text(value).split("|")
        meetings[frozenset((uuid.UUID(a), uuid.UUID(b)))] = Meeting(int(n), from_ms(int(ended)))
    return PoolState(
        waiting={uuid.UUID(_text(p)): from_ms(ms) for p, ms in waiting},
        absent={uuid.UUID(_text(p)): _text(v) for p, v in absent.items()},
        points={uuid.UUID(_text(p)): int(v) for p, v in points.items()},
        ratings={uuid.UUID(_text(p)): int(v) for p, v in ratings.items()},
        balance=balance,
        last=last,
        met=meetings,
        running={g.id: (g.white, g.black) for g in _games(games)},
    )


def _meetings(
    pairs: list[str], values: list[Any], present: dict[str, uuid.UUID]
) -> dict[uuid.UUID, dict[uuid.UUID, Meeting]]:
    """The meetings in cooldown between players in the pool (the pass ignores everyone else)."""
    out: dict[uuid.UUID, dict[uuid.UUID, Meeting]] = {}
    for pair, value in zip(pairs, values, strict=True):
        a, b = pair.split("|")
        x, y = present.get(a), present.get(b)
        if value is None or x is None or y is None:
            continue
        games, last = _text(value).split("|")
        meeting = Meeting(int(games), from_ms(int(last)))
        out.setdefault(x, {})[y] = meeting
        out.setdefault(y, {})[x] = meeting
    return out


def _games(records: dict[Any, Any]) -> tuple[NewGame, ...]:
    games = []
    for game, record in records.items():
        white, black, _ = _text(record).split("|")
        games.append(NewGame(uuid.UUID(_text(game)), uuid.UUID(white), uuid.UUID(black)))
    return tuple(sorted(games, key=lambda g: g.id.int))


# -- in memory --------------------------------------------------------------------------------------
@dataclass
class _Arena:
    waiting: dict[uuid.UUID, int] = field(default_factory=dict)  # player → since (ms)
    absent: dict[uuid.UUID, str] = field(default_factory=dict)
    points: dict[uuid.UUID, int] = field(default_factory=dict)
    rating: dict[uuid.UUID, int] = field(default_factory=dict)
    skips: dict[uuid.UUID, int] = field(default_factory=dict)
    balance: dict[uuid.UUID, int] = field(default_factory=dict)
    last: dict[uuid.UUID, Side] = field(default_factory=dict)
    met: dict[frozenset[uuid.UUID], tuple[int, int]] = field(default_factory=dict)  # games, last end ms
    games: dict[uuid.UUID, NewGame] = field(default_factory=dict)
    unannounced: dict[uuid.UUID, NewGame] = field(default_factory=dict)
    lease: tuple[str, float] | None = None  # token, expiry (monotonic seconds)
    built: bool = False


class InMemoryArenaPool:
    """The same semantics in one process (thread-safe): for the embedded mode and the unit tests.
    ``monotonic``: the clock leases expire by (seconds)."""

    def __init__(self, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._arenas: dict[uuid.UUID, _Arena] = {}
        self._playing: dict[uuid.UUID, str] = {}
        self._monotonic = monotonic
        self._lock = threading.Lock()

    def _arena(self, arena: uuid.UUID) -> _Arena:
        return self._arenas.setdefault(arena, _Arena())

    # -- players ----------------------------------------------------------------------------------
    def join(self, arena: uuid.UUID, player: uuid.UUID, *, rating: int, at: dt.datetime) -> None:
        with self._lock:
            a = self._arena(arena)
            a.points.setdefault(player, 0)
            a.rating[player] = rating
            a.absent.pop(player, None)
            a.waiting.setdefault(player, to_ms(at))

    def pause(self, arena: uuid.UUID, player: uuid.UUID) -> None:
        self._away(arena, player, PAUSED)

    def leave(self, arena: uuid.UUID, player: uuid.UUID) -> None:
        self._away(arena, player, LEFT)

    def _away(self, arena: uuid.UUID, player: uuid.UUID, why: str) -> None:
        with self._lock:
            a = self._arena(arena)
            a.waiting.pop(player, None)
            a.absent[player] = why
            a.skips.pop(player, None)

    def rescore(self, arena: uuid.UUID, points: dict[uuid.UUID, int]) -> None:
        with self._lock:
            self._arena(arena).points.update(points)

    # -- the lease --------------------------------------------------------------------------------
    def take_lease(self, arena: uuid.UUID, token: str, ttl_ms: int) -> bool:
        with self._lock:
            a, now = self._arena(arena), self._monotonic()
            holder = self._holder(a, now)
            if holder is not None and holder != token:
                return False
            a.lease = (token, now + ttl_ms / 1000)
            return True

    def release_lease(self, arena: uuid.UUID, token: str) -> None:
        with self._lock:
            a = self._arena(arena)
            if self._holder(a, self._monotonic()) == token:
                a.lease = None

    @staticmethod
    def _holder(a: _Arena, now: float) -> str | None:
        if a.lease is None or a.lease[1] <= now:
            return None
        return a.lease[0]

    # -- a pass -----------------------------------------------------------------------------------
    def waiting(self, arena: uuid.UUID, now: dt.datetime) -> list[Waiting]:
        now_ms = to_ms(now)
        with self._lock:
            a = self._arena(arena)
            present = {p for p in a.waiting if p not in self._playing}
            met: dict[uuid.UUID, dict[uuid.UUID, Meeting]] = {}
            for pair, (games, last) in a.met.items():
                if ends_ms(games, last) <= now_ms:
                    continue
                x, y = pair
                meeting = Meeting(games, from_ms(last))
                for me, other in ((x, y), (y, x)):
                    if me in present:
                        met.setdefault(me, {})[other] = meeting
            return [
                Waiting(
                    p,
                    a.points.get(p, 0),
                    a.rating.get(p, 0),
                    from_ms(since),
                    a.skips.get(p, 0),
                    a.balance.get(p, 0),
                    a.last.get(p),
                    met.get(p, {}),
                )
                for p, since in sorted(a.waiting.items(), key=lambda item: (item[1], str(item[0])))
                if p in present
            ]

    def commit(
        self,
        arena: uuid.UUID,
        token: str,
        games: Sequence[NewGame],
        left_waiting: Iterable[uuid.UUID],
        at: dt.datetime,
    ) -> Committed:
        with self._lock:
            a = self._arena(arena)
            if self._holder(a, self._monotonic()) != token:
                raise LeaseLost(f"arena {arena}: the lease is no longer this worker's; nothing was committed")
            made, dropped = [], []
            for g in games:
                known = a.games.get(g.id)
                if known is not None and (known.white, known.black) == (g.white, g.black):
                    made.append(g)
                elif (
                    g.white != g.black
                    and g.white in a.waiting
                    and g.black in a.waiting
                    and g.white not in self._playing
                    and g.black not in self._playing
                ):
                    ref = arena_game_ref(arena, g.id)
                    self._playing[g.white] = self._playing[g.black] = ref
                    for p in (g.white, g.black):
                        del a.waiting[p]
                        a.skips.pop(p, None)
                    a.balance[g.white] = a.balance.get(g.white, 0) + 1
                    a.balance[g.black] = a.balance.get(g.black, 0) - 1
                    a.last[g.white], a.last[g.black] = Side.WHITE, Side.BLACK
                    a.games[g.id] = a.unannounced[g.id] = g
                    made.append(g)
                else:
                    dropped.append(g)
            for p in left_waiting:
                if p in a.waiting:
                    a.skips[p] = a.skips.get(p, 0) + 1
            return Committed(tuple(made), tuple(dropped))

    def unannounced(self, arena: uuid.UUID) -> tuple[NewGame, ...]:
        with self._lock:
            return tuple(sorted(self._arena(arena).unannounced.values(), key=lambda g: g.id.int))

    def announced(self, arena: uuid.UUID, games: Iterable[uuid.UUID]) -> None:
        with self._lock:
            a = self._arena(arena)
            for g in games:
                a.unannounced.pop(g, None)

    def running(self, arena: uuid.UUID) -> tuple[NewGame, ...]:
        with self._lock:
            return tuple(sorted(self._arena(arena).games.values(), key=lambda g: g.id.int))

    # -- after a game ------------------------------------------------------------------------------
    def finish(self, arena: uuid.UUID, game: FinishedGame) -> bool:
        with self._lock:
            ref = arena_game_ref(arena, game.id)
            for p in (game.white, game.black):
                if self._playing.get(p) == ref:
                    del self._playing[p]
            a = self._arena(arena)
            if a.games.pop(game.id, None) is None:
                return False
            a.unannounced.pop(game.id, None)
            ended = to_ms(game.ended_at)
            pair = frozenset((game.white, game.black))
            games = a.met.get(pair, (0, 0))[0] + 1
            a.met[pair] = (games, ended)
            for p, points in ((game.white, game.white_points), (game.black, game.black_points)):
                if points is not None:
                    a.points[p] = points
                if p not in a.absent:
                    a.waiting.setdefault(p, ended)
            return True

    # -- in a game anywhere --------------------------------------------------------------------------
    def playing(self, player: uuid.UUID) -> str | None:
        with self._lock:
            return self._playing.get(player)

    def start_playing(self, player: uuid.UUID, ref: str) -> bool:
        with self._lock:
            if player in self._playing:
                return False
            self._playing[player] = ref
            return True

    def stop_playing(self, player: uuid.UUID, ref: str) -> None:
        with self._lock:
            if self._playing.get(player) == ref:
                del self._playing[player]

    def discard(self, arena: uuid.UUID) -> None:
        with self._lock:
            self._arenas.pop(arena, None)

    def ping(self) -> None:
        return None

    # -- a lost pool ---------------------------------------------------------------------------------
    def open(self, arena: uuid.UUID) -> None:
        with self._lock:
            self._arena(arena).built = True

    def intact(self, arena: uuid.UUID) -> bool:
        with self._lock:
            return self._arena(arena).built

    def rebuild(self, arena: uuid.UUID, token: str, state: PoolState) -> None:
        with self._lock:
            a = self._arena(arena)
            if self._holder(a, self._monotonic()) != token:
                raise LeaseLost(f"arena {arena}: the lease is not this worker's; the pool was not rebuilt")
            a.waiting.update((p, to_ms(t)) for p, t in state.waiting.items())
            a.absent.update(state.absent)
            a.points.update(state.points)
            a.rating.update(state.ratings)
            a.balance.update(state.balance)
            a.last.update(state.last)
            a.met.update((pair, (m.games, to_ms(m.last_ended_at))) for pair, m in state.met.items())
            a.games.update((g, NewGame(g, w, b)) for g, (w, b) in state.running.items())
            for player, ref in state.playing.items():
                self._playing.setdefault(player, ref)
            a.built = True

    def snapshot(self, arena: uuid.UUID) -> PoolState:
        with self._lock:
            a = self._arena(arena)
            state = PoolState(
                waiting={p: from_ms(ms) for p, ms in a.waiting.items()},
                absent=dict(a.absent),
                points=dict(a.points),
                ratings=dict(a.rating),
                balance=dict(a.balance),
                last=dict(a.last),
                met={pair: Meeting(n, from_ms(ms)) for pair, (n, ms) in a.met.items()},
                running={g.id: (g.white, g.black) for g in a.games.values()},
            )
            players = state.players() | {p for pair in state.running.values() for p in pair}
            playing = {p: self._playing[p] for p in players if p in self._playing}
            return replace(state, playing=playing)

    def lose(self) -> None:
        """Everything goes at once, as with a Redis that restarts without its data (for the tests)."""
        with self._lock:
            self._arenas.clear()
            self._playing.clear()
