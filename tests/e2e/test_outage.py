"""PostgreSQL stops mid-tournament, for longer than a consumer's retries of a failing handler take: the
stack waits it out. Every result reaches the standings, every tournament completes, nothing is
dead-lettered, every long-running process says it is unready meanwhile, and every relay listens again.

The stack runs against a private PostgreSQL cluster this test starts (and stops): never the shared one.
"""

from __future__ import annotations

import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pika
import pytest
import sqlalchemy as sa

from shared.messaging.queues import QUEUES, all_queues, dead_letter_queue
from shared.testing.polling import wait_for
from tests.e2e.stack import Stack, running_stack
from tests.e2e.story import Account, Story
from tests.private_postgres import PrivatePostgres, private_postgres, unavailable

_WHY_NOT = unavailable()
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(_WHY_NOT is not None, reason=f"cannot start a private PostgreSQL: {_WHY_NOT}"),
]

TOURNAMENTS = 4
PLAYERS = 6  # a round robin: 5 rounds of 3 games
OUTAGE_SECONDS = 10.0  # the old retries gave up after 0.15 s
STOP_AFTER_RESULTS = 20  # of 60: in round 2


class PatientStory(Story):
    """A client as a person's would be: a request that fails because the service is unavailable (a 5xx,
    a refused connection) is sent again, after its Retry-After when it says one, until accepted."""

    def __init__(self, stack: Stack, patience: float = 120.0) -> None:
        super().__init__(stack)
        self.patience = patience
        self.retried = 0
        self._lock = threading.Lock()

    def _request(
        self, service: str, method: str, path: str, body: Any, headers: dict[str, str]
    ) -> tuple[int, str, Any]:
        deadline = time.monotonic() + self.patience
        while True:
            try:
                response = self.http.request(method, self.urls[service] + path, json=body, headers=headers)
                if response.status_code < 500:
                    return response.status_code, response.text, response.json() if response.content else None
                pause = min(2.0, float(response.headers.get("Retry-After", "0.2")))
            except httpx.TransportError:
                pause = 0.2
            with self._lock:
                self.retried += 1
            if time.monotonic() + pause > deadline:
                raise TimeoutError(f"{method} {path}: unavailable for {self.patience} s")
            threading.Event().wait(pause)  # what Retry-After asks a client to do

    def report_result(
        self, game: dict[str, Any], outcome: str, by: Account, reason: str = "resignation"
    ) -> None:
        """A retried report whose first attempt was committed finds the game over with our result."""
        path = f"/games/{game['id']}/result"
        body = {"outcome": outcome, "reason": reason}
        status, text, _ = self._request("clocks", "POST", path, body, {"Authorization": f"Bearer {by.token}"})
        if status == 409:
            status, text, now = self._request("clocks", "GET", f"/games/{game['id']}", None, {})
            assert now["outcome"] == outcome, f"{game['id']} ended otherwise: {text}"
            return
        assert status == 200, f"POST {path}: {status} {text}"


@pytest.fixture(scope="module")
def outage_stack(servers) -> Iterator[tuple[PrivatePostgres, Stack]]:
    with (
        private_postgres() as cluster,
        tempfile.TemporaryDirectory(prefix="arbiter_outage_") as tmp,
        running_stack(servers.with_postgres(cluster.admin_url), Path(tmp)) as stack,
    ):
        yield cluster, stack


def readiness(stack: Stack) -> dict[str, int | None]:
    """Each long-running process's /readyz status (None: it does not answer)."""
    out: dict[str, int | None] = {}
    for proc in stack.processes:
        if proc.health_url is None:
            continue
        try:
            out[proc.name] = httpx.get(f"{proc.health_url}/readyz", timeout=2).status_code
        except httpx.HTTPError:
            out[proc.name] = None
    return out


def dead_letter_counts(stack: Stack) -> dict[str, int]:
    conn = pika.BlockingConnection(pika.URLParameters(stack.env["ARBITER_AMQP_URL"]))
    try:
        channel = conn.channel()
        return {
            q: channel.queue_declare(dead_letter_queue(q), passive=True).method.message_count
            for q in all_queues()
        }
    finally:
        conn.close()


