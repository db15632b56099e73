"""An arena on the real stack (issues 12 and 22): two pairing workers pass over the Redis pool while
players take boosts and report results as they come. Mid-arena Redis comes back empty (the workers
rebuild the pool from pairing's database and pairing goes on), then one worker is SIGKILLed (pairing
goes on under the other once the dead one's leases run out): both faults in one arena, which takes two
minutes of real time. Checked from clocks' games and the standings' final ranking alone: nobody in two
games at once, no pair inside its cooldown, nothing paired after pairing closed, and a final ranking
that is exactly what the games make (tests/arena_checks.py)."""

from __future__ import annotations

import datetime as dt
import random
import time
import uuid
from typing import Any

import pytest

from shared.testing.polling import wait_for
from tests.arena_checks import check_arena
from tests.e2e.stack import Stack
from tests.e2e.story import Account, Story

pytestmark = pytest.mark.e2e

MINUTES = 2
BASE = 30  # 30+0: pairing closes 30 s before the end
# a game is ended only once it has run this long: 30 players have 435 pairs, each in cooldown for 5 minutes
# once played; games ended at once would let a quiet machine play them all before pairing closes
HOLD_SECONDS = 4.0


def arena_games(story: Story, tid: uuid.UUID) -> list[dict[str, Any]]:
    return story.call("clocks", "GET", f"/tournaments/{tid}/games")["games"]


def play(
    story: Story,
    tid: uuid.UUID,
    players: dict[uuid.UUID, Account],
    rng: random.Random,
    seen: set,
    hold: float = HOLD_SECONDS,
) -> int:
    """Every running game not seen yet that has run ``hold`` seconds: each side may take the boost, then
    the loser resigns (or both agree a draw). The number of games taken."""
    taken = 0
    now = dt.datetime.now(dt.UTC)
    for game in arena_games(story, tid):
        if game["status"] != "running" or game["id"] in seen:
            continue
        if (now - dt.datetime.fromisoformat(game["started_at"])).total_seconds() < hold:
            continue
        seen.add(game["id"])
        taken += 1
        white, black = (players[uuid.UUID(game[side]["player_id"])] for side in ("white", "black"))
        for who in (white, black):
            if rng.random() < 0.25:
                story.call("clocks", "POST", f"/games/{game['id']}/boost", {}, who.token, expect=(200, 409))
        outcome = rng.choice(["1-0", "0-1", "1/2-1/2"])
        story.concede(game, outcome, players)
    return taken


def note_pairing_times(story: Story, tid: uuid.UUID, paired: dict[str, str]) -> None:
    """When pairing paired each game in progress (the standings' ``in_progress`` carry the time of the
    ``arena.paired`` event): clocks starts a game when the event reaches it, a moment later."""
    arena = story.call("standings", "GET", f"/tournaments/{tid}/arena", expect=(200, 404))
    for g in arena.get("in_progress", []):  # 404: the standings have not heard of the arena yet
        paired.setdefault(str(g["game_id"]), g["started_at"])


def referee(
    games: list[dict[str, Any]],
    final: dict[str, Any],
    players: dict[uuid.UUID, Account],
    start: dt.datetime,
    closes: dt.datetime,
    paired: dict[str, str] | None = None,
) -> None:
    """Every game counted once, the boosts clocks recorded counted, and tests/arena_checks.py on the
    whole run: nobody in two games at once, no pair inside its cooldown, nothing paired after pairing
    closed, points and ranking exactly the games'. A game starts when pairing paired it, where
    ``paired`` says when that was, else when clocks started it (the message's way from one to the other
    later: a game paired just before pairing closed may start on the clocks just after)."""
    paired = paired or {}
    points = {g["game_id"]: g for g in final["games"]}
    assert set(points) == {g["id"] for g in games}  # every game counted, once

    def seconds(at: str) -> float:
        return (dt.datetime.fromisoformat(at) - start).total_seconds()

    checked = [
        {
            "white": g["white"]["player_id"],
            "black": g["black"]["player_id"],
            "started_at": seconds(paired.get(g["id"], g["started_at"])),
            "ended_at": seconds(g["result"]["finished_at"]),
            "result": g["result"]["outcome"],
            "boost": points[g["id"]]["boost"],
            "points": points[g["id"]]["points"],
        }
        for g in games
    ]
    for g in games:  # the boosts clocks recorded are the ones the standings counted
        boosted = g["clock"]["boosted"]
        assert points[g["id"]]["boost"] == {"white": "white" in boosted, "black": "black" in boosted}
    ranking = [{**r, "player": str(r["player"])} for r in final["ranking"]]
    assert {r["player"] for r in ranking} == {str(p) for p in players}
    check_arena(checked, ranking, closes_after=(closes - start).total_seconds())


