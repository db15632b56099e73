"""``python -m services.clocks migrate|consumer|relay|ticker``."""

from __future__ import annotations

import sys
import threading

from services.clocks.adapters.deadlines import DeadlineStoreUnavailable
from services.clocks.bootstrap import Clocks, bootstrap
from services.clocks.entrypoints.ticker import Ticker
from shared import metrics
from shared.health import database_check
from shared.messaging.port import Report
from shared.runtime import Process, every, service_main


def ticker(svc: Clocks, stop: threading.Event, report: Report) -> None:
    tick = Ticker(svc.bus, svc.clock, sweep_seconds=svc.settings.sweep_seconds, limit=svc.settings.tick_batch)
    delay, flags = metrics.TICKER_DELAY.labels("clocks"), metrics.FLAGS.labels("clocks")

    def measured() -> None:
        """A tick, first measuring how late it comes for the earliest deadline that has passed."""
        now = svc.clock.now()
        try:
            due = svc.deadlines.due(now, limit=1)
            deadline = svc.deadlines.deadline_of(due[0]) if due else None
        except DeadlineStoreUnavailable:  # the tick falls back on the database; the gauge keeps its value
            pass
        else:
            delay.set(0.0 if deadline is None else max(0.0, (now - deadline).total_seconds()))
        flags.inc(tick.tick())

    every(
        svc.settings.tick_seconds,
        measured,
        stop,
        name="clocks-ticker",
        report=report,
        probe=database_check(svc.engine),  # most ticks only read Redis
    )


PROCESSES: dict[str, Process] = {
    "consumer": lambda svc, stop, report: svc.broker.consume(svc.subscriptions, stop, report),
    "relay": lambda svc, stop, report: svc.relay.run(stop, report=report),
    "ticker": ticker,
}

if __name__ == "__main__":
    sys.exit(service_main("clocks", sys.argv[1:], bootstrap, PROCESSES))
