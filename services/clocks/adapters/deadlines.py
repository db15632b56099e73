"""The deadline store's adapters: which game's flag falls when, for the ticker to find the due ones fast.

The port (:class:`~services.clocks.service_layer.ports.DeadlineStore`) has two adapters, held to one
contract (``tests/deadline_contract.py``): Redis (a sorted set under the configured key prefix; score =
the deadline in epoch milliseconds, member = the game id) and an in-memory one for the embedded mode and
the unit tests; Redis errors become the port's ``DeadlineStoreUnavailable``. The database's
``games.deadline`` column stays authoritative; the store is an index over it that may lag or lose
entries, and the ticker's sweep covers for that.

Deadlines are kept to the millisecond, rounded up, so a game is never due before its flag falls.
"""

from __future__ import annotations

import datetime as dt
import threading
import uuid
from collections.abc import Iterable, Mapping
from typing import Any

from services.clocks.service_layer.ports import DeadlineStoreUnavailable as DeadlineStoreUnavailable

EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
MS = dt.timedelta(milliseconds=1)


def to_score(deadline: dt.datetime) -> int:
    """Epoch milliseconds, rounded up."""
    return -((EPOCH - deadline) // MS)


def from_score(score: float) -> dt.datetime:
    return EPOCH + int(score) * MS


def _now_score(now: dt.datetime) -> int:
    """Epoch milliseconds, rounded down: a score at or below it is due."""
    return (now - EPOCH) // MS


class InMemoryDeadlineStore:
    """For the embedded mode and the unit tests; one process, thread-safe."""

    def __init__(self) -> None:
        self._scores: dict[uuid.UUID, int] = {}
        self._lock = threading.Lock()

    def schedule(self, deadlines: Mapping[uuid.UUID, dt.datetime]) -> None:
        with self._lock:
            for game_id, deadline in deadlines.items():
                self._scores[game_id] = to_score(deadline)

    def cancel(self, game_ids: Iterable[uuid.UUID]) -> None:
        with self._lock:
            for game_id in game_ids:
                self._scores.pop(game_id, None)

    def due(self, now: dt.datetime, limit: int = 100) -> list[uuid.UUID]:
        cutoff = _now_score(now)
        with self._lock:
            ready = sorted((score, str(gid), gid) for gid, score in self._scores.items() if score <= cutoff)
        return [gid for _, _, gid in ready[:limit]]

    def deadline_of(self, game_id: uuid.UUID) -> dt.datetime | None:
        with self._lock:
            score = self._scores.get(game_id)
        return None if score is None else from_score(score)

    def ping(self) -> None:
        return None


class RedisDeadlineStore:
    """A sorted set ``<prefix>clocks:deadlines``. ``client`` is a ``redis.Redis``."""

    def __init__(self, client: Any, prefix: str) -> None:
        self.client = client
        self.key = f"{prefix}clocks:deadlines"

    @classmethod
    def from_url(cls, url: str, prefix: str) -> RedisDeadlineStore:
        """Short timeouts and one quick retry: a Redis outage must not stall a move request or the
        ticker (the database covers for the store), only make the store be skipped."""
        import redis
        from redis.backoff import ExponentialBackoff
        from redis.retry import Retry

        client = redis.Redis.from_url(
            url,
            socket_timeout=1.0,
            socket_connect_timeout=1.0,
            retry=Retry(ExponentialBackoff(cap=0.1, base=0.01), 1),
        )
        return cls(client, prefix)

    def schedule(self, deadlines: Mapping[uuid.UUID, dt.datetime]) -> None:
        if deadlines:
            mapping = {str(gid): to_score(deadline) for gid, deadline in deadlines.items()}
            self._call(lambda: self.client.zadd(self.key, mapping))

    def cancel(self, game_ids: Iterable[uuid.UUID]) -> None:
        members = [str(gid) for gid in game_ids]
        if members:
            self._call(lambda: self.client.zrem(self.key, *members))

    def due(self, now: dt.datetime, limit: int = 100) -> list[uuid.UUID]:
        members = self._call(
            lambda: self.client.zrangebyscore(self.key, "-inf", _now_score(now), start=0, num=limit)
        )
        return [uuid.UUID(m.decode() if isinstance(m, bytes) else m) for m in members]

    def deadline_of(self, game_id: uuid.UUID) -> dt.datetime | None:
        score = self._call(lambda: self.client.zscore(self.key, str(game_id)))
        return None if score is None else from_score(score)

    def ping(self) -> None:
        self._call(self.client.ping)

    def _call(self, operation: Any) -> Any:
        import redis

        try:
            return operation()
        except redis.RedisError as exc:
            raise DeadlineStoreUnavailable(f"the deadline store (Redis) is unavailable: {exc}") from exc
