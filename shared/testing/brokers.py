"""Run a broker's consumer the same way for the fake and the real adapter, so one contract
suite checks both: each consumes in its own thread until stopped, and the tests poll for effects."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from shared.messaging.port import Broker, Report, Subscription, no_report


class ConsumerHarness:
    def __init__(self, broker: Broker) -> None:
        self.broker = broker
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, subscriptions: Sequence[Subscription], report: Report = no_report) -> None:
        self.broker.declare(subscriptions)
        self._thread = threading.Thread(
            target=self.broker.consume, args=(subscriptions, self._stop, report), daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def __enter__(self) -> ConsumerHarness:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()
