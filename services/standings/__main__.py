"""``python -m services.standings migrate|consumer|relay``."""

from __future__ import annotations

import sys

from services.standings.bootstrap import bootstrap
from shared.runtime import service_main

PROCESSES = {
    "consumer": lambda svc, stop: svc.broker.consume(svc.subscriptions, stop),
    "relay": lambda svc, stop: svc.relay.run(stop),
}

if __name__ == "__main__":
    sys.exit(service_main("standings", sys.argv[1:], bootstrap, PROCESSES))
