"""``python -m services.pairing migrate|consumer|worker|relay``."""

from __future__ import annotations

import os
import socket
import sys
import threading
import uuid

from services.pairing.bootstrap import Pairing, bootstrap
from shared import metrics
from shared.database import ping
from shared.messaging.port import Report, no_report
from shared.runtime import Process, every, service_main

ARENA_PASSES = "arena passes"  # the condition the arena loop reports on /readyz


def arena_loop(svc: Pairing, stop: threading.Event, report: Report = no_report) -> None:
    """The worker's arena passes (docs/arena.md): a tick every ``ARBITER_ARENA_PASS_SECONDS``, under a
    token of this process's own. Each tick asks Redis first (a tick with no arena open would not
    touch it), so the worker is unready while Redis or PostgreSQL is unreachable; meanwhile the loop
    waits with a growing pause (at most 5 s), tries again only once both answer, and logs one line
    when the outage begins and one when it ends (``shared.runtime.every``)."""
    token = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"

    def tick() -> None:
        svc.arena_pool.ping()
        with metrics.PAIRING.labels("arena_pass").time():
            svc.run_arena_passes(token)

    def probe() -> None:
        ping(svc.engine)
        svc.arena_pool.ping()

    every(
        svc.settings.arena_pass_seconds,
        tick,
        stop,
        name="pairing-arena-passes",
        report=report,
        probe=probe,
        condition=ARENA_PASSES,
    )


def worker(svc: Pairing, stop: threading.Event, report: Report) -> None:
    for kind in metrics.PAIRING_KINDS:  # on /metrics from the start, at zero
        metrics.PAIRING.labels(kind)
    arenas = threading.Thread(target=arena_loop, args=(svc, stop, report), name="arena-passes", daemon=True)
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
