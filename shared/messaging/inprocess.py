"""The in-process broker: same semantics as RabbitMQ (topic routing, one queue per handler,
dead letters), for the embedded mode and the unit tests. Messages travel as bytes so the
encoding is exercised too. Single-threaded: :meth:`run_until_idle` pumps the queues.
"""

from __future__ import annotations

import fnmatch
import threading
from collections import deque
from collections.abc import Sequence

from shared.events import Envelope, bindings
from shared.messaging.delivery import Patience, deliver_batch
from shared.messaging.port import MAX_LATER, DeadLetter, Report, StoredEvent, Subscription, no_report


def topic_matches(pattern: str, key: str) -> bool:
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
    def __init__(
        self, *, attempts: int = 3, max_later: int = MAX_LATER, batch: int = 50, outage_max: float = 0.5
    ) -> None:
        self.attempts = attempts
        # no waits between a failing handler's attempts; an outage is waited out with short sleeps
        self.patience = Patience(backoff=0.0, outage_backoff=0.001, outage_max=outage_max)
        self.max_later = max_later
        self.batch = batch
        self._bindings: dict[str, tuple[str, ...]] = {}
        self._queues: dict[str, deque[tuple[bytes, int]]] = {}  # body, times put back for later
        self._handlers: dict[str, Subscription] = {}
        self._later: dict[str, list[tuple[bytes, int]]] = {}  # parked: not ready when last delivered
        self._progress = False  # something was handled since messages were last parked
        self._turn: deque[str] = deque()  # queues take turns
        self._dead: dict[str, list[DeadLetter]] = {}
        self.published: list[Envelope] = []  # everything ever published, for assertions
        self._lock = threading.RLock()
        self._arrived = threading.Event()  # wakes a consumer thread waiting for messages

    def declare(self, subscriptions: Sequence[Subscription]) -> None:
        with self._lock:
            for sub in subscriptions:
                self._bindings[sub.queue] = bindings(sub.routing_keys)
                if sub.queue not in self._queues:
                    self._queues[sub.queue] = deque()
                    self._later[sub.queue] = []
                    self._turn.append(sub.queue)
                self._dead.setdefault(sub.queue, [])

    def publish(self, envelopes: Sequence[Envelope]) -> None:
        self.publish_stored([StoredEvent.of(e) for e in envelopes])

    def publish_stored(self, events: Sequence[StoredEvent]) -> None:
        with self._lock:
            for event in events:
                self.published.append(Envelope.model_validate_json(event.body))
                self._route(event.type, event.body)
        self._arrived.set()

    def publish_raw(self, routing_key: str, body: bytes) -> None:
        with self._lock:
            self._route(routing_key, body)
        self._arrived.set()

    def _route(self, key: str, body: bytes) -> None:
        for queue, patterns in self._bindings.items():
            if any(topic_matches(p, key) for p in patterns):
                self._queues[queue].append((body, 0))

    def consume(
        self, subscriptions: Sequence[Subscription], stop: threading.Event, report: Report = no_report
    ) -> None:
        """Register the handlers and deliver until ``stop`` is set, waiting for messages when idle, as a
        RabbitMQ consumer does. (Nothing to report: there is no connection, and an outage is waited out
        within :meth:`step`.) Single-threaded callers pump with :meth:`run_until_idle` instead."""
        self.subscribe(subscriptions)
        while not stop.is_set():
            if not self.step():
                self._arrived.wait(0.05)
                self._arrived.clear()
                with self._lock:  # time passed: what was parked comes back, as a .later queue's TTL ends
                    self._unpark()

    def subscribe(self, subscriptions: Sequence[Subscription]) -> None:
        self.declare(subscriptions)
        with self._lock:
            for sub in subscriptions:
                self._handlers[sub.queue] = sub

    def pending(self) -> int:
        with self._lock:
            return sum(
                len(q) + len(self._later[name]) for name, q in self._queues.items() if name in self._handlers
            )

    def step(self) -> bool:
        """One delivery: the next queue in turn that holds messages gives up to ``batch`` of them
        (together, when its subscription handles batches). A message that is not ready is parked and
        comes back only after other messages were handled, like RabbitMQ's delayed ``.later`` queue.
        False when there is nothing to do."""
        with self._lock:
            for _ in range(len(self._turn)):
                queue = self._turn[0]
                self._turn.rotate(-1)
                messages = self._queues[queue]
                sub = self._handlers.get(queue)
                if sub is None or not messages:
                    continue
                taken = [messages.popleft() for _ in range(min(self.batch, len(messages)))]
                verdicts = deliver_batch(
                    taken, sub, attempts=self.attempts, patience=self.patience, max_later=self.max_later
                )
                given_back = [m for m, v in zip(taken, verdicts, strict=True) if v.requeue]
                messages.extendleft(reversed(given_back))  # unhandled: first in line again
                for (body, deferred), verdict in zip(taken, verdicts, strict=True):
                    if verdict.requeue:
                        continue
                    if verdict.later:
                        self._later[queue].append((body, deferred + 1))
                        continue
                    self._progress = True
                    if verdict.dead_reason is not None:
                        self._dead[queue].append(DeadLetter(queue, verdict.dead_reason, body))
                return True
            if self._progress and any(self._later.values()):
                self._unpark()
                return True
        return False

    def _unpark(self) -> None:
        self._progress = False
        for queue, parked in self._later.items():
            self._queues[queue].extend(parked)
            parked.clear()

    def run_until_idle(self, max_steps: int = 1_000_000) -> int:
        """Deliver until nothing more can be done; the number of deliveries (batches). Each call is a
        new chance for parked messages (as time passing is for RabbitMQ's ``.later`` queues)."""
        with self._lock:
            self._unpark()
        steps = 0
        while steps < max_steps and self.step():
            steps += 1
        return steps

    def dead_letters(self, queue: str) -> list[DeadLetter]:
        with self._lock:
            out = self._dead.get(queue, [])
            self._dead[queue] = []
            return out

    def keepalive(self) -> None:
        return None  # no connection

    def close(self) -> None:
        return None
