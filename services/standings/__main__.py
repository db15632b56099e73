"""``python -m services.standings migrate|consumer|relay``."""

from __future__ import annotations

import sys

from services.standings.bootstrap import bootstrap
from shared.runtime import Process, service_main

PROCESSES: dict[str, Process] = {
    "consumer": lambda svc, stop, report: svc.broker.consume(svc.subscriptions, stop, report),
    "relay": lambda svc, stop, report: svc.relay.run(stop, report=report),
}

if __name__ == "__main__":
    sys.exit(service_main("standings", sys.argv[1:], bootstrap, PROCESSES))