def listening_relays(cluster: PrivatePostgres) -> set[str]:
    engine = sa.create_engine(cluster.admin_url, poolclass=sa.NullPool)
    try:
        with engine.connect() as conn:
            queries = conn.execute(sa.text("SELECT query FROM pg_stat_activity")).scalars().all()
    finally:
        engine.dispose()
    return {s for s in QUEUES if f'LISTEN "arbiter_outbox_{s}"' in queries}


def test_a_database_outage_mid_tournament_loses_nothing(outage_stack):
    cluster, stack = outage_stack
    story = PatientStory(stack)

    # several round robins, each of six players seeded by rating; the lower seed wins every game
    tournaments: list[tuple[uuid.UUID, list[Account]]] = []
    for t in range(TOURNAMENTS):
        organiser = story.register(f"Outage organiser {t}")
        players = [story.register(f"Outage {t}.{i}", 2400 - 10 * i) for i in range(1, PLAYERS + 1)]
        tid = story.create_tournament(organiser, start_in=3, name=f"Outage {t}")
        for p in players:
            story.join(p, tid)
        tournaments.append((tid, players))
    for tid, _ in tournaments:
        story.wait_status(tid, "started")

    sent: list[uuid.UUID] = []
    failures: list[BaseException] = []

    def play(tid: uuid.UUID, players: list[Account]) -> None:
        seed = {p.id: i for i, p in enumerate(players, start=1)}
        by_id = {p.id: p for p in players}
        try:
            for rnd in range(1, PLAYERS):
                for game in story.wait_games(tid, rnd, PLAYERS // 2, timeout=180, interval=0.1):
                    white, black = (
                        uuid.UUID(game["white"]["player_id"]),
                        uuid.UUID(game["black"]["player_id"]),
                    )
                    story.concede(game, "1-0" if seed[white] < seed[black] else "0-1", by_id)
                    sent.append(uuid.UUID(game["id"]))
        except BaseException as exc:
            failures.append(exc)

    players_threads = [threading.Thread(target=play, args=t, daemon=True) for t in tournaments]
    for thread in players_threads:
        thread.start()

    # mid-tournament: PostgreSQL stops for longer than the old retries lasted
    wait_for(lambda: len(sent) >= STOP_AFTER_RESULTS or failures, timeout=120, what="round 2 under way")
    assert not failures, failures
    cluster.stop("fast")
    down_at = time.monotonic()
    unready: set[str] = set()

    def outage_over() -> bool:  # meanwhile, every long-running process says it is unready
        unready.update(name for name, status in readiness(stack).items() if status == 503)
        return time.monotonic() - down_at >= OUTAGE_SECONDS

    wait_for(outage_over, timeout=OUTAGE_SECONDS + 30, interval=0.5, what="the end of the outage")
    cluster.start()
    outage = time.monotonic() - down_at

    wait_for(
        lambda: set(readiness(stack).values()) == {200}, timeout=60, interval=0.2, what="all ready again"
    )
    for thread in players_threads:
        thread.join(timeout=300)
    assert not failures, failures

    finals = {tid: story.wait_final(tid, timeout=120) for tid, _ in tournaments}
    in_standings = sum(sum(r["points"] for r in final["rows"]) // 2 for final in finals.values())
    dead = dead_letter_counts(stack)
    relays = wait_for(lambda: listening_relays(cluster) == set(QUEUES), timeout=30, what="every LISTEN")
    print(
        f"\nPostgreSQL down {outage:.1f} s: results sent {len(sent)}, in the standings {in_standings}, "
        f"dead-lettered {sum(dead.values())}; requests retried by the client {story.retried}; "
        f"unready meanwhile: {len(unready)} of {len(readiness(stack))} processes"
    )

    assert len(sent) == len(set(sent)) == TOURNAMENTS * (PLAYERS - 1) * PLAYERS // 2
    for tid, final in finals.items():
        assert [(r["seed"], r["points"]) for r in final["rows"]] == [
            (1, 10),
            (2, 8),
            (3, 6),
            (4, 4),
            (5, 2),
            (6, 0),
        ], tid
        assert story.tournament(tid)["status"] == "completed"
    assert in_standings == len(sent)
    assert dead == dict.fromkeys(all_queues(), 0)
    assert unready == set(readiness(stack)), "every consumer, relay and worker said it was unready"
    assert relays
    assert all(p.alive() for p in stack.processes), [p.name for p in stack.processes if not p.alive()]
