"""The readiness of consumers, relays and workers, and the tiny server that answers their probes."""

from __future__ import annotations

import logging

import httpx
import pytest
import sqlalchemy as sa
from prometheus_client import CollectorRegistry, Counter

from shared.health import HealthServer, Readiness, database_check
from shared.tests.helpers import closed_port


@pytest.fixture
def served():
    servers: list[HealthServer] = []

    def serve(readiness: Readiness) -> str:
        server = HealthServer(readiness, 0, host="127.0.0.1").start()
        servers.append(server)
        return f"http://127.0.0.1:{server.port}"

    yield serve
    for server in servers:
        server.close()


def test_ready_while_the_checks_pass_and_nothing_is_reported(served, tmp_path):
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'db.sqlite'}")
    url = served(Readiness({"database": database_check(engine)}))
    assert httpx.get(f"{url}/healthz").json() == {"status": "ok"}
    ready = httpx.get(f"{url}/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"status": "ok", "checks": {"database": "ok"}}


def test_unready_while_the_database_is_unreachable(served):
    engine = sa.create_engine(f"postgresql+psycopg://postgres@127.0.0.1:{closed_port()}/x")
    url = served(Readiness({"database": database_check(engine)}))
    ready = httpx.get(f"{url}/readyz")
    assert ready.status_code == 503
    assert ready.json() == {"status": "unavailable", "checks": {"database": "unavailable: OperationalError"}}
    assert httpx.get(f"{url}/healthz").status_code == 200  # alive all the same


def test_unready_while_the_process_reports_a_problem(served):
    readiness = Readiness()
    url = served(readiness)
    readiness.report("broker", "connecting")
    readiness.report("handlers", "waiting: OperationalError: connection refused")
    unready = httpx.get(f"{url}/readyz")
    assert unready.status_code == 503
    assert unready.json()["checks"] == {
        "broker": "unavailable: connecting",
        "handlers": "unavailable: waiting: OperationalError: connection refused",
    }
    readiness.report("broker", None)
    readiness.report("handlers", None)
    assert httpx.get(f"{url}/readyz").json() == {"status": "ok", "checks": {}}
    assert httpx.get(f"{url}/nothing").status_code == 404


def test_the_health_port_serves_the_metrics():
    registry = CollectorRegistry()
    handled = Counter("arbiter_test_handled", "handled in this test", ["queue"], registry=registry)
    handled.labels("standings.game_finished").inc(3)
    server = HealthServer(Readiness(), 0, host="127.0.0.1", registry=registry).start()
    try:
        scraped = httpx.get(f"http://127.0.0.1:{server.port}/metrics")
    finally:
        server.close()
    assert scraped.status_code == 200
    assert scraped.headers["content-type"].startswith("text/plain")
    assert 'arbiter_test_handled_total{queue="standings.game_finished"} 3.0' in scraped.text.splitlines()


def test_a_problem_is_a_warning_only_once_the_process_was_ready(caplog):
    """Connecting at start is no news; losing the connection later is."""
    readiness = Readiness()
    with caplog.at_level(logging.INFO, logger="shared.health"):
        readiness.report("broker", "connecting")
        readiness.report("broker", None)
        readiness.report("broker", "reconnecting: StreamLostError")
    levels = [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "shared.health"]
    assert levels == [
        ("INFO", "readiness: broker unavailable (connecting)"),
        ("INFO", "readiness: broker ok"),
        ("WARNING", "readiness: broker unavailable (reconnecting: StreamLostError)"),
    ]
