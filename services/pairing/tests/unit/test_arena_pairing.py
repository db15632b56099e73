"""The arena's pairing pass: the rules on small hand-made pools, then every promise of the pass checked by
the checker on random pools (hypothesis), with networkx's maximum matching as the reference size."""

from __future__ import annotations

import datetime as dt
import random
import uuid

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.pairing.domain.arena.checker import check
from services.pairing.domain.arena.cooldown import Meeting
from services.pairing.domain.arena.pairing import (
    ArenaPairing,
    How,
    PoolError,
    Side,
    Waiting,
    colours,
    pair,
)

T = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
MIN = dt.timedelta(minutes=1)


def pid(k: int) -> uuid.UUID:
    return uuid.UUID(int=k)


def waiting(k: int, score: int = 0, rating: int = 1500, *, since: float = 0, **kw) -> Waiting:
    """Player k, waiting since ``since`` minutes before T."""
    return Waiting(pid(k), score, rating, T - since * MIN, **kw)


def met(*pairs: tuple[int, int, int, float]) -> dict[int, dict[uuid.UUID, Meeting]]:
    """(a, b, games, minutes ago the last ended) → each player's meetings."""
    out: dict[int, dict[uuid.UUID, Meeting]] = {}
    for a, b, games, ago in pairs:
        meeting = Meeting(games, T - ago * MIN)
        out.setdefault(a, {})[pid(b)] = meeting
        out.setdefault(b, {})[pid(a)] = meeting
    return out


def pairs_of(result) -> set[frozenset[int]]:
    return {frozenset((p.white.int, p.black.int)) for p in result.pairs}


def assert_promises(pool, result, now=T):
    report = check(pool, now, result)
    assert report.ok, report.problems
    return report


# -- the rules on small pools ---------------------------------------------------------------------
def test_nothing_to_pair():
    assert pair([], T).pairs == ()
    alone = pair([waiting(1)], T)
    assert alone.pairs == () and alone.waiting == (pid(1),) and alone.maximum
    assert alone.retry_at is None


def test_close_in_the_ranking_points_first_then_rating():
    pool = [waiting(1, 10, 1400), waiting(2, 2, 2000), waiting(3, 10, 1800), waiting(4, 2, 1300)]
    result = pair(pool, T)
    assert pairs_of(result) == {frozenset((1, 3)), frozenset((2, 4))}
    assert [p.how for p in result.pairs] == [How.NEIGHBOURS, How.NEIGHBOURS]
    # board order: the top of the ranking first
    assert {result.pairs[0].white.int, result.pairs[0].black.int} == {1, 3}
    assert_promises(pool, result)


def test_by_rating_before_anyone_scored():
    pool = [waiting(k, 0, rating) for k, rating in [(1, 1500), (2, 2100), (3, 1490), (4, 2000)]]
    assert pairs_of(pair(pool, T)) == {frozenset((2, 4)), frozenset((1, 3))}


def test_never_inside_a_cooldown_and_free_again_exactly_at_its_end():
    history = met((1, 2, 2, 9))  # two games, the last ended 9 minutes ago: 10 minutes' cooldown
    pool = [waiting(1, met=history[1]), waiting(2, met=history[2])]
    blocked = pair(pool, T)
    assert blocked.pairs == () and set(blocked.waiting) == {pid(1), pid(2)}
    assert blocked.retry_at == T + MIN
    assert blocked.maximum  # nobody could be paired
    assert_promises(pool, blocked)
    assert pairs_of(pair(pool, T + MIN)) == {frozenset((1, 2))}


def test_a_meeting_recorded_on_one_side_only_counts():
    history = met((1, 2, 1, 1))
    pool = [waiting(1, met=history[1]), waiting(2)]
    assert pair(pool, T).pairs == ()


def test_a_cooldown_skips_to_the_next_neighbour():
    history = met((1, 2, 1, 2))
    pool = [
        waiting(1, 9, met=history[1]),
        waiting(2, 8, met=history[2]),
        waiting(3, 7),
        waiting(4, 6),
    ]
    result = pair(pool, T)
    assert pairs_of(result) == {frozenset((1, 3)), frozenset((2, 4))}
    assert_promises(pool, result)


def test_odd_pool_the_newest_arrival_sits_out_not_the_last_ranked():
    pool = [waiting(1, 9, since=5), waiting(2, 8, since=4), waiting(3, 7, since=0.1), waiting(4, 1, since=3)]
    pool.append(waiting(5, 0, since=2))
    result = pair(pool, T)
    assert result.waiting == (pid(3),)
    assert result.maximum
    assert_promises(pool, result)


