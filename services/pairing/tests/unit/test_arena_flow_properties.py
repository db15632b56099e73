"""Property test of the arena in the pairing service (in-memory unit of work and pool): whatever happens —
passes by two workers, one of which may die holding its lease; games ending with any result and boosts;
players pausing, leaving and coming back; time passing — nobody is ever in two games, no pair is paired
inside its cooldown, and the points the pool ranks by are the shared scoring's of the games that ended."""

from __future__ import annotations

import datetime as dt
import uuid
from collections import defaultdict

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.pairing.tests.arena_helpers import arena_started, finished
from services.pairing.tests.helpers import deliver, in_memory, published
from shared import events
from shared.arena_scoring import ArenaTable, FinishedArenaGame
from shared.scoring import Outcome

COOLDOWN = dt.timedelta(minutes=5)

step = st.one_of(
    st.tuples(st.just("pass"), st.sampled_from(["w1", "w2"])),
    st.tuples(
        st.just("finish"), st.integers(0, 50), st.sampled_from(["1-0", "1/2-1/2", "0-1"]), st.booleans()
    ),
    st.tuples(st.just("pause"), st.integers(0, 50)),
    st.tuples(st.just("leave"), st.integers(0, 50)),
    st.tuples(st.just("join"), st.integers(0, 50)),
    st.tuples(st.just("wait"), st.integers(1, 400)),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 9), steps=st.lists(step, max_size=60))
def test_nobody_twice_no_cooldown_broken_and_the_points_of_the_games(n, steps):
    svc = in_memory()
    started = arena_started(n, minutes=120)
    tid = started.tournament_id
    players = [r.player_id for r in started.roster]
    deliver(svc, started, tid)
    running: dict[uuid.UUID, events.ArenaGame] = {}
    ended: list[tuple[events.ArenaGame, dt.datetime, str, bool]] = []
    seen: set[uuid.UUID] = set()
    met: dict[frozenset[uuid.UUID], list[dt.datetime]] = defaultdict(list)

    def take_new_games() -> None:
        now = svc.clock.now()
        for paired in published(svc, "arena.paired"):
            for g in events.ArenaPaired.model_validate(paired.payload).games:
                if g.game_id in seen:
                    continue
                seen.add(g.game_id)
                busy = {p for r in running.values() for p in (r.white, r.black)}
                assert g.white not in busy and g.black not in busy, "a player in two games"
                ends = met[frozenset((g.white, g.black))]
                if ends:
                    assert now >= max(ends) + COOLDOWN * len(ends), "paired inside the cooldown"
                running[g.game_id] = g

    for kind, *args in steps:
        if kind == "pass":
            svc.handlers.arena.run_passes(args[0], svc.bus.uow_factory)
            svc.broker.run_until_idle()
            take_new_games()
        elif kind == "finish" and running:
            game = list(running.values())[args[0] % len(running)]
            boost = (args[2], False)
            deliver(svc, finished(started, game, args[1], svc.clock.now(), boost=boost), tid)
            del running[game.game_id]
            met[frozenset((game.white, game.black))].append(svc.clock.now())
            ended.append((game, svc.clock.now(), args[1], args[2]))
        elif kind in ("pause", "leave", "join"):
            player = players[args[0] % n]
            event: events.Event
            if kind == "pause":
                event = events.PlayerPaused(tournament_id=tid, player_id=player)
            elif kind == "leave":
                event = events.PlayerLeft(tournament_id=tid, player_id=player)
            else:
                event = events.PlayerJoined(tournament_id=tid, player_id=player, name="P", rating=1500)
            deliver(svc, event, tid)
        elif kind == "wait":
            svc.clock.advance(args[0])

    table = ArenaTable()
    for game, at, outcome, boost in ended:
        table.record(
            FinishedArenaGame(game.game_id, game.white, game.black, Outcome(outcome), at, boost, False)
        )
    points = {row.player: row.points for row in table.ranking()}
    for w in svc.pool.waiting(tid, svc.clock.now() + dt.timedelta(hours=5)):
        assert w.score == points.get(w.player, 0)
