"""One contract for every Broker adapter: the in-process fake and RabbitMQ."""

from __future__ import annotations

import uuid

import pytest

from shared.events import GameFinished, PlayerJoined, RoundCompleted, wrap
from shared.messagebus import retired
from shared.messaging.port import NotReady, Subscription
from shared.testing.brokers import ConsumerHarness
from shared.testing.polling import wait_for
from shared.tests.helpers import T, finished, outage


def poll(harness: ConsumerHarness, predicate, what: str):
    return wait_for(predicate, timeout=15, what=what)


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


def test_a_qualified_message_reaches_its_types_queues_and_its_qualifiers_alone(broker):
    """``player.joined.arena``: every queue bound to ``player.joined`` hears it, the arena's queue hears
    only the arena's entries."""
    every, arenas = [], []
    plain = wrap(PlayerJoined(tournament_id=T, player_id=uuid.uuid4(), name="Ann"), T)
    arena = wrap(PlayerJoined(tournament_id=T, player_id=uuid.uuid4(), name="Bob"), T).qualified("arena")
    assert (plain.routing_key, arena.routing_key) == ("player.joined", "player.joined.arena")
    with ConsumerHarness(broker) as h:
        h.start(
            [
                Subscription(
                    "contract.every_entry", ("player.joined",), lambda env, ev: every.append(env.id)
                ),
                Subscription(
                    "contract.arena_entries", ("player.joined.arena",), lambda env, ev: arenas.append(env.id)
                ),
            ]
        )
        broker.publish([plain, arena])
        poll(h, lambda: len(every) == 2 and arenas, "both entries, and the arena's")
    assert sorted(every) == sorted([plain.id, arena.id]) and arenas == [arena.id]
    with pytest.raises(ValueError, match="no routing qualifier"):
        wrap(finished(), T).qualified("rated")


def test_a_result_reaches_the_queues_of_its_ruleset_and_of_its_decision(broker):
    """``game.finished.<ruleset>[.decided]``: a queue of every result hears them all, the audit log's the
    decided ones of every ruleset, the group-playoff page's those of its ruleset and those published
    without one (``=game.finished``: exact keys), not a platform tournament's."""
    every, audit, paged = [], [], []
    platform = wrap(finished(1), T).qualified("platform", None)
    entered = wrap(finished(2), T).qualified("platform", "decided")
    grouped = wrap(finished(3), T).qualified("group-playoff")
    bare, bare_entered = wrap(finished(4), T), wrap(finished(5), T).qualified(None, "decided")
    assert (platform.routing_key, entered.routing_key, bare_entered.routing_key) == (
        "game.finished.platform",
        "game.finished.platform.decided",
        "game.finished.decided",
    )
    with ConsumerHarness(broker) as h:
        h.start(
            [
                Subscription(
                    "contract.every_result", ("game.finished",), lambda env, ev: every.append(env.id)
                ),
                Subscription(
                    "contract.entered_results",
                    ("game.finished.decided",),
                    lambda env, ev: audit.append(env.id),
                ),
                Subscription(
                    "contract.paged_results",
                    ("game.finished.group-playoff", "=game.finished", "=game.finished.decided"),
                    lambda env, ev: paged.append(env.id),
                ),
            ]
        )
        broker.publish([platform, entered, grouped, bare, bare_entered])
        poll(h, lambda: len(every) == 5 and len(audit) == 2 and len(paged) == 3, "every result routed")
    assert sorted(audit) == sorted([entered.id, bare_entered.id])
    assert sorted(paged) == sorted([grouped.id, bare.id, bare_entered.id])
    with pytest.raises(ValueError, match="at that place"):
        wrap(finished(), T).qualified("decided", "platform")  # out of their order


def test_a_retired_queue_is_drained_and_bound_to_nothing_any_more(broker):
    """A queue whose events another took over: what it held is still handled, nothing new reaches it,
    and declaring it retired again (its bindings gone already) is no error."""
    before, taken_over = [], []
    old = Subscription("contract.retired", ("game.finished",), lambda env, ev: before.append(env.id))
    waiting, new = wrap(finished(1), T), wrap(finished(2), T)
    broker.declare([old])
    broker.publish([waiting])
    successor = Subscription(
        "contract.successor", ("game.finished",), lambda env, ev: taken_over.append(env.id)
    )
    for _ in range(2):
        with ConsumerHarness(broker) as h:
            h.start([retired(old), successor])
            if not taken_over:
                broker.publish([new])
            poll(h, lambda: before and taken_over, "the waiting message drained, the new one taken over")
    assert before == [waiting.id] and taken_over == [new.id]
    later = wrap(finished(3), T)
    broker.publish([later])
    with ConsumerHarness(broker) as h:
        h.start([retired(old), successor])
        poll(h, lambda: len(taken_over) == 2, "the later message, taken over")
    assert before == [waiting.id] and taken_over == [new.id, later.id]


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


