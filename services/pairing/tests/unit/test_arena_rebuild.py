"""An arena whose pool is lost (issue 22: Redis came back without its data), on the in-memory unit of work
and pool: the next tick finds the pool missing, rebuilds it from the arena's record — entries, games,
results, who plays elsewhere — and pairs again; and random arena stories, their pool lost at the end,
come back exactly as they were (all but the fairness counts, which start again at zero)."""

from __future__ import annotations

import logging
import random
import uuid

import pytest

from services.pairing.domain.arena.record import PoolState
from services.pairing.tests.arena_helpers import TC, arena_started, finished
from services.pairing.tests.helpers import InMemory, deliver, in_memory, published
from shared import events


def paired(svc) -> list[events.ArenaGame]:
    return [
        g for e in published(svc, "arena.paired") for g in events.ArenaPaired.model_validate(e.payload).games
    ]


def tick(svc, token: str = "w1") -> int:
    made = svc.handlers.arena.run_passes(token, svc.bus.uow_factory)
    svc.broker.run_until_idle()
    return made


def rebuilt(svc: InMemory, tid: uuid.UUID) -> PoolState:
    """The pool rebuilt from the record, as the worker holding the lease does it (without a pass)."""
    assert svc.pool.take_lease(tid, "rebuilder", 5_000)
    with svc.uow() as uow:
        svc.handlers.arena.rebuild_pool(tid, "rebuilder", uow)
        uow.commit()
    svc.pool.release_lease(tid, "rebuilder")
    return svc.pool.snapshot(tid)


def test_the_next_tick_rebuilds_a_lost_pool_and_pairs_again(caplog):
    svc = in_memory()
    started = arena_started(4)
    tid = started.tournament_id
    deliver(svc, started, tid)
    assert tick(svc) == 2
    first, second = paired(svc)
    svc.clock.advance(30)
    deliver(svc, finished(started, first, "1-0", svc.clock.now(), boost=(True, False)), tid)
    svc.clock.advance(1)
    before = svc.pool.snapshot(tid)

    svc.pool.lose()  # Redis restarted without its data
    assert not svc.pool.intact(tid)
    with caplog.at_level(logging.WARNING, logger="services.pairing.service_layer.arena"):
        made = tick(svc)
    assert svc.pool.snapshot(tid) == before  # nobody could be paired: first's players are in cooldown
    assert made == 0 and svc.pool.intact(tid)
    (line,) = [r.getMessage() for r in caplog.records if "rebuilt" in r.getMessage()]
    assert f"arena {tid}: its pool was missing" in line and "2 waiting" in line and "1 games running" in line

    # the game that ran through the loss ends as usual; its players are paired with the first game's
    svc.clock.advance(10)
    deliver(svc, finished(started, second, "1/2-1/2", svc.clock.now()), tid)
    waiting = {w.player: w for w in svc.pool.waiting(tid, svc.clock.now())}
    assert waiting[first.white].score == 4 and waiting[second.white].score == 1  # the points kept
    assert tick(svc) == 2
    _, _, third, fourth = paired(svc)
    assert {frozenset((g.white, g.black)) for g in (third, fourth)}.isdisjoint(
        {frozenset((first.white, first.black)), frozenset((second.white, second.black))}
    )  # no cooldown broken


def test_a_player_in_a_game_elsewhere_stays_out_of_a_rebuilt_pool():
    svc = in_memory()
    started = arena_started(3)
    tid, busy = started.tournament_id, started.roster[0].player_id
    elsewhere = events.GameStarted(
        tournament_id=uuid.uuid4(),
        game_id=uuid.uuid4(),
        round=1,
        white=busy,
        black=uuid.uuid4(),
        started_at=svc.clock.now(),
        time_control=TC,
    )
    deliver(svc, elsewhere, elsewhere.tournament_id)
    deliver(svc, started, tid)
    svc.pool.lose()
    assert tick(svc) == 1  # the two others; the busy one's marker is back
    (game,) = paired(svc)
    assert busy not in (game.white, game.black)
    assert svc.pool.playing(busy) == f"game:{elsewhere.game_id}"
    cancelled = events.GameCancelled(
        tournament_id=elsewhere.tournament_id,
        game_id=elsewhere.game_id,
        round=1,
        reason="match_decided",
        cancelled_at=svc.clock.now(),
        white=busy,
        black=elsewhere.black,
    )
    deliver(svc, cancelled, elsewhere.tournament_id)
    assert svc.pool.playing(busy) is None
    assert busy in {w.player for w in svc.pool.waiting(tid, svc.clock.now())}


