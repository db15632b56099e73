"""``python -m services.pairing migrate|consumer|worker|relay``."""

from __future__ import annotations

import sys
import threading

from services.pairing.bootstrap import Pairing, bootstrap
from shared import metrics
from shared.messaging.port import Report
from shared.runtime import Process, service_main


def worker(svc: Pairing, stop: threading.Event, report: Report) -> None:
    for kind in metrics.PAIRING_KINDS:  # on /metrics from the start, at zero
        metrics.PAIRING.labels(kind)
    svc.broker.consume(svc.worker_subscriptions, stop, report)


PROCESSES: dict[str, Process] = {
    "consumer": lambda svc, stop, report: svc.broker.consume(svc.subscriptions, stop, report),
    "worker": worker,
    "relay": lambda svc, stop, report: svc.relay.run(stop, report=report),
}

if __name__ == "__main__":
    sys.exit(service_main("pairing", sys.argv[1:], bootstrap, PROCESSES))
