"""A relay killed (SIGKILL) in the middle of a confirmed batch: the rows it had published but not yet
marked are published again when it restarts, and the inbox absorbs the copies. Nothing is lost,
nothing counted twice."""

from __future__ import annotations

import collections
import json
import time
import uuid

import pytest
import sqlalchemy as sa

from shared.testing.polling import wait_for
from tests.e2e.stack import Stack
from tests.e2e.story import Spy, Story
from tests.e2e.tournaments import LOWER_SEED_WINS_SIX, lower_seed_wins, started

pytestmark = pytest.mark.e2e

TOURNAMENTS = 3
PLAYERS = 6
ROUNDS = PLAYERS - 1
PER_ROUND = PLAYERS // 2


def test_a_relay_killed_mid_batch_loses_nothing_and_the_inbox_absorbs_the_copies(story: Story, stack: Stack):
    relay = "clocks-relay-1"  # publishes game.finished
    spy = Spy(stack.env["ARBITER_AMQP_URL"], "game.finished")
    seen: collections.Counter[str] = collections.Counter()  # our event ids → times the broker routed them
    mine: set[str] = set()

    def listen() -> int:
        """Take what reached the spy; how many of them were about our tournaments."""
        envelopes = [e for body in spy.drain() if (e := json.loads(body))["tournament_id"] in mine]
        seen.update(e["id"] for e in envelopes)
        return len(envelopes)

    def all_seen() -> bool:
        listen()
        return len(seen) >= TOURNAMENTS * ROUNDS * PER_ROUND

    try:
        fields = [started(story, f"Relay{k}", PLAYERS) for k in range(TOURNAMENTS)]
        mine.update(str(tid) for tid, _ in fields)
        for rnd in range(1, ROUNDS + 1):
            rounds = [story.wait_games(tid, rnd, PER_ROUND) for tid, _ in fields]
            listen()
            stack.process(relay).kill()  # the round's results pile up in the outbox: one batch
            for (_tid, players), games in zip(fields, rounds, strict=True):
                seed = {p.id: i for i, p in enumerate(players, start=1)}
                by_id = {p.id: p for p in players}
                for game in games:
                    white = uuid.UUID(game["white"]["player_id"])
                    black = uuid.UUID(game["black"]["player_id"])
                    story.concede(game, lower_seed_wins(seed[white], seed[black]), by_id)
            stack.restart(relay)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:  # the first of the batch is out: kill it before it marks
                if listen():
                    break
            stack.process(relay).kill()
            stack.restart(relay)
        finals = [story.wait_final(tid) for tid, _ in fields]
        # the lower seed won every game: 10, 8, 6, 4, 2, 0 — no result lost, none counted twice
        for final in finals:
            assert [(r["seed"], r["points"]) for r in final["rows"]] == LOWER_SEED_WINS_SIX
        wait_for(all_seen, timeout=30, what="every game.finished on the broker")
        # every result reached the broker; those published again after a kill are the copies the inbox absorbed
        assert len(seen) == TOURNAMENTS * ROUNDS * PER_ROUND
        for tid, _ in fields:
            assert len(story.pairing(tid)["rounds"]) == ROUNDS
        assert not spy.dead_letters("standings.game_finished")
        assert not spy.dead_letters("pairing.game_finished")
        # the last relay publishes again what its predecessor had not marked: once it has, no copy of
        # ours is still on its way to the next test's listeners
        wait_for(lambda: _unpublished(stack) == 0, timeout=30, what="the clocks outbox drained")
        listen()
        copies = sum(n - 1 for n in seen.values())
        print(f"{copies} copies of game.finished reached the broker after the kills")
    finally:
        spy.close()


def _unpublished(stack: Stack) -> int:
    engine = sa.create_engine(stack.env["ARBITER_CLOCKS_DATABASE_URL"])
    try:
        with engine.connect() as conn:
            return int(
                conn.execute(sa.text("SELECT count(*) FROM outbox WHERE published_at IS NULL")).scalar_one()
            )
    finally:
        engine.dispose()
