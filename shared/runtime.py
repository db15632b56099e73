"""Process plumbing shared by every service's long-running entrypoints (consumer, relay, workers):
logging (JSON lines, :mod:`shared.logs`), a stop event set by SIGTERM/SIGINT so a process finishes its
current message first, and the process's readiness and metrics (served on ``ARBITER_HEALTH_PORT``
when set, see :mod:`shared.health`)."""

from __future__ import annotations

import logging
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping
from types import FrameType
from typing import Any

from shared import correlation, logs, metrics
from shared.messaging.errors import describe, is_infrastructure_error
from shared.messaging.port import Report, no_report

Process = Callable[[Any, threading.Event, Report], None]
"""A long-running process of a service: ``run(svc, stop, report)`` until ``stop`` is set, telling
``report`` what keeps it from working (see :class:`shared.health.Readiness`)."""


def run_until_signalled(name: str, loop: Callable[[threading.Event], None]) -> int:
    """Run ``loop(stop)`` until SIGTERM or SIGINT sets ``stop`` (logging is configured already)."""
    stop = threading.Event()

    def _stop(signum: int, _frame: FrameType | None) -> None:
        logging.getLogger(name).info("received signal %d, stopping", signum)
        stop.set()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    logging.getLogger(name).info("%s started", name)
    loop(stop)
    logging.getLogger(name).info("%s stopped", name)
    return 0


def every(
    seconds: float,
    tick: Callable[[], object],
    stop: threading.Event,
    *,
    name: str,
    report: Report = no_report,
    probe: Callable[[], object] | None = None,
    outage_max: float = 5.0,
    condition: str = "infrastructure",
) -> None:
    """Call ``tick`` every ``seconds`` until stopped; an error is logged and the loop goes on. A tick
    that fails because a server is unreachable is reported as ``condition`` (the process is unready)
    and tried again with a growing pause (0.1 s, 0.2 s, … up to ``outage_max``) until the server is
    back; the work it would have done is still there for the next tick. While the outage lasts,
    ``probe`` (a database ping, say) must answer before the next tick: a tick that happens not to need
    the server proves nothing.

    An outage is logged twice: one WARNING when it begins and one when it ends (how long it lasted, how
    many ticks failed); the attempts in between are DEBUG lines, so an outage of minutes costs two lines
    and no traceback. A tick that fails otherwise (a bug) is logged with its traceback every time.

    Each tick works in a correlation context of its own (its log lines and the events it writes share
    one new id), and is counted in ``arbiter_loop_ticks_total{loop=name}`` and timed in
    ``arbiter_loop_tick_seconds``."""
    log = logging.getLogger(name)
    outages = 0
    began = 0.0
    ok, failed, outage = (metrics.TICKS.labels(name, outcome) for outcome in ("ok", "failed", "outage"))
    duration = metrics.TICK_SECONDS.labels(name)
    while not stop.is_set():
        pause = seconds
        token = correlation.enter(correlation.Context(correlation.new_id()))
        start = time.perf_counter()
        try:
            if outages and probe is not None:
                probe()
            tick()
        except Exception as exc:
            if not is_infrastructure_error(exc):
                failed.inc()
                log.exception("%s tick failed", name)
            else:
                outage.inc()
                outages += 1
                pause = max(seconds, min(outage_max, 0.1 * 2 ** (outages - 1)))
                report(condition, describe(exc))
                if outages == 1:
                    began = time.monotonic()
                    log.warning(
                        "%s: unavailable (%s); waiting it out, trying again with a growing pause (at most "
                        "%.0f s)",
                        name,
                        describe(exc),
                        max(seconds, outage_max),
                    )
                else:
                    log.debug(
                        "%s: still unavailable (%s); tick %d again in %.1f s",
                        name,
                        describe(exc),
                        outages,
                        pause,
                    )
        else:
            ok.inc()
            duration.observe(time.perf_counter() - start)
            if outages:
                log.warning(
                    "%s: available again after %.1f s (%d failed ticks)",
                    name,
                    time.monotonic() - began,
                    outages,
                )
                report(condition, None)
                outages = 0
        finally:
            correlation.leave(token)
        stop.wait(pause)


def service_main(
    service: str,
    argv: list[str],
    bootstrap: Callable[[], Any],
    processes: Mapping[str, Process],
) -> int:
    """``python -m services.<service> migrate|<process>``: migrate the database, or run one of the
    service's long-running processes until SIGTERM. With ``ARBITER_HEALTH_PORT`` set, the process
    answers ``/healthz``, ``/readyz`` and ``/metrics`` on that port: ready while its database answers
    and its loop reports nothing wrong."""
    from shared.database import upgrade
    from shared.health import Readiness, database_check, serve_health

    commands = ("migrate", *processes)
    if len(argv) != 1 or argv[0] not in commands:
        print(f"usage: python -m services.{service} {'|'.join(commands)}", file=sys.stderr)
        return 2
    svc = bootstrap()
    logs.configure(service, argv[0], svc.settings.log_level, svc.settings.log_format)
    if argv[0] == "migrate":
        upgrade(svc.migrations, svc.engine)
        return 0
    run = processes[argv[0]]
    readiness = Readiness({"database": database_check(svc.engine)})
    server = serve_health(readiness, svc.settings.health_port)
    try:
        return run_until_signalled(f"{service}-{argv[0]}", lambda stop: run(svc, stop, readiness.report))
    finally:
        if server is not None:
            server.close()
