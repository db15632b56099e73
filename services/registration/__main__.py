"""``python -m services.registration migrate|consumer|relay|scheduler``."""

from __future__ import annotations

import sys
import threading

from services.registration.bootstrap import Registration, bootstrap
from services.registration.service_layer.commands import StartDueTournaments
from shared.runtime import every, service_main


def scheduler(svc: Registration, stop: threading.Event) -> None:
    every(
        svc.settings.scheduler_poll_seconds,
        lambda: svc.bus.handle(StartDueTournaments()),
        stop,
        name="scheduler",
    )


PROCESSES = {
    "consumer": lambda svc, stop: svc.broker.consume(svc.subscriptions, stop),
    "relay": lambda svc, stop: svc.relay.run(stop),
    "scheduler": scheduler,
}

if __name__ == "__main__":
    sys.exit(service_main("registration", sys.argv[1:], bootstrap, PROCESSES))
