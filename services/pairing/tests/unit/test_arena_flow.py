"""The arena in the pairing service, on the in-memory unit of work and pool: an arena's start fills the
pool, the worker's tick pairs it and announces ``arena.paired``, a finished game puts its players back
with their points (streaks and boosts counted), entries pause and leave, a game elsewhere keeps a
player out, a second worker takes over games a dead one committed, pairing closes, and the arena
completes once its end has passed and its last game finished (``tournament.completed``)."""

from __future__ import annotations

import datetime as dt
import time
import uuid

from services.pairing.service_layer.arena_pass import run_pass
from services.pairing.tests.arena_helpers import TC, arena_started, finished
from services.pairing.tests.helpers import NOW, deliver, in_memory, published
from shared import events
from shared.variants import Variant


def paired(svc) -> list[events.ArenaPaired]:
    return [events.ArenaPaired.model_validate(e.payload) for e in published(svc, "arena.paired")]


def tick(svc, token: str = "w1") -> int:
    made = svc.handlers.arena.run_passes(token, svc.bus.uow_factory)
    svc.broker.run_until_idle()
    return made


def test_a_pass_pairs_the_roster_and_announces_the_games():
    svc = in_memory()
    started = arena_started(5)
    deliver(svc, started, started.tournament_id)
    assert tick(svc) == 2
    (announced,) = paired(svc)
    assert announced.tournament_id == started.tournament_id and announced.time_control == TC
    players = [p for g in announced.games for p in (g.white, g.black)]
    assert len(set(players)) == 4
    assert tick(svc) == 0  # the fifth waits; the others are playing
    # the rounds flow did not take the arena for a tournament of rounds
    assert published(svc, "round.paired") == []


def test_the_games_are_announced_on_the_arenas_board():
    svc = in_memory()
    started = arena_started(2)
    started = started.model_copy(
        update={"settings": started.settings.model_copy(update={"variant": Variant.RUSSIAN})}
    )
    deliver(svc, started, started.tournament_id)
    assert tick(svc) == 1
    (announced,) = paired(svc)
    assert announced.variant == "russian"


def test_a_finished_game_puts_its_players_back_with_their_points():
    svc = in_memory()
    started = arena_started(2)
    deliver(svc, started, started.tournament_id)
    tick(svc)
    (game,) = paired(svc)[0].games
    svc.clock.advance(30)
    deliver(svc, finished(started, game, "1-0", svc.clock.now(), boost=(True, False)), started.tournament_id)
    waiting = {w.player: w for w in svc.pool.waiting(started.tournament_id, svc.clock.now())}
    assert waiting[game.white].score == 4 and waiting[game.black].score == 0  # a boosted win: 4
    # in cooldown: 5 minutes for their one game together, from its end
    assert tick(svc) == 0
    svc.clock.advance(5 * 60)
    assert tick(svc) == 1
    # a repeated game.finished changes nothing
    deliver(svc, finished(started, game, "1-0", NOW + dt.timedelta(seconds=30)), started.tournament_id)
    assert svc.pool.playing(game.white) is not None


def test_paused_and_left_players_are_not_paired_until_they_join_again():
    svc = in_memory()
    started = arena_started(4)
    tid = started.tournament_id
    a, b, c, d = (r.player_id for r in started.roster)
    deliver(svc, started, tid)
    deliver(svc, events.PlayerPaused(tournament_id=tid, player_id=a), tid)
    deliver(svc, events.PlayerLeft(tournament_id=tid, player_id=b), tid)
    assert tick(svc) == 1
    assert {paired(svc)[0].games[0].white, paired(svc)[0].games[0].black} == {c, d}
    deliver(svc, events.PlayerJoined(tournament_id=tid, player_id=a, name="A", rating=1900), tid)
    deliver(svc, events.PlayerJoined(tournament_id=tid, player_id=b, name="B", rating=1900), tid)
    late = uuid.uuid4()
    deliver(svc, events.PlayerJoined(tournament_id=tid, player_id=late, name="Late", rating=1500), tid)
    assert tick(svc) == 1
    assert {p.player for p in svc.pool.waiting(tid, svc.clock.now())} <= {a, b, late}


def test_entries_of_other_tournaments_and_before_the_start_change_nothing():
    svc = in_memory()
    other = uuid.uuid4()
    deliver(svc, events.PlayerJoined(tournament_id=other, player_id=uuid.uuid4(), name="X"), other)
    deliver(svc, events.PlayerPaused(tournament_id=other, player_id=uuid.uuid4()), other)
    assert tick(svc) == 0


def playing_elsewhere(svc) -> tuple[events.TournamentStarted, uuid.UUID, events.GameStarted]:
    """An arena of three starts while its first player plays a game of another tournament."""
    started = arena_started(3)
    busy = started.roster[0].player_id
    elsewhere = events.GameStarted(
        tournament_id=uuid.uuid4(),
        game_id=uuid.uuid4(),
        round=1,
        white=busy,
        black=uuid.uuid4(),
        started_at=NOW,
        time_control=TC,
    )
    deliver(svc, elsewhere, elsewhere.tournament_id)
    deliver(svc, started, started.tournament_id)
    return started, busy, elsewhere