def test_messages_that_arrive_together_are_handled_together_and_a_failure_stays_alone(broker):
    """Group commit: a batch runs in one transaction; a message that fails in it is delivered alone."""
    batches: list[int] = []
    handled: list[int] = []
    poisoned = wrap(finished(99), T)

    def handler(env, ev):
        if ev.round == 99:
            raise RuntimeError("bad result")
        handled.append(ev.round)

    def on_batch(items):
        batches.append(len(items))
        outcomes = []
        for env, ev in items:
            try:
                handler(env, ev)
                outcomes.append(None)
            except RuntimeError as exc:
                outcomes.append(exc)
        return outcomes

    with ConsumerHarness(broker) as h:
        broker.declare([Subscription("contract.batch", ("game.finished",), handler, on_batch)])
        broker.publish([wrap(finished(n), T) for n in range(1, 21)] + [poisoned])
        h.start([Subscription("contract.batch", ("game.finished",), handler, on_batch)])
        poll(h, lambda: len(handled) == 20, "all twenty")
        dead = poll(h, lambda: broker.dead_letters("contract.batch"), "the bad one, dead-lettered alone")
    assert sorted(handled) == list(range(1, 21))
    assert max(batches) > 1  # they were queued before the consumer started: they came together
    assert "bad result" in dead[0].reason


def test_an_outage_is_waited_out_and_never_dead_lettered(broker):
    """More failed attempts than both the handler's retries and the not-ready deliveries allow: while
    the failures are the infrastructure's, the message is kept and handled once it is back."""
    attempts: list[uuid.UUID] = []
    done: list[uuid.UUID] = []

    def handler(env, ev):
        attempts.append(env.id)
        if len(attempts) <= 7:
            raise outage()
        done.append(env.id)

    sent = wrap(finished(), T)
    with ConsumerHarness(broker) as h:
        h.start([Subscription("contract.outage", ("game.finished",), handler)])
        broker.publish([sent])
        poll(h, lambda: done, "handled once the database is back")
    assert attempts == [sent.id] * 8
    assert done == [sent.id]
    assert broker.dead_letters("contract.outage") == []


def test_a_handler_error_with_the_infrastructure_up_is_still_dead_lettered(broker):
    """Outages between the attempts do not count: three failures of the handler itself do."""
    script = [outage(), RuntimeError("bad result"), outage(), outage(), RuntimeError("bad result")]
    calls = []

    def handler(env, ev):
        calls.append(env.id)
        if script:
            raise script.pop(0)
        raise RuntimeError("bad result")

    with ConsumerHarness(broker) as h:
        h.start([Subscription("contract.mixed", ("game.finished",), handler)])
        broker.publish([wrap(finished(), T)])
        dead = poll(h, lambda: broker.dead_letters("contract.mixed"), "dead letter")
    assert len(calls) == 6  # three outages, three failures
    assert "handler failed 3 times: RuntimeError('bad result')" in dead[0].reason


def test_an_outage_in_a_batch_is_waited_out_for_every_message(broker):
    """The group commit fails for the outage; each message is then handled alone once it is over."""
    handled: list[int] = []
    down = {"alone": 2}

    def handler(env, ev):
        if down["alone"]:
            down["alone"] -= 1
            raise outage()
        handled.append(ev.round)

    def on_batch(items):
        raise outage()

    with ConsumerHarness(broker) as h:
        sub = Subscription("contract.batch_outage", ("game.finished",), handler, on_batch)
        broker.declare([sub])
        broker.publish([wrap(finished(n), T) for n in range(1, 11)])
        h.start([sub])
        poll(h, lambda: len(handled) == 10, "all ten")
    assert sorted(handled) == list(range(1, 11))
    assert broker.dead_letters("contract.batch_outage") == []
