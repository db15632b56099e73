"""The pairing worker's arena loop while PostgreSQL or Redis is away (issue 22): the worker says it is
unready for as long as the outage lasts, waits with a growing pause instead of failing every pass, and
logs one line when the outage begins and one when it ends, without a traceback. The servers are taken
away through a TCP proxy of this test's own; the shared servers are never touched."""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Iterator

import pytest
from prometheus_client import REGISTRY

from services.pairing.__main__ import ARENA_PASSES, arena_loop
from services.pairing.bootstrap import MIGRATIONS, Pairing, bootstrap
from services.pairing.config import PairingSettings
from services.pairing.tests.arena_helpers import arena_started
from services.pairing.tests.helpers import deliver
from shared.health import Readiness
from shared.messaging.inprocess import InProcessBroker
from shared.testing.polling import wait_for
from shared.testing.proxy import TcpProxy

pytestmark = pytest.mark.integration

LOOP = "pairing-arena-passes"
OUTAGE_SECONDS = 3.0


def ticks(outcome: str) -> float:
    return REGISTRY.get_sample_value("arbiter_loop_ticks_total", {"loop": LOOP, "outcome": outcome}) or 0.0


@pytest.fixture
def proxies(servers) -> Iterator[dict[str, TcpProxy]]:
    out = {
        "postgresql": TcpProxy.to(servers.postgres_url, 5432).start(),
        "redis": TcpProxy.to(servers.redis_url, 6379).start(),
    }
    yield out
    for proxy in out.values():
        proxy.close()


@pytest.fixture
def svc(servers, proxies) -> Iterator[Pairing]:
    database = servers.create_database(f"pairing_outage_{uuid.uuid4().hex[:6]}", MIGRATIONS)
    settings = PairingSettings(
        ARBITER_PAIRING_DATABASE_URL=proxies["postgresql"].url(database),
        ARBITER_ARENA_PASS_SECONDS=0.05,  # a pass every 50 ms: an outage without a pause fails 20 a second
        redis_url=proxies["redis"].url(servers.redis_url),
        redis_prefix=servers.redis_prefix(f"outage-{uuid.uuid4().hex[:8]}"),
    )
    broker = InProcessBroker()
    service = bootstrap(settings, broker=broker, migrate=True)
    broker.subscribe(service.subscriptions)
    started = arena_started(4, minutes=60)
    deliver(service, started, started.tournament_id)  # an arena open: every pass works on it
    yield service
    service.engine.dispose()


@pytest.mark.parametrize("away", ["redis", "postgresql"])
def test_the_arena_loop_waits_out_an_outage_unready_and_says_so_once(svc, proxies, away, caplog):
    readiness = Readiness()
    stop = threading.Event()
    loop = threading.Thread(target=arena_loop, args=(svc, stop, readiness.report), daemon=True)
    caplog.set_level(logging.DEBUG, logger=LOOP)
    ok = ticks("ok")
    loop.start()
    try:
        wait_for(lambda: ticks("ok") > ok + 2, timeout=30, what="passes before the outage")
        assert readiness.status()[0]
        failed = ticks("outage")
        proxies[away].cut()
        down_at = time.monotonic()
        wait_for(lambda: not readiness.status()[0], timeout=30, what="the worker unready")
        assert readiness.status()[1][ARENA_PASSES].startswith("unavailable: ")
        wait_for(lambda: time.monotonic() - down_at > OUTAGE_SECONDS, timeout=30, what="the outage")
        attempts = ticks("outage") - failed
        proxies[away].restore()
        wait_for(lambda: readiness.status()[0], timeout=30, what="the worker ready again")
        wait_for(lambda: ticks("ok") > ok + 4, timeout=30, what="passes after the outage")
    finally:
        stop.set()
        loop.join(timeout=10)
    # 0.1 s, 0.2 s, 0.4 s, … between attempts: a handful in 3 s, not one every 50 ms
    assert 1 <= attempts <= 8, attempts
    lines = [r for r in caplog.records if r.name == LOOP and r.levelno >= logging.INFO]
    assert [r.levelname for r in lines] == ["WARNING", "WARNING"], [r.getMessage() for r in lines]
    assert "unavailable" in lines[0].getMessage() and "available again after" in lines[1].getMessage()
    assert all(r.exc_info is None for r in caplog.records if r.name == LOOP)