def test_a_player_skipped_before_is_served_before_the_others():
    # 3 was left waiting by the last pass: now 5, just arrived, sits out instead
    pool = [
        waiting(1, 9, since=1),
        waiting(2, 8, since=1),
        waiting(3, 7, since=0.1, skipped=1),
        waiting(4, 6, since=1),
        waiting(5, 0, since=0.2),
    ]
    result = pair(pool, T)
    assert result.waiting == (pid(5),)
    assert_promises(pool, result)


def test_fairness_a_waiting_player_takes_a_newer_players_place():
    # 1 is in cooldown with 2 and 3 and has waited longest; 4 just arrived
    history = met((1, 2, 1, 1), (1, 3, 1, 1))
    pool = [
        waiting(1, 9, since=10, skipped=2, met=history[1]),
        waiting(2, 8, since=5, met=history[2]),
        waiting(3, 7, since=5, met=history[3]),
        waiting(4, 6, since=0),
        waiting(5, 5, since=4),
    ]
    result = pair(pool, T)
    assert result.waiting == (pid(4),)
    assert pairs_of(result) == {frozenset((1, 5)), frozenset((2, 3))}
    assert_promises(pool, result)


def test_fairness_swaps_let_longer_waiting_players_play_and_the_newest_wait():
    # 3 and 4 waited through the last pass and are in cooldown with each other; 5 just arrived.
    # Without the swaps: 1–2, 3–5, and 4 waits again while 5 plays.
    history = met((3, 4, 1, 2))
    pool = [
        waiting(1, 9, since=3),
        waiting(2, 8, since=2),
        waiting(3, 7, since=1, skipped=1, met=history[3]),
        waiting(4, 6, since=1, skipped=1, met=history[4]),
        waiting(5, 5, since=0.1),
    ]
    result = pair(pool, T)
    assert result.waiting == (pid(5),)
    assert pairs_of(result) == {frozenset((1, 4)), frozenset((2, 3))}
    assert {p.how for p in result.pairs} == {How.REPAIR}
    assert_promises(pool, result)


def test_an_augmenting_swap_pairs_everyone_a_greedy_pass_would_not():
    # only 1–2, 2–3 and 3–4 are allowed: the neighbour pass pairs 1–2 … fine; make it pair 2–3 first
    everyone = [(a, b) for a in range(1, 5) for b in range(a + 1, 5)]
    allowed = {(1, 2), (2, 3), (3, 4)}
    history = met(*[(a, b, 1, 1) for a, b in everyone if (a, b) not in allowed])
    # ranked 2, 3, 1, 4: the neighbour pass pairs 2–3 and leaves 1 and 4, who are in cooldown
    pool = [
        waiting(2, 9, met=history.get(2, {})),
        waiting(3, 8, met=history.get(3, {})),
        waiting(1, 7, met=history.get(1, {})),
        waiting(4, 6, met=history.get(4, {})),
    ]
    result = pair(pool, T, exact_limit=0)  # no exact matching: the swap has to do it
    assert pairs_of(result) == {frozenset((1, 2)), frozenset((3, 4))}
    assert {p.how for p in result.pairs} == {How.REPAIR}
    assert result.maximum
    assert_promises(pool, result)


def test_a_player_in_the_pool_twice_is_refused():
    with pytest.raises(PoolError):
        pair([waiting(1), waiting(1)], T)


def test_the_pass_does_not_depend_on_the_order_it_is_given():
    rng = random.Random(5)
    pool = realistic_pool(300, rng)
    shuffled = pool[:]
    rng.shuffle(shuffled)
    assert pair(pool, T) == pair(shuffled, T)


# -- colours ----------------------------------------------------------------------------------------
def test_fewer_whites_gets_white():
    a, b = waiting(1, colour_balance=1), waiting(2, colour_balance=-1)
    assert colours(a, b) == (b, a) == colours(b, a)


def test_even_balance_whoever_did_not_have_white_last_gets_it():
    a = waiting(1, colour_balance=0, last_colour=Side.WHITE)
    b = waiting(2, colour_balance=0, last_colour=Side.BLACK)
    c = waiting(3, colour_balance=0)
    assert colours(a, b) == (b, a)
    assert colours(a, c) == (c, a)
    assert colours(b, c) == (b, c)


def test_otherwise_a_coin_that_does_not_depend_on_who_asks():
    whites = set()
    for k in range(2, 40):
        a, b = waiting(1), waiting(k)
        white, _ = colours(a, b)
        assert colours(b, a)[0] == white
        whites.add(white.player == a.player)
    assert whites == {True, False}  # not always the same side


