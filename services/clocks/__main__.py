"""``python -m services.clocks migrate|consumer|relay|ticker``."""

from __future__ import annotations

import sys
import threading

from services.clocks.bootstrap import Clocks, bootstrap
from services.clocks.entrypoints.ticker import Ticker
from shared.health import database_check
from shared.messaging.port import Report
from shared.runtime import Process, every, service_main


def ticker(svc: Clocks, stop: threading.Event, report: Report) -> None:
    tick = Ticker(svc.bus, svc.clock, sweep_seconds=svc.settings.sweep_seconds, limit=svc.settings.tick_batch)
    every(
        svc.settings.tick_seconds,
        tick.tick,
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
