from __future__ import annotations

from collections import Counter

import pytest

from services.pairing.domain.elimination.knockout import Knockout
from services.pairing.domain.elimination.seeding import SeedingError, SeedList, classic_order
from shared.seed_draw import draw_order, new_draw_seed
from shared.vocabulary import Section, Seeding

PLAYERS = ("p1", "p2", "p3", "p4", "p5", "p6")


def test_classic_order_by_hand():
    assert classic_order(2) == (1, 2)
    assert classic_order(4) == (1, 4, 2, 3)
    assert classic_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    # README of the brackets reference: 1-16, 8-9, 4-13, 5-12, 2-15, 7-10, 3-14, 6-11.
    assert classic_order(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)


@pytest.mark.parametrize("size", [2**k for k in range(1, 8)])
def test_classic_order_properties(size):
    order = classic_order(size)
    assert sorted(order) == list(range(1, size + 1))
    # Seed s is placed so that, if the better seed always wins, each match of every round pairs seeds
    # adding up to (players left in that round) + 1: 1 meets the lowest, 1 and 2 only in the final.
    block = size
    slots = list(order)
    while block >= 2:
        pairs = [slots[i : i + 2] for i in range(0, len(slots), 2)]
        assert all(a + b == block + 1 for a, b in pairs)
        slots = [min(p) for p in pairs]
        block //= 2
    half = size // 2
    assert (order.index(1) < half) != (order.index(2) < half)


@pytest.mark.parametrize("size", [0, 1, 3, 6, 12, 100])
def test_classic_order_needs_a_power_of_two(size):
    with pytest.raises(SeedingError):
        classic_order(size)


def test_the_byes_go_to_the_top_seeds():
    # README example, N = 10: seeds 11 … 16 are empty slots.
    first = Knockout(10).rounds(Section.WINNERS)[0]
    assert [m.players for m in first] == [
        (1, None),
        (8, 9),
        (4, None),
        (5, None),
        (2, None),
        (7, 10),
        (3, None),
        (6, None),
    ]


def test_a_seed_list_names_each_seed_once():
    seeds = SeedList(Seeding.CUSTOM, ("p4", "p1", "p2"))
    assert [seeds.player(s) for s in (1, 2, 3)] == ["p4", "p1", "p2"]
    with pytest.raises(SeedingError, match="no seed 4"):
        seeds.player(4)
    with pytest.raises(SeedingError, match="twice"):
        SeedList(Seeding.RATING, ("p1", "p2", "p1"))


def test_a_drawn_seed_list_is_the_draw_of_its_seed():
    drawn = draw_order(PLAYERS, 20240607)
    assert SeedList(Seeding.RANDOM, drawn, 20240607).order == drawn
    with pytest.raises(SeedingError, match="not the draw"):
        SeedList(Seeding.RANDOM, tuple(reversed(drawn)), 20240607)
    with pytest.raises(SeedingError, match="keeps its draw seed"):
        SeedList(Seeding.RANDOM, drawn)
    with pytest.raises(SeedingError, match="only a drawn one"):
        SeedList(Seeding.RATING, PLAYERS, draw_seed=3)


def test_a_draw_is_reproducible_and_independent_of_roster_order():
    seed = new_draw_seed()
    assert draw_order(PLAYERS, seed) == draw_order(reversed(PLAYERS), seed)
    assert sorted(draw_order(PLAYERS, seed)) == sorted(PLAYERS)
    others = {draw_order(PLAYERS, s) for s in range(50)}
    assert len(others) > 40  # 720 orders possible; different seeds give different draws


def test_a_draw_is_fair():
    # Deterministic seeds, so not flaky: each of 3 players is seed 1 about a third of the time.
    counts = Counter(draw_order(["a", "b", "c"], seed)[0] for seed in range(3000))
    assert all(900 < n < 1100 for n in counts.values()), counts