def test_a_pass_gives_colours_by_the_rule():
    pool = [waiting(1, 5, colour_balance=2), waiting(2, 5, colour_balance=0)]
    assert pair(pool, T).pairs == (ArenaPairing(pid(2), pid(1), How.NEIGHBOURS),)


# -- properties -------------------------------------------------------------------------------------
@st.composite
def pools(draw: st.DrawFn, max_size: int = 24) -> list[Waiting]:
    n = draw(st.integers(0, max_size))
    density = draw(st.sampled_from([0.0, 0.1, 0.3, 0.6, 0.9]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    history: dict[int, dict[uuid.UUID, Meeting]] = {k: {} for k in range(1, n + 1)}
    for a in range(1, n + 1):
        for b in range(a + 1, n + 1):
            if rng.random() < density:
                meeting = Meeting(rng.randint(1, 4), T - rng.uniform(0, 25) * MIN)
                history[a][pid(b)] = meeting
                if rng.random() < 0.8:  # sometimes recorded on one side only
                    history[b][pid(a)] = meeting
    return [
        waiting(
            k,
            rng.choice([0, 0, 2, 3, 5, 8]),
            rng.randint(1000, 2600),
            since=rng.choice([0, 0.5, 1, 3]),
            skipped=rng.choice([0, 0, 0, 1, 2]),
            colour_balance=rng.randint(-2, 2),
            last_colour=rng.choice([None, Side.WHITE, Side.BLACK]),
            met=history[k],
        )
        for k in range(1, n + 1)
    ]


def maximum_matching_size(pool: list[Waiting], now: dt.datetime) -> int:
    graph = nx.Graph()
    graph.add_nodes_from(p.player for p in pool)
    for i, a in enumerate(pool):
        for b in pool[i + 1 :]:
            ma, mb = a.met.get(b.player), b.met.get(a.player)
            if not any(m is not None and m.active(now) for m in (ma, mb)):
                graph.add_edge(a.player, b.player)
    return len(nx.max_weight_matching(graph, maxcardinality=True))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pools())
def test_every_promise_holds_and_the_matching_is_maximum(pool):
    result = pair(pool, T)
    report = assert_promises(pool, result)
    assert result.maximum and report.maximum
    assert len(result.pairs) == maximum_matching_size(pool, T)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pools())
def test_without_the_exact_matching_still_maximal_and_maximum_unless_cooldowns_cover_a_fifth(pool):
    result = pair(pool, T, exact_limit=0)
    report = assert_promises(pool, result)  # includes: a claimed maximum is a maximum
    assert report.maximal
    if len(pool) and len(result.pairs) < maximum_matching_size(pool, T):
        most = max(len(check_blocked(pool, p)) for p in pool)
        assert len(pool) <= 5 * most + 1


def check_blocked(pool: list[Waiting], player: Waiting) -> set[uuid.UUID]:
    return {
        o.player
        for o in pool
        if o is not player
        and any(m is not None and m.active(T) for m in (player.met.get(o.player), o.met.get(player.player)))
    }


def realistic_pool(n: int, rng: random.Random, *, recent: int = 6) -> list[Waiting]:
    """Players ranked by points, each having met ``recent`` players near them in rank lately."""
    ids = [uuid.UUID(int=rng.getrandbits(128)) for _ in range(n)]
    scores = sorted((rng.randint(0, 60) for _ in range(n)), reverse=True)
    history: list[dict[uuid.UUID, Meeting]] = [{} for _ in range(n)]
    for i in range(n):
        for _ in range(recent):
            j = min(n - 1, max(0, i + rng.randint(-12, 12)))
            if j != i:
                meeting = Meeting(rng.randint(1, 3), T - rng.uniform(0, 15) * MIN)
                history[i][ids[j]] = history[j][ids[i]] = meeting
    return [
        Waiting(
            ids[i],
            scores[i],
            rng.randint(1200, 2500),
            T - rng.uniform(0, 2) * MIN,
            rng.choice([0, 0, 0, 1]),
            rng.randint(-2, 2),
            rng.choice([Side.WHITE, Side.BLACK, None]),
            history[i],
        )
        for i in range(n)
    ]


@pytest.mark.parametrize("n", [2001, 3000])
def test_a_large_realistic_pool(n):
    pool = realistic_pool(n, random.Random(n))
    result = pair(pool, T)
    report = assert_promises(pool, result)
    assert report.maximum and result.maximum
    assert len(result.waiting) == n % 2
    assert report.neighbour_pairs >= 0.99 * len(result.pairs)
