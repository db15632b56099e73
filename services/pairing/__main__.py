"""``python -m services.pairing migrate|consumer|worker|relay``."""

from __future__ import annotations

import sys

from services.pairing.bootstrap import bootstrap
from shared.runtime import Process, service_main

PROCESSES: dict[str, Process] = {
    "consumer": lambda svc, stop, report: svc.broker.consume(svc.subscriptions, stop, report),
    "worker": lambda svc, stop, report: svc.broker.consume(svc.worker_subscriptions, stop, report),
    "relay": lambda svc, stop, report: svc.relay.run(stop, report=report),
}

if __name__ == "__main__":
    sys.exit(service_main("pairing", sys.argv[1:], bootstrap, PROCESSES))
