"""One contract for every ArenaPool adapter: subclass it with a ``pool`` fixture (a fresh, empty pool) and
a ``lose`` fixture (a function that empties the pool's store at once, as a Redis that restarts without
its data does)."""

from __future__ import annotations

import datetime as dt
import time
import uuid

import pytest

from services.pairing.domain.arena.cooldown import Meeting
from services.pairing.domain.arena.pairing import Side, pair
from services.pairing.domain.arena.record import LEFT, PAUSED, PoolState
from services.pairing.service_layer.arena_ports import (
    FinishedGame,
    LeaseLost,
    NewGame,
    arena_game_ref,
)

T = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
MIN = dt.timedelta(minutes=1)
TTL = 30_000


def at(minutes: float) -> dt.datetime:
    return T + minutes * MIN


def players(n: int) -> list[uuid.UUID]:
    return sorted((uuid.uuid4() for _ in range(n)), key=str)


def by_id(pool, arena, now):
    return {w.player: w for w in pool.waiting(arena, now)}


class ArenaPoolContract:
    @pytest.fixture
    def pool(self):
        raise NotImplementedError

    @pytest.fixture
    def lose(self, pool):
        raise NotImplementedError

    @pytest.fixture
    def arena(self):
        return uuid.uuid4()

    def joined(self, pool, arena, n, *, since=0.0):
        ids = players(n)
        for i, p in enumerate(ids):
            pool.join(arena, p, rating=1500 + i, at=at(since))
        return ids

    def paired(self, pool, arena, a, b, *, token="w1", minutes=1.0):
        game = NewGame(uuid.uuid4(), a, b)
        assert pool.take_lease(arena, token, TTL)
        assert pool.commit(arena, token, [game], [], at(minutes)).games == (game,)
        return game

    # -- players ----------------------------------------------------------------------------------
    def test_a_joined_player_waits_with_rating_and_no_points(self, pool, arena):
        p = players(1)[0]
        pool.join(arena, p, rating=1720, at=at(0))
        (w,) = pool.waiting(arena, at(1))
        assert (w.player, w.score, w.rating, w.since, w.skipped) == (p, 0, 1720, at(0), 0)
        assert (w.colour_balance, w.last_colour, dict(w.met)) == (0, None, {})

    def test_joining_again_keeps_the_place_in_the_queue_and_takes_the_new_rating(self, pool, arena):
        p = players(1)[0]
        pool.join(arena, p, rating=1500, at=at(0))
        pool.join(arena, p, rating=1600, at=at(3))
        (w,) = pool.waiting(arena, at(4))
        assert (w.since, w.rating) == (at(0), 1600)

    def test_pause_and_leave_take_a_player_out_and_both_keep_their_points(self, pool, arena):
        a, b, c = self.joined(pool, arena, 3)
        pool.rescore(arena, {a: 7, b: 3})
        pool.pause(arena, a)
        pool.leave(arena, b)
        assert set(by_id(pool, arena, at(1))) == {c}
        pool.join(arena, a, rating=1500, at=at(2))
        pool.join(arena, b, rating=1501, at=at(2))
        assert {p: w.score for p, w in by_id(pool, arena, at(3)).items()} == {a: 7, b: 3, c: 0}
        assert by_id(pool, arena, at(3))[a].since == at(2)

    def test_arenas_do_not_share_their_pools(self, pool, arena):
        self.joined(pool, arena, 2)
        assert pool.waiting(uuid.uuid4(), at(1)) == []

    # -- the lease --------------------------------------------------------------------------------
    def test_one_holder_at_a_time_who_renews_and_releases(self, pool, arena):
        assert pool.take_lease(arena, "w1", TTL)
        assert not pool.take_lease(arena, "w2", TTL)
        assert pool.take_lease(arena, "w1", TTL)  # renewed
        pool.release_lease(arena, "w2")  # not the holder: nothing
        assert not pool.take_lease(arena, "w2", TTL)
        pool.release_lease(arena, "w1")
        assert pool.take_lease(arena, "w2", TTL)
        assert pool.take_lease(uuid.uuid4(), "w1", TTL)  # a lease per arena

    def test_a_lease_its_holder_stops_renewing_is_taken_over(self, pool, arena):
        assert pool.take_lease(arena, "dead", 50)
        deadline = time.monotonic() + 10
        while not pool.take_lease(arena, "alive", TTL):
            assert time.monotonic() < deadline, "the expired lease was never taken over"
            time.sleep(0.01)
        assert not pool.take_lease(arena, "dead", TTL)

    # -- committing a pass ------------------------------------------------------------------------
    def test_a_commit_makes_the_games(self, pool, arena):
        a, b, c, d = self.joined(pool, arena, 4)
        assert pool.take_lease(arena, "w1", TTL)
        games = [NewGame(uuid.uuid4(), a, b), NewGame(uuid.uuid4(), d, c)]
        committed = pool.commit(arena, "w1", games, [], at(1))
        assert committed.games == tuple(games) and committed.dropped == ()
        assert pool.waiting(arena, at(1)) == []
        assert pool.playing(a) == arena_game_ref(arena, games[0].id)
        assert pool.playing(c) == arena_game_ref(arena, games[1].id)
        assert set(pool.unannounced(arena)) == set(games)
        assert set(pool.running(arena)) == set(games)

    def test_without_the_lease_a_commit_writes_nothing(self, pool, arena):
        a, b = self.joined(pool, arena, 2)
        game = NewGame(uuid.uuid4(), a, b)
        with pytest.raises(LeaseLost):
            pool.commit(arena, "w1", [game], [], at(1))
        assert pool.take_lease(arena, "w2", TTL)
        with pytest.raises(LeaseLost):
            pool.commit(arena, "w1", [game], [], at(1))
        assert set(by_id(pool, arena, at(1))) == {a, b}
        assert pool.playing(a) is None and pool.unannounced(arena) == ()

    def test_a_worker_that_lost_its_lease_mid_pass_cannot_commit_and_the_next_pairs_everyone(
        self, pool, arena
    ):
        ids = self.joined(pool, arena, 10)
        assert pool.take_lease(arena, "crashed", 50)
        stale = pair(pool.waiting(arena, at(1)), at(1))  # computed, then the worker stalls
        deadline = time.monotonic() + 10
        while not pool.take_lease(arena, "next", TTL):
            assert time.monotonic() < deadline
            time.sleep(0.01)
        stale_games = [NewGame(uuid.uuid4(), p.white, p.black) for p in stale.pairs]
        with pytest.raises(LeaseLost):
            pool.commit(arena, "crashed", stale_games, stale.waiting, at(1))
        fresh = pair(pool.waiting(arena, at(1)), at(1))
        games = [NewGame(uuid.uuid4(), p.white, p.black) for p in fresh.pairs]
        committed = pool.commit(arena, "next", games, fresh.waiting, at(1))
        assert len(committed.games) == 5
        assert {p for g in committed.games for p in (g.white, g.black)} == set(ids)

    def test_a_pair_whose_player_left_meanwhile_is_dropped_and_the_other_still_waits(self, pool, arena):
        a, b, c, d = self.joined(pool, arena, 4)
        assert pool.take_lease(arena, "w1", TTL)
        pool.pause(arena, b)
        kept, dropped = NewGame(uuid.uuid4(), c, d), NewGame(uuid.uuid4(), a, b)
        committed = pool.commit(arena, "w1", [dropped, kept], [], at(1))
        assert (committed.games, committed.dropped) == ((kept,), (dropped,))
        assert set(by_id(pool, arena, at(1))) == {a}
        assert pool.playing(a) is None and pool.playing(b) is None

    def test_never_paired_twice(self, pool, arena):
        a, b, c = self.joined(pool, arena, 3)
        first = self.paired(pool, arena, a, b)
        again = NewGame(uuid.uuid4(), a, c)
        assert pool.commit(arena, "w1", [again], [], at(2)).dropped == (again,)
        same_pass = [NewGame(uuid.uuid4(), c, c)]
        assert pool.commit(arena, "w1", same_pass, [], at(2)).dropped == tuple(same_pass)
        assert pool.running(arena) == (first,)
        assert set(by_id(pool, arena, at(2))) == {c}

    def test_two_pairs_of_one_commit_sharing_a_player_make_only_the_first(self, pool, arena):
        a, b, c, _ = self.joined(pool, arena, 4)
        assert pool.take_lease(arena, "w1", TTL)
        one, two = NewGame(uuid.uuid4(), a, b), NewGame(uuid.uuid4(), c, a)
        committed = pool.commit(arena, "w1", [one, two], [], at(1))
        assert (committed.games, committed.dropped) == ((one,), (two,))

    def test_committing_the_same_game_again_reports_it_made(self, pool, arena):
        a, b = self.joined(pool, arena, 2)
        game = self.paired(pool, arena, a, b)
        assert pool.commit(arena, "w1", [game], [], at(1)).games == (game,)
        assert pool.running(arena) == (game,)

    def test_players_left_waiting_count_their_passes_until_paired(self, pool, arena):
        a, b, c = self.joined(pool, arena, 3)
        assert pool.take_lease(arena, "w1", TTL)
        pool.commit(arena, "w1", [], [c], at(1))
        pool.commit(arena, "w1", [], [c, uuid.uuid4()], at(1))
        assert by_id(pool, arena, at(1))[c].skipped == 2
        pool.commit(arena, "w1", [NewGame(uuid.uuid4(), c, a)], [b], at(2))
        assert by_id(pool, arena, at(2))[b].skipped == 1
        pool.pause(arena, b)
        pool.join(arena, b, rating=1, at=at(3))
        assert by_id(pool, arena, at(3))[b].skipped == 0

    def test_colours_are_counted_at_the_commit(self, pool, arena):
        a, b, c = self.joined(pool, arena, 3)
        g = self.paired(pool, arena, a, b)
        pool.finish(arena, FinishedGame(g.id, a, b, at(5)))
        g2 = self.paired(pool, arena, a, c, minutes=6)
        pool.finish(arena, FinishedGame(g2.id, a, c, at(9)))
        waiting = by_id(pool, arena, at(10))
        assert (waiting[a].colour_balance, waiting[a].last_colour) == (2, Side.WHITE)
        assert (waiting[b].colour_balance, waiting[b].last_colour) == (-1, Side.BLACK)

    # -- in a game anywhere -------------------------------------------------------------------------
    def test_a_player_in_a_game_elsewhere_is_not_in_the_pool_until_it_ends(self, pool, arena):
        a, b = self.joined(pool, arena, 2)
        assert pool.start_playing(a, "tournament:x:game:1")
        assert not pool.start_playing(a, "tournament:y:game:2")
        assert set(by_id(pool, arena, at(1))) == {b}
        assert pool.take_lease(arena, "w1", TTL)
        sneaky = NewGame(uuid.uuid4(), a, b)
        assert pool.commit(arena, "w1", [sneaky], [], at(1)).dropped == (sneaky,)
        pool.stop_playing(a, "tournament:y:game:2")  # not that game's marker: stays
        assert pool.playing(a) == "tournament:x:game:1"
        pool.stop_playing(a, "tournament:x:game:1")
        assert set(by_id(pool, arena, at(1))) == {a, b}

    def test_a_player_waiting_in_two_arenas_is_paired_in_one_at_a_time(self, pool, arena):
        other = uuid.uuid4()
        a, b = self.joined(pool, arena, 2)
        c = players(1)[0]
        pool.join(other, a, rating=1500, at=at(0))
        pool.join(other, c, rating=1500, at=at(0))
        g = self.paired(pool, arena, a, b)
        assert set(by_id(pool, other, at(1))) == {c}
        assert pool.take_lease(other, "w9", TTL)
        assert pool.commit(other, "w9", [NewGame(uuid.uuid4(), a, c)], [], at(1)).games == ()
        pool.finish(arena, FinishedGame(g.id, a, b, at(4)))
        assert set(by_id(pool, other, at(5))) == {a, c}

    # -- after a game ------------------------------------------------------------------------------
    def test_a_finished_game_puts_both_back_with_their_points_and_a_cooldown(self, pool, arena):
        a, b = self.joined(pool, arena, 2)
        g = self.paired(pool, arena, a, b)
        assert pool.finish(arena, FinishedGame(g.id, a, b, at(4), white_points=2, black_points=0))
        assert pool.playing(a) is None and pool.playing(b) is None
        waiting = by_id(pool, arena, at(5))
        assert {p: (w.score, w.since) for p, w in waiting.items()} == {a: (2, at(4)), b: (0, at(4))}
        assert waiting[a].met == {b: Meeting(1, at(4))} and waiting[b].met == {a: Meeting(1, at(4))}
        assert pool.running(arena) == () and pool.unannounced(arena) == ()
        # the cooldown is over at 4 + 5 minutes: the meeting is no longer reported
        assert by_id(pool, arena, at(9))[a].met == {}

    def test_a_second_game_together_lengthens_the_cooldown(self, pool, arena):
        a, b = self.joined(pool, arena, 2)
        g = self.paired(pool, arena, a, b)
        pool.finish(arena, FinishedGame(g.id, a, b, at(4)))
        g = self.paired(pool, arena, b, a, minutes=10)
        pool.finish(arena, FinishedGame(g.id, b, a, at(13)))
        assert by_id(pool, arena, at(22))[a].met == {b: Meeting(2, at(13))}
        assert by_id(pool, arena, at(23))[a].met == {}

    def test_finishing_twice_changes_nothing(self, pool, arena):
        a, b = self.joined(pool, arena, 2)
        g = self.paired(pool, arena, a, b)
        done = FinishedGame(g.id, a, b, at(4), 2, 0)
        assert pool.finish(arena, done)
        h = self.paired(pool, arena, a, b, minutes=20)
        assert not pool.finish(arena, done)  # redelivered: the new game's markers stay
        assert pool.playing(a) == arena_game_ref(arena, h.id)
        assert pool.finish(arena, FinishedGame(h.id, a, b, at(25), 4, 0))
        assert by_id(pool, arena, at(26))[a].met == {b: Meeting(2, at(25))}

    def test_paused_or_gone_players_are_not_put_back_after_their_game(self, pool, arena):
        a, b, c, d = self.joined(pool, arena, 4)
        g1 = self.paired(pool, arena, a, b)
        g2 = self.paired(pool, arena, c, d)
        pool.pause(arena, a)
        pool.leave(arena, c)
        pool.finish(arena, FinishedGame(g1.id, a, b, at(4), 2, 0))
        pool.finish(arena, FinishedGame(g2.id, c, d, at(4), 0, 2))
        assert set(by_id(pool, arena, at(5))) == {b, d}
        pool.join(arena, a, rating=1500, at=at(6))
        assert by_id(pool, arena, at(6))[a].score == 2

    def test_joining_again_during_ones_game_waits_for_its_end(self, pool, arena):
        a, b = self.joined(pool, arena, 2)
        g = self.paired(pool, arena, a, b)
        pool.pause(arena, a)
        pool.join(arena, a, rating=1500, at=at(2))
        assert pool.waiting(arena, at(2)) == []
        pool.finish(arena, FinishedGame(g.id, a, b, at(4)))
        assert set(by_id(pool, arena, at(5))) == {a, b}

    def test_games_are_unannounced_until_announced(self, pool, arena):
        a, b, c, d = self.joined(pool, arena, 4)
        g1, g2 = self.paired(pool, arena, a, b), self.paired(pool, arena, c, d)
        pool.announced(arena, [g1.id, uuid.uuid4()])
        assert pool.unannounced(arena) == (g2,)
        pool.announced(arena, [])

    def test_discarding_an_arena_forgets_its_pool(self, pool, arena):
        a, b, _ = self.joined(pool, arena, 3)
        g = self.paired(pool, arena, a, b)
        pool.discard(arena)
        assert pool.waiting(arena, at(1)) == [] and pool.running(arena) == ()
        assert pool.playing(a) == arena_game_ref(arena, g.id)  # the game runs on
        assert not pool.finish(arena, FinishedGame(g.id, a, b, at(3)))
        assert pool.playing(a) is None and pool.playing(b) is None

    # -- a lost pool ---------------------------------------------------------------------------------
    def played(self, pool, arena):
        """A pool that has seen some play: a finished game (a cooldown, points, colours), a running one,
        a paused and a gone player, and one waiting."""
        a, b, c, d, e, f = self.joined(pool, arena, 6)
        first = self.paired(pool, arena, a, b, minutes=1)
        pool.finish(arena, FinishedGame(first.id, a, b, at(3), 2, 0))
        running = self.paired(pool, arena, c, d, minutes=4)
        pool.pause(arena, e)
        pool.leave(arena, f)
        return (a, b, c, d, e, f), running

    def test_a_pool_is_intact_once_opened_until_it_is_lost_or_discarded(self, pool, arena, lose):
        assert not pool.intact(arena)
        pool.open(arena)
        assert pool.intact(arena)
        pool.discard(arena)
        assert not pool.intact(arena)
        pool.open(arena)
        other = uuid.uuid4()
        pool.open(other)
        lose()
        assert not pool.intact(arena) and not pool.intact(other)

    def test_a_snapshot_is_what_the_pool_holds(self, pool, arena):
        (a, b, c, d, e, f), running = self.played(pool, arena)
        state = pool.snapshot(arena)
        assert state.waiting == {a: at(3), b: at(3)}
        assert state.absent == {e: PAUSED, f: LEFT}
        assert state.points == {a: 2, b: 0, c: 0, d: 0, e: 0, f: 0}
        assert state.ratings == {p: 1500 + i for i, p in enumerate((a, b, c, d, e, f))}
        assert state.balance == {a: 1, b: -1, c: 1, d: -1}
        assert state.last == {a: Side.WHITE, b: Side.BLACK, c: Side.WHITE, d: Side.BLACK}
        assert state.met == {frozenset((a, b)): Meeting(1, at(3))}
        assert state.running == {running.id: (c, d)}
        ref = arena_game_ref(arena, running.id)
        assert state.playing == {c: ref, d: ref}

    def test_a_lost_pool_is_rebuilt_as_it_was_under_the_lease(self, pool, arena, lose):
        pool.open(arena)
        (a, b, c, d, _, _), running = self.played(pool, arena)
        before = pool.snapshot(arena)
        lose()
        assert pool.snapshot(arena) == PoolState()
        assert pool.take_lease(arena, "w2", TTL)
        pool.rebuild(arena, "w2", before)
        assert pool.intact(arena)
        assert pool.snapshot(arena) == before
        # and it works as before: the cooldown of a and b holds until 5 minutes after their game
        assert set(by_id(pool, arena, at(4))) == {a, b}
        assert pair(pool.waiting(arena, at(4)), at(4)).pairs == ()
        assert pool.finish(arena, FinishedGame(running.id, c, d, at(6), 1, 1))
        assert pool.playing(c) is None and set(by_id(pool, arena, at(8))) == {a, b, c, d}
        assert by_id(pool, arena, at(8))[c].met == {d: Meeting(1, at(6))}
        assert {frozenset((p.white, p.black)) for p in pair(pool.waiting(arena, at(8)), at(8)).pairs} in (
            {frozenset((a, c)), frozenset((b, d))},
            {frozenset((a, d)), frozenset((b, c))},
        )

    def test_without_the_lease_a_rebuild_writes_nothing(self, pool, arena, lose):
        self.played(pool, arena)
        before = pool.snapshot(arena)
        lose()
        with pytest.raises(LeaseLost):
            pool.rebuild(arena, "w1", before)
        assert pool.take_lease(arena, "w2", TTL)
        with pytest.raises(LeaseLost):
            pool.rebuild(arena, "w1", before)
        assert not pool.intact(arena)
        assert pool.snapshot(arena) == PoolState()

    def test_a_rebuild_keeps_what_came_meanwhile(self, pool, arena, lose):
        """A player who joined after the state was read, and a marker set meanwhile, stay."""
        (a, b, *_), _ = self.played(pool, arena)
        before = pool.snapshot(arena)
        lose()
        late = players(1)[0]
        pool.join(arena, late, rating=1400, at=at(5))
        assert pool.start_playing(a, "game:elsewhere")
        assert pool.take_lease(arena, "w1", TTL)
        pool.rebuild(arena, "w1", before)
        after = pool.snapshot(arena)
        assert after.waiting == {**before.waiting, late: at(5)}
        assert after.playing == {**before.playing, a: "game:elsewhere"}
        assert set(by_id(pool, arena, at(9))) == {b, late}