def test_a_rebuilt_pool_without_the_lease_is_not_written():
    """A worker whose lease ran out writes nothing; the next holder rebuilds."""
    svc = in_memory()
    started = arena_started(2)
    tid = started.tournament_id
    deliver(svc, started, tid)
    svc.pool.lose()
    assert svc.pool.take_lease(tid, "other", 60_000)
    assert tick(svc, "w1") == 0 and not svc.pool.intact(tid)
    svc.pool.release_lease(tid, "other")
    assert tick(svc, "w1") == 1 and svc.pool.intact(tid)


def story(seed: int, svc: InMemory | None = None) -> tuple[InMemory, uuid.UUID]:
    """An arena of ten played at random: passes, results with boosts, pauses and returns, departures,
    late entries, games elsewhere that start and end; the clock moves on between any two. ``svc``: the
    service to tell it (the in-memory one by default)."""
    rng = random.Random(seed)
    svc = svc or in_memory()
    started = arena_started(10, minutes=120)
    tid = started.tournament_id
    deliver(svc, started, tid)
    entrants = [r.player_id for r in started.roster]
    running: dict[uuid.UUID, events.ArenaGame] = {}
    away: dict[uuid.UUID, str] = {}
    outside: dict[uuid.UUID, events.GameStarted] = {}
    for _ in range(rng.randrange(20, 80)):
        svc.clock.advance(rng.randrange(1, 180))
        step = rng.random()
        if step < 0.35:
            before = {g.game_id for g in paired(svc)}
            tick(svc)
            running.update({g.game_id: g for g in paired(svc) if g.game_id not in before})
        elif step < 0.65 and running:
            game = running.pop(rng.choice(sorted(running)))
            outcome = rng.choice(["1-0", "0-1", "1/2-1/2", "1-0", "0-1"])
            boost = (rng.random() < 0.3, rng.random() < 0.3)
            deliver(svc, finished(started, game, outcome, svc.clock.now(), boost=boost), tid)
        elif step < 0.75:
            player = rng.choice(entrants)
            if player in away:
                del away[player]
                deliver(
                    svc, events.PlayerJoined(tournament_id=tid, player_id=player, name="P", rating=1800), tid
                )
            elif rng.random() < 0.7:
                away[player] = "paused"
                deliver(svc, events.PlayerPaused(tournament_id=tid, player_id=player), tid)
            else:
                away[player] = "left"
                deliver(svc, events.PlayerLeft(tournament_id=tid, player_id=player), tid)
        elif step < 0.8:
            late = uuid.uuid4()
            entrants.append(late)
            deliver(
                svc, events.PlayerJoined(tournament_id=tid, player_id=late, name="Late", rating=1700), tid
            )
        elif step < 0.9:
            player = rng.choice(entrants)
            if player in outside:
                g = outside.pop(player)
                ended = events.GameCancelled(
                    tournament_id=g.tournament_id,
                    game_id=g.game_id,
                    round=1,
                    reason="match_decided",
                    cancelled_at=svc.clock.now(),
                    white=g.white,
                    black=g.black,
                )
                deliver(svc, ended, g.tournament_id)
            elif all(player not in (g.white, g.black) for g in running.values()):
                g = events.GameStarted(
                    tournament_id=uuid.uuid4(),
                    game_id=uuid.uuid4(),
                    round=1,
                    white=player,
                    black=uuid.uuid4(),
                    started_at=svc.clock.now(),
                    time_control=TC,
                )
                outside[player] = g
                deliver(svc, g, g.tournament_id)
    svc.clock.advance(1)
    return svc, tid


@pytest.mark.parametrize("seed", range(40))
def test_a_lost_pool_comes_back_exactly_as_it_was(seed):
    svc, tid = story(seed)
    before = svc.pool.snapshot(tid)
    now = svc.clock.now()
    waiting = [
        (w.player, w.score, w.rating, w.since, w.colour_balance, w.last_colour, dict(w.met))
        for w in svc.pool.waiting(tid, now)
    ]
    svc.pool.lose()
    assert rebuilt(svc, tid) == before
    assert [
        (w.player, w.score, w.rating, w.since, w.colour_balance, w.last_colour, dict(w.met))
        for w in svc.pool.waiting(tid, now)
    ] == waiting
    assert {w.skipped for w in svc.pool.waiting(tid, now)} <= {0}  # the fairness counts start again
