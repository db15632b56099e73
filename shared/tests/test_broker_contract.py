"""One contract for every Broker adapter: the in-process fake and RabbitMQ."""

from __future__ import annotations

import datetime as dt
import uuid

from shared.events import GameFinished, GameOutcome, RoundCompleted, wrap
from shared.messaging.port import NotReady, Subscription
from shared.testing.brokers import ConsumerHarness
from shared.testing.polling import wait_for

T = uuid.uuid4()


def finished(n: int = 1) -> GameFinished:
    return GameFinished(
        tournament_id=T,
        game_id=uuid.uuid4(),
        round=n,
        white=uuid.uuid4(),
        black=uuid.uuid4(),
        outcome=GameOutcome.DRAW,
        reason="agreement",
        moves=40,
        finished_at=dt.datetime.now(dt.UTC),
    )


def poll(harness: ConsumerHarness, predicate, what: str):
    def check():
        harness.pump()
        return predicate()

    return wait_for(check, timeout=15, what=what)


def test_published_event_reaches_the_handler_intact(broker):
    got = []
    sent = wrap(finished(), T)
    with ConsumerHarness(broker) as h:
        h.start([Subscription("contract.games", ("game.finished",), lambda env, ev: got.append((env, ev)))])
        broker.publish([sent])
        poll(h, lambda: got, "delivery")
    envelope, event = got[0]
    assert envelope == sent
    assert event == GameFinished.model_validate(sent.payload)


def test_routing_by_key(broker):
    games, rounds = [], []
    with ConsumerHarness(broker) as h:
        h.start(
            [
                Subscription("contract.only_games", ("game.*",), lambda env, ev: games.append(env.type)),
                Subscription(
                    "contract.only_rounds", ("round.completed",), lambda env, ev: rounds.append(env.type)
                ),
            ]
        )
        broker.publish([wrap(finished(), T), wrap(RoundCompleted(tournament_id=T, round=1), T)])
        poll(h, lambda: games and rounds, "both deliveries")
    assert games == ["game.finished"]
    assert rounds == ["round.completed"]


def test_poison_message_is_dead_lettered_and_the_next_is_processed(broker):
    got = []
    good = wrap(finished(), T)
    with ConsumerHarness(broker) as h:
        h.start([Subscription("contract.poison", ("game.finished",), lambda env, ev: got.append(env.id))])
        broker.publish_raw("game.finished", b"{not json")
        broker.publish([good])
        poll(h, lambda: got, "the good message")
    assert got == [good.id]
    dead = wait_for(lambda: broker.dead_letters("contract.poison"), timeout=10, what="dead letter")
    assert len(dead) == 1
    assert dead[0].body == b"{not json"
    assert "MalformedMessage" in dead[0].reason


def test_unknown_event_is_dead_lettered_with_its_reason(broker):
    got = []
    unknown = wrap(finished(), T).model_copy(update={"type": "game.finished", "version": 99})
    with ConsumerHarness(broker) as h:
        h.start([Subscription("contract.unknown", ("game.finished",), lambda env, ev: got.append(env.id))])
        broker.publish([unknown])
        dead = poll(h, lambda: broker.dead_letters("contract.unknown"), "dead letter")
    assert got == []
    assert "unknown event 'game.finished' version 99" in dead[0].reason


def test_a_failing_handler_is_retried_then_dead_lettered_without_blocking(broker):
    calls: dict[uuid.UUID, int] = {}
    done = []
    bad, good = wrap(finished(1), T), wrap(finished(2), T)

    def handler(env, ev):
        calls[env.id] = calls.get(env.id, 0) + 1
        if env.id == bad.id:
            raise RuntimeError("database on fire")
        done.append(env.id)

    with ConsumerHarness(broker) as h:
        h.start([Subscription("contract.failing", ("game.finished",), handler)])
        broker.publish([bad, good])
        poll(h, lambda: done, "the good message")
        dead = poll(h, lambda: broker.dead_letters("contract.failing"), "dead letter")
    assert calls[bad.id] == 3
    assert done == [good.id]
    assert "database on fire" in dead[0].reason


def test_a_transient_failure_is_retried_and_handled_once(broker):
    attempts = []
    done = []

    def flaky(env, ev):
        attempts.append(env.id)
        if len(attempts) == 1:
            raise ConnectionError("blip")
        done.append(env.id)

    with ConsumerHarness(broker) as h:
        h.start([Subscription("contract.flaky", ("game.finished",), flaky)])
        broker.publish([wrap(finished(), T)])
        poll(h, lambda: done, "handled after retry")
    assert len(attempts) == 2 and len(done) == 1
    assert broker.dead_letters("contract.flaky") == []


def test_a_message_that_is_not_ready_comes_back_after_the_others(broker):
    """A result that overtook its pairing is put back, not retried on the spot nor dead-lettered."""
    handled: list[int] = []
    first, second = wrap(finished(2), T), wrap(finished(1), T)

    def handler(env, ev):
        if ev.round == 2 and 1 not in handled:
            raise NotReady("round 1 not seen yet")
        handled.append(ev.round)

    with ConsumerHarness(broker) as h:
        h.start([Subscription("contract.later", ("game.finished",), handler)])
        broker.publish([first, second])
        poll(h, lambda: len(handled) == 2, "both, in dependency order")
    assert handled == [1, 2]
    assert broker.dead_letters("contract.later") == []


def test_a_message_never_ready_is_dead_lettered_in_the_end(broker):
    def handler(env, ev):
        raise NotReady("its pairing never came")

    with ConsumerHarness(broker) as h:
        h.start([Subscription("contract.never", ("game.finished",), handler)])
        broker.publish([wrap(finished(), T)])
        dead = poll(h, lambda: broker.dead_letters("contract.never"), "dead letter")
    assert "not ready after 5 deliveries: its pairing never came" in dead[0].reason