PLAYERS = 30  # 435 pairs: with the hold, the arena does not run out of partners before it closes
FLUSH_AFTER_SECONDS = 40  # of the 90 s pairing is open
KILL_AFTER_SECONDS = 60
KILL_AFTER_GAMES = 12  # the arena made games enough before the kill: it is mid-arena


def per_ten_seconds(games: list[dict[str, Any]], start: dt.datetime, until: float) -> list[int]:
    """Games paired in each 10 s from the arena's start."""
    counts = [0] * (int(until) // 10 + 1)
    for g in games:
        counts[int((dt.datetime.fromisoformat(g["started_at"]) - start).total_seconds()) // 10] += 1
    return counts


def test_an_arena_goes_on_after_redis_comes_back_empty_and_a_pairing_worker_is_killed(
    story: Story, stack: Stack
):
    """One arena, two faults (one run of two minutes instead of one for each):

    - at 40 s Redis is restarted without its data (this stack's keys gone at once: the pool, the leases,
      the in-game markers, the clocks' deadlines): the workers find the pool missing, rebuild it from
      pairing's database and pair again within seconds;
    - at 60 s one of the two pairing workers is SIGKILLed: its leases run out and pairing goes on under
      the other.

    No cooldown is broken and the points are the games' (the referee)."""
    rng = random.Random(22)
    organiser = story.register("Arena organiser")
    players = {a.id: a for a in (story.register(f"Arena {i}", 1500 + 7 * i) for i in range(PLAYERS))}
    tid = story.create_tournament(
        organiser,
        ruleset="arena",
        duration_minutes=MINUTES,
        base_seconds=BASE,
        start_in=2.0,
        name="e2e arena, Redis emptied, a worker killed",
    )
    for p in players.values():
        story.join(p, tid)
    started = story.wait_status(tid, "started")
    start = dt.datetime.fromisoformat(started["starts_at"])
    closes = start + dt.timedelta(minutes=MINUTES) - dt.timedelta(seconds=BASE)
    flush_at = start + dt.timedelta(seconds=FLUSH_AFTER_SECONDS)
    kill_at = start + dt.timedelta(seconds=KILL_AFTER_SECONDS)
    seen: set[str] = set()
    flushed_at: dt.datetime | None = None
    removed = running = 0
    victim = stack.process("pairing-worker-1")
    killed_at: dt.datetime | None = None
    paired: dict[str, str] = {}
    try:
        while dt.datetime.now(dt.UTC) < closes + dt.timedelta(seconds=5):
            note_pairing_times(story, tid, paired)
            play(story, tid, players, rng, seen)
            now = dt.datetime.now(dt.UTC)
            if flushed_at is None and now >= flush_at:
                running = sum(g["status"] == "running" for g in arena_games(story, tid))
                removed = stack.empty_redis()
                flushed_at = dt.datetime.now(dt.UTC)
            if killed_at is None and now >= kill_at and len(seen) >= KILL_AFTER_GAMES:
                victim.kill()  # SIGKILL mid-arena: its leases run out, the other worker takes over
                killed_at = dt.datetime.now(dt.UTC)
            time.sleep(0.1)
        assert flushed_at is not None
        assert killed_at is not None, "the arena made too few games to kill a worker mid-arena"
        wait_for(
            lambda: (
                play(story, tid, players, rng, seen) == 0
                and all(g["status"] == "finished" for g in arena_games(story, tid))
            ),
            timeout=60,
            what="the last games",
        )
        story.wait_status(tid, "completed", timeout=120)
        final = wait_for(
            lambda: (a := story.call("standings", "GET", f"/tournaments/{tid}/arena"))["final"] and a,
            timeout=60,
            what="the final ranking",
        )
    finally:
        if not victim.alive():
            stack.restart(victim.name)
    games = arena_games(story, tid)
    since_flush = sorted(
        (dt.datetime.fromisoformat(g["started_at"]) - flushed_at).total_seconds()
        for g in games
        if dt.datetime.fromisoformat(g["started_at"]) > flushed_at
    )
    buckets = per_ten_seconds(games, start, (closes - start).total_seconds())
    print(
        f"\nRedis emptied at {(flushed_at - start).total_seconds():.1f} s ({removed} keys, {running} games "
        f"running), a worker killed at {(killed_at - start).total_seconds():.1f} s; games paired per 10 s "
        f"from the start: {buckets}; first game after the flush {since_flush[0] if since_flush else None} s "
        f"later; the pairing time of {len(paired.keys() & {g['id'] for g in games})} of {len(games)} games seen"
    )
    assert since_flush, "no game was paired after Redis came back empty"
    assert since_flush[0] < 10, f"pairing resumed only {since_flush[0]:.1f} s after Redis came back empty"
    after_kill = [
        g for g in games if dt.datetime.fromisoformat(g["started_at"]) > killed_at + dt.timedelta(seconds=3)
    ]
    assert after_kill, "pairing did not go on after the worker was killed"
    referee(games, final, players, start, closes, paired)
