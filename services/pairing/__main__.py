"""``python -m services.pairing migrate|consumer|worker|relay``."""

from __future__ import annotations

import sys

from services.pairing.bootstrap import bootstrap
from shared.runtime import service_main

PROCESSES = {
    "consumer": lambda svc, stop: svc.broker.consume(svc.subscriptions, stop),
    "worker": lambda svc, stop: svc.broker.consume(svc.worker_subscriptions, stop),
    "relay": lambda svc, stop: svc.relay.run(stop),
}

if __name__ == "__main__":
    sys.exit(service_main("pairing", sys.argv[1:], bootstrap, PROCESSES))
