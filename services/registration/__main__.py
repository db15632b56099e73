"""``python -m services.registration migrate|consumer|relay|scheduler``."""

from __future__ import annotations

import sys
import threading

from services.registration.bootstrap import Registration, bootstrap
from services.registration.service_layer.commands import StartDueTournaments
from shared.health import database_check
from shared.messaging.port import Report
from shared.runtime import Process, every, service_main


def scheduler(svc: Registration, stop: threading.Event, report: Report) -> None:
    every(
        svc.settings.scheduler_poll_seconds,
        lambda: svc.bus.handle(StartDueTournaments()),
        stop,
        name="scheduler",
        report=report,
        probe=database_check(svc.engine),
    )


PROCESSES: dict[str, Process] = {
    "consumer": lambda svc, stop, report: svc.broker.consume(svc.subscriptions, stop, report),
    "relay": lambda svc, stop, report: svc.relay.run(stop, report=report),
    "scheduler": scheduler,
}

if __name__ == "__main__":
    sys.exit(service_main("registration", sys.argv[1:], bootstrap, PROCESSES))
