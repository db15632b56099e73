"""``python -m services.pairing migrate|consumer|worker|relay``."""

from __future__ import annotations

import logging
import os
import socket
import sys
import threading
import uuid

from services.pairing.bootstrap import Pairing, bootstrap
from shared import metrics
from shared.messaging.port import Report
from shared.runtime import Process, service_main

log = logging.getLogger("services.pairing.worker")


def arena_loop(svc: Pairing, stop: threading.Event) -> None:
    """The worker's arena passes (docs/arena.md): a tick every ``ARBITER_ARENA_PASS_SECONDS``, under a
    token of this process's own; a failing tick (Redis or the database away) is logged and retried."""
    token = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
    while not stop.is_set():
        try:
            with metrics.PAIRING.labels("arena_pass").time():
                svc.run_arena_passes(token)
        except Exception:
            log.exception("arena passes failed; trying again")
        stop.wait(svc.settings.arena_pass_seconds)


def worker(svc: Pairing, stop: threading.Event, report: Report) -> None:
    for kind in metrics.PAIRING_KINDS:  # on /metrics from the start, at zero
        metrics.PAIRING.labels(kind)
    arenas = threading.Thread(target=arena_loop, args=(svc, stop), name="arena-passes", daemon=True)
    arenas.start()
    try:
        svc.broker.consume(svc.worker_subscriptions, stop, report)
    finally:
        stop.set()
        arenas.join(timeout=10)


PROCESSES: dict[str, Process] = {
    "consumer": lambda svc, stop, report: svc.broker.consume(svc.subscriptions, stop, report),
    "worker": worker,
    "relay": lambda svc, stop, report: svc.relay.run(stop, report=report),
}

if __name__ == "__main__":
    sys.exit(service_main("pairing", sys.argv[1:], bootstrap, PROCESSES))
