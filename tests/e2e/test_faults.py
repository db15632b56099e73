"""Faults on the real stack: redelivery, a consumer killed mid-stream, poison messages, racing workers."""

from __future__ import annotations

import json
import uuid

import pytest

from shared.testing.polling import wait_for
from tests.e2e.stack import Stack
from tests.e2e.story import Spy, Story
from tests.e2e.tournaments import play_rounds, started

pytestmark = pytest.mark.e2e


@pytest.fixture
def spy(stack: Stack):
    spies: list[Spy] = []

    def make(*keys: str) -> Spy:
        s = Spy(stack.env["ARBITER_AMQP_URL"], *keys)
        spies.append(s)
        return s

    yield make
    for s in spies:
        s.close()


def lower_seed_wins(w: int, b: int) -> str:
    return "1-0" if w < b else "0-1"


def test_the_same_event_delivered_twice_has_one_effect(story: Story, spy):
    watch = spy("game.finished")
    tid, players = started(story, "Dup", 6)
    play_rounds(story, tid, players, rounds=1, games_per_round=3, outcome=lower_seed_wins)
    story.wait_games(tid, 2, 3)  # round 1 is closed and round 2 paired
    bodies = wait_for(lambda: len(b := watch.drain()) == 3 and b, timeout=10, what="round 1's game.finished")
    for body in bodies:  # every result of round 1, delivered again with the same event id
        assert json.loads(body)["tournament_id"] == str(tid)
        watch.publish("game.finished", body)
    play_rounds(story, tid, players, rounds=5, games_per_round=3, outcome=lower_seed_wins, first=2)
    final = story.wait_final(tid)
    # the lower seed won every game: 10, 8, 6, 4, 2, 0 — the duplicates counted nothing
    assert [(r["seed"], r["points"]) for r in final["rows"]] == [
        (1, 10),
        (2, 8),
        (3, 6),
        (4, 4),
        (5, 2),
        (6, 0),
    ]
    assert len(story.pairing(tid)["rounds"]) == 5


def test_a_consumer_killed_mid_stream_loses_nothing_and_doubles_nothing(story: Story, stack: Stack):
    tid, players = started(story, "Kill", 6)
    seed = {p.id: i for i, p in enumerate(players, start=1)}
    by_id = {p.id: p for p in players}
    for rnd in range(1, 6):
        games = story.wait_games(tid, rnd, 3)
        for i, game in enumerate(games):
            white = uuid.UUID(game["white"]["player_id"])
            black = uuid.UUID(game["black"]["player_id"])
            story.concede(game, lower_seed_wins(seed[white], seed[black]), by_id)
            if rnd in (2, 4) and i == 0:
                victim = "standings-consumer-0" if rnd == 2 else "pairing-consumer-0"
                stack.process(victim).kill()  # SIGKILL, whatever it was doing
                stack.restart(victim)
    final = story.wait_final(tid)
    # the lower seed won every game: 10, 8, 6, 4, 2, 0 — no result lost, none counted twice
    assert [(r["seed"], r["points"]) for r in final["rows"]] == [
        (1, 10),
        (2, 8),
        (3, 6),
        (4, 4),
        (5, 2),
        (6, 0),
    ]
    assert len(story.pairing(tid)["rounds"]) == 5


def test_a_poison_message_is_dead_lettered_and_the_next_one_is_processed(story: Story, spy):
    bus = spy("nothing.at.all")
    bus.publish("game.finished", b"\x00 this is not an event")
    bus.publish(
        "tournament.started",
        json.dumps(
            {"id": str(uuid.uuid4()), "type": "tournament.started", "version": 7, "payload": {}}
        ).encode(),
    )
    tid, players = started(story, "Poison", 6)
    play_rounds(story, tid, players, rounds=5, games_per_round=3, outcome=lower_seed_wins)
    final = story.wait_final(tid)
    assert [r["points"] for r in final["rows"]] == [10, 8, 6, 4, 2, 0]
    dead = {}
    for queue in (
        "standings.game_finished",
        "pairing.game_finished",
        "pairing.tournament_started",
        "standings.tournament_started",
    ):
        dead[queue] = bus.dead_letters(queue)
    assert any(
        b == b"\x00 this is not an event" and "MalformedMessage" in r
        for b, r in dead["standings.game_finished"]
    )
    assert any("MalformedMessage" in r for _, r in dead["pairing.game_finished"])
    assert any("version 7" in r for _, r in dead["pairing.tournament_started"])


def test_two_pairing_workers_never_pair_a_round_twice(story: Story, spy):
    watch = spy("round.paired")
    tid, players = started(story, "Race", 8)  # 8 ≥ threshold 7: a Swiss of 4 rounds
    play_rounds(story, tid, players, rounds=4, games_per_round=4, outcome=lower_seed_wins)
    story.wait_final(tid)
    paired = [json.loads(b) for b in watch.drain()]
    mine = [e["payload"]["round"] for e in paired if e["tournament_id"] == str(tid)]
    assert sorted(mine) == [1, 2, 3, 4]
    pairs = [
        frozenset((g["white"], g["black"]))
        for e in paired
        if e["tournament_id"] == str(tid)
        for g in e["payload"]["games"]
    ]
    assert len(pairs) == len(set(pairs)) == 16
