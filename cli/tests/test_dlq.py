"""``arbiter dlq`` against a real RabbitMQ (a vhost of this test's own): messages dead-lettered the way
the consumers do it, listed, shown, replayed to their queue and handled there."""

from __future__ import annotations

import datetime as dt
import json
import uuid

import pytest
from click.testing import CliRunner, Result

from cli.main import build_cli
from shared.events import GameFinished, GameOutcome, wrap
from shared.messaging.port import Subscription
from shared.messaging.queues import all_queues
from shared.messaging.rabbitmq import RabbitMQBroker
from shared.testing.brokers import ConsumerHarness
from shared.testing.polling import wait_for

pytestmark = pytest.mark.integration

QUEUE = "standings.game_finished"
T = uuid.uuid4()


def finished(n: int) -> GameFinished:
    return GameFinished(
        tournament_id=T,
        game_id=uuid.uuid4(),
        round=n,
        white=uuid.uuid4(),
        black=uuid.uuid4(),
        outcome=GameOutcome.WHITE_WIN,
        reason="resignation",
        moves=30,
        finished_at=dt.datetime.now(dt.UTC),
    )


@pytest.fixture
def vhost(servers) -> str:
    return servers.create_vhost(f"dlq-{uuid.uuid4().hex[:6]}")


def dlq(url: str, *args: str) -> Result:
    return CliRunner().invoke(build_cli(), ["dlq", *args, "--amqp-url", url])


def counts(url: str) -> dict[str, int | None]:
    result = dlq(url, "list", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def consume(url: str, handler, until, what: str) -> None:
    """Every queue declared as the services declare them; ``handler`` consumes ``QUEUE``."""
    broker = RabbitMQBroker(url, outage_max=0.2)
    subs = [Subscription(q, (), lambda env, ev: None) for q in all_queues() if q != QUEUE]
    subs.append(Subscription(QUEUE, ("game.finished",), handler))
    with ConsumerHarness(broker) as h:
        h.start(subs)
        wait_for(until, timeout=30, what=what)
    broker.close()


def test_dead_letters_are_listed_shown_and_replayed_to_their_queue(vhost):
    sent = [wrap(finished(n), T) for n in (1, 2, 3)]
    broker = RabbitMQBroker(vhost)
    broker.declare([Subscription(QUEUE, ("game.finished",), lambda env, ev: None)])
    broker.publish(sent)
    broker.publish_raw("game.finished", b"\x00 not an event")
    tried: list[uuid.UUID] = []

    def failing(env, ev):
        tried.append(env.id)
        raise RuntimeError("a bug in the handler")

    consume(vhost, failing, lambda: counts(vhost)[QUEUE] == 4, "four dead letters")

    listed = counts(vhost)
    assert listed[QUEUE] == 4
    assert set(listed) == set(all_queues()) and sum(n or 0 for n in listed.values()) == 4
    table = dlq(vhost, "list")
    assert table.exit_code == 0 and f"{QUEUE}.dead" in table.stdout and "total" in table.stdout

    shown = dlq(vhost, "show", "--queue", QUEUE, "--json")
    assert shown.exit_code == 0, shown.output
    messages = json.loads(shown.stdout)
    assert [m["event_id"] for m in messages[:3]] == [str(e.id) for e in sent]
    assert all(
        "handler failed 3 times: RuntimeError('a bug in the handler')" in m["reason"] for m in messages[:3]
    )
    assert "MalformedMessage" in messages[3]["reason"] and messages[3]["event_id"] is None
    assert {m["queue"] for m in messages} == {QUEUE}
    assert counts(vhost)[QUEUE] == 4  # showing took nothing out
    text = dlq(vhost, "show")
    assert text.exit_code == 0 and str(sent[0].id) in text.stdout and "a bug in the handler" in text.stdout

    dry = dlq(vhost, "replay", "--dry-run")
    assert dry.exit_code == 0, dry.output
    assert "would replay 4 messages" in dry.stdout
    assert counts(vhost)[QUEUE] == 4

    one = dlq(vhost, "replay", "--queue", QUEUE, "--id", str(sent[1].id))
    assert one.exit_code == 0, one.output
    assert "replayed 1 message" in one.stdout
    assert counts(vhost)[QUEUE] == 3
    handled: list[uuid.UUID] = []
    consume(vhost, lambda env, ev: handled.append(env.id), lambda: handled, "the replayed message")
    assert handled == [sent[1].id]  # the same event, back in its queue, handled by its handler

    rest = dlq(vhost, "replay", "--queue", QUEUE, "--json")
    assert rest.exit_code == 0, rest.output
    assert len(json.loads(rest.stdout)["replayed"]) == 3
    assert counts(vhost)[QUEUE] == 0
    consume(vhost, lambda env, ev: handled.append(env.id), lambda: len(handled) == 3, "the other two")
    assert sorted(map(str, handled)) == sorted(str(e.id) for e in sent)
    # the poison message went back too, and its handler dead-lettered it again: it is still not an event
    again = json.loads(dlq(vhost, "show", "--json").stdout)
    assert len(again) == 1 and "MalformedMessage" in again[0]["reason"] and again[0]["replayed"] == 1


def test_mistakes_are_reported_clearly(vhost):
    unknown = dlq(vhost, "list", "--queue", "no.such_queue")
    assert unknown.exit_code == 2
    assert "no dead-letter queue for no.such_queue" in unknown.output
    missing = dlq(vhost, "show", "--queue", "no.such_queue")
    assert missing.exit_code == 2 and "no queue no.such_queue.dead" in missing.output

    RabbitMQBroker(vhost).declare([Subscription(QUEUE, ("game.finished",), lambda env, ev: None)])
    nothing = dlq(vhost, "replay", "--queue", QUEUE, "--id", str(uuid.uuid4()))
    assert nothing.exit_code == 1 and "no dead letter with id" in nothing.output

    down = CliRunner().invoke(
        build_cli(), ["dlq", "list", "--amqp-url", "amqp://guest:secret@127.0.0.1:1/%2F"]
    )
    assert down.exit_code == 1
    assert "cannot reach RabbitMQ at amqp://guest:***@127.0.0.1:1/%2F" in down.output
    assert "secret" not in down.output and "Traceback" not in down.output
