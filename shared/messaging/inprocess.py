"""The in-process broker: same semantics as RabbitMQ (topic routing, one queue per handler,
dead letters), for the embedded mode and the unit tests. Messages travel as bytes so the
encoding is exercised too. Single-threaded: :meth:`run_until_idle` pumps the queues.
"""

from __future__ import annotations

import fnmatch
import threading
from collections import deque
from collections.abc import Sequence

from shared.events import Envelope, encode
from shared.messaging.delivery import deliver
from shared.messaging.port import MAX_LATER, DeadLetter, Subscription


def _matches(pattern: str, key: str) -> bool:
    """AMQP topic matching: ``*`` one word, ``#`` zero or more words."""
    p_words, k_words = pattern.split("."), key.split(".")

    def match(i: int, j: int) -> bool:
        if i == len(p_words):
            return j == len(k_words)
        if p_words[i] == "#":
            return any(match(i + 1, jj) for jj in range(j, len(k_words) + 1))
        if j == len(k_words):
            return False
        return (p_words[i] == "*" or fnmatch.fnmatchcase(k_words[j], p_words[i])) and match(i + 1, j + 1)

    return match(0, 0)


class InProcessBroker:
    def __init__(self, *, attempts: int = 3, max_later: int = MAX_LATER) -> None:
        self.attempts = attempts
        self.max_later = max_later
        self._bindings: dict[str, tuple[str, ...]] = {}
        self._queues: dict[str, deque[tuple[bytes, int]]] = {}  # body, times put back for later
        self._handlers: dict[str, Subscription] = {}
        self._dead: dict[str, list[DeadLetter]] = {}
        self.published: list[Envelope] = []  # everything ever published, for assertions
        self._lock = threading.RLock()

    def declare(self, subscriptions: Sequence[Subscription]) -> None:
        with self._lock:
            for sub in subscriptions:
                self._bindings[sub.queue] = sub.routing_keys
                self._queues.setdefault(sub.queue, deque())
                self._dead.setdefault(sub.queue, [])

    def publish(self, envelopes: Sequence[Envelope]) -> None:
        with self._lock:
            for envelope in envelopes:
                self.published.append(envelope)
                self._route(envelope.type, encode(envelope))

    def publish_raw(self, routing_key: str, body: bytes) -> None:
        with self._lock:
            self._route(routing_key, body)

    def _route(self, key: str, body: bytes) -> None:
        for queue, patterns in self._bindings.items():
            if any(_matches(p, key) for p in patterns):
                self._queues[queue].append((body, 0))

    def consume(self, subscriptions: Sequence[Subscription], stop: threading.Event) -> None:
        """Register the handlers; deliver what is queued until idle or stopped."""
        self.declare(subscriptions)
        with self._lock:
            for sub in subscriptions:
                self._handlers[sub.queue] = sub
        while not stop.is_set() and self.step():
            pass

    def subscribe(self, subscriptions: Sequence[Subscription]) -> None:
        self.declare(subscriptions)
        with self._lock:
            for sub in subscriptions:
                self._handlers[sub.queue] = sub

    def pending(self) -> int:
        with self._lock:
            return sum(len(q) for name, q in self._queues.items() if name in self._handlers)

    def step(self) -> bool:
        """Deliver one message from the first non-empty subscribed queue. False when idle."""
        with self._lock:
            for queue, messages in self._queues.items():
                sub = self._handlers.get(queue)
                if sub is None or not messages:
                    continue
                body, deferred = messages.popleft()
                verdict = deliver(
                    body,
                    sub.handler,
                    attempts=self.attempts,
                    backoff=0.0,
                    deferred=deferred,
                    max_later=self.max_later,
                )
                if verdict.later:
                    messages.append((body, deferred + 1))  # behind everything queued now
                elif verdict.dead_reason is not None:
                    self._dead[queue].append(DeadLetter(queue, verdict.dead_reason, body))
                return True
        return False

    def run_until_idle(self, max_messages: int = 1_000_000) -> int:
        delivered = 0
        while delivered < max_messages and self.step():
            delivered += 1
        return delivered

    def dead_letters(self, queue: str) -> list[DeadLetter]:
        with self._lock:
            out = self._dead.get(queue, [])
            self._dead[queue] = []
            return out

    def close(self) -> None:
        return None
