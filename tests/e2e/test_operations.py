"""What operators see of the running stack: one result followed across processes by its request id,
and every process's metrics moving while a tournament is played."""

from __future__ import annotations

import json
import uuid
from collections import defaultdict
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from shared.testing.polling import wait_for
from tests.e2e.stack import Process, Stack
from tests.e2e.story import Spy, Story
from tests.e2e.tournaments import play_rounds, started

pytestmark = pytest.mark.e2e


def lower_seed_wins(w: int, b: int) -> str:
    return "1-0" if w < b else "0-1"


def log_lines(process: Process) -> list[dict[str, Any]]:
    """The JSON lines a process logged (gunicorn's and pika's included: every line is JSON)."""
    lines = []
    for line in process.log.read_text(errors="replace").splitlines():
        if line.startswith("{"):
            lines.append(json.loads(line))
    return lines


def test_one_result_is_followed_by_its_request_id(story: Story, stack: Stack):
    spy = Spy(stack.env["ARBITER_AMQP_URL"], "game.finished", "standings.updated")
    seen: list[dict[str, Any]] = []
    try:
        tid, players = started(story, "Trace", 4)  # four players: double rounds, 4 games each
        game = story.wait_games(tid, 1, 4)[0]
        black = next(p for p in players if str(p.id) == game["black"]["player_id"])
        request_id = f"e2e-trace-{uuid.uuid4().hex}"
        response = story.http.post(
            f"{stack.urls['clocks']}/games/{game['id']}/result",
            json={"outcome": "1-0", "reason": "resignation"},  # black resigns
            headers={"Authorization": f"Bearer {black.token}", "X-Request-ID": request_id},
        )
        assert response.status_code == 200, response.text
        assert response.headers["X-Request-ID"] == request_id

        def traced(kind: str) -> dict[str, Any] | None:
            seen.extend(json.loads(body) for body in spy.drain())
            return next(
                (e for e in seen if e["type"] == kind and e.get("correlation_id") == request_id), None
            )

        finished = wait_for(lambda: traced("game.finished"), timeout=30, what="game.finished with the id")
        updated = wait_for(
            lambda: traced("standings.updated"), timeout=30, what="standings.updated with the id"
        )
    finally:
        spy.close()
    assert finished["payload"]["game_id"] == game["id"]
    assert "causation_id" not in finished  # born at the request
    assert updated["causation_id"] == finished["id"]  # written by the handler of that game.finished
    assert updated["tournament_id"] == str(tid)

    consumer = stack.process("standings-consumer-0")

    def consumer_lines() -> list[dict[str, Any]]:
        lines = [line for line in log_lines(consumer) if line.get("correlation_id") == request_id]
        return lines if any(line["queue"] == "standings.game_finished" for line in lines) else []

    lines = wait_for(consumer_lines, timeout=10, what="the standings consumer's log line with the id")
    # the table's queue handled it, and only it: a platform tournament's result (game.finished.platform)
    # does not reach the group-playoff page's queue
    assert {
        (line["service"], line["process"], line["queue"], line["causation_id"], line["tournament_id"])
        for line in lines
    } == {("standings", "consumer", "standings.game_finished", finished["id"], str(tid))}
    table = next(line for line in lines if line["queue"] == "standings.game_finished")
    assert table["game_id"] == game["id"]


def scrape(url: str) -> dict[str, float]:
    """Every sample of a /metrics page: ``name{label="value",…}`` → value, summed over the samples
    that differ only in labels left out (``pid`` of gunicorn's workers)."""
    samples: dict[str, float] = defaultdict(float)
    response = httpx.get(f"{url}/metrics", timeout=10)
    assert response.status_code == 200
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(sample.labels.items()) if k != "pid")
            samples[f"{sample.name}{{{labels}}}"] += sample.value
    return dict(samples)


def total(samples: dict[str, float], name: str, **labels: str) -> float:
    wanted = [f'{k}="{v}"' for k, v in labels.items()]
    return sum(
        v for key, v in samples.items() if key.startswith(f"{name}{{") and all(w in key for w in wanted)
    )


def test_every_process_serves_metrics_that_move_during_a_tournament(story: Story, stack: Stack):
    urls = {p.name: p.health_url for p in stack.processes if p.health_url}
    urls.update({f"{service}-web": url for service, url in stack.urls.items()})
    assert len(urls) == len(stack.processes)
    before = {name: scrape(url) for name, url in urls.items()}

    tid, players = started(story, "Metrics", 4)  # three double rounds of 4 games
    play_rounds(story, tid, players, rounds=3, games_per_round=4, outcome=lower_seed_wins)
    story.wait_final(tid)
    assert story.pairing(tid)["rounds"]

    def moved(name: str, metric: str, **labels: str) -> bool:
        return total(scrape(urls[name]), metric, **labels) > total(before[name], metric, **labels)

    def all_moved() -> list[str]:
        """What has not moved yet (the relays' and consumers' last messages may still be on their way)."""
        missing = []
        for name in urls:
            service, process = name.split("-")[:2]
            checks: list[tuple[str, dict[str, str]]]
            if process == "web":
                checks = [("arbiter_http_request_duration_seconds_count", {"service": service})]
            elif process in ("consumer", "worker"):
                checks = [
                    ("arbiter_messages_total", {"outcome": "done"}),
                    ("arbiter_message_handling_seconds_count", {}),
                    ("arbiter_message_lag_seconds_count", {}),
                ]
            elif process == "relay":
                checks = [
                    ("arbiter_relay_published_total", {"service": service}),
                    ("arbiter_relay_publish_seconds_count", {"service": service}),
                    ("arbiter_outbox_delay_seconds_count", {"service": service}),
                ]
            else:  # the scheduler, the ticker
                checks = [("arbiter_loop_ticks_total", {"outcome": "ok"})]
            missing += [f"{name}: {m}" for m, labels in checks if not moved(name, m, **labels)]
        return missing

    wait_for(lambda: not all_moved(), timeout=30, what="every process's counters to move")
    workers = [name for name in urls if name.startswith("pairing-worker")]
    paired = sum(
        total(scrape(urls[n]), "arbiter_pairing_seconds_count", kind="round")
        - total(before[n], "arbiter_pairing_seconds_count", kind="round")
        for n in workers
    )
    assert paired >= 3  # each of the three double rounds, by one worker or the other
    ticker = scrape(urls["clocks-ticker-2"])
    assert 'arbiter_ticker_delay_seconds{service="clocks"}' in ticker
    relay = scrape(urls["standings-relay-1"])
    assert relay['arbiter_outbox_backlog{service="standings"}'] >= 0
    consumer = scrape(urls["standings-consumer-0"])
    assert consumer['arbiter_dead_letter_messages{queue="standings.game_finished"}'] == 0