def test_a_player_in_a_game_elsewhere_is_not_paired():
    svc = in_memory()
    started, busy, elsewhere = playing_elsewhere(svc)
    assert tick(svc) == 1
    assert busy not in {paired(svc)[0].games[0].white, paired(svc)[0].games[0].black}
    ended = events.GameFinished(
        tournament_id=elsewhere.tournament_id,
        game_id=elsewhere.game_id,
        round=1,
        white=busy,
        black=elsewhere.black,
        outcome="1-0",
        reason="resignation",
        finished_at=NOW,
    )
    deliver(svc, ended, elsewhere.tournament_id)
    assert busy in {w.player for w in svc.pool.waiting(started.tournament_id, svc.clock.now())}


def test_a_cancelled_game_elsewhere_clears_its_players_in_game_marker():
    """A knockout game cancelled while running (its match decided without it) ends nobody's game by a
    ``game.finished``: ``game.cancelled`` (version 2, with the players) must clear the marker."""
    svc = in_memory()
    started, busy, elsewhere = playing_elsewhere(svc)
    assert svc.pool.playing(busy) is not None
    cancelled = events.GameCancelled(
        tournament_id=elsewhere.tournament_id,
        game_id=elsewhere.game_id,
        round=1,
        reason="match_decided",
        cancelled_at=NOW,
        white=busy,
        black=elsewhere.black,
    )
    deliver(svc, cancelled, elsewhere.tournament_id)
    assert svc.pool.playing(busy) is None
    assert busy in {w.player for w in svc.pool.waiting(started.tournament_id, svc.clock.now())}


def test_a_version_1_game_cancelled_is_still_consumed():
    """A message written before version 2 names no players: it is acknowledged, not dead-lettered,
    and clears nothing."""
    svc = in_memory()
    busy, game_id, tournament_id = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    svc.pool.start_playing(busy, f"game:{game_id}")
    old = events.GameCancelledV1(
        tournament_id=tournament_id, game_id=game_id, round=1, reason="match_decided", cancelled_at=NOW
    )
    env = deliver(svc, old, tournament_id)
    assert (env.type, env.version) == ("game.cancelled", 1)
    assert svc.broker.dead_letters("pairing.playing") == []
    assert svc.pool.playing(busy) == f"game:{game_id}"


def test_a_worker_takes_over_the_games_a_dead_one_committed():
    svc = in_memory()
    started = arena_started(4)
    tid = started.tournament_id
    deliver(svc, started, tid)
    # worker 1 committed a pass in the pool, then died before writing its games
    assert svc.pool.take_lease(tid, "dead", 50)
    outcome = run_pass(svc.pool, tid, "dead", svc.clock.now())
    assert len(outcome.committed.games) == 2
    assert tick(svc, "w2") == 0  # the lease is still the dead worker's
    time.sleep(0.06)  # the lease runs out
    assert tick(svc, "w2") == 2  # handed on by the next holder, nothing paired twice
    announced = {g.game_id for p in paired(svc) for g in p.games}
    assert announced == {g.id for g in outcome.committed.games}
    assert svc.pool.unannounced(tid) == ()


def test_pairing_closes_and_the_arena_completes_after_its_last_game():
    svc = in_memory()
    started = arena_started(2, minutes=10)
    tid = started.tournament_id
    deliver(svc, started, tid)
    svc.clock.advance(9 * 60)  # 1+0 closes at 9 minutes: no new game
    assert tick(svc) == 0 and paired(svc) == []
    svc.clock.advance(60)
    tick(svc)
    (completed,) = published(svc, "tournament.completed")
    assert completed.payload["rounds"] == 0


def test_a_game_running_at_the_end_counts_and_the_arena_completes_after_it():
    svc = in_memory()
    started = arena_started(2, minutes=10)
    tid = started.tournament_id
    deliver(svc, started, tid)
    svc.clock.advance(8 * 60)
    assert tick(svc) == 1
    (game,) = paired(svc)[0].games
    svc.clock.advance(3 * 60)  # past the end, the game still running
    tick(svc)
    assert published(svc, "tournament.completed") == []
    deliver(svc, finished(started, game, "1/2-1/2", svc.clock.now()), tid)
    tick(svc)
    assert len(published(svc, "tournament.completed")) == 1


def test_a_player_withdrawn_leaves_the_pool():
    svc = in_memory()
    started = arena_started(3)
    tid = started.tournament_id
    gone = started.roster[0].player_id
    deliver(svc, started, tid)
    withdrawn = events.PlayerWithdrawn(tournament_id=tid, player_id=gone, reason="ill", excluded=False)
    deliver(svc, withdrawn, tid)
    assert gone not in {w.player for w in svc.pool.waiting(tid, svc.clock.now())}
    assert tick(svc) == 1
